import type { RegisteredJob } from '../api/job-registry.js';
import type { SubtaskMetrics } from '../runtime/job-client.js';
import { times } from './job-views.js';

/** Flink's accumulated time metrics of a subtask: milliseconds over all attempts; null where not measured (yet). */
function accumulated(s: SubtaskMetrics, durationMs: number): { busy: number | null; backPressured: number | null; idle: number | null } {
  if (s.busyTimeMs === undefined || s.backPressuredTimeMs === undefined) return { busy: null, backPressured: null, idle: null };
  const busy = Math.round(s.busyTimeMs);
  const backPressured = Math.round(s.backPressuredTimeMs);
  return { busy, backPressured, idle: Math.max(0, durationMs - busy - backPressured) };
}

/**
 * `GET /jobs/<id>/vertices/<vid>`: a vertex and its subtasks, shaped as Flink's job vertex details: each
 * subtask's state, attempt, records, and time busy, back-pressured and idle since the job started. Flink's
 * byte counts and the subtask's host are left out (records cross no network here). Undefined when the vertex
 * does not exist.
 */
export function vertexDetails(j: RegisteredJob, vertexId: string, now = Date.now()): object | undefined {
  const m = j.client.metrics();
  const v = m.vertices.find((x) => x.vertexId === vertexId);
  if (v === undefined) return undefined;
  const state = j.client.status();
  const complete = state !== 'RUNNING' && state !== 'CREATED';
  const t = times(j, now);
  return {
    id: v.vertexId,
    name: v.name,
    parallelism: v.parallelism,
    now,
    subtasks: (v.subtasks ?? []).map((s, i) => {
      // Every subtask runs from the job's start to its end: Sluice deploys and restarts a job's subtasks together.
      const time = accumulated(s, t.duration);
      return {
        subtask: i,
        status: state,
        attempt: m.restarts,
        ...t,
        metrics: {
          'read-records': s.recordsIn,
          'read-records-complete': complete,
          'write-records': s.recordsOut,
          'write-records-complete': complete,
          'accumulated-busy-time': time.busy,
          'accumulated-backpressured-time': time.backPressured,
          'accumulated-idle-time': time.idle,
        },
      };
    }),
  };
}
