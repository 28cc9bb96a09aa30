import type { SourceEvent, SourceSplit } from './source-split.js';

/** A registered reader (Flink's `ReaderInfo`). */
export interface ReaderInfo {
  readonly subtaskIndex: number;
}

/**
 * The enumerator's handle on the runtime (Flink's `SplitEnumeratorContext`). All methods may be called
 * from any enumerator callback; deliveries to readers happen on later turns of the event loop and, while
 * a checkpoint is being taken, are held back until that reader has snapshotted (so a split is never both
 * in the enumerator's checkpoint and a reader's).
 */
export interface SplitEnumeratorContext<SplitT extends SourceSplit> {
  /** How many readers (subtasks) the source has. */
  currentParallelism(): number;
  /** Readers that have registered so far (subtask index -> info). */
  registeredReaders(): ReadonlyMap<number, ReaderInfo>;
  /** Assigns several splits at once: subtask index -> splits. */
  assignSplits(assignment: ReadonlyMap<number, readonly SplitT[]>): void;
  /** Assigns one split to one reader. */
  assignSplit(split: SplitT, subtaskIndex: number): void;
  /** Tells a reader no more splits will come; a bounded source needs this to finish. */
  signalNoMoreSplits(subtaskIndex: number): void;
  /** Sends a custom event to a reader's `handleSourceEvents`. */
  sendEventToSourceReader(subtaskIndex: number, event: SourceEvent): void;
  /**
   * Runs `callable` (async, e.g. partition discovery against a broker) and then `handler` with its result
   * or error on the coordinator's turn. With `periodMs` it repeats until the enumerator is closed.
   * `callable` must not touch enumerator state; `handler` may. A handler that throws fails the job.
   */
  callAsync<R>(
    callable: () => Promise<R>,
    handler: (result: R | undefined, error: unknown) => void,
    initialDelayMs?: number,
    periodMs?: number,
  ): void;
}

/**
 * Discovers and assigns splits; one per source per job (Flink's `SplitEnumerator`). Its methods are called
 * by the source coordinator one at a time, never concurrently.
 */
export interface SplitEnumerator<SplitT extends SourceSplit, CheckpointT> {
  /** Called once after creation or restore; usually schedules discovery with `callAsync`. */
  start(): void | Promise<void>;
  /** Reader `subtaskIndex` asked for a split (`SourceReaderContext.sendSplitRequest`). */
  handleSplitRequest(subtaskIndex: number): void;
  /**
   * Splits handed to `subtaskIndex` after the last completed checkpoint, returned because that reader
   * failed. (With whole-job restarts the runtime restores the enumerator instead, so this is rare.)
   */
  addSplitsBack(splits: SplitT[], subtaskIndex: number): void;
  /** Reader `subtaskIndex` registered; push-style enumerators assign here. */
  addReader(subtaskIndex: number): void;
  /** The enumerator's state (typically unassigned splits) for checkpoint `checkpointId`. Must not await. */
  snapshotState(checkpointId: number): CheckpointT;
  /** Optional: checkpoint `checkpointId` completed. */
  notifyCheckpointComplete?(checkpointId: number): void;
  /** Optional: checkpoint `checkpointId` was aborted. */
  notifyCheckpointAborted?(checkpointId: number): void;
  /** Optional: a custom event from a reader. */
  handleSourceEvent?(subtaskIndex: number, event: SourceEvent): void;
  /**
   * Optional: bytes in the splits not handed to a reader yet, once the enumerator knows all splits there will
   * be (a bounded file source after listing its files); undefined before that, or when more may come. With
   * the readers' `pendingBytes` it is what a bounded source has left. Called by monitoring at any time; must
   * be cheap, must not change anything.
   */
  pendingBytes?(): number | undefined;
  /** Called once when the job ends or restarts. */
  close(): Promise<void>;
}
