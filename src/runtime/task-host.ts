import type { Row } from '../types/row.js';
import type { SerializedValue, TaskSnapshot } from './checkpoint/completed-checkpoint.js';
import type { RuntimeConfig } from './runtime-config.js';
import type { AnySink } from './sink/sink.js';
import type { AnySource } from './source/source.js';
import type { ReaderGateway } from './source/source-coordinator.js';
import type { SourceEvent } from './source/source-split.js';
import type { WatermarkStrategy } from './source/watermark-strategy.js';
import type { OperatorFactory } from './stream-operator.js';

/**
 * One job-graph vertex of a chained task. Checkpointed state belongs to vertices, not tasks (as Flink's
 * belongs to operator ids), so it survives a change of chaining between runs.
 */
export interface ChainedVertex {
  readonly id: string;
  /** How many of the task's operators are this vertex's (they follow the previous vertices' in `operators`). */
  readonly operators: number;
}

/** A vertex after chaining: what one task runs. Its id is the id of the first vertex of its chain. */
export interface TaskVertex {
  readonly id: string;
  readonly name: string;
  readonly parallelism: number;
  readonly source: AnySource<Row> | undefined;
  readonly watermarkStrategy: WatermarkStrategy<Row> | undefined;
  readonly operators: readonly OperatorFactory[];
  readonly sink: AnySink<Row> | undefined;
  /** The job-graph vertices chained into this task, head first: a source is the first, a sink the last. */
  readonly chain: readonly ChainedVertex[];
  /** Why this task's subtasks must run on the main thread (e.g. a SELECT's collect sink), if they must. */
  readonly mainThread?: string;
}

export type PendingCommittableValue = SerializedValue;

/** Counters of one subtask, over its attempts; the job master sums them per task vertex. */
export interface TaskMetrics {
  recordsIn: number;
  recordsOut: number;
  /** The watermark the chain last received (for a source, the one it emitted); -Infinity before any. Written only when it advances. */
  currentInputWatermark?: number;
  /** A source subtask's reader's `pendingRecords` and `pendingBytes`, set when its reader is created. */
  pendingRecords?: () => number | undefined;
  pendingBytes?: () => number | undefined;
  /**
   * A worker's subtask: how full its fullest input and output channels are (0..1). On the worker, read from
   * its channels; on the job master, as of the worker's last report. Main-thread subtasks leave it unset
   * (the job master reads their channels itself).
   */
  poolUsage?: () => { readonly inPool: number; readonly outPool: number };
  /**
   * Bytes a source subtask's readers counted (`SourceReaderContext.countBytesIn`), from the count at the
   * checkpoint its attempt restored (none: 0); unset until one counts.
   */
  bytesIn?: number;
  /**
   * Milliseconds spent processing (Flink's busy time) and waiting for space in an output channel (its
   * back-pressured time), over all attempts; the open interval, if any, started at `busySince` /
   * `backPressuredSince` (`performance.now()`). Written by tasks on the thread that runs them; for a
   * subtask in a worker, the job master's copy is written from the worker's reports (worker-metrics.ts).
   */
  busyMs?: number;
  busySince?: number | undefined;
  backPressuredMs?: number;
  backPressuredSince?: number | undefined;
}

/** Watermark alignment groups shared by all source tasks of a job. */
export interface AlignmentRegistry {
  /** Reports a split's watermark and returns the group's minimum watermark (the caller adds the max drift). */
  report(group: string, splitKey: string, watermark: number): number;
  remove(group: string, splitKey: string): void;
}

/** What a task calls on the job master. All calls are synchronous and cheap. */
export interface TaskHost {
  readonly jobId: string;
  readonly attempt: number;
  readonly config: RuntimeConfig;
  readonly restoredCheckpointId: number | undefined;
  readonly alignment: AlignmentRegistry;
  /** `alignmentMs`: how long the task waited from the checkpoint's first barrier to its last (0 for a source). */
  acknowledge(taskKey: string, checkpointId: number, snapshot: TaskSnapshot, committables: SerializedValue[], alignmentMs?: number): void;
  finished(taskKey: string, snapshot: TaskSnapshot, committables: SerializedValue[]): void;
  sourceCoordinator(taskId: string): ReaderCoordinator;
}

/** What a source task calls on its source's coordinator (on the main thread, or through a worker's proxy). */
export interface ReaderCoordinator {
  registerReader(subtask: number, gateway: ReaderGateway): void;
  unregisterReader(subtask: number): void;
  requestSplit(subtask: number): void;
  sourceEventFromReader(subtask: number, event: SourceEvent): void;
}

/** A subtask as the attempt drives it: a task on this thread, or a proxy of one in a worker. */
export interface TaskHandle {
  readonly key: string;
  readonly subtaskIndex: number;
  /** Runs the subtask to its end; rejects on failure. */
  run(): Promise<void>;
  cancel(): void;
  notifyCheckpointComplete(checkpointId: number): void;
  /** Source subtasks only: the barrier of `checkpointId` (a savepoint's when `savepoint`) goes out after the batch in flight. */
  triggerCheckpoint?(checkpointId: number, suspend?: boolean, savepoint?: boolean): void;
}
