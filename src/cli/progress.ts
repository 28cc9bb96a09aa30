import type { JobClient } from '../runtime/job-client.js';
import type { ConsoleIO } from './console-io.js';

const REFRESH_MS = 500;
const BAR_WIDTH = 20;

/** Rows read (into the first task) and written (out of the last task) of a job so far. */
function counts(job: JobClient): { read: number; written: number } {
  const v = job.metrics().vertices;
  return { read: v[0]?.recordsIn ?? 0, written: v.at(-1)?.recordsOut ?? 0 };
}

/**
 * Rows the job's sources have still to read, when every source subtask knows (a bounded datagen or nexmark
 * source; see `SourceReader.pendingRecords`); undefined otherwise (unbounded, files, Kafka before a fetch).
 */
export function rowsLeft(job: JobClient): number | undefined {
  const vertices = job.metrics().vertices;
  const fed = new Set(vertices.flatMap((v) => (v.inputs ?? []).length > 0 ? [v.vertexId] : []));
  let left = 0;
  for (const v of vertices) {
    if (fed.has(v.vertexId)) continue;
    if (v.subtasks === undefined || v.subtasks.length === 0) return undefined;
    for (const s of v.subtasks) {
      if (s.pendingRecords === undefined) return undefined;
      left += s.pendingRecords;
    }
  }
  return left;
}

function clock(ms: number): string {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const mmss = `${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
  return h > 0 ? `${h}:${mmss}` : mmss;
}

/**
 * The progress line's text for `jobs` after `elapsedMs`: rows read and written, rows/s, elapsed time, and,
 * when the sources know how many rows are left, a bar with the share read and the time still to go at the
 * rate so far.
 */
export function progressLine(jobs: readonly JobClient[], elapsedMs: number): string {
  let read = 0;
  let written = 0;
  let left: number | undefined = 0;
  for (const j of jobs) {
    const c = counts(j);
    read += c.read;
    written += c.written;
    const l = rowsLeft(j);
    left = left === undefined || l === undefined ? undefined : left + l;
  }
  const rate = elapsedMs > 0 ? Math.round((read * 1000) / elapsedMs) : 0;
  const who = jobs.length === 1 ? `Job ${jobs[0]!.jobId.slice(0, 8)}` : `${jobs.length} jobs`;
  const rows = `${read.toLocaleString('en-US')} rows read, ${written.toLocaleString('en-US')} written, ${rate.toLocaleString('en-US')} rows/s`;
  let bounded = '';
  if (left !== undefined && read + left > 0) {
    const share = read / (read + left);
    const filled = Math.round(share * BAR_WIDTH);
    const eta = rate > 0 ? `, ETA ${clock((left * 1000) / rate)}` : '';
    bounded = `, [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${Math.floor(share * 100)}%${eta}`;
  }
  return `${who}: ${rows}, ${clock(elapsedMs)} elapsed${bounded} (Ctrl-C cancels)`;
}

/**
 * A one-line progress display for running INSERT jobs on a terminal, redrawn in place (see `progressLine`).
 * Nothing is shown when output is not a terminal, so files and pipes get only the results. Returns a
 * function that stops the display and clears the line.
 */
export function showProgress(jobs: readonly JobClient[], io: ConsoleIO): () => void {
  if (!io.isTTY || jobs.length === 0) return () => {};
  const started = Date.now();
  const timer = setInterval(() => {
    const line = progressLine(jobs, Date.now() - started);
    // A wrapped line could not be cleared by the next redraw; cut it to the terminal's width.
    const width = io.columns;
    io.out(`\r\x1b[2K${width !== undefined && width > 1 && line.length >= width ? `${line.slice(0, width - 2)}…` : line}`);
  }, REFRESH_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    io.out('\r\x1b[2K');
  };
}
