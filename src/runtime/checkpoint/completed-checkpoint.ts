import type { OperatorSnapshotBytes } from './spilled-snapshot.js';
/** Bytes written by a `VersionedSerializer`, with its version. */
export interface SerializedValue {
  readonly version: number;
  readonly data: Uint8Array;
}

/**
 * One subtask's snapshot: what a task acknowledges, and, in a checkpoint, one vertex's part of it (see
 * `vertexSnapshots`).
 */
export interface TaskSnapshot {
  /** The task had finished (end of input) when the checkpoint was taken; it is not re-run on restore. */
  readonly finished: boolean;
  /** Reader splits (source tasks). */
  readonly splits: readonly SerializedValue[] | undefined;
  /**
   * One entry per chained operator, in chain order: its `OperatorSnapshot`, encoded at the barrier (see
   * `OperatorChain.snapshot`), in memory or, for an on-disk state backend, in a scratch file until the
   * checkpoint is written (always in memory in a checkpoint read back).
   */
  readonly operators: readonly OperatorSnapshotBytes[];
  /** Sink writer state (sink tasks). */
  readonly writerState: readonly SerializedValue[] | undefined;
  /**
   * Unaligned checkpoints: the rows that reached the task after its snapshot on a channel whose barrier had not
   * come yet, encoded with the state codec as `[inputIndex, RowKind, fields][]` (see `in-flight-rows.ts`); they
   * are processed again first on restore. Absent when there were none, always in aligned checkpoints.
   */
  readonly inFlight?: Uint8Array;
}

/** A committable waiting for its checkpoint to complete or for a retry. */
export interface PendingCommittable {
  readonly checkpointId: number;
  /** The sink's job-graph vertex id (not the id of the task it was chained into, which can change). */
  readonly sinkId: string;
  readonly subtaskIndex: number;
  readonly value: SerializedValue;
  readonly retries: number;
}

/**
 * A checkpoint every task acknowledged, its state keyed by job-graph vertex so that it restores whatever
 * the chaining of the job restoring it (src/runtime/checkpoint/vertex-state.ts).
 */
export interface CompletedCheckpoint {
  readonly layout: 'vertex';
  readonly jobId: string;
  readonly checkpointId: number;
  readonly isSavepoint: boolean;
  readonly timestamp: number;
  /** vertex id -> parallelism when the checkpoint was taken. */
  readonly parallelism: ReadonlyMap<string, number>;
  /**
   * The job's number of key groups (`pipeline.max-parallelism`); a restored job keeps it. Undefined for
   * checkpoints written before key groups, whose keyed state was spread by hash modulo parallelism.
   */
  readonly maxParallelism: number | undefined;
  /** source vertex id (a source always heads its task, so also its task id) -> enumerator checkpoint. */
  readonly enumerators: ReadonlyMap<string, SerializedValue>;
  /** Committables not yet committed when the checkpoint completed (its own and older retried ones). */
  readonly committables: readonly PendingCommittable[];
  /** `<vertexId>#<subtask>` -> that vertex's part of the subtask's snapshot. */
  readonly vertices: ReadonlyMap<string, TaskSnapshot>;
  /**
   * vertex id -> its operator description, so that a restore refusing state no vertex of the new job
   * claims can say what it was (unclaimed-state.ts). Absent in checkpoints written before it was kept.
   */
  readonly vertexNames?: ReadonlyMap<string, string>;
  /** Where it was written, if it was. */
  readonly path: string | undefined;
}

/** A committable as checkpoints of format v1 and v2 stored it: under the id of the sink's task. */
export interface TaskLayoutCommittable extends Omit<PendingCommittable, 'sinkId'> {
  readonly sinkTaskId: string;
}

/**
 * A checkpoint of format v1 or v2 as read: state keyed by task (`<taskId>#<subtask>`, a task's id being
 * its first vertex's), each task's operators in chain order. `toVertexLayout` turns it into a
 * `CompletedCheckpoint` for the job restoring it.
 */
export interface TaskLayoutCheckpoint extends Omit<CompletedCheckpoint, 'layout' | 'vertices' | 'committables'> {
  readonly layout: 'task';
  /** taskId -> parallelism: the ids of the tasks that ran, i.e. of the vertices that headed a chain. */
  readonly parallelism: ReadonlyMap<string, number>;
  readonly tasks: ReadonlyMap<string, TaskSnapshot>;
  readonly committables: readonly TaskLayoutCommittable[];
}

/** What `readCheckpoint` finds. */
export type StoredCheckpoint = CompletedCheckpoint | TaskLayoutCheckpoint;
