import { ConnectorError } from '../../errors/sluice-error.js';
import { ElementQueue } from './element-queue.js';
import { SplitFetcher } from './split-fetcher.js';
import type { SourceSplit } from './source-split.js';
import type { RecordsWithSplitIds, SplitReader } from './split-reader.js';

/**
 * Owns the fetch loops of one source reader and the element queue they fill (Flink's
 * `SplitFetcherManager`). Subclasses choose the model: one fetcher for all splits
 * (`SingleThreadFetcherManager`) or one per split (`PerSplitFetcherManager`). Called by `SourceReaderBase`
 * on the task's turn.
 */
export abstract class SplitFetcherManager<E, SplitT extends SourceSplit> {
  readonly queue: ElementQueue<RecordsWithSplitIds<E>>;
  protected readonly fetchers = new Map<number, SplitFetcher<E, SplitT>>();
  private nextIndex = 0;
  /**
   * The first fetcher failure, kept here even once its fetcher is gone. Its wake-up (`notifyAvailable`) reaches only
   * a task already waiting, so a task that polled just before the failure and waits after it must see this instead,
   * or it would wait for ever.
   */
  private failure: { readonly error: unknown } | undefined;

  constructor(
    protected readonly splitReaderFactory: () => SplitReader<E, SplitT>,
    queueCapacity = 2,
  ) {
    this.queue = new ElementQueue(queueCapacity);
  }

  /** Hands new splits to fetchers, creating and starting fetchers as the model requires. */
  abstract addSplits(splits: readonly SplitT[]): void;

  protected createSplitFetcher(): SplitFetcher<E, SplitT> {
    const idx = this.nextIndex++;
    const f: SplitFetcher<E, SplitT> = new SplitFetcher<E, SplitT>(idx, this.splitReaderFactory(), this.queue, () => {
      this.failure ??= { error: f.error };
      this.queue.notifyAvailable();
    });
    this.fetchers.set(idx, f);
    return f;
  }

  /** Routes pause/resume to the fetchers owning the splits. */
  pauseOrResumeSplits(toPause: readonly SplitT[], toResume: readonly SplitT[]): void {
    for (const f of this.fetchers.values()) {
      const p = toPause.filter((s) => f.ownsSplit(s.splitId));
      const r = toResume.filter((s) => f.ownsSplit(s.splitId));
      if (p.length > 0 || r.length > 0) f.pauseOrResume(p, r);
    }
  }

  /** Resolves when an element may be available or a fetcher failed (the next `checkErrors` then throws). */
  availability(): Promise<void> {
    return this.failure !== undefined ? Promise.resolve() : this.queue.availability();
  }

  /** Rethrows the first fetcher error as the task's failure, keeping the connector's message. */
  checkErrors(): void {
    if (this.failure === undefined) return;
    const e = this.failure.error;
    if (e instanceof Error && 'category' in e) throw e;
    throw new ConnectorError(`Source fetcher failed: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }

  /** Closes fetchers that have no splits left; true when none remain. */
  async maybeShutdownFinishedFetchers(): Promise<boolean> {
    for (const [idx, f] of [...this.fetchers]) {
      if (f.isIdle()) {
        this.fetchers.delete(idx);
        await f.close();
      }
    }
    return this.fetchers.size === 0;
  }

  /** True when every fetcher has no splits left (synchronous check). */
  allFetchersIdle(): boolean {
    for (const f of this.fetchers.values()) if (!f.isIdle()) return false;
    return true;
  }

  async close(): Promise<void> {
    const fs = [...this.fetchers.values()];
    this.fetchers.clear();
    await Promise.all(fs.map((f) => f.close()));
  }
}

/** One fetcher multiplexing all splits of the reader (Kafka-style: one consumer for all partitions). */
export class SingleThreadFetcherManager<E, SplitT extends SourceSplit> extends SplitFetcherManager<E, SplitT> {
  addSplits(splits: readonly SplitT[]): void {
    let f = [...this.fetchers.values()][0];
    if (!f) {
      f = this.createSplitFetcher();
      f.start();
    }
    f.addSplits(splits);
  }
}

/** One fetcher per split (file-style: each split read independently). */
export class PerSplitFetcherManager<E, SplitT extends SourceSplit> extends SplitFetcherManager<E, SplitT> {
  addSplits(splits: readonly SplitT[]): void {
    for (const s of splits) {
      const f = this.createSplitFetcher();
      f.start();
      f.addSplits([s]);
    }
  }
}
