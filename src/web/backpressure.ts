import type { JobRegistry, RegisteredJob } from '../api/job-registry.js';

/** How many one-second samples a back-pressure ratio spans. */
export const BACKPRESSURE_SAMPLES = 10;

/** Flink's levels: ok up to 10 % of the time back-pressured, low up to 50 %, high above. */
export type BackpressureLevel = 'ok' | 'low' | 'high';

export function backpressureLevel(ratio: number): BackpressureLevel {
  return ratio <= 0.1 ? 'ok' : ratio <= 0.5 ? 'low' : 'high';
}

/**
 * Which subtasks are back-pressured, sampled: each sample asks whether a subtask's fullest output channel
 * is at capacity (it then waits for space before its next batch), and the ratio is the share of the last
 * BACKPRESSURE_SAMPLES samples where it was. This is Flink's older sampling approach; a sample costs a look
 * at each channel's length, nothing on the tasks' path.
 */
export class BackpressureTracker {
  private readonly series = new Map<string, boolean[]>();
  private readonly sampledAt = new Map<string, number>();

  constructor(private readonly jobs: JobRegistry) {}

  sample(now: number): void {
    const running = new Set<string>();
    for (const j of this.jobs.list()) {
      const c = j.client;
      if (c.status() !== 'RUNNING') continue;
      running.add(c.jobId);
      this.sampledAt.set(c.jobId, now);
      for (const v of c.metrics().vertices) {
        (v.subtasks ?? []).forEach((s, i) => {
          const key = `${c.jobId}/${v.vertexId}/${i}`;
          const points = this.series.get(key) ?? this.series.set(key, []).get(key)!;
          points.push(s.outPoolUsage >= 1);
          if (points.length > BACKPRESSURE_SAMPLES) points.shift();
        });
      }
    }
    for (const k of this.series.keys()) if (!running.has(k.slice(0, k.indexOf('/')))) this.series.delete(k);
  }

  /** The share of recent samples in which the subtask was back-pressured; 0 without samples or once the job ended. */
  ratio(jobId: string, vertexId: string, subtask: number): number {
    const points = this.series.get(`${jobId}/${vertexId}/${subtask}`);
    if (points === undefined || points.length === 0) return 0;
    return points.filter((p) => p).length / points.length;
  }

  /**
   * `GET /jobs/<id>/vertices/<vid>/backpressure`, as Flink's `JobVertexBackPressureInfo`; undefined for an
   * unknown vertex. `times` gives a subtask's busy and idle milliseconds per second where measured, for
   * Flink's `busyRatio` and `idleRatio`.
   */
  view(j: RegisteredJob, vertexId: string, times: (subtask: number) => { busy: number; idle: number } | undefined = () => undefined): object | undefined {
    const v = j.client.metrics().vertices.find((x) => x.vertexId === vertexId);
    if (v === undefined) return undefined;
    const subtasks = Array.from({ length: v.parallelism }, (_, i) => {
      const ratio = this.ratio(j.client.jobId, vertexId, i);
      const t = times(i);
      return { subtask: i, 'attempt-number': 0, backpressureLevel: backpressureLevel(ratio), ratio, ...(t === undefined ? {} : { busyRatio: t.busy / 1000, idleRatio: t.idle / 1000 }) };
    });
    const worst = Math.max(0, ...subtasks.map((s) => s.ratio));
    return {
      status: 'ok',
      backpressureLevel: backpressureLevel(worst),
      'end-timestamp': this.sampledAt.get(j.client.jobId) ?? -1,
      subtasks,
    };
  }
}
