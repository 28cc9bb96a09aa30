/** Bytes written by a `VersionedSerializer`, with its version. */
export interface SerializedValue {
  readonly version: number;
  readonly data: Uint8Array;
}

/** One subtask's part of a checkpoint. */
export interface TaskSnapshot {
  /** The task had finished (end of input) when the checkpoint was taken; it is not re-run on restore. */
  readonly finished: boolean;
  /** Reader splits (source tasks). */
  readonly splits: readonly SerializedValue[] | undefined;
  /**
   * One entry per chained operator, in chain order: its `OperatorSnapshot`, encoded at the barrier (see
   * `OperatorChain.snapshot`).
   */
  readonly operators: readonly Uint8Array[];
  /** Sink writer state (sink tasks). */
  readonly writerState: readonly SerializedValue[] | undefined;
}

/** A committable waiting for its checkpoint to complete or for a retry. */
export interface PendingCommittable {
  readonly checkpointId: number;
  readonly sinkTaskId: string;
  readonly subtaskIndex: number;
  readonly value: SerializedValue;
  readonly retries: number;
}

/** A checkpoint every task acknowledged. Keys of `tasks` are `<taskId>#<subtask>`. */
export interface CompletedCheckpoint {
  readonly jobId: string;
  readonly checkpointId: number;
  readonly isSavepoint: boolean;
  readonly timestamp: number;
  /** taskId -> parallelism when the checkpoint was taken. */
  readonly parallelism: ReadonlyMap<string, number>;
  /**
   * The job's number of key groups (`pipeline.max-parallelism`); a restored job keeps it. Undefined for
   * checkpoints written before key groups, whose keyed state was spread by hash modulo parallelism.
   */
  readonly maxParallelism: number | undefined;
  /** source task id -> enumerator checkpoint. */
  readonly enumerators: ReadonlyMap<string, SerializedValue>;
  /** Committables not yet committed when the checkpoint completed (its own and older retried ones). */
  readonly committables: readonly PendingCommittable[];
  readonly tasks: ReadonlyMap<string, TaskSnapshot>;
  /** Where it was written, if it was. */
  readonly path: string | undefined;
}
