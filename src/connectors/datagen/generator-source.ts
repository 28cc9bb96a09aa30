import {
  jsonSerializer,
  RecordsBySplits,
  SingleThreadFetcherManager,
  SourceReaderBase,
  type Boundedness,
  type RecordEmitter,
  type RecordsWithSplitIds,
  type Source,
  type SourceOutput,
  type SourceReader,
  type SourceReaderContext,
  type SplitEnumerator,
  type SplitEnumeratorContext,
  type SplitReader,
  type SplitsChange,
  type VersionedSerializer,
} from '../../runtime/index.js';
import type { Row } from '../../types/row.js';

/**
 * One slice of a generated table: the rows with local indexes `[next, end)` of slice `index` out of `of`.
 * The generator maps (slice, local index) to the row, so the position alone is the checkpoint: a restored
 * reader continues at `next` without gaps or repeats.
 */
export interface GeneratorSplit {
  readonly splitId: string;
  readonly index: number;
  readonly of: number;
  /** Next local index to emit. */
  readonly next: number;
  /** Exclusive end; null = unbounded. */
  readonly end: number | null;
  /** Rows per second of this split (its share of the table's rate); null = as fast as possible. */
  readonly rowsPerSecond: number | null;
}

export interface GeneratorEnumState {
  readonly unassigned: GeneratorSplit[];
}

/**
 * Produces rows for a split. Called from the fetch loop once per batch (never per row, never awaited);
 * advances the split's position by exactly `count` generated rows and appends at most `count` to `out`:
 * a generator with filters pushed into it (nexmark) steps over the rows it drops, so positions and
 * checkpoints stay the same with or without push-down.
 */
export interface RowBatchGenerator {
  generate(split: GeneratorSplit, from: number, count: number, out: Row[], now: number): void;
}

export interface GeneratorSourceSettings {
  /** Total rows of the table (null = unbounded); split evenly over `splits` slices. */
  readonly totalRows: number | null;
  /** Rows per second over all slices; null = unlimited. */
  readonly rowsPerSecond: number | null;
  /** Rows per fetched batch when not rate limited. */
  readonly batchSize?: number;
  /** Creates the generator in each reader (called once per reader, so it may hold a PRNG). */
  readonly generator: () => RowBatchGenerator;
  /**
   * How slices split the index space: 'ranges' gives slice i the contiguous rows [i*N/P, (i+1)*N/P);
   * 'strided' gives it local indexes 0.. and leaves the mapping to the generator (Nexmark interleaves).
   */
  readonly layout: 'ranges' | 'strided';
}

interface Element {
  readonly rows: Row[];
  readonly next: number;
}

interface SplitState {
  next: number;
  readonly split: GeneratorSplit;
}

const EMPTY = new Set<string>();

/** Generates batches for its splits, paced by each split's rate. Never awaits per row. */
class GeneratorSplitReader implements SplitReader<Element, GeneratorSplit> {
  private readonly splits = new Map<string, { split: GeneratorSplit; next: number; startedAt: number; emittedSinceStart: number }>();
  private readonly paused = new Set<string>();
  private readonly generator: RowBatchGenerator;
  private wake: (() => void) | undefined;

  constructor(private readonly settings: GeneratorSourceSettings) {
    this.generator = settings.generator();
  }

  async fetch(): Promise<RecordsWithSplitIds<Element>> {
    const maxBatch = this.settings.batchSize ?? 1024;
    let now = Date.now();
    let waitMs = Infinity;
    const bySplit = new Map<string, Element[]>();
    const finished = new Set<string>();
    for (const [id, s] of this.splits) {
      if (this.paused.has(id)) continue;
      let n = maxBatch;
      if (s.split.end !== null) n = Math.min(n, s.split.end - s.next);
      const rate = s.split.rowsPerSecond;
      if (rate !== null) {
        // Token bucket from the split's start: never more than rate * elapsed rows, batches of ~50 ms.
        const allowed = Math.floor(((now - s.startedAt) * rate) / 1000) + 1 - s.emittedSinceStart;
        const target = Math.max(1, Math.min(maxBatch, Math.ceil(rate / 20)));
        if (allowed < Math.min(target, n)) {
          if (n > 0) waitMs = Math.min(waitMs, Math.ceil(((Math.min(target, n) - allowed) * 1000) / rate));
          n = 0;
        } else n = Math.min(n, allowed);
      }
      if (n > 0) {
        const rows: Row[] = [];
        this.generator.generate(s.split, s.next, n, rows, now);
        s.next += n;
        s.emittedSinceStart += n;
        bySplit.set(id, [{ rows, next: s.next }]);
      }
      if (s.split.end !== null && s.next >= s.split.end) finished.add(id);
    }
    for (const id of finished) this.splits.delete(id);
    if (bySplit.size === 0 && finished.size === 0 && waitMs !== Infinity) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(done, waitMs);
        function done(): void {
          clearTimeout(t);
          resolve();
        }
        this.wake = done;
      });
      this.wake = undefined;
      now = Date.now();
    }
    return new RecordsBySplits(bySplit, finished.size > 0 ? finished : EMPTY);
  }

  handleSplitsChanges(change: SplitsChange<GeneratorSplit>): void {
    if (change.kind !== 'add') return;
    const now = Date.now();
    for (const s of change.splits) this.splits.set(s.splitId, { split: s, next: s.next, startedAt: now, emittedSinceStart: 0 });
  }

  wakeUp(): void {
    this.wake?.();
  }

  pauseOrResumeSplits(toPause: readonly GeneratorSplit[], toResume: readonly GeneratorSplit[]): void {
    for (const s of toPause) this.paused.add(s.splitId);
    const now = Date.now();
    for (const s of toResume) {
      this.paused.delete(s.splitId);
      const st = this.splits.get(s.splitId);
      // A paused split does not catch up in a burst after resuming.
      if (st) {
        st.startedAt = now;
        st.emittedSinceStart = 0;
      }
    }
  }

  async close(): Promise<void> {
    this.wakeUp();
  }
}

const emitter: RecordEmitter<Element, Row, SplitState> = {
  emitRecord(element: Element, output: SourceOutput<Row>, state: SplitState): void {
    output.collectBatch(element.rows);
    state.next = element.next;
  },
};

class GeneratorReader extends SourceReaderBase<Element, Row, GeneratorSplit, SplitState> {
  constructor(settings: GeneratorSourceSettings, ctx: SourceReaderContext) {
    super(new SingleThreadFetcherManager(() => new GeneratorSplitReader(settings), 2), emitter, ctx);
  }
  protected initializedState(split: GeneratorSplit): SplitState {
    return { next: split.next, split };
  }
  protected toSplitType(_id: string, state: SplitState): GeneratorSplit {
    return { ...state.split, next: state.next };
  }
  private assigned = false;

  override addSplits(splits: GeneratorSplit[]): void {
    if (splits.length > 0) this.assigned = true;
    super.addSplits(splits);
  }

  /** Rows left in the reader's slices, when all of them are bounded (`number-of-rows`, a sequence, `events.num`). */
  override pendingRecords(): number | undefined {
    const states = this.currentSplitStates();
    // Before its slices arrive the reader cannot tell; once they all ended, nothing is left.
    if (states.length === 0) return this.assigned ? 0 : undefined;
    let left = 0;
    for (const s of states) {
      if (s.split.end === null) return undefined;
      left += Math.max(0, s.split.end - s.next);
    }
    return left;
  }
}

/**
 * Hands slice i to reader i % parallelism on request, so every reader gets its share of the rate even
 * after a restore with another parallelism; a reader without slices left is told there are no more.
 */
class GeneratorEnumerator implements SplitEnumerator<GeneratorSplit, GeneratorEnumState> {
  constructor(
    private readonly ctx: SplitEnumeratorContext<GeneratorSplit>,
    private readonly unassigned: GeneratorSplit[],
  ) {}
  start(): void {}
  handleSplitRequest(subtask: number): void {
    const p = this.ctx.currentParallelism();
    const i = this.unassigned.findIndex((s) => s.index % p === subtask);
    if (i < 0) {
      this.ctx.signalNoMoreSplits(subtask);
      return;
    }
    this.ctx.assignSplit(this.unassigned.splice(i, 1)[0]!, subtask);
  }
  addSplitsBack(splits: GeneratorSplit[]): void {
    this.unassigned.push(...splits);
  }
  addReader(): void {}
  snapshotState(): GeneratorEnumState {
    return { unassigned: [...this.unassigned] };
  }
  async close(): Promise<void> {}
}

/**
 * A FLIP-27 source of generated rows, shared by `datagen` and `nexmark`. It creates one slice per reader;
 * the table's rate and row count are divided evenly among slices.
 */
export class GeneratorSource implements Source<Row, GeneratorSplit, GeneratorEnumState> {
  constructor(readonly settings: GeneratorSourceSettings) {}

  boundedness(): Boundedness {
    return this.settings.totalRows === null ? 'CONTINUOUS_UNBOUNDED' : 'BOUNDED';
  }

  createReader(ctx: SourceReaderContext): SourceReader<Row, GeneratorSplit> {
    return new GeneratorReader(this.settings, ctx);
  }

  createEnumerator(ctx: SplitEnumeratorContext<GeneratorSplit>): SplitEnumerator<GeneratorSplit, GeneratorEnumState> {
    return new GeneratorEnumerator(ctx, initialSplits(this.settings, ctx.currentParallelism()));
  }

  restoreEnumerator(ctx: SplitEnumeratorContext<GeneratorSplit>, cp: GeneratorEnumState): SplitEnumerator<GeneratorSplit, GeneratorEnumState> {
    return new GeneratorEnumerator(ctx, [...cp.unassigned]);
  }

  getSplitSerializer(): VersionedSerializer<GeneratorSplit> {
    return jsonSerializer();
  }

  getEnumeratorCheckpointSerializer(): VersionedSerializer<GeneratorEnumState> {
    return jsonSerializer();
  }
}

/** The slices of a fresh start: `parallelism` of them, rows and rate divided evenly. */
export function initialSplits(settings: GeneratorSourceSettings, parallelism: number): GeneratorSplit[] {
  const p = Math.max(1, parallelism);
  const total = settings.totalRows;
  const rate = settings.rowsPerSecond === null ? null : settings.rowsPerSecond / p;
  const out: GeneratorSplit[] = [];
  for (let i = 0; i < p; i++) {
    let next = 0;
    let end: number | null = null;
    if (total !== null) {
      if (settings.layout === 'ranges') {
        next = Math.floor((total * i) / p);
        end = Math.floor((total * (i + 1)) / p);
      } else {
        // Strided: slice i owns global rows i, i+p, i+2p, ... below total.
        end = total > i ? Math.ceil((total - i) / p) : 0;
      }
    }
    out.push({ splitId: `split-${i}`, index: i, of: p, next, end, rowsPerSecond: rate });
  }
  return out;
}
