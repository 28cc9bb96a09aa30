import type { JobClient } from '../runtime/job-client.js';
import type { ConsoleIO } from './console-io.js';

const REFRESH_MS = 500;

/** Rows read (into the first task) and written (out of the last task) of a job so far. */
function counts(job: JobClient): { read: number; written: number } {
  const v = job.metrics().vertices;
  return { read: v[0]?.recordsIn ?? 0, written: v.at(-1)?.recordsOut ?? 0 };
}

function clock(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * A one-line progress display for running INSERT jobs on a terminal: rows read and written, rows/s,
 * elapsed time, redrawn in place. Nothing is shown when output is not a terminal, so files and pipes
 * get only the results. Returns a function that stops the display and clears the line.
 */
export function showProgress(jobs: readonly JobClient[], io: ConsoleIO): () => void {
  if (!io.isTTY || jobs.length === 0) return () => {};
  const started = Date.now();
  const timer = setInterval(() => {
    let read = 0;
    let written = 0;
    for (const j of jobs) {
      const c = counts(j);
      read += c.read;
      written += c.written;
    }
    const elapsed = Date.now() - started;
    const rate = elapsed > 0 ? Math.round((read * 1000) / elapsed) : 0;
    io.out(`\r\x1b[2K${jobs.length === 1 ? `Job ${jobs[0]!.jobId.slice(0, 8)}` : `${jobs.length} jobs`}: ${read.toLocaleString('en-US')} rows read, ${written.toLocaleString('en-US')} written, ${rate.toLocaleString('en-US')} rows/s, ${clock(elapsed)} elapsed (Ctrl-C cancels)`);
  }, REFRESH_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    io.out('\r\x1b[2K');
  };
}
