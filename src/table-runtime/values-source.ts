import { jsonSerializer } from '../runtime/serializer.js';
import type { VersionedSerializer } from '../runtime/serializer.js';
import type { ReaderOutput } from '../runtime/source/reader-output.js';
import type { Source } from '../runtime/source/source.js';
import type { SourceReader, SourceReaderContext } from '../runtime/source/source-reader.js';
import type { Boundedness, InputStatus, SourceSplit } from '../runtime/source/source-split.js';
import type { SplitEnumerator, SplitEnumeratorContext } from '../runtime/source/split-enumerator.js';
import { Row } from '../types/row.js';

/** The single split of a values source: how many rows were already emitted. */
export interface ValuesSplit extends SourceSplit {
  readonly position: number;
}

/** Unassigned splits, for the enumerator's checkpoint. */
export type ValuesEnumeratorState = ValuesSplit[];

const BATCH = 1024;

/**
 * A bounded FLIP-27 source of fixed rows (SQL VALUES, `fromValues`, test input). Rows keep their kinds,
 * so a changelog can be replayed. One split, read by subtask 0; the position is the checkpointed state.
 * Emitted rows are fresh copies: downstream operators may own what they receive.
 */
export class ValuesSource implements Source<Row, ValuesSplit, ValuesEnumeratorState> {
  constructor(private readonly rows: readonly Row[]) {}

  boundedness(): Boundedness {
    return 'BOUNDED';
  }

  createReader(_ctx: SourceReaderContext): SourceReader<Row, ValuesSplit> {
    return new ValuesReader(this.rows);
  }

  createEnumerator(ctx: SplitEnumeratorContext<ValuesSplit>): SplitEnumerator<ValuesSplit, ValuesEnumeratorState> {
    return new ValuesEnumerator(ctx, [{ splitId: 'values', position: 0 }]);
  }

  restoreEnumerator(ctx: SplitEnumeratorContext<ValuesSplit>, checkpoint: ValuesEnumeratorState): SplitEnumerator<ValuesSplit, ValuesEnumeratorState> {
    return new ValuesEnumerator(ctx, [...checkpoint]);
  }

  getSplitSerializer(): VersionedSerializer<ValuesSplit> {
    return jsonSerializer<ValuesSplit>();
  }

  getEnumeratorCheckpointSerializer(): VersionedSerializer<ValuesEnumeratorState> {
    return jsonSerializer<ValuesEnumeratorState>();
  }
}

class ValuesEnumerator implements SplitEnumerator<ValuesSplit, ValuesEnumeratorState> {
  constructor(
    private readonly ctx: SplitEnumeratorContext<ValuesSplit>,
    private pending: ValuesSplit[],
  ) {}

  start(): void {}

  handleSplitRequest(_subtaskIndex: number): void {}

  addSplitsBack(splits: ValuesSplit[], _subtaskIndex: number): void {
    this.pending.push(...splits);
  }

  addReader(subtaskIndex: number): void {
    // Everything goes to subtask 0; the others end at once.
    if (subtaskIndex === 0 && this.pending.length > 0) {
      for (const s of this.pending) this.ctx.assignSplit(s, 0);
      this.pending = [];
    }
    this.ctx.signalNoMoreSplits(subtaskIndex);
  }

  snapshotState(_checkpointId: number): ValuesEnumeratorState {
    return [...this.pending];
  }

  async close(): Promise<void> {}
}

class ValuesReader implements SourceReader<Row, ValuesSplit> {
  private splits: { splitId: string; position: number }[] = [];
  private noMore = false;
  private wake: (() => void) | undefined;

  constructor(private readonly rows: readonly Row[]) {}

  start(): void {}

  pollNext(output: ReaderOutput<Row>): InputStatus {
    const split = this.splits[0];
    if (split === undefined) return this.noMore ? 'END_OF_INPUT' : 'NOTHING_AVAILABLE';
    const end = Math.min(this.rows.length, split.position + BATCH);
    const batch: Row[] = [];
    for (let i = split.position; i < end; i++) {
      const r = this.rows[i]!;
      batch.push(new Row(r.kind, r.fields.slice()));
    }
    split.position = end;
    if (batch.length > 0) output.collectBatch(batch);
    if (end >= this.rows.length) {
      this.splits.shift();
      return this.splits.length > 0 || !this.noMore ? (this.splits.length > 0 ? 'MORE_AVAILABLE' : 'NOTHING_AVAILABLE') : 'END_OF_INPUT';
    }
    return 'MORE_AVAILABLE';
  }

  isAvailable(): Promise<void> {
    if (this.splits.length > 0 || this.noMore) return Promise.resolve();
    return new Promise((resolve) => {
      this.wake = resolve;
    });
  }

  snapshotState(_checkpointId: number): ValuesSplit[] {
    return this.splits.map((s) => ({ splitId: s.splitId, position: s.position }));
  }

  addSplits(splits: ValuesSplit[]): void {
    for (const s of splits) this.splits.push({ splitId: s.splitId, position: s.position });
    this.notify();
  }

  notifyNoMoreSplits(): void {
    this.noMore = true;
    this.notify();
  }

  private notify(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  async close(): Promise<void> {}
}
