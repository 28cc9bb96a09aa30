import type { ColumnBatch } from '../../types/columns/column-batch.js';

/**
 * Writes a sink's records in one subtask (Flink's `SinkWriter`, with the `CommittingSinkWriter` and
 * `StatefulSinkWriter` mixins folded in as optional methods). All methods are called by the sink task on
 * its turn of the event loop, never concurrently.
 */
export interface SinkWriter<In, CommT = never, WriterStateT = never> {
  /**
   * Writes one batch. Returning a promise is backpressure: the task awaits it before handing over the
   * next batch (so never return one per record). Must not keep `batch` after returning or resolving.
   */
  write(batch: readonly In[]): void | Promise<void>;
  /**
   * Optional: writes a batch of +I rows held as columns, same contract as `write`. Without it the task
   * hands the batch's rows to `write`. Only writers of rows (`In` = Row) receive these.
   */
  writeColumns?(batch: ColumnBatch): void | Promise<void>;
  /** Optional: the watermark of the sink's input advanced. */
  writeWatermark?(watermark: number): void;
  /**
   * Flushes buffered records: on every checkpoint barrier (`endOfInput` false) and once at the end of a
   * bounded input (`endOfInput` true). An at-least-once sink waits for acknowledgements here.
   */
  flush(endOfInput: boolean): Promise<void>;
  /**
   * Two-phase commit, phase one: called right after `flush` at a barrier and at end of input. Returns the
   * committables (pending files, open transactions) that the `Committer` will commit once the checkpoint
   * completes. They are stored in the checkpoint, so they survive a failure. Optional.
   */
  prepareCommit?(): Promise<CommT[]>;
  /** The writer's own state (e.g. in-progress file handles) for `checkpointId`, after `prepareCommit`. Optional. */
  snapshotState?(checkpointId: number): WriterStateT[];
  /** Releases resources; called once, also after failures (then without a preceding flush). */
  close(): Promise<void>;
}
