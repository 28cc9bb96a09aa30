import { describe, expect, it, vi } from 'vitest';
import type { ConsoleIO } from '../../src/cli/console-io.js';
import { progressLine, rowsLeft, showProgress } from '../../src/cli/progress.js';
import type { JobClient, JobMetrics, SubtaskMetrics, VertexMetrics } from '../../src/runtime/job-client.js';

function subtask(pendingRecords: number | undefined): SubtaskMetrics {
  return { recordsIn: 0, recordsOut: 0, currentInputWatermark: undefined, inPoolUsage: 0, outPoolUsage: 0, pendingRecords };
}

/** A job whose metrics the test sets: a source vertex (its subtasks' pendingRecords given) feeding a sink. */
function job(read: number, written: number, pending: readonly (number | undefined)[]): JobClient {
  const vertices: VertexMetrics[] = [
    { vertexId: 'v0', name: 'Source', parallelism: pending.length, recordsIn: read, recordsOut: read, subtasks: pending.map(subtask) },
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
});
