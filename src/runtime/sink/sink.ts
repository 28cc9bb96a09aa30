import type { VersionedSerializer } from '../serializer.js';
import type { Committer, GlobalCommitter } from './committer.js';
import type { LostCommittablePolicy } from './lost-committable.js';
import type { SinkWriter } from './sink-writer.js';

/** What a writer learns about where it runs (Flink's `WriterInitContext`). */
export interface WriterInitContext {
  readonly subtaskIndex: number;
  readonly parallelism: number;
  /** 0 on first start, then incremented on every restart of the job. */
  readonly attemptNumber: number;
  /** The checkpoint the job was restored from, if any. */
  readonly restoredCheckpointId: number | undefined;
  /** The job's id (32 hex chars), e.g. for transactional id prefixes. */
  readonly jobId: string;
  /** Raw configuration keys. */
  readonly config: ReadonlyMap<string, string>;
}

/**
 * A Sink V2 (Flink's `Sink` with `SupportsCommitter` / `SupportsWriterState` folded in as optional
 * members). A plain sink (only `createWriter`) is at-least-once: it flushes at every barrier.
 * Exactly-once sinks add `createCommitter` and `getCommittableSerializer`. Factories are called on job
 * start and on every restart and must create fresh objects.
 */
export interface Sink<In, CommT = never, WriterStateT = never> {
  /** One writer per subtask; `restoredState` holds what `snapshotState` returned in the restored checkpoint. */
  createWriter(ctx: WriterInitContext, restoredState?: readonly WriterStateT[]): SinkWriter<In, CommT, WriterStateT>;
  /** The committer for phase two. Present if and only if the writer implements `prepareCommit`. */
  createCommitter?(): Committer<CommT>;
  getCommittableSerializer?(): VersionedSerializer<CommT>;
  getWriterStateSerializer?(): VersionedSerializer<WriterStateT>;
  /** Optional global committer (see `GlobalCommitter`). */
  createGlobalCommitter?(): GlobalCommitter<CommT>;
  /**
   * What to do with a committable its committer reports lost (`signalFailedWithKnownReason`). Absent means
   * fail the job, without restarts (a restart restores the same committable and loses it again).
   */
  readonly lostCommittables?: LostCommittablePolicy;
}

/** A sink whose committable and state types are not known to the caller (what the job graph holds). */
export type AnySink<In> = Sink<In, unknown, unknown>;
