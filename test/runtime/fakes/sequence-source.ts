import { Row } from '../../../src/types/row.js';
import {
  jsonSerializer, PerSplitFetcherManager, RecordsBySplits, SingleThreadFetcherManager, SourceReaderBase,
  type Boundedness, type RecordEmitter, type RecordsWithSplitIds, type Source, type SourceOutput, type SourceReader,
  type SourceReaderContext, type SplitEnumerator, type SplitEnumeratorContext, type SplitReader, type SplitsChange,
  type VersionedSerializer,
} from '../../../src/runtime/index.js';

/** Numbers [next, end] of one range. */
export interface SeqSplit {
  readonly splitId: string;
  readonly next: number;
  readonly end: number;
}

export interface SeqEnumState {
  readonly unassigned: SeqSplit[];
}

export interface SequenceOptions {
  readonly from: number;
  readonly to: number;
  readonly splits: number;
  readonly batchSize?: number;
  readonly fetcherModel?: 'single' | 'per-split';
  /** Each fetch waits this long (ms); 0 = a macrotask. Keeps test jobs long enough to checkpoint. */
  readonly fetchDelayMs?: number;
  readonly boundedness?: Boundedness;
  readonly queueCapacity?: number;
  /** Observes the reader's element queue size after every put (for backpressure tests). */
  readonly onQueueSize?: (size: number, capacity: number) => void;
  /** Called with each split id as a reader receives it. */
  readonly onAssign?: (subtask: number, splitId: string) => void;
  /** Makes fetch reject with this message when the given number is about to be read. */
  readonly failFetchAt?: number;
  /** Called when the split reader is asked to pause or resume splits (watermark alignment). */
  readonly onPauseOrResume?: (paused: readonly string[], resumed: readonly string[]) => void;
}

class SeqSplitReader implements SplitReader<number, SeqSplit> {
  private readonly splits = new Map<string, { next: number; end: number }>();
  private readonly paused = new Set<string>();
  constructor(private readonly o: SequenceOptions) {}

  async fetch(): Promise<RecordsWithSplitIds<number>> {
    const d = this.o.fetchDelayMs ?? 0;
    await new Promise((r) => (d > 0 ? setTimeout(r, d) : setImmediate(r)));
    const bySplit = new Map<string, number[]>();
    const finished = new Set<string>();
    const size = this.o.batchSize ?? 100;
    for (const [id, s] of this.splits) {
      if (this.paused.has(id)) continue;
      const out: number[] = [];
      while (out.length < size && s.next <= s.end) {
        if (s.next === this.o.failFetchAt) throw new Error(`broker unreachable while reading ${s.next}`);
        out.push(s.next++);
      }
      if (out.length > 0) bySplit.set(id, out);
      if (s.next > s.end) finished.add(id);
    }
    for (const id of finished) this.splits.delete(id);
    return new RecordsBySplits(bySplit, finished);
  }
  handleSplitsChanges(c: SplitsChange<SeqSplit>): void {
    if (c.kind === 'add') for (const s of c.splits) this.splits.set(s.splitId, { next: s.next, end: s.end });
  }
  wakeUp(): void {}
  pauseOrResumeSplits(p: readonly SeqSplit[], r: readonly SeqSplit[]): void {
    this.o.onPauseOrResume?.(p.map((s) => s.splitId), r.map((s) => s.splitId));
    for (const s of p) this.paused.add(s.splitId);
    for (const s of r) this.paused.delete(s.splitId);
  }
  async close(): Promise<void> {}
}

interface SeqState {
  next: number;
  readonly end: number;
}

const emitter: RecordEmitter<number, Row, SeqState> = {
  emitRecord(n: number, out: SourceOutput<Row>, st: SeqState) {
    out.collect(Row.insert(n, n));
    st.next = n + 1;
  },
};

class SeqReader extends SourceReaderBase<number, Row, SeqSplit, SeqState> {
  constructor(o: SequenceOptions, ctx: SourceReaderContext) {
    const factory = (): SplitReader<number, SeqSplit> => new SeqSplitReader(o);
    const cap = o.queueCapacity ?? ctx.elementQueueCapacity;
    const mgr = o.fetcherModel === 'per-split' ? new PerSplitFetcherManager(factory, cap) : new SingleThreadFetcherManager(factory, cap);
    if (o.onQueueSize) {
      const q = mgr.queue;
      const put = q.put.bind(q);
      q.put = async (i, item) => {
        const ok = await put(i, item);
        o.onQueueSize!(q.size, q.capacity);
        return ok;
      };
    }
    super(mgr, emitter, ctx);
    this.opts = o;
  }
  private readonly opts: SequenceOptions;
  protected initializedState(s: SeqSplit): SeqState {
    this.opts.onAssign?.(this.context.subtaskIndex, s.splitId);
    return { next: s.next, end: s.end };
  }
  protected toSplitType(id: string, st: SeqState): SeqSplit {
    return { splitId: id, next: st.next, end: st.end };
  }
}

class SeqEnumerator implements SplitEnumerator<SeqSplit, SeqEnumState> {
  constructor(private readonly ctx: SplitEnumeratorContext<SeqSplit>, private readonly unassigned: SeqSplit[]) {}
  start(): void {}
  handleSplitRequest(subtask: number): void {
    const s = this.unassigned.shift();
    if (s) this.ctx.assignSplit(s, subtask);
    else this.ctx.signalNoMoreSplits(subtask);
  }
  addSplitsBack(splits: SeqSplit[]): void {
    this.unassigned.push(...splits);
  }
  addReader(): void {}
  snapshotState(): SeqEnumState {
    return { unassigned: [...this.unassigned] };
  }
  async close(): Promise<void> {}
}

/** Numbers `from..to` split into ranges; positions are checkpointed; bounded by default. */
export class SequenceSource implements Source<Row, SeqSplit, SeqEnumState> {
  constructor(readonly o: SequenceOptions) {}
  boundedness(): Boundedness {
    return this.o.boundedness ?? 'BOUNDED';
  }
  createReader(ctx: SourceReaderContext): SourceReader<Row, SeqSplit> {
    return new SeqReader(this.o, ctx);
  }
  createEnumerator(ctx: SplitEnumeratorContext<SeqSplit>): SplitEnumerator<SeqSplit, SeqEnumState> {
    const { from, to, splits } = this.o;
    const per = Math.ceil((to - from + 1) / splits);
    const list: SeqSplit[] = [];
    for (let i = 0; i < splits; i++) {
      const a = from + i * per, b = Math.min(to, a + per - 1);
      if (a <= b) list.push({ splitId: `range-${i}`, next: a, end: b });
    }
    return new SeqEnumerator(ctx, list);
  }
  restoreEnumerator(ctx: SplitEnumeratorContext<SeqSplit>, cp: SeqEnumState): SplitEnumerator<SeqSplit, SeqEnumState> {
    return new SeqEnumerator(ctx, [...cp.unassigned]);
  }
  getSplitSerializer(): VersionedSerializer<SeqSplit> {
    return jsonSerializer();
  }
  getEnumeratorCheckpointSerializer(): VersionedSerializer<SeqEnumState> {
    return jsonSerializer();
  }
}
