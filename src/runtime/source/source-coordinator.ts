import type { Row } from '../../types/row.js';
import type { AnySource } from './source.js';
import type { SourceEvent, SourceSplit } from './source-split.js';
import type { ReaderInfo, SplitEnumerator, SplitEnumeratorContext } from './split-enumerator.js';

/** What the coordinator delivers to a source task (processed by the task on its own turn). */
export type ReaderEvent =
  | { readonly kind: 'splits'; readonly splits: SourceSplit[] }
  | { readonly kind: 'no-more-splits' }
  | { readonly kind: 'event'; readonly event: SourceEvent };

/** The coordinator's view of a running source task. */
export interface ReaderGateway {
  deliver(event: ReaderEvent): void;
}

/**
 * Runs one source's enumerator and routes events between it and the readers (Flink's
 * `SourceCoordinator`). While a checkpoint is in progress, deliveries to a reader that has not yet
 * snapshotted are held in a valve, so an assignment made after the enumerator's snapshot is never
 * also part of the reader's snapshot.
 */
export class SourceCoordinator implements SplitEnumeratorContext<SourceSplit> {
  private enumerator: SplitEnumerator<SourceSplit, unknown> | undefined;
  private readonly readers = new Map<number, ReaderGateway>();
  private readonly infos = new Map<number, ReaderInfo>();
  private readonly held = new Map<number, ReaderEvent[]>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    readonly sourceName: string,
    private readonly source: AnySource<Row>,
    private readonly parallelism: number,
    /** Reports an error from an enumerator callback: fails the job. */
    private readonly fail: (error: unknown) => void,
  ) {}

  async start(restored: unknown): Promise<void> {
    this.enumerator = restored === undefined ? this.source.createEnumerator(this) : this.source.restoreEnumerator(this, restored);
    await this.enumerator.start();
  }

  private get enum(): SplitEnumerator<SourceSplit, unknown> {
    if (!this.enumerator) throw new Error(`enumerator of source '${this.sourceName}' is not started`);
    return this.enumerator;
  }

  // --- from readers (deferred to a later turn, as Flink's operator events) ---

  registerReader(subtask: number, gateway: ReaderGateway): void {
    this.readers.set(subtask, gateway);
    this.infos.set(subtask, { subtaskIndex: subtask });
    this.later(() => this.enum.addReader(subtask));
  }

  unregisterReader(subtask: number): void {
    this.readers.delete(subtask);
    this.infos.delete(subtask);
  }

  requestSplit(subtask: number): void {
    this.later(() => this.enum.handleSplitRequest(subtask));
  }

  sourceEventFromReader(subtask: number, event: SourceEvent): void {
    this.later(() => this.enum.handleSourceEvent?.(subtask, event));
  }

  private later(fn: () => void): void {
    setImmediate(() => {
      if (this.closed) return;
      try {
        fn();
      } catch (e) {
        this.fail(e);
      }
    });
  }

  // --- checkpoints ---

  /** Snapshots the enumerator and closes every reader's valve until `openValve(subtask)`. */
  snapshotAndCloseValves(checkpointId: number, subtasks: Iterable<number>): unknown {
    const state = this.enum.snapshotState(checkpointId);
    for (const s of subtasks) if (!this.held.has(s)) this.held.set(s, []);
    return state;
  }

  openValve(subtask: number): void {
    const events = this.held.get(subtask);
    if (!events) return;
    this.held.delete(subtask);
    const r = this.readers.get(subtask);
    if (r) for (const e of events) r.deliver(e);
  }

  notifyCheckpointComplete(checkpointId: number): void {
    this.enumerator?.notifyCheckpointComplete?.(checkpointId);
  }

  notifyCheckpointAborted(checkpointId: number): void {
    this.enumerator?.notifyCheckpointAborted?.(checkpointId);
    for (const s of [...this.held.keys()]) this.openValve(s);
  }

  // --- SplitEnumeratorContext ---

  currentParallelism(): number {
    return this.parallelism;
  }

  registeredReaders(): ReadonlyMap<number, ReaderInfo> {
    return this.infos;
  }

  private send(subtask: number, e: ReaderEvent): void {
    const held = this.held.get(subtask);
    if (held) {
      held.push(e);
      return;
    }
    const r = this.readers.get(subtask);
    if (r) {
      r.deliver(e);
      return;
    }
    // A reader that already finished needs no signal; handing it splits would lose them.
    if (e.kind === 'splits') {
      throw new Error(`source '${this.sourceName}': cannot assign splits to subtask ${subtask}, which has no running reader`);
    }
  }

  assignSplits(assignment: ReadonlyMap<number, readonly SourceSplit[]>): void {
    for (const [subtask, splits] of assignment) this.send(subtask, { kind: 'splits', splits: [...splits] });
  }

  assignSplit(split: SourceSplit, subtaskIndex: number): void {
    this.send(subtaskIndex, { kind: 'splits', splits: [split] });
  }

  signalNoMoreSplits(subtaskIndex: number): void {
    this.send(subtaskIndex, { kind: 'no-more-splits' });
  }

  sendEventToSourceReader(subtaskIndex: number, event: SourceEvent): void {
    this.send(subtaskIndex, { kind: 'event', event });
  }

  callAsync<R>(
    callable: () => Promise<R>,
    handler: (result: R | undefined, error: unknown) => void,
    initialDelayMs = 0,
    periodMs?: number,
  ): void {
    const run = (): void => {
      if (this.closed) return;
      callable().then(
        (r) => this.runHandler(() => handler(r, undefined)),
        (e: unknown) => this.runHandler(() => handler(undefined, e)),
      ).finally(() => {
        if (periodMs !== undefined && periodMs > 0) schedule(periodMs);
      });
    };
    const schedule = (delay: number): void => {
      if (this.closed) return;
      const t = setTimeout(() => {
        this.timers.delete(t);
        run();
      }, delay);
      this.timers.add(t);
    };
    schedule(initialDelayMs);
  }

  private runHandler(fn: () => void): void {
    if (this.closed) return;
    try {
      fn();
    } catch (e) {
      this.fail(e);
    }
  }

  /** The enumerator's `pendingBytes`; undefined when it does not know, is not started, or its gauge throws. */
  pendingBytes(): number | undefined {
    try {
      return this.enumerator?.pendingBytes?.();
    } catch {
      return undefined;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await this.enumerator?.close();
  }
}
