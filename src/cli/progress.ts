import type { JobClient, JobExecutionResult } from '../runtime/job-client.js';
import type { ConsoleIO } from './console-io.js';

const REFRESH_MS = 500;
/** How often a progress line goes to stderr when it is not a terminal (a log file, CI). */
export const LOG_PROGRESS_MS = 10_000;
const BAR_WIDTH = 20;

/**
 * Rows a job read (into the vertices no other vertex feeds: its sources) and wrote (out of the vertices
 * that feed no other: its sinks) so far.
 */
function counts(job: JobClient): { read: number; written: number } {
  const vertices = job.metrics().vertices;
  const feeding = new Set(vertices.flatMap((v) => (v.inputs ?? []).map((i) => i.vertexId)));
  let read = 0;
  let written = 0;
  for (const v of vertices) {
    if ((v.inputs ?? []).length === 0) read += v.recordsIn;
    if (!feeding.has(v.vertexId)) written += v.recordsOut;
  }
  return { read, written };
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
export function progressLine(jobs: readonly JobClient[], elapsedMs: number, hint = true): string {
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
  return `${who}: ${rows}, ${clock(elapsedMs)} elapsed${bounded}${hint ? ' (Ctrl-C cancels)' : ''}`;
}

/** A duration for the closing line: tenths of a second under a minute, else as the progress clock. */
function took(ms: number): string {
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : clock(ms);
}

/**
 * The closing line of a job that ran to the end of its input: rows read and written, its run time and
 * rows read per second over it.
 */
export function summaryLine(job: JobClient, result: JobExecutionResult): string {
  const { read, written } = counts(job);
  const rate = result.netRuntimeMs > 0 ? Math.round((read * 1000) / result.netRuntimeMs) : read;
  return `Job ${job.jobId.slice(0, 8)} finished: ${read.toLocaleString('en-US')} rows read, ${written.toLocaleString('en-US')} written in ${took(result.netRuntimeMs)} (${rate.toLocaleString('en-US')} rows/s)`;
}

/**
 * Stops a progress display. `results` are how the jobs ended, by index (undefined for one that failed):
 * each that ran to the end of its input (a bounded job) gets its closing line.
 */
export type StopProgress = (results?: readonly (JobExecutionResult | undefined)[]) => void;

/**
 * Shows the progress of running INSERT jobs (see `progressLine`). On a terminal, one line redrawn in place
 * on stdout, and a closing line per bounded job at the end. When stderr is not a terminal (a log, CI), a
 * line to stderr every LOG_PROGRESS_MS instead, and the closing lines once any progress line was written,
 * so a short job leaves stderr as it was. Otherwise (stdout piped, stderr a terminal) nothing, so results
 * stay clean. Returns the function that stops the display.
 */
export function showProgress(jobs: readonly JobClient[], io: ConsoleIO): StopProgress {
  if (jobs.length === 0) return () => {};
  const started = Date.now();
  const closing = (results: readonly (JobExecutionResult | undefined)[] | undefined): string =>
    (results ?? []).flatMap((r, i) => (r !== undefined && r.status === 'FINISHED' && r.savepointPath === undefined && jobs[i] !== undefined ? [`[INFO] ${summaryLine(jobs[i], r)}\n`] : [])).join('');
  if (io.isTTY) {
    const timer = setInterval(() => {
      const line = progressLine(jobs, Date.now() - started);
      // A wrapped line could not be cleared by the next redraw; cut it to the terminal's width.
      const width = io.columns;
      io.out(`\r\x1b[2K${width !== undefined && width > 1 && line.length >= width ? `${line.slice(0, width - 2)}…` : line}`);
    }, REFRESH_MS);
    timer.unref();
    return (results) => {
      clearInterval(timer);
      io.out(`\r\x1b[2K${closing(results)}`);
    };
  }
  if (io.errIsTTY !== false) return () => {};
  let logged = false;
  const timer = setInterval(() => {
    logged = true;
    io.err(`[INFO] ${progressLine(jobs, Date.now() - started, false)}\n`);
  }, LOG_PROGRESS_MS);
  timer.unref();
  return (results) => {
    clearInterval(timer);
    if (logged) io.err(closing(results));
  };
}
