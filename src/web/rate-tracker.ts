import type { JobRegistry } from '../api/job-registry.js';

/** The rate series of a vertex's records in or out, or of one of its subtasks'. */
export function rateKey(jobId: string, vertexId: string, direction: 'in' | 'out', subtask?: number): string {
  return subtask === undefined ? `${jobId}/${vertexId}/${direction}` : `${jobId}/${vertexId}/${direction}/${subtask}`;
}

/** What a subtask's time is spent on, besides idling: Flink's busy and back-pressured time. */
export type TaskTime = 'busy' | 'backPressured';

function timeKey(jobId: string, vertexId: string, subtask: number, kind: TaskTime): string {
  return `${jobId}/${vertexId}/${subtask}/${kind}`;
}

/** Records in and out per second of each running job's vertices, and its subtasks' time; 0 for jobs that ended. */
export interface RecordRates {
  /** A vertex's rate over all its subtasks, or, given `subtask`, that subtask's. */
  perSecond(jobId: string, vertexId: string, direction: 'in' | 'out', subtask?: number): number;
  /** Milliseconds per second a subtask spent busy or back-pressured over the last TIME_WINDOW_MS, 0 to 1000. */
  timePerSecond(jobId: string, vertexId: string, subtask: number, kind: TaskTime): number;
}

/** How far back a rate looks, as Flink's `MeterView` (60 s). */
export const RATE_WINDOW_MS = 60_000;
/**
 * How far back busy and back-pressured time look: Flink's `TimerGauge` reports the time of its last
 * update interval (5 s), so a change shows within seconds rather than over a minute's average.
 */
export const TIME_WINDOW_MS = 5_000;
/** Samples closer than this give no rate: a source that emits in bursts would read as spikes. */
export const MIN_RATE_SPAN_MS = 1_000;

interface Point {
  readonly t: number;
  readonly v: number;
}

/**
 * Per-second rates of growing counters (records in and out), from samples taken over the last
 * RATE_WINDOW_MS: the increase between the oldest and newest sample in the window over the time between
 * them. A counter seen once, or only within MIN_RATE_SPAN_MS, has rate 0.
 */
export class RateTracker {
  private readonly series = new Map<string, Point[]>();

  constructor(private readonly windowMs = RATE_WINDOW_MS) {}

  record(key: string, value: number, now: number): void {
    const points = this.series.get(key) ?? this.series.set(key, []).get(key)!;
    const last = points.at(-1);
    if (last !== undefined && last.t === now) return;
    points.push({ t: now, v: value });
    // Keep the newest point at or before the window's start, so the rate spans the whole window.
    while (points.length > 2 && points[1]!.t <= now - this.windowMs) points.shift();
  }

  /** Per second; 0 until two samples at least MIN_RATE_SPAN_MS apart exist. */
  rate(key: string): number {
    const points = this.series.get(key);
    if (points === undefined || points.length < 2) return 0;
    const first = points[0]!;
    const last = points.at(-1)!;
    if (last.t - first.t < MIN_RATE_SPAN_MS) return 0;
    return ((last.v - first.v) * 1000) / (last.t - first.t);
  }

  /** Forgets series whose key is not kept (ended jobs stop being sampled). */
  retain(keep: (key: string) => boolean): void {
    for (const k of this.series.keys()) if (!keep(k)) this.series.delete(k);
  }
}

/** Samples the record counters of a session's running jobs into a RateTracker. */
export class JobRates implements RecordRates {
  private readonly tracker = new RateTracker();
  private readonly times = new RateTracker(TIME_WINDOW_MS);
  private readonly running = new Set<string>();

  constructor(private readonly jobs: JobRegistry) {}

  sample(now = Date.now()): void {
    this.running.clear();
    for (const j of this.jobs.list()) {
      const c = j.client;
      if (c.status() !== 'RUNNING') continue;
      this.running.add(c.jobId);
      for (const v of c.metrics().vertices) {
        this.tracker.record(rateKey(c.jobId, v.vertexId, 'in'), v.recordsIn, now);
        this.tracker.record(rateKey(c.jobId, v.vertexId, 'out'), v.recordsOut, now);
        (v.subtasks ?? []).forEach((s, i) => {
          this.tracker.record(rateKey(c.jobId, v.vertexId, 'in', i), s.recordsIn, now);
          this.tracker.record(rateKey(c.jobId, v.vertexId, 'out', i), s.recordsOut, now);
          if (s.busyTimeMs !== undefined) this.times.record(timeKey(c.jobId, v.vertexId, i, 'busy'), s.busyTimeMs, now);
          if (s.backPressuredTimeMs !== undefined) this.times.record(timeKey(c.jobId, v.vertexId, i, 'backPressured'), s.backPressuredTimeMs, now);
        });
      }
    }
    const running = (k: string): boolean => this.running.has(k.slice(0, k.indexOf('/')));
    this.tracker.retain(running);
    this.times.retain(running);
  }

  timePerSecond(jobId: string, vertexId: string, subtask: number, kind: TaskTime): number {
    if (!this.running.has(jobId)) return 0;
    // Samples a little apart, or an interval closed just after a sample, can read a hair over 1000.
    return Math.min(1000, Math.max(0, Math.round(this.times.rate(timeKey(jobId, vertexId, subtask, kind)))));
  }

  perSecond(jobId: string, vertexId: string, direction: 'in' | 'out', subtask?: number): number {
    return this.running.has(jobId) ? this.tracker.rate(rateKey(jobId, vertexId, direction, subtask)) : 0;
  }
}
