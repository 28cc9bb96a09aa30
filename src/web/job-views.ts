import type { RegisteredJob } from '../api/job-registry.js';
import type { CheckpointStats, VertexMetrics } from '../runtime/job-client.js';
import type { RecordRates } from './rate-tracker.js';

/** JSON bodies shaped like Flink's REST API responses (field names as Flink writes them). */

function times(j: RegisteredJob, now: number): { 'start-time': number; 'end-time': number; duration: number } {
  const start = j.startTime.getTime();
  const end = j.endTime?.getTime() ?? -1;
  return { 'start-time': start, 'end-time': end, duration: (end === -1 ? now : end) - start };
}

/** `GET /jobs`: ids and states only. */
export function jobsList(jobs: readonly RegisteredJob[]): object {
  return { jobs: jobs.map((j) => ({ id: j.client.jobId, status: j.client.status() })) };
}

/** `GET /jobs/overview` */
export function jobsOverview(jobs: readonly RegisteredJob[], now = Date.now()): object {
  return {
    jobs: jobs.map((j) => ({ jid: j.client.jobId, name: j.client.jobName, state: j.client.status(), ...times(j, now) })),
  };
}

/** `GET /jobs/<id>`: the job and its vertices (chained tasks) with record counts. */
export function jobDetails(j: RegisteredJob, now = Date.now()): object {
  const state = j.client.status();
  const m = j.client.metrics();
  return {
    jid: j.client.jobId,
    name: j.client.jobName,
    state,
    ...times(j, now),
    now,
    vertices: m.vertices.map((v) => ({
      id: v.vertexId,
      name: v.name,
      parallelism: v.parallelism,
      status: state,
      metrics: {
        'read-records': v.recordsIn,
        'read-records-complete': state !== 'RUNNING' && state !== 'CREATED',
        'write-records': v.recordsOut,
        'write-records-complete': state !== 'RUNNING' && state !== 'CREATED',
      },
    })),
  };
}

/** One checkpoint as Flink's checkpoint statistics write it. */
function checkpointView(c: CheckpointStats): object {
  const end = c.triggerTimestamp + c.durationMs;
  return {
    id: c.id,
    status: c.status,
    is_savepoint: c.isSavepoint,
    trigger_timestamp: c.triggerTimestamp,
    ...(c.status === 'COMPLETED'
      ? { latest_ack_timestamp: end, end_to_end_duration: c.durationMs, state_size: c.sizeBytes ?? null, external_path: c.path ?? null }
      : { failure_timestamp: end, end_to_end_duration: c.durationMs, failure_message: c.failureMessage ?? null }),
  };
}

/** `GET /jobs/<id>/checkpoints`: counts, the latest completed and failed checkpoint, and the recent history. */
export function jobCheckpoints(j: RegisteredJob): object {
  const m = j.client.metrics();
  const h = m.checkpointHistory;
  const latestCompleted = h.find((c) => c.status === 'COMPLETED' && !c.isSavepoint);
  const latestSavepoint = h.find((c) => c.status === 'COMPLETED' && c.isSavepoint);
  const latestFailed = h.find((c) => c.status === 'FAILED');
  return {
    counts: { completed: m.completedCheckpoints, failed: m.failedCheckpoints, total: m.completedCheckpoints + m.failedCheckpoints },
    latest: {
      // The history may have dropped it; its id is still known.
      completed: latestCompleted !== undefined ? checkpointView(latestCompleted) : m.lastCheckpointId === undefined ? null : { id: m.lastCheckpointId },
      savepoint: latestSavepoint === undefined ? null : checkpointView(latestSavepoint),
      failed: latestFailed === undefined ? null : checkpointView(latestFailed),
    },
    history: h.map(checkpointView),
    restarts: m.restarts,
  };
}

/** The metrics of one vertex, by the names Flink's vertex metrics use (summed over subtasks). */
const VERTEX_METRICS = {
  numRecordsIn: (v: VertexMetrics) => v.recordsIn,
  numRecordsOut: (v: VertexMetrics) => v.recordsOut,
  numRecordsInPerSecond: (v: VertexMetrics, jobId: string, rates: RecordRates) => rates.perSecond(jobId, v.vertexId, 'in'),
  numRecordsOutPerSecond: (v: VertexMetrics, jobId: string, rates: RecordRates) => rates.perSecond(jobId, v.vertexId, 'out'),
} as const;

/**
 * `GET /jobs/<id>/vertices/<vid>/metrics[?get=a,b]`: without `get`, the metric ids (`[{"id": ...}]`); with
 * it, their values as strings (`[{"id": ..., "value": "42"}]`), unknown ids left out, as Flink does.
 * Undefined when the vertex does not exist.
 */
export function vertexMetrics(j: RegisteredJob, vertexId: string, get: readonly string[] | undefined, rates: RecordRates): object[] | undefined {
  const v = j.client.metrics().vertices.find((x) => x.vertexId === vertexId);
  if (v === undefined) return undefined;
  if (get === undefined) return Object.keys(VERTEX_METRICS).map((id) => ({ id }));
  return get.filter((id): id is keyof typeof VERTEX_METRICS => Object.hasOwn(VERTEX_METRICS, id)).map((id) => ({ id, value: String(VERTEX_METRICS[id](v, j.client.jobId, rates)) }));
}

/** `GET /jobs/<id>/exceptions`: the root exception of a failed job, with its causes. */
export function jobExceptions(j: RegisteredJob): object {
  const f = j.failure;
  if (f === undefined) return { 'root-exception': null, timestamp: null, 'all-exceptions': [], truncated: false };
  return { 'root-exception': describeError(f.error), timestamp: f.timestamp.getTime(), 'all-exceptions': [], truncated: false };
}

/** `Name: message` lines for an error and its causes, as a Java stack trace starts. */
export function describeError(error: unknown): string {
  const lines: string[] = [];
  let e: unknown = error;
  for (let depth = 0; e !== undefined && depth < 10; depth++) {
    const text = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    lines.push(depth === 0 ? text : `Caused by: ${text}`);
    e = e instanceof Error ? e.cause : undefined;
  }
  return lines.join('\n');
}
