/** The REST API's responses the dashboard reads (docs/rest-api.md), typed for the fields it uses. */

export type JobState = 'CREATED' | 'RUNNING' | 'FINISHED' | 'FAILED' | 'CANCELED';

export interface JobSummary {
  readonly jid: string;
  readonly name: string;
  readonly state: JobState;
  readonly 'start-time': number;
  readonly 'end-time': number;
  readonly duration: number;
}

export interface PlanNode {
  readonly id: string;
  readonly parallelism: number;
  readonly description: string;
  readonly inputs?: readonly { readonly id: string; readonly ship_strategy: string }[];
}

export interface JobDetails extends JobSummary {
  readonly vertices: readonly {
    readonly id: string;
    readonly name: string;
    readonly parallelism: number;
    readonly metrics: { readonly 'read-records': number; readonly 'write-records': number };
  }[];
  readonly plan: { readonly nodes: readonly PlanNode[] };
}

export interface CheckpointView {
  readonly id: number;
  readonly status: 'COMPLETED' | 'FAILED';
  readonly is_savepoint: boolean;
  readonly trigger_timestamp: number;
  readonly end_to_end_duration: number;
  readonly state_size?: number | null;
  readonly external_path?: string | null;
  readonly failure_message?: string | null;
  readonly alignment_duration?: number | null;
}

export interface Checkpoints {
  readonly counts: { readonly completed: number; readonly failed: number; readonly total: number };
  /** `restored` is absent from older servers. */
  readonly latest: {
    readonly restored?: { readonly id: number; readonly is_savepoint: boolean; readonly external_path: string | null; readonly restore_timestamp: number } | null;
  };
  readonly history: readonly CheckpointView[];
  readonly restarts: number;
}

export interface ExceptionEntry {
  readonly exceptionName: string;
  readonly stacktrace: string;
  readonly timestamp: number;
  readonly taskName: string | null;
}

export interface Exceptions {
  readonly 'root-exception': string | null;
  readonly timestamp: number | null;
  /** Absent from older servers. */
  readonly exceptionHistory?: { readonly entries: readonly ExceptionEntry[]; readonly truncated: boolean };
}

/** `GET /jobs/<id>/sql`: the job's statement and EXPLAIN text, secrets masked; null for a job not started from SQL. */
export interface JobSql {
  readonly sql: string | null;
  readonly explain: string | null;
}

/** `GET /jobs/<id>/config`, as Flink's `JobConfigInfo`; `user-config` is the session configuration, secrets masked. */
export interface JobConfig {
  readonly 'execution-config': {
    readonly 'restart-strategy': string;
    readonly 'job-parallelism': number;
    readonly 'user-config': Readonly<Record<string, string>>;
  };
}

/** One subtask in `GET /jobs/<id>/live`. */
export interface SubtaskLive {
  readonly subtask: number;
  /** Absent from older servers. */
  readonly numRecordsIn?: number;
  readonly numRecordsOut?: number;
  readonly currentInputWatermark: string;
  readonly pendingRecords: number | null;
  readonly backpressureRatio: number;
  /** Milliseconds per second; null where the subtask does not measure them (absent from older servers). */
  readonly busyTimeMsPerSecond?: number | null;
  readonly backPressuredTimeMsPerSecond?: number | null;
  readonly idleTimeMsPerSecond?: number | null;
}

/** `GET /jobs/<id>/live`: every vertex's live numbers in one answer (docs/rest-api.md). */
export interface JobLive {
  readonly vertices: readonly {
    readonly id: string;
    readonly numRecordsInPerSecond: number;
    readonly numRecordsOutPerSecond: number;
    /** Bytes of the vertex's state in the newest completed checkpoint; null before the first. */
    readonly stateSize: number | null;
    readonly subtasks: readonly SubtaskLive[];
  }[];
}

/** The server answered, but with an error (`{"errors": [...]}`): unlike a failed fetch, sluice is there. */
export class ApiError extends Error {}

/**
 * Why a request failed, for a person: the server's own words, or, when it did not answer at all (the
 * browser says only "Failed to fetch"), that sluice is not there.
 */
export function failureText(e: unknown): string {
  return e instanceof ApiError ? e.message : 'sluice did not answer (it may have exited)';
}

/** GET a JSON resource; rejects with an ApiError carrying the server's `errors` text on a non-2xx answer. */
export async function getJson<T>(path: string): Promise<T> {
  const r = await fetch(path, { headers: { accept: 'application/json' } });
  const body = (await r.json()) as T & { errors?: string[] };
  if (!r.ok) throw new ApiError(body.errors?.join('; ') ?? `HTTP ${r.status}`);
  return body;
}

/** A request that changes something (cancel, stop); resolves with the JSON answer or rejects with its errors. */
export async function send<T>(method: 'PATCH' | 'POST', path: string, body?: unknown): Promise<T> {
  const r = await fetch(path, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (await r.json()) as T & { errors?: string[] };
  if (!r.ok) throw new ApiError(answer.errors?.join('; ') ?? `HTTP ${r.status}`);
  return answer;
}
