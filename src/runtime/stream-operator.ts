import type { Row } from '../types/row.js';
import type { ColumnBatch } from '../types/columns/column-batch.js';
import type { KeyedStateStore, OperatorStateStore, StateKey } from './state/state.js';
import type { FiredTimer, TimerService } from './timer-service.js';

/**
 * Where an operator emits. `collect` calls the next chained operator's `processBatch` directly (or hands
 * the batch to the task's output channels at the end of a chain), synchronously.
 */
export interface Output {
  /** Emits a batch. The receiver may keep the array and the rows: never reuse either after emitting. */
  collect(rows: Row[]): void;
  /**
   * Emits a batch of +I rows held as columns. The next operator takes it as columns if it can
   * (`processColumns`), else the runtime builds its rows once; emit columns only when they are at hand.
   */
  collectColumns(batch: ColumnBatch): void;
  /** Forwards a watermark downstream. */
  emitWatermark(watermark: number): void;
}

/** What the runtime gives an operator in `open`. Valid until `close`. */
export interface OperatorContext {
  readonly operatorName: string;
  readonly subtaskIndex: number;
  readonly parallelism: number;
  /** 0 on first start, incremented on every restart. */
  readonly attemptNumber: number;
  readonly config: ReadonlyMap<string, string>;
  readonly output: Output;
  /** Keyed state of this operator; snapshotted and restored by the runtime. */
  readonly keyedState: KeyedStateStore;
  /** Non-keyed list state of this operator; snapshotted and restored by the runtime. */
  readonly operatorState: OperatorStateStore;
  readonly timerService: TimerService;
  /**
   * Asks the task to await `promise` before the next batch reaches this chain (backpressure from async
   * work, e.g. a sink's pending sends). A rejection fails the task. Use once per batch, never per record.
   */
  awaitBeforeNextBatch(promise: Promise<void>): void;
}

/**
 * An operator in a chain (Flink's `StreamOperator` / `OneInputStreamOperator` / `MultipleInputStreamOperator`).
 * All methods are called by its task on the task's turn of the event loop, one at a time, in this order:
 * `initializeState` -> `open` -> (`processBatch` | `processWatermark` | `onTimer` | `prepareSnapshotPreBarrier` |
 * `snapshotState` | `notifyCheckpointComplete`)* -> `finish` (only at end of input) -> `close`. Only `open`, `finish` and
 * `close` may be async; the per-batch methods are synchronous so a chain runs as plain calls.
 */
export interface StreamOperator {
  /**
   * Called first, with what this operator's `snapshotState` returned in the checkpoint being restored
   * (undefined on a fresh start). Keyed and operator state stores are already restored at this point.
   */
  initializeState?(restored: unknown): void;
  /**
   * Called instead of `initializeState` when the job restores at another parallelism than the checkpoint
   * was taken at (keyed and operator state stores already hold this subtask's share): `restored` holds
   * what `snapshotState` returned in every old subtask that returned something; keep only the keys
   * `owns` accepts (the state key the operator would set for them). Operators with private state that
   * lack it cannot be rescaled, and the restore fails with a message saying so.
   */
  initializeRescaledState?(restored: readonly unknown[], owns: (key: StateKey) => boolean): void;
  open(ctx: OperatorContext): void | Promise<void>;
  /** One batch from input `inputIndex` (0 for single-input operators). Emits through `ctx.output`. */
  processBatch(rows: Row[], inputIndex: number): void;
  /**
   * Optional: one batch of +I rows held as columns (from a columnar source). Same contract as
   * `processBatch`; an operator that implements it never sees those rows through `processBatch`. Without
   * it the runtime calls `processBatch` with the batch's rows.
   */
  processColumns?(batch: ColumnBatch, inputIndex: number): void;
  /**
   * The combined watermark (minimum over all inputs) advanced to `watermark`; `inputIndex` is the input
   * whose progress caused it. Due event-time timers have already fired. If omitted, the runtime forwards
   * the watermark; if implemented, the operator must forward it itself via `ctx.output.emitWatermark`.
   */
  processWatermark?(watermark: number, inputIndex: number): void;
  /** A timer registered through `ctx.timerService` fired; the current key is already set. */
  onTimer?(timer: FiredTimer): void;
  /**
   * Called at a checkpoint barrier before any operator of the chain snapshots (Flink's
   * `prepareSnapshotPreBarrier`): the operator may still emit, and what it emits precedes the barrier. An
   * operator that flushes everything it buffers here needs no state (a local pre-aggregation).
   */
  prepareSnapshotPreBarrier?(checkpointId: number): void;
  /**
   * Called at a checkpoint barrier, after the last batch before the barrier. Returns operator-private state
   * (serializable by the checkpoint codec) or undefined; keyed/operator stores are saved by the runtime.
   */
  snapshotState?(checkpointId: number): unknown;
  /** Checkpoint `checkpointId` completed everywhere. */
  notifyCheckpointComplete?(checkpointId: number): void;
  /** All inputs ended: emit final results (e.g. bounded aggregations). */
  finish?(): void | Promise<void>;
  /** Release resources; called once, also after failures. */
  close?(): void | Promise<void>;
}

/** Creates one operator instance per subtask and attempt. `name` appears in metrics and errors. */
export interface OperatorFactory {
  readonly name: string;
  create(): StreamOperator;
}
