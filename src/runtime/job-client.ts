/** A job's lifecycle, as Flink's `JobStatus` (reduced). */
export type JobStatus = 'CREATED' | 'RUNNING' | 'FINISHED' | 'FAILED' | 'CANCELED';

/** One subtask of a vertex: its records over all attempts, and its current attempt's watermark and queues. */
export interface SubtaskMetrics {
  readonly recordsIn: number;
  readonly recordsOut: number;
  /** The newest watermark its chain received (a source: emitted); undefined before any, Infinity at the end. */
  readonly currentInputWatermark: number | undefined;
  /** The fullest of its input channels, as a share of their capacity (0..1); 0 without inputs (Flink's `inPoolUsage`). */
  readonly inPoolUsage: number;
  /** The fullest of its output channels (0..1): 1 means it waits for space, i.e. it is back-pressured (Flink's `outPoolUsage`). */
  readonly outPoolUsage: number;
  /** A source subtask's records still to read as its reader knows them (Kafka: the consumer lag); else undefined. */
  readonly pendingRecords?: number | undefined;
  /** A source subtask's bytes still to read in the splits it owns (Flink's `pendingBytes`), where its reader knows. */
  readonly pendingBytes?: number | undefined;
  /**
   * Bytes a source subtask consumed (Flink's `numBytesIn`), where its reader counts them. After a restore it
   * goes on from its count at the restored checkpoint, so bytes read again are not counted twice.
   */
  readonly bytesIn?: number | undefined;
  /**
   * Milliseconds over all attempts the subtask spent processing, and waiting for space in an output channel
   * (Flink's busy and back-pressured time, as counters). A subtask in a worker thread reports them every
   * 500 ms (an interval open at its report counted on up to now); undefined before its first report.
   */
  readonly busyTimeMs?: number | undefined;
  readonly backPressuredTimeMs?: number | undefined;
}

/** A vertex's input: the producing vertex and how records are shipped (Flink's plan `ship_strategy`, lower case). */
export interface VertexInput {
  readonly vertexId: string;
  readonly shipStrategy: 'forward' | 'hash' | 'rebalance' | 'broadcast';
}

/** Records counted per vertex over all subtasks and attempts (for a progress line). */
export interface VertexMetrics {
  readonly vertexId: string;
  readonly name: string;
  readonly parallelism: number;
  readonly recordsIn: number;
  readonly recordsOut: number;
  /** The vertices feeding this one (the job graph's edges after chaining). Optional: not every client knows them. */
  readonly inputs?: readonly VertexInput[];
  /** One entry per subtask, by index. Optional: not every client knows them. */
  readonly subtasks?: readonly SubtaskMetrics[];
  /**
   * A source vertex's bytes in splits its enumerator has not handed out yet (`SplitEnumerator.pendingBytes`);
   * undefined where it does not know (not a source, not bounded, before listing, between attempts).
   */
  readonly unassignedBytes?: number | undefined;
  /**
   * Bytes of the vertex's state (its operators', its readers' splits, its sink writers') over all subtasks in
   * the newest completed checkpoint, as encoded (Flink's checkpointed state size per task); undefined before
   * the first one.
   */
  readonly stateSizeBytes?: number | undefined;
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
  /** The longest any subtask waited from the checkpoint's first barrier to its last (ms); undefined when not known. */
  readonly alignmentMs?: number | undefined;
  /**
   * From trigger until the last task acknowledged (ms, Flink's latest acknowledgement), before the checkpoint is
   * persisted: how long the barriers took through the job. Undefined for a failed checkpoint or when not known.
   */
  readonly acknowledgedMs?: number | undefined;
}

/** One failure of a job attempt (Flink's exception history entry, reduced). */
export interface JobExceptionStats {
  /** The error the attempt failed with, as thrown (the REST layer describes it). */
  readonly error: unknown;
  /** Epoch milliseconds when the attempt failed. */
  readonly timestamp: number;
  /** The subtask that failed, as Flink names it (`<vertex name> (<index + 1>/<parallelism>)`); undefined for a failure outside tasks (a source enumerator, a checkpoint, a commit). */
  readonly taskName: string | undefined;
}

/** How many failures `JobMetrics.exceptionHistory` keeps (Flink's `web.exception-history-size` default). */
export const EXCEPTION_HISTORY_SIZE = 16;

/** The checkpoint or savepoint the job's latest attempt started from (Flink's restored checkpoint statistics). */
export interface RestoredCheckpointStats {
  readonly id: number;
  readonly isSavepoint: boolean;
  /** Epoch milliseconds when the attempt restored it. */
  readonly restoreTimestamp: number;
  /** Its directory; undefined for a checkpoint kept only in memory. */
  readonly path: string | undefined;
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
  /**
   * The failures of the job's attempts, newest first, at most EXCEPTION_HISTORY_SIZE: each one that caused a
   * restart, and the one that failed the job. Optional: not every client knows them.
   */
  readonly exceptionHistory?: readonly JobExceptionStats[];
  /** True when older failures were dropped from `exceptionHistory`. */
  readonly exceptionHistoryTruncated?: boolean;
  /** What the latest attempt restored; undefined when it started afresh. Optional: not every client knows it. */
  readonly restoredCheckpoint?: RestoredCheckpointStats | undefined;
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
