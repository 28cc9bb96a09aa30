/** A job's lifecycle, as Flink's `JobStatus` (reduced). */
export type JobStatus = 'CREATED' | 'RUNNING' | 'FINISHED' | 'FAILED' | 'CANCELED';

/** Records counted per vertex over all subtasks and attempts (for a progress line). */
export interface VertexMetrics {
  readonly vertexId: string;
  readonly name: string;
  readonly parallelism: number;
  readonly recordsIn: number;
  readonly recordsOut: number;
}

/** One checkpoint or savepoint as a history shows it (Flink's checkpoint statistics, reduced). */
export interface CheckpointStats {
  readonly id: number;
  readonly status: 'COMPLETED' | 'FAILED';
  readonly isSavepoint: boolean;
  /** Epoch milliseconds when the checkpoint was triggered. */
  readonly triggerTimestamp: number;
  /** From trigger until it was persisted (completed) or given up (failed). */
  readonly durationMs: number;
  /** Bytes written to its directory; undefined when it was kept only in memory, or failed. */
  readonly sizeBytes: number | undefined;
  readonly path: string | undefined;
  readonly failureMessage: string | undefined;
}

export interface JobMetrics {
  readonly vertices: readonly VertexMetrics[];
  readonly completedCheckpoints: number;
  readonly lastCheckpointId: number | undefined;
  readonly restarts: number;
  /** Periodic checkpoints and savepoints that were aborted, timed out or could not be persisted. */
  readonly failedCheckpoints: number;
  /** The newest periodic checkpoint's duration and size (see `CheckpointStats`). */
  readonly lastCheckpointDurationMs: number | undefined;
  readonly lastCheckpointSizeBytes: number | undefined;
  /** The newest checkpoints and savepoints, newest first, at most `CHECKPOINT_HISTORY_SIZE`. */
  readonly checkpointHistory: readonly CheckpointStats[];
}

/** How many checkpoints `JobMetrics.checkpointHistory` keeps (Flink's `web.checkpoints.history` default). */
export const CHECKPOINT_HISTORY_SIZE = 10;

/** How a job ended when `waitForCompletion` resolves (a failed job rejects instead). */
export interface JobExecutionResult {
  readonly jobId: string;
  readonly status: 'FINISHED' | 'CANCELED';
  readonly netRuntimeMs: number;
  readonly restarts: number;
  /** Set when the job was stopped with a savepoint. */
  readonly savepointPath: string | undefined;
}

/**
 * A handle on a running job (Flink's `JobClient`). Methods may be called at any time from any code in the
 * process; they never block the tasks.
 */
export interface JobClient {
  /** 32 lowercase hex characters. */
  readonly jobId: string;
  readonly jobName: string;
  status(): JobStatus;
  /** Stops all tasks without a savepoint; resolves once they are closed. Pending committables are not committed. */
  cancel(): Promise<void>;
  /**
   * Takes a savepoint into `<dir>/savepoint-<shortid>-<rand>/`, resolving with its path. The job keeps
   * running. Rejects if the job is not running or the savepoint fails.
   */
  triggerSavepoint(dir: string): Promise<string>;
  /** Takes a savepoint (committing its committables) and then stops the job; resolves with the path. */
  stopWithSavepoint(dir: string): Promise<string>;
  /** Resolves when the job finished or was canceled; rejects with an `ExecutionError` when it failed. */
  waitForCompletion(): Promise<JobExecutionResult>;
  metrics(): JobMetrics;
}
