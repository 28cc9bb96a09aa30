import { ConnectorError } from '../../errors/sluice-error.js';
import type { SplitEnumerator, SplitEnumeratorContext } from '../../runtime/index.js';
import { bytesLeft } from './file-progress.js';
import { rangeSizeFor, toRanges } from './file-ranges.js';
import type { FileEnumState, FileSourceSettings, FileSplit } from './file-source.js';

/** Discovers files once (bounded) or every `monitorIntervalMs` (continuous) and hands them out on request. */
export class FileEnumerator implements SplitEnumerator<FileSplit, FileEnumState> {
  private readonly waiting = new Set<number>();
  private readonly seen: Set<string>;
  private discovered: boolean;

  constructor(
    private readonly ctx: SplitEnumeratorContext<FileSplit>,
    private readonly s: FileSourceSettings,
    /** Lists the visible files below the root (`listFiles`); runs off the enumerator's turn. */
    private readonly list: () => Promise<FileSplit[]>,
    private readonly unassigned: FileSplit[],
    seen: readonly string[],
    discovered: boolean,
  ) {
    this.seen = new Set(seen);
    this.discovered = discovered;
  }

  start(): void {
    if (this.s.monitorIntervalMs !== undefined) {
      this.ctx.callAsync(this.list, (files, err) => this.onDiscovered(files, err), 0, this.s.monitorIntervalMs);
    } else if (!this.discovered) {
      this.ctx.callAsync(this.list, (files, err) => this.onDiscovered(files, err));
    }
  }

  private onDiscovered(files: FileSplit[] | undefined, err: unknown): void {
    if (err !== undefined) {
      // listFiles already names the path and the problem; anything else gets the root named here.
      if (err instanceof ConnectorError) throw err;
      throw new ConnectorError(`Cannot list files under '${this.s.root}': ${(err as Error).message}`, { cause: err });
    }
    const fresh = (files ?? []).filter((f) => !this.seen.has(f.path));
    const sizing = this.s.format.kind === 'lines' ? this.s.split : undefined;
    const rangeSize = sizing === undefined ? Infinity : rangeSizeFor(fresh.map((f) => f.size), this.ctx.currentParallelism(), sizing);
    for (const f of fresh) {
      // A path is seen once all its ranges are queued, so a monitored file is never read twice.
      this.seen.add(f.path);
      this.unassigned.push(...(f.size > rangeSize ? toRanges(f, rangeSize) : [f]));
    }
    this.discovered = true;
    for (const subtask of [...this.waiting]) {
      this.waiting.delete(subtask);
      this.handleSplitRequest(subtask);
    }
  }

  handleSplitRequest(subtask: number): void {
    const next = this.unassigned.shift();
    if (next) this.ctx.assignSplit(next, subtask);
    else if (this.discovered && this.s.monitorIntervalMs === undefined) this.ctx.signalNoMoreSplits(subtask);
    else this.waiting.add(subtask);
  }

  addSplitsBack(splits: FileSplit[]): void {
    this.unassigned.unshift(...splits);
  }

  addReader(): void {}

  /** Bytes in splits not handed out, once a bounded source listed its files; continuous monitoring may find more. */
  pendingBytes(): number | undefined {
    if (!this.discovered || this.s.monitorIntervalMs !== undefined) return undefined;
    const bulk = this.s.format.kind === 'bulk';
    let left = 0;
    for (const split of this.unassigned) left += bytesLeft(split, split.offset, bulk);
    return left;
  }

  snapshotState(): FileEnumState {
    return { unassigned: [...this.unassigned], seen: [...this.seen], discovered: this.discovered };
  }

  async close(): Promise<void> {}
}
