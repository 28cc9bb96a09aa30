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

/** How far a job's sources are, in rows or bytes: what they consumed and what they have left. */
interface Done {
  readonly done: number;
  readonly left: number;
}

/**
 * The largest size (bytes consumed plus left) seen per job. A split on its way from the enumerator to a
 * reader is for a moment in neither's count, so a single reading can come out short and the bar would
 * jump ahead; a size once seen is kept instead.
 */
export type SizesSeen = Map<string, number>;

/**
 * Bytes the job's sources consumed and have still to read, when every source knows (a bounded filesystem
 * source once it listed its files: the bytes its enumerator has not handed out and those its readers have
 * left, see `SourceReader.pendingBytes`); undefined otherwise. With `seen`, what is left is read against the
 * largest size seen so far (and that is updated).
 */
export function bytesProgress(job: JobClient, seen?: SizesSeen): Done | undefined {
  const vertices = job.metrics().vertices;
  let done = 0;
  let left = 0;
  for (const v of vertices) {
    if ((v.inputs ?? []).length > 0) continue;
    if (v.unassignedBytes === undefined || v.subtasks === undefined || v.subtasks.length === 0) return undefined;
    left += v.unassignedBytes;
    for (const s of v.subtasks) {
      if (s.pendingBytes === undefined) return undefined;
      left += s.pendingBytes;
      done += s.bytesIn ?? 0;
    }
  }
  if (seen === undefined) return { done, left };
  const size = Math.max(done + left, seen.get(job.jobId) ?? 0);
  seen.set(job.jobId, size);
  return { done, left: size - done };
}

/** The jobs' progress in one unit: rows when all their sources know rows left, else bytes when all know bytes. */
function progressOf(jobs: readonly JobClient[], rowsRead: number, seen: SizesSeen | undefined): Done | undefined {
  let rows: number | undefined = 0;
  for (const j of jobs) {
    const l = rowsLeft(j);
    rows = rows === undefined || l === undefined ? undefined : rows + l;
  }
  if (rows !== undefined) return { done: rowsRead, left: rows };
  let bytes: Done | undefined = { done: 0, left: 0 };
  for (const j of jobs) {
    const b = bytesProgress(j, seen);
    bytes = bytes === undefined || b === undefined ? undefined : { done: bytes.done + b.done, left: bytes.left + b.left };
  }
  return bytes;
}

function clock(ms: number): string {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const mmss = `${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
  return h > 0 ? `${h}:${mmss}` : mmss;
}

/**
 * The progress line's text for `jobs` after `elapsedMs`: rows read and written, rows/s, elapsed time, and,
 * when the sources know how much is left (rows, or bytes for files), a bar with the share read and the time
 * still to go at the rate so far. A display that redraws passes the same `seen` each time (see SizesSeen).
 */
export function progressLine(jobs: readonly JobClient[], elapsedMs: number, hint = true, seen?: SizesSeen): string {
  let read = 0;
  let written = 0;
  for (const j of jobs) {
    const c = counts(j);
    read += c.read;
    written += c.written;
  }
  const rate = elapsedMs > 0 ? Math.round((read * 1000) / elapsedMs) : 0;
  const who = jobs.length === 1 ? `Job ${jobs[0]!.jobId.slice(0, 8)}` : `${jobs.length} jobs`;
  const rows = `${read.toLocaleString('en-US')} rows read, ${written.toLocaleString('en-US')} written, ${rate.toLocaleString('en-US')} rows/s`;
  const p = progressOf(jobs, read, seen);
  let bounded = '';
  if (p !== undefined && p.done + p.left > 0) {
    const share = p.done / (p.done + p.left);
    const filled = Math.round(share * BAR_WIDTH);
    // What is left, at the rate so far.
    const eta = p.done > 0 && elapsedMs > 0 ? `, ETA ${clock((p.left * elapsedMs) / p.done)}` : '';
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
  const seen: SizesSeen = new Map();
  const closing = (results: readonly (JobExecutionResult | undefined)[] | undefined): string =>
    (results ?? []).flatMap((r, i) => (r !== undefined && r.status === 'FINISHED' && r.savepointPath === undefined && jobs[i] !== undefined ? [`[INFO] ${summaryLine(jobs[i], r)}\n`] : [])).join('');
  if (io.isTTY) {
    const timer = setInterval(() => {
      const line = progressLine(jobs, Date.now() - started, true, seen);
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
    io.err(`[INFO] ${progressLine(jobs, Date.now() - started, false, seen)}\n`);
  }, LOG_PROGRESS_MS);
  timer.unref();
  return (results) => {
    clearInterval(timer);
    if (logged) io.err(closing(results));
  };
}
