import type { SourceSplit } from './source-split.js';

/** Splits added to or removed from a `SplitReader` (Flink's `SplitsAddition` / `SplitsRemoval`). */
export type SplitsChange<SplitT extends SourceSplit> =
  | { readonly kind: 'add'; readonly splits: readonly SplitT[] }
  | { readonly kind: 'remove'; readonly splits: readonly SplitT[] };

/**
 * One fetched batch, grouped by split (Flink's `RecordsWithSplitIds`). Consumed by `SourceReaderBase` on
 * the task's turn: `nextSplit()` then `nextRecordFromSplit()` until null, repeated; then `finishedSplits()`.
 */
export interface RecordsWithSplitIds<E> {
  /** The next split with records in this batch, or null when the batch is exhausted. */
  nextSplit(): string | null;
  /** The next record of the current split, or null when that split has no more in this batch. */
  nextRecordFromSplit(): E | null;
  /** Splits that ended with this batch (their last records, if any, are in it). */
  finishedSplits(): ReadonlySet<string>;
  /** Called after the batch is consumed; may return pooled buffers. Optional. */
  recycle?(): void;
}

/** The default `RecordsWithSplitIds`: records grouped per split in insertion order. */
export class RecordsBySplits<E> implements RecordsWithSplitIds<E> {
  private readonly ids: string[];
  private splitIndex = -1;
  private current: readonly E[] = [];
  private recordIndex = 0;

  constructor(
    private readonly bySplit: ReadonlyMap<string, readonly E[]>,
    private readonly finished: ReadonlySet<string> = new Set(),
  ) {
    this.ids = [...bySplit.keys()];
  }

  /** A batch that only reports finished splits. */
  static finished<E>(splitIds: Iterable<string>): RecordsBySplits<E> {
    return new RecordsBySplits<E>(new Map(), new Set(splitIds));
  }

  nextSplit(): string | null {
    this.splitIndex++;
    if (this.splitIndex >= this.ids.length) return null;
    const id = this.ids[this.splitIndex]!;
    this.current = this.bySplit.get(id) ?? [];
    this.recordIndex = 0;
    return id;
  }

  nextRecordFromSplit(): E | null {
    return this.recordIndex < this.current.length ? this.current[this.recordIndex++]! : null;
  }

  /** Fast path used by `SourceReaderBase`: the rest of the current split's records in this batch. */
  remainingOfSplit(): readonly E[] {
    const rest = this.recordIndex === 0 ? this.current : this.current.slice(this.recordIndex);
    this.recordIndex = this.current.length;
    return rest;
  }

  finishedSplits(): ReadonlySet<string> {
    return this.finished;
  }
}

/**
 * Talks to the external system for a fetcher (Flink's `SplitReader`). A connector built on
 * `SourceReaderBase` implements this and a `RecordEmitter`, nothing about queues or checkpoints.
 * Each SplitReader is used by exactly one fetcher loop; calls never overlap except `wakeUp`.
 */
export interface SplitReader<E, SplitT extends SourceSplit> {
  /**
   * Fetches the next batch from the assigned, unpaused splits. May wait (it is awaited by the fetcher
   * loop, off the task's path), but must resolve soon after `wakeUp()` (an empty batch is fine).
   * Must be re-entrant: after a wake-up the next call continues where the last left off. A split that
   * ended (bounded stop offset, sealed segment) is reported in `finishedSplits()`. Rejecting fails the job
   * with the connector's error message.
   */
  fetch(): Promise<RecordsWithSplitIds<E>>;
  /** Splits added or removed; must not wait. Splits it cannot read are reported finished by the next fetch. */
  handleSplitsChanges(change: SplitsChange<SplitT>): void;
  /** Makes a pending `fetch` resolve promptly. Called from the task side at any time. */
  wakeUp(): void;
  /** Stops fetching the `toPause` splits and resumes `toResume`. Optional (needed for alignment). */
  pauseOrResumeSplits?(toPause: readonly SplitT[], toResume: readonly SplitT[]): void;
  /** Releases clients; called once. */
  close(): Promise<void>;
}
