import { describe, expect, it, vi } from 'vitest';
import type { ConsoleIO } from '../../src/cli/console-io.js';
import { bytesProgress, LOG_PROGRESS_MS, progressLine, rowsLeft, showProgress, summaryLine } from '../../src/cli/progress.js';
import type { JobClient, JobExecutionResult, JobMetrics, SubtaskMetrics, VertexMetrics } from '../../src/runtime/job-client.js';

function subtask(pendingRecords: number | undefined): SubtaskMetrics {
  return { recordsIn: 0, recordsOut: 0, currentInputWatermark: undefined, inPoolUsage: 0, outPoolUsage: 0, pendingRecords };
}

/** A job whose metrics the test sets: a source vertex (its subtasks' pendingRecords given) feeding a sink. */
function job(read: number, written: number, pending: readonly (number | undefined)[]): JobClient {
  return jobOf(read, written, { subtasks: pending.map(subtask) });
}

/**
 * A job reading files: its source subtasks' bytes consumed and left (undefined: not known), and the bytes its
 * enumerator has not handed out (undefined: not listed yet).
 */
function fileJob(read: number, written: number, bytes: readonly (readonly [number, number | undefined])[], unassigned: number | undefined): JobClient {
  const subtasks = bytes.map(([bytesIn, pendingBytes]) => ({ ...subtask(undefined), bytesIn, pendingBytes }));
  return jobOf(read, written, { subtasks, unassignedBytes: unassigned });
}

function jobOf(read: number, written: number, source: Pick<VertexMetrics, 'subtasks' | 'unassignedBytes'>): JobClient {
  const vertices: VertexMetrics[] = [
    { vertexId: 'v0', name: 'Source', parallelism: source.subtasks!.length, recordsIn: read, recordsOut: read, ...source },
    { vertexId: 'v1', name: 'Sink', parallelism: 1, recordsIn: read, recordsOut: written, inputs: [{ vertexId: 'v0', shipStrategy: 'hash' }], subtasks: [subtask(undefined)] },
  ];
  const metrics: JobMetrics = {
    vertices, completedCheckpoints: 0, lastCheckpointId: undefined, restarts: 0, failedCheckpoints: 0,
    lastCheckpointDurationMs: undefined, lastCheckpointSizeBytes: undefined, checkpointHistory: [],
  };
  return {
    jobId: 'abcdef0123456789abcdef0123456789', jobName: 'j', status: () => 'RUNNING', metrics: () => metrics,
    cancel: async () => {}, triggerSavepoint: async () => '', stopWithSavepoint: async () => '', waitForCompletion: () => new Promise(() => {}),
  };
}

describe('the progress line', () => {
  it('sums the rows the source subtasks have left, and knows none when any subtask cannot tell', () => {
    expect(rowsLeft(job(10, 10, [300, 200]))).toBe(500);
    expect(rowsLeft(job(10, 10, [300, undefined]))).toBeUndefined();
  });

  it('shows a bar, the share read and the ETA at the rate so far when the sources know their size', () => {
    // 2,500 of 10,000 rows in 5 s: 500 rows/s, 7,500 left, 15 s to go.
    expect(progressLine([job(2500, 2400, [4000, 3500])], 5000)).toBe(
      'Job abcdef01: 2,500 rows read, 2,400 written, 500 rows/s, 00:05 elapsed, [#####---------------] 25%, ETA 00:15 (Ctrl-C cancels)',
    );
  });

  it('shows rows, rate and time only for a source of unknown size, and no ETA before any row', () => {
    expect(progressLine([job(2500, 2400, [undefined])], 5000)).toBe('Job abcdef01: 2,500 rows read, 2,400 written, 500 rows/s, 00:05 elapsed (Ctrl-C cancels)');
    expect(progressLine([job(0, 0, [1000])], 300)).toBe('Job abcdef01: 0 rows read, 0 written, 0 rows/s, 00:00 elapsed, [--------------------] 0% (Ctrl-C cancels)');
  });

  it('adds up several jobs, with an ETA only when all of them know their size', () => {
    expect(progressLine([job(100, 100, [100]), job(100, 100, [200])], 1000)).toBe(
      '2 jobs: 200 rows read, 200 written, 200 rows/s, 00:01 elapsed, [########------------] 40%, ETA 00:01 (Ctrl-C cancels)',
    );
    expect(progressLine([job(100, 100, [100]), job(100, 100, [undefined])], 1000)).toBe('2 jobs: 200 rows read, 200 written, 200 rows/s, 00:01 elapsed (Ctrl-C cancels)');
  });

  it('measures a file source by bytes: those read against those its readers and its enumerator have left', () => {
    // 1 MB of 4 MB read in 5 s (two readers with 1 MB left between them, 2 MB not handed out): 15 s to go.
    const files = fileJob(10_000, 10_000, [[600_000, 400_000], [400_000, 600_000]], 2_000_000);
    expect(bytesProgress(files)).toEqual({ done: 1_000_000, left: 3_000_000 });
    expect(progressLine([files], 5000)).toBe(
      'Job abcdef01: 10,000 rows read, 10,000 written, 2,000 rows/s, 00:05 elapsed, [#####---------------] 25%, ETA 00:15 (Ctrl-C cancels)',
    );
    // A split between the enumerator and a reader (500 KB in neither count) does not move the bar ahead of
    // the size seen before.
    const seen = new Map<string, number>();
    expect(bytesProgress(files, seen)).toEqual({ done: 1_000_000, left: 3_000_000 });
    expect(bytesProgress(fileJob(10_000, 10_000, [[600_000, 400_000], [400_000, 100_000]], 2_000_000), seen)).toEqual({ done: 1_000_000, left: 3_000_000 });
    // Before listing, or with a reader that cannot tell, the size is not known: no bar.
    expect(bytesProgress(fileJob(0, 0, [[0, 0]], undefined))).toBeUndefined();
    expect(progressLine([fileJob(10, 10, [[5, undefined]], 0)], 1000)).toBe('Job abcdef01: 10 rows read, 10 written, 10 rows/s, 00:01 elapsed (Ctrl-C cancels)');
  });

  it('shows no bar for jobs whose sources know their size in different units (rows and bytes)', () => {
    expect(progressLine([job(100, 100, [100]), fileJob(100, 100, [[50, 50]], 0)], 1000)).toBe('2 jobs: 200 rows read, 200 written, 200 rows/s, 00:01 elapsed (Ctrl-C cancels)');
    expect(progressLine([fileJob(100, 100, [[50, 50]], 0), fileJob(100, 100, [[50, 150]], 0)], 1000)).toContain('[#######-------------] 33%, ETA 00:02');
  });

  it('redraws in place on a terminal, cut to its width so it never wraps, and shows nothing elsewhere', () => {
    vi.useFakeTimers();
    try {
      const written: string[] = [];
      const tty: ConsoleIO = { out: (t) => written.push(t), err: () => {}, isTTY: true, columns: 40 };
      const stop = showProgress([job(2500, 2400, [7500])], tty);
      vi.advanceTimersByTime(1000);
      stop();
      expect(written.length).toBe(3);
      for (const w of written.slice(0, 2)) {
        expect(w.startsWith('\r\x1b[2KJob abcdef01: 2,500 rows read')).toBe(true);
        expect(w.length - '\r\x1b[2K'.length).toBe(39);
        expect(w.endsWith('…')).toBe(true);
      }
      expect(written[2]).toBe('\r\x1b[2K');
      const pipe: string[] = [];
      showProgress([job(1, 1, [1])], { out: (t) => pipe.push(t), err: () => {}, isTTY: false })();
      vi.advanceTimersByTime(1000);
      expect(pipe).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('closes a bounded job with its rows, run time and rows per second', () => {
    expect(summaryLine(job(15_000, 14_000, [0]), finished(2500))).toBe('Job abcdef01 finished: 15,000 rows read, 14,000 written in 2.5 s (6,000 rows/s)');
    expect(summaryLine(job(90_000, 90_000, [0]), finished(75_000))).toBe('Job abcdef01 finished: 90,000 rows read, 90,000 written in 01:15 (1,200 rows/s)');
  });

  it('prints the closing line on a terminal for each job that ran to its end, not for a canceled one', () => {
    const written: string[] = [];
    const stop = showProgress([job(100, 100, [0]), job(5, 5, [undefined])], { out: (t) => written.push(t), err: () => {}, isTTY: true });
    stop([finished(1000), { ...finished(1000), status: 'CANCELED' }]);
    expect(written).toEqual(['\r\x1b[2K[INFO] Job abcdef01 finished: 100 rows read, 100 written in 1.0 s (100 rows/s)\n']);
  });

  it('writes a progress line to stderr every 10 s when stderr is not a terminal, then the closing line', () => {
    vi.useFakeTimers();
    try {
      const err: string[] = [];
      const out: string[] = [];
      const log: ConsoleIO = { out: (t) => out.push(t), err: (t) => err.push(t), isTTY: false, errIsTTY: false };
      const stop = showProgress([job(2500, 2400, [7500])], log);
      vi.advanceTimersByTime(LOG_PROGRESS_MS - 1);
      expect(err).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(err).toEqual(['[INFO] Job abcdef01: 2,500 rows read, 2,400 written, 250 rows/s, 00:10 elapsed, [#####---------------] 25%, ETA 00:30\n']);
      vi.advanceTimersByTime(LOG_PROGRESS_MS);
      expect(err).toHaveLength(2);
      stop([finished(20_000)]);
      expect(err[2]).toBe('[INFO] Job abcdef01 finished: 2,500 rows read, 2,400 written in 20.0 s (125 rows/s)\n');
      vi.advanceTimersByTime(LOG_PROGRESS_MS);
      expect(err).toHaveLength(3);
      expect(out).toEqual([]);
      // A job done within the first 10 s leaves stderr untouched, closing line included.
      const quiet: string[] = [];
      const stopQuiet = showProgress([job(1, 1, [0])], { out: () => {}, err: (t) => quiet.push(t), isTTY: false, errIsTTY: false });
      vi.advanceTimersByTime(LOG_PROGRESS_MS - 1);
      stopQuiet([finished(5)]);
      expect(quiet).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});

function finished(netRuntimeMs: number): JobExecutionResult {
  return { jobId: 'abcdef0123456789abcdef0123456789', status: 'FINISHED', netRuntimeMs, restarts: 0, savepointPath: undefined };
}
