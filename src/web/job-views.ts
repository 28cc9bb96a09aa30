import type { RegisteredJob } from '../api/job-registry.js';
import type { CheckpointStats, SubtaskMetrics, VertexMetrics } from '../runtime/job-client.js';
import type { RecordRates } from './rate-tracker.js';

/** JSON bodies shaped like Flink's REST API responses (field names as Flink writes them). */

/** A job's start, end (-1 while it runs) and duration up to `now` or its end, as Flink writes them. */
export function times(j: RegisteredJob, now: number): { 'start-time': number; 'end-time': number; duration: number } {
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

/** `GET /jobs/<id>`: the job and its vertices (chained tasks) with record counts, and its plan (the graph's edges). */
export function jobDetails(j: RegisteredJob, now = Date.now()): object {
  const state = j.client.status();
  const m = j.client.metrics();
  return {
    jid: j.client.jobId,
    name: j.client.jobName,
    state,
    ...times(j, now),
    now,
    plan: planView(j),
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

/**
 * The graph after chaining, shaped as Flink's job plan: one node per vertex, with `inputs` naming the
 * vertices that feed it and how records are shipped.
 */
export function planView(j: RegisteredJob): object {
  return {
    jid: j.client.jobId,
    name: j.client.jobName,
    nodes: j.client.metrics().vertices.map((v) => ({
      id: v.vertexId,
      parallelism: v.parallelism,
      description: v.name,
      ...(v.inputs === undefined || v.inputs.length === 0
        ? {}
        : { inputs: v.inputs.map((input, num) => ({ num, id: input.vertexId, ship_strategy: input.shipStrategy.toUpperCase(), exchange: 'pipelined_bounded' })) }),
    })),
  };
}

/** One checkpoint as Flink's checkpoint statistics write it. */
function checkpointView(c: CheckpointStats): object {
  const end = c.triggerTimestamp + c.durationMs;
  const latestAck = c.triggerTimestamp + (c.acknowledgedMs ?? c.durationMs);
  return {
    id: c.id,
    status: c.status,
    is_savepoint: c.isSavepoint,
    trigger_timestamp: c.triggerTimestamp,
    ...(c.status === 'COMPLETED'
      ? { latest_ack_timestamp: latestAck, end_to_end_duration: c.durationMs, state_size: c.sizeBytes ?? null, external_path: c.path ?? null, alignment_duration: c.alignmentMs === undefined ? null : Math.round(c.alignmentMs) }
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
      restored:
        m.restoredCheckpoint === undefined
          ? null
          : { id: m.restoredCheckpoint.id, restore_timestamp: m.restoredCheckpoint.restoreTimestamp, is_savepoint: m.restoredCheckpoint.isSavepoint, external_path: m.restoredCheckpoint.path ?? null },
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

/** Java's Long.MIN_VALUE and MAX_VALUE, which Flink reports for "no watermark yet" and "end of input". */
const NO_WATERMARK = '-9223372036854775808';
const END_WATERMARK = '9223372036854775807';

/** A watermark as Flink's metric writes it: epoch milliseconds as a string. */
export function watermarkValue(wm: number | undefined): string {
  if (wm === undefined) return NO_WATERMARK;
  if (wm === Infinity) return END_WATERMARK;
  return String(wm);
}

/** Milliseconds per second a subtask spent busy, back-pressured and idle (Flink's three task time metrics). */
export interface SubtaskTimes {
  readonly busy: number;
  readonly backPressured: number;
  readonly idle: number;
}

/**
 * A subtask's time split over the last seconds; undefined where it is not measured (a worker's subtask).
 * Idle is the rest of the second: waiting for input, or for its turn on a thread other tasks share.
 */
export function subtaskTimes(s: SubtaskMetrics, jobId: string, vertexId: string, index: number, rates: RecordRates): SubtaskTimes | undefined {
  if (s.busyTimeMs === undefined || s.backPressuredTimeMs === undefined) return undefined;
  const busy = rates.timePerSecond(jobId, vertexId, index, 'busy');
  const backPressured = Math.min(1000 - busy, rates.timePerSecond(jobId, vertexId, index, 'backPressured'));
  return { busy, backPressured, idle: 1000 - busy - backPressured };
}

/** Per-subtask metrics, listed as Flink lists them: `<subtask index>.<name>`; undefined where a subtask has no such metric. */
const SUBTASK_METRICS = {
  numRecordsIn: (s: SubtaskMetrics) => String(s.recordsIn),
  numRecordsOut: (s: SubtaskMetrics) => String(s.recordsOut),
  currentInputWatermark: (s: SubtaskMetrics) => watermarkValue(s.currentInputWatermark),
  'buffers.inPoolUsage': (s: SubtaskMetrics) => String(s.inPoolUsage),
  'buffers.outPoolUsage': (s: SubtaskMetrics) => String(s.outPoolUsage),
  isBackPressured: (s: SubtaskMetrics) => String(s.outPoolUsage >= 1),
  // Only source subtasks whose reader knows it (Kafka's lag, a bounded generator's rows left).
  pendingRecords: (s: SubtaskMetrics) => (s.pendingRecords === undefined ? undefined : String(s.pendingRecords)),
  // Only source subtasks whose reader counts bytes (a bounded filesystem source).
  pendingBytes: (s: SubtaskMetrics) => (s.pendingBytes === undefined ? undefined : String(s.pendingBytes)),
  numBytesIn: (s: SubtaskMetrics) => (s.bytesIn === undefined ? undefined : String(s.bytesIn)),
  busyTimeMsPerSecond: (_: SubtaskMetrics, t: SubtaskTimes | undefined) => (t === undefined ? undefined : String(t.busy)),
  backPressuredTimeMsPerSecond: (_: SubtaskMetrics, t: SubtaskTimes | undefined) => (t === undefined ? undefined : String(t.backPressured)),
  idleTimeMsPerSecond: (_: SubtaskMetrics, t: SubtaskTimes | undefined) => (t === undefined ? undefined : String(t.idle)),
} as const;

type SubtaskMetricName = keyof typeof SUBTASK_METRICS;

function subtaskValue(v: VertexMetrics, index: number, name: SubtaskMetricName, jobId: string, rates: RecordRates): string | undefined {
  const s = v.subtasks?.[index];
  return s === undefined ? undefined : SUBTASK_METRICS[name](s, subtaskTimes(s, jobId, v.vertexId, index, rates));
}

/** The value of a metric id (vertex-wide or `<i>.<name>`), undefined when there is no such metric. */
function metricValue(v: VertexMetrics, id: string, jobId: string, rates: RecordRates): string | undefined {
  if (Object.hasOwn(VERTEX_METRICS, id)) return String(VERTEX_METRICS[id as keyof typeof VERTEX_METRICS](v, jobId, rates));
  const dot = id.indexOf('.');
  const index = id.slice(0, dot);
  const name = id.slice(dot + 1);
  if (dot < 1 || !/^\d+$/.test(index) || !Object.hasOwn(SUBTASK_METRICS, name)) return undefined;
  return subtaskValue(v, Number(index), name as SubtaskMetricName, jobId, rates);
}

/**
 * `GET /jobs/<id>/vertices/<vid>/subtasks/metrics[?get=a,b]`, as Flink's aggregated subtask metrics: each
 * per-subtask metric (by its name without the index) with its min, max, avg and sum over the subtasks that
 * have it. Without `get`, the ids. Undefined when the vertex does not exist.
 */
export function aggregatedSubtaskMetrics(j: RegisteredJob, vertexId: string, get: readonly string[] | undefined, rates: RecordRates): object[] | undefined {
  const v = j.client.metrics().vertices.find((x) => x.vertexId === vertexId);
  if (v === undefined) return undefined;
  const jobId = j.client.jobId;
  // Watermarks and flags do not add up; Flink aggregates numbers only.
  const names: readonly SubtaskMetricName[] = (Object.keys(SUBTASK_METRICS) as SubtaskMetricName[]).filter((name) => name !== 'currentInputWatermark' && name !== 'isBackPressured');
  const values = (name: SubtaskMetricName): number[] =>
    (v.subtasks ?? []).flatMap((_, i) => {
      const value = subtaskValue(v, i, name, jobId, rates);
      return value === undefined ? [] : [Number(value)];
    });
  if (get === undefined) return names.filter((n) => values(n).length > 0).map((id) => ({ id }));
  return get.flatMap((id) => {
    if (!names.includes(id as SubtaskMetricName)) return [];
    const xs = values(id as SubtaskMetricName);
    if (xs.length === 0) return [];
    const sum = xs.reduce((a, b) => a + b, 0);
    return [{ id, min: Math.min(...xs), max: Math.max(...xs), avg: sum / xs.length, sum }];
  });
}

/**
 * `GET /jobs/<id>/vertices/<vid>/metrics[?get=a,b]`: without `get`, the metric ids (`[{"id": ...}]`); with
 * it, their values as strings (`[{"id": ..., "value": "42"}]`), unknown ids left out, as Flink does.
 * Undefined when the vertex does not exist.
 */
export function vertexMetrics(j: RegisteredJob, vertexId: string, get: readonly string[] | undefined, rates: RecordRates): object[] | undefined {
  const v = j.client.metrics().vertices.find((x) => x.vertexId === vertexId);
  if (v === undefined) return undefined;
  if (get === undefined) {
    const perSubtask = (v.subtasks ?? []).flatMap((_, i) =>
      (Object.keys(SUBTASK_METRICS) as SubtaskMetricName[]).filter((name) => subtaskValue(v, i, name, j.client.jobId, rates) !== undefined).map((name) => `${i}.${name}`),
    );
    return [...Object.keys(VERTEX_METRICS), ...perSubtask].map((id) => ({ id }));
  }
  return get.flatMap((id) => {
    const value = metricValue(v, id, j.client.jobId, rates);
    return value === undefined ? [] : [{ id, value }];
  });
}

/** `GET /jobs/<id>/vertices/<vid>/watermarks`: each subtask's `currentInputWatermark`, as Flink lists them. */
export function vertexWatermarks(j: RegisteredJob, vertexId: string): object[] | undefined {
  const v = j.client.metrics().vertices.find((x) => x.vertexId === vertexId);
  if (v === undefined) return undefined;
  return (v.subtasks ?? []).map((s, i) => ({ id: `${i}.currentInputWatermark`, value: watermarkValue(s.currentInputWatermark) }));
}

/** Ratios of back-pressure per subtask, as `BackpressureTracker` samples them. */
export interface BackpressureRatios {
  ratio(jobId: string, vertexId: string, subtask: number): number;
}

/**
 * `GET /jobs/<id>/live`: Sluice's own, not Flink's. Every vertex's rates, per-subtask records, watermarks,
 * pending records, time and back-pressure ratios in one answer, so the dashboard asks once a second instead
 * of two requests per vertex (Flink's UI asks `/watermarks` and `/backpressure` vertex by vertex), and its
 * subtask table needs no request of its own.
 */
export function jobLive(j: RegisteredJob, rates: RecordRates, backpressure: BackpressureRatios): object {
  const jobId = j.client.jobId;
  return {
    jid: jobId,
    vertices: j.client.metrics().vertices.map((v) => {
      const subtasks = v.subtasks ?? [];
      return {
        id: v.vertexId,
        numRecordsInPerSecond: rates.perSecond(jobId, v.vertexId, 'in'),
        numRecordsOutPerSecond: rates.perSecond(jobId, v.vertexId, 'out'),
        // Flink's checkpointed state size of the task, from the newest completed checkpoint.
        stateSize: v.stateSizeBytes ?? null,
        subtasks: subtasks.map((s, i) => {
          const t = subtaskTimes(s, jobId, v.vertexId, i, rates);
          return {
            subtask: i,
            numRecordsIn: s.recordsIn,
            numRecordsOut: s.recordsOut,
            currentInputWatermark: watermarkValue(s.currentInputWatermark),
            pendingRecords: s.pendingRecords ?? null,
            backpressureRatio: backpressure.ratio(jobId, v.vertexId, i),
            busyTimeMsPerSecond: t?.busy ?? null,
            backPressuredTimeMsPerSecond: t?.backPressured ?? null,
            idleTimeMsPerSecond: t?.idle ?? null,
          };
        }),
      };
    }),
  };
}

/**
 * `GET /jobs/<id>/exceptions`, as Flink's `JobExceptionsInfoWithHistory`: `root-exception` is the error that
 * failed the job (with its causes) or, while it runs, the newest failure it restarted from; the history
 * lists each failure of an attempt, newest first. Node.js has no JVM stack trace: `stacktrace` is the
 * error's `Name: message` lines with its causes.
 */
export function jobExceptions(j: RegisteredJob): object {
  const m = j.client.metrics();
  const entries = (m.exceptionHistory ?? []).map((e) => ({
    exceptionName: errorName(e.error),
    stacktrace: describeError(e.error),
    timestamp: e.timestamp,
    taskName: e.taskName ?? null,
    location: null,
    endpoint: null,
    taskManagerId: null,
    failureLabels: {},
    concurrentExceptions: [],
  }));
  const f = j.failure;
  const newest = entries[0];
  const root = f !== undefined ? { text: describeError(f.error), at: f.timestamp.getTime() } : newest === undefined ? undefined : { text: newest.stacktrace, at: newest.timestamp };
  return {
    'root-exception': root?.text ?? null,
    timestamp: root?.at ?? null,
    'all-exceptions': [],
    truncated: false,
    exceptionHistory: { entries, truncated: m.exceptionHistoryTruncated ?? false },
  };
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
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
