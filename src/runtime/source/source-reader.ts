import type { InputStatus, SourceEvent, SourceSplit } from './source-split.js';
import type { ReaderOutput } from './reader-output.js';

/** What a reader may ask of the runtime (Flink's `SourceReaderContext`). */
export interface SourceReaderContext {
  /** The 0-based index of the subtask this reader runs in. */
  readonly subtaskIndex: number;
  /** How many readers this source has; stable for the life of the reader. */
  readonly parallelism: number;
  /** The runtime configuration as raw keys. */
  readonly config: ReadonlyMap<string, string>;
  /**
   * `source.reader.element.queue.capacity` (default 2): pass it to the `SplitFetcherManager` so the
   * queue between fetchers and the task holds at most this many fetched batches.
   */
  readonly elementQueueCapacity: number;
  /** Asks the enumerator for a split: leads to `SplitEnumerator.handleSplitRequest` on a later turn. */
  sendSplitRequest(): void;
  /** Sends a custom event to `SplitEnumerator.handleSourceEvent`, delivered on a later turn. */
  sendSourceEventToCoordinator(event: SourceEvent): void;
  /**
   * Counts bytes the reader consumed from its splits (Flink's `numBytesIn` counter of a source). Optional to
   * call; with `pendingBytes` it gives a bounded source's progress by bytes. Call it on the task's turn
   * (from `pollNext` or the record emitter), once per batch rather than per record.
   */
  countBytesIn(bytes: number): void;
}

/**
 * Reads splits in one subtask (Flink's `SourceReader`). All methods are called by the source task on its
 * own turn of the event loop, never concurrently with each other.
 *
 * Batching: Flink's "pollNext emits about one record" becomes "pollNext emits one fetched batch" here,
 * so the per-call cost is paid per batch, not per record.
 */
export interface SourceReader<T, SplitT extends SourceSplit> {
  /** Called once before anything else; may start fetchers or ask for splits. */
  start(): void | Promise<void>;
  /**
   * Emits what is ready into `output` and returns at once: it must not await or spin. Return
   * `MORE_AVAILABLE` if calling again now would emit more, `NOTHING_AVAILABLE` to be called again after
   * `isAvailable()` resolves, `END_OF_INPUT` when no split is left and none will come.
   */
  pollNext(output: ReaderOutput<T>): InputStatus;
  /**
   * Resolves when `pollNext` may have data. False positives are fine (the task just polls again);
   * a promise that is always resolved makes the task spin, so return a pending one when idle.
   * Called after `pollNext` returned `NOTHING_AVAILABLE`.
   */
  isAvailable(): Promise<void>;
  /**
   * The reader's splits with their current positions, for checkpoint `checkpointId`. Called between two
   * `pollNext` calls, so the state matches exactly the records emitted so far. Must not await.
   */
  snapshotState(checkpointId: number): SplitT[];
  /** New splits from the enumerator, or restored from a checkpoint before `start`. */
  addSplits(splits: SplitT[]): void;
  /** The enumerator will send no more splits; once the current ones end, `pollNext` may report END_OF_INPUT. */
  notifyNoMoreSplits(): void;
  /** A custom event from the enumerator. Optional. */
  handleSourceEvents?(event: SourceEvent): void;
  /** Checkpoint `checkpointId` completed everywhere (Kafka commits offsets here). Optional; may be async. */
  notifyCheckpointComplete?(checkpointId: number): void | Promise<void>;
  /**
   * Watermark alignment: stop fetching `toPause`, resume `toResume`. Readers that cannot pause omit this;
   * alignment then only reports.
   */
  pauseOrResumeSplits?(toPause: readonly string[], toResume: readonly string[]): void;
  /**
   * Records still to read that the reader knows of (Flink's `pendingRecords` gauge: a Kafka reader's
   * consumer lag, a bounded generator's remaining rows); undefined when it does not know. Optional. Called
   * by monitoring at any time from outside the task; must be cheap, must not await or change anything.
   */
  pendingRecords?(): number | undefined;
  /**
   * Bytes of the splits the reader owns that it has still to consume (Flink's `pendingBytes` gauge); undefined
   * when it does not know. A bounded source that implements this also implements
   * `SplitEnumerator.pendingBytes` and counts `countBytesIn`: the three give its progress. Same contract as
   * `pendingRecords`.
   */
  pendingBytes?(): number | undefined;
  /** Releases fetchers and clients. Called once, also after failures; must not throw for a half-started reader. */
  close(): Promise<void>;
}
