import type { TaskMetrics } from '../task-host.js';

/**
 * One subtask's metrics as a worker reports them to the job master. Counters are sent as their change
 * since the previous report, so what a subtask counted in an earlier attempt, or in an earlier job that
 * reused the worker, is never counted twice. Gauges are sent as they are.
 */
export interface SubtaskReport {
  /** `<task id>#<subtask index>`. */
  readonly key: string;
  readonly recordsIn: number;
  readonly recordsOut: number;
  /** Busy and back-pressured milliseconds since the previous report, the open interval counted up to this one. */
  readonly busyMs: number;
  readonly backPressuredMs: number;
  /** Whether the subtask is busy / back-pressured right now: the job master extends that interval until the next report. */
  readonly busy: boolean;
  readonly backPressured: boolean;
  /** -Infinity before the attempt's first watermark. */
  readonly currentInputWatermark: number;
  readonly pendingRecords: number | undefined;
  /** Bytes a source subtask counted since the previous report; undefined while it never counted any. */
  readonly bytesIn: number | undefined;
  readonly pendingBytes: number | undefined;
  /** How full its fullest input and output channels are (0..1); undefined when the subtask runs no more. */
  readonly poolUsage: { readonly inPool: number; readonly outPool: number } | undefined;
}

interface Reported {
  busyMs: number;
  backPressuredMs: number;
  report: SubtaskReport | undefined;
}

/** A time counter including its open interval, as of `now`. */
function total(ms: number | undefined, since: number | undefined, now: number): number {
  return (ms ?? 0) + (since === undefined ? 0 : now - since);
}

/**
 * Worker side: turns the worker's subtask metrics into reports of what changed since the previous call.
 * Called on the worker's thread only (every METRICS_INTERVAL_MS and when a subtask ends).
 */
export class SubtaskReporter {
  private readonly reported = new Map<string, Reported>();
  /** Counter totals as of the previous report, in the shape TaskMetrics has them. */
  private readonly counts = new Map<string, { recordsIn: number; recordsOut: number; bytesIn: number | undefined }>();

  /**
   * Reports for the subtasks whose counters or gauges changed since the previous call (those of a subtask
   * marked with `resend` always). A reader's `pendingRecords` that throws reads as unknown.
   */
  reports(metrics: ReadonlyMap<string, TaskMetrics>, now = performance.now()): SubtaskReport[] {
    const out: SubtaskReport[] = [];
    for (const [key, m] of metrics) {
      const prev = this.reported.get(key) ?? { busyMs: 0, backPressuredMs: 0, report: undefined };
      const counted = this.counts.get(key) ?? { recordsIn: 0, recordsOut: 0, bytesIn: undefined };
      const busy = total(m.busyMs, m.busySince, now);
      const backPressured = total(m.backPressuredMs, m.backPressuredSince, now);
      const r: SubtaskReport = {
        key,
        recordsIn: m.recordsIn - counted.recordsIn,
        recordsOut: m.recordsOut - counted.recordsOut,
        busyMs: busy - prev.busyMs,
        backPressuredMs: backPressured - prev.backPressuredMs,
        busy: m.busySince !== undefined,
        backPressured: m.backPressuredSince !== undefined,
        currentInputWatermark: m.currentInputWatermark ?? -Infinity,
        pendingRecords: gauge(m.pendingRecords),
        bytesIn: m.bytesIn === undefined ? undefined : m.bytesIn - (counted.bytesIn ?? 0),
        pendingBytes: gauge(m.pendingBytes),
        poolUsage: m.poolUsage?.(),
      };
      if (prev.report !== undefined && unchanged(r, prev.report)) continue;
      out.push(r);
      this.reported.set(key, { busyMs: busy, backPressuredMs: backPressured, report: r });
      this.counts.set(key, { recordsIn: m.recordsIn, recordsOut: m.recordsOut, bytesIn: m.bytesIn });
    }
    return out;
  }

  /** The next call reports this subtask even if nothing changed: a new attempt, whose gauges the job master reset. */
  resend(key: string): void {
    const prev = this.reported.get(key);
    if (prev !== undefined) prev.report = undefined;
  }
}

function unchanged(r: SubtaskReport, prev: SubtaskReport): boolean {
  return (
    r.recordsIn === 0 && r.recordsOut === 0 && r.busyMs === 0 && r.backPressuredMs === 0 && r.busy === prev.busy &&
    r.backPressured === prev.backPressured && r.currentInputWatermark === prev.currentInputWatermark && r.pendingRecords === prev.pendingRecords &&
    (r.bytesIn ?? 0) === 0 && r.pendingBytes === prev.pendingBytes && r.poolUsage?.inPool === prev.poolUsage?.inPool &&
    r.poolUsage?.outPool === prev.poolUsage?.outPool
  );
}

function gauge(read: (() => number | undefined) | undefined): number | undefined {
  try {
    return read?.();
  } catch {
    return undefined;
  }
}

/**
 * Job master side: applies a worker's report to the subtask's metrics. The time counters hold what the
 * worker measured; an interval open at the report stays open here from `now`, so a reader between two
 * reports sees time grow rather than jump every report (the next report replaces that estimate).
 */
export function applySubtaskReport(m: TaskMetrics, r: SubtaskReport, now = performance.now()): void {
  m.recordsIn += r.recordsIn;
  m.recordsOut += r.recordsOut;
  m.busyMs = (m.busyMs ?? 0) + r.busyMs;
  m.busySince = r.busy ? now : undefined;
  m.backPressuredMs = (m.backPressuredMs ?? 0) + r.backPressuredMs;
  m.backPressuredSince = r.backPressured ? now : undefined;
  m.currentInputWatermark = r.currentInputWatermark;
  const pending = r.pendingRecords;
  m.pendingRecords = pending === undefined ? undefined : () => pending;
  if (r.bytesIn !== undefined) m.bytesIn = (m.bytesIn ?? 0) + r.bytesIn;
  const pendingBytes = r.pendingBytes;
  m.pendingBytes = pendingBytes === undefined ? undefined : () => pendingBytes;
  const pool = r.poolUsage;
  m.poolUsage = pool === undefined ? undefined : () => pool;
}

/**
 * The subtask stopped (ended, failed, or its worker died): no interval stays open on the job master's side,
 * and its channels, gone with its attempt, read as empty.
 */
export function subtaskStopped(m: TaskMetrics): void {
  m.busySince = undefined;
  m.backPressuredSince = undefined;
  m.poolUsage = undefined;
}
