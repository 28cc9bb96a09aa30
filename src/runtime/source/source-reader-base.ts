import type { InputStatus, SourceEvent, SourceSplit } from './source-split.js';
import type { ReaderOutput, SourceOutput } from './reader-output.js';
import type { SourceReader, SourceReaderContext } from './source-reader.js';
import type { RecordEmitter } from './record-emitter.js';
import type { SplitFetcherManager } from './split-fetcher-manager.js';
import { RecordsBySplits, type RecordsWithSplitIds } from './split-reader.js';

interface SplitContext<T, SplitStateT> {
  readonly splitId: string;
  readonly state: SplitStateT;
  output: SourceOutput<T> | undefined;
}

/**
 * The reader a connector extends (Flink's `SourceReaderBase`): fetchers fill the bounded element queue,
 * `pollNext` takes one fetched batch and walks it through the `RecordEmitter` into per-split outputs,
 * split states are kept here and snapshotted on checkpoints. A connector only implements
 * `initializedState`, `toSplitType`, optionally `onSplitFinished`, plus its `SplitReader` and emitter.
 */
export abstract class SourceReaderBase<E, T, SplitT extends SourceSplit, SplitStateT>
  implements SourceReader<T, SplitT>
{
  private readonly splitStates = new Map<string, SplitContext<T, SplitStateT>>();
  private current: RecordsWithSplitIds<E> | undefined;
  private noMoreSplits = false;

  constructor(
    protected readonly fetcherManager: SplitFetcherManager<E, SplitT>,
    protected readonly recordEmitter: RecordEmitter<E, T, SplitStateT>,
    protected readonly context: SourceReaderContext,
  ) {}

  /** The mutable per-split state a new split starts from (called from `addSplits`). */
  protected abstract initializedState(split: SplitT): SplitStateT;
  /** Turns a split's state back into a split for checkpoints. */
  protected abstract toSplitType(splitId: string, state: SplitStateT): SplitT;
  /** The states of the splits the reader owns now, for gauges such as `pendingRecords`; do not modify. */
  protected currentSplitStates(): SplitStateT[] {
    return [...this.splitStates.values()].map((c) => c.state);
  }

  /** Unknown unless the connector knows (see `SourceReader.pendingRecords`). */
  pendingRecords(): number | undefined {
    return undefined;
  }

  /** Unknown unless the connector knows (see `SourceReader.pendingBytes`). */
  pendingBytes(): number | undefined {
    return undefined;
  }

  /** Splits that ended; their states were removed. Default: ask the enumerator for more. */
  protected onSplitFinished(_finished: ReadonlyMap<string, SplitStateT>): void {
    if (!this.noMoreSplits) this.context.sendSplitRequest();
  }

  start(): void {
    if (this.splitStates.size === 0) this.context.sendSplitRequest();
  }

  pollNext(output: ReaderOutput<T>): InputStatus {
    this.fetcherManager.checkErrors();
    const batch = this.current ?? this.fetcherManager.queue.poll();
    this.current = undefined;
    if (batch === undefined) return this.finishedOrAvailable();
    let splitId = batch.nextSplit();
    while (splitId !== null) {
      const ctx = this.splitStates.get(splitId);
      if (ctx) {
        const out = (ctx.output ??= output.createOutputForSplit(splitId));
        let rec = batch.nextRecordFromSplit();
        while (rec !== null) {
          this.recordEmitter.emitRecord(rec, out, ctx.state);
          rec = batch.nextRecordFromSplit();
        }
      }
      splitId = batch.nextSplit();
    }
    const finished = batch.finishedSplits();
    if (finished.size > 0) {
      const done = new Map<string, SplitStateT>();
      for (const id of finished) {
        const ctx = this.splitStates.get(id);
        if (!ctx) continue;
        done.set(id, ctx.state);
        this.splitStates.delete(id);
        output.releaseOutputForSplit(id);
      }
      if (done.size > 0) this.onSplitFinished(done);
    }
    batch.recycle?.();
    return this.fetcherManager.queue.size > 0 ? 'MORE_AVAILABLE' : this.finishedOrAvailable();
  }

  private finishedOrAvailable(): InputStatus {
    if (this.noMoreSplits && this.splitStates.size === 0 && this.fetcherManager.queue.size === 0) {
      return 'END_OF_INPUT';
    }
    return 'NOTHING_AVAILABLE';
  }

  isAvailable(): Promise<void> {
    return this.fetcherManager.availability();
  }

  snapshotState(_checkpointId: number): SplitT[] {
    const out: SplitT[] = [];
    for (const [id, ctx] of this.splitStates) out.push(this.toSplitType(id, ctx.state));
    return out;
  }

  addSplits(splits: SplitT[]): void {
    for (const s of splits) this.splitStates.set(s.splitId, { splitId: s.splitId, state: this.initializedState(s), output: undefined });
    this.fetcherManager.addSplits(splits);
  }

  notifyNoMoreSplits(): void {
    this.noMoreSplits = true;
    this.fetcherManager.queue.notifyAvailable();
  }

  handleSourceEvents(_event: SourceEvent): void {}

  pauseOrResumeSplits(toPause: readonly string[], toResume: readonly string[]): void {
    const pick = (ids: readonly string[]): SplitT[] =>
      ids.flatMap((id) => {
        const ctx = this.splitStates.get(id);
        return ctx ? [this.toSplitType(id, ctx.state)] : [];
      });
    this.fetcherManager.pauseOrResumeSplits(pick(toPause), pick(toResume));
  }

  async close(): Promise<void> {
    await this.fetcherManager.close();
  }
}

export { RecordsBySplits };
