import type { SourceSplit } from './source-split.js';
import type { RecordsWithSplitIds, SplitReader } from './split-reader.js';
import type { ElementQueue } from './element-queue.js';

type FetcherTask<SplitT> =
  | { readonly kind: 'add'; readonly splits: readonly SplitT[] }
  | { readonly kind: 'pause'; readonly toPause: readonly SplitT[]; readonly toResume: readonly SplitT[] };

/**
 * One fetch loop (Flink's `SplitFetcher`, an async loop instead of a thread): applies pending split
 * changes, then `await reader.fetch()` and `await queue.put(batch)`. Stops when closed or, once all its
 * splits finished and no new ones came, becomes idle (`isIdle`). An error ends the loop and is kept for
 * the manager to rethrow on the task.
 */
export class SplitFetcher<E, SplitT extends SourceSplit> {
  private readonly tasks: FetcherTask<SplitT>[] = [];
  private readonly assigned = new Map<string, SplitT>();
  private readonly paused = new Set<string>();
  private closed = false;
  private running: Promise<void> | undefined;
  private wakeIdle: (() => void) | undefined;
  error: unknown = undefined;

  constructor(
    readonly index: number,
    private readonly reader: SplitReader<E, SplitT>,
    private readonly queue: ElementQueue<RecordsWithSplitIds<E>>,
    private readonly onFailure: () => void,
  ) {}

  get splitCount(): number {
    return this.assigned.size;
  }

  /** True when the fetcher has no splits and no pending tasks. */
  isIdle(): boolean {
    return this.assigned.size === 0 && this.tasks.length === 0;
  }

  ownsSplit(splitId: string): boolean {
    return this.assigned.has(splitId);
  }

  start(): void {
    this.running ??= this.loop();
  }

  addSplits(splits: readonly SplitT[]): void {
    for (const s of splits) this.assigned.set(s.splitId, s);
    this.enqueue({ kind: 'add', splits });
  }

  pauseOrResume(toPause: readonly SplitT[], toResume: readonly SplitT[]): void {
    this.enqueue({ kind: 'pause', toPause, toResume });
  }

  private enqueue(task: FetcherTask<SplitT>): void {
    this.tasks.push(task);
    this.reader.wakeUp();
    this.queue.wakeUpPutter(this.index);
    this.wakeIdle?.();
  }

  private async loop(): Promise<void> {
    let pendingBatch: RecordsWithSplitIds<E> | undefined;
    try {
      while (!this.closed) {
        while (this.tasks.length > 0) this.apply(this.tasks.shift()!);
        if (pendingBatch) {
          // A put interrupted by a wake-up is retried after the tasks ran, so no batch is lost.
          if (!(await this.queue.put(this.index, pendingBatch))) continue;
          pendingBatch = undefined;
        }
        const active = this.assigned.size - this.paused.size;
        if (active <= 0) {
          await new Promise<void>((resolve) => {
            this.wakeIdle = resolve;
            if (this.closed || this.tasks.length > 0) resolve();
          });
          this.wakeIdle = undefined;
          continue;
        }
        const batch = await this.reader.fetch();
        for (const id of batch.finishedSplits()) {
          this.assigned.delete(id);
          this.paused.delete(id);
        }
        if (this.closed) break;
        pendingBatch = batch;
        if (await this.queue.put(this.index, batch)) pendingBatch = undefined;
      }
    } catch (e) {
      this.error = e;
      this.onFailure();
    }
  }

  private apply(task: FetcherTask<SplitT>): void {
    switch (task.kind) {
      case 'add':
        this.reader.handleSplitsChanges({ kind: 'add', splits: task.splits });
        break;
      case 'pause':
        for (const s of task.toPause) this.paused.add(s.splitId);
        for (const s of task.toResume) this.paused.delete(s.splitId);
        this.reader.pauseOrResumeSplits?.(task.toPause, task.toResume);
        break;
      default: {
        const never: never = task;
        throw new Error(`unknown fetcher task ${String(never)}`);
      }
    }
  }

  /** Stops the loop and closes the split reader. */
  async close(): Promise<void> {
    this.closed = true;
    this.reader.wakeUp();
    this.queue.wakeUpPutter(this.index);
    this.wakeIdle?.();
    await this.running;
    await this.reader.close();
  }
}
