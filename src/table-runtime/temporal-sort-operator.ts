import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import { Row } from '../types/row.js';
import { rowComparator } from './sort-limit-operator.js';
import type { SortKeySpec } from './sort-limit-operator.js';

/**
 * Streaming ORDER BY on an ascending rowtime first (Flink's TemporalSort): rows wait until the watermark
 * passes their time, then leave sorted by the ORDER BY keys. Late rows are dropped and counted. The
 * buffer is the operator's checkpointed private state. Parallelism 1.
 */
export class TemporalSortOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private buffer: Row[] = [];
  private readonly cmp: (a: Row, b: Row) => number;
  lateRecordsDropped = 0;

  constructor(
    private readonly timeIndex: number,
    keys: readonly SortKeySpec[],
  ) {
    this.cmp = rowComparator(keys);
  }

  initializeState(restored: unknown): void {
    if (Array.isArray(restored)) this.buffer = (restored as unknown[][]).map((f) => Row.insert(...f));
  }

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
  }

  processBatch(rows: Row[]): void {
    const wm = this.ctx.timerService.currentWatermark();
    for (const r of rows) {
      const ts = r.fields[this.timeIndex] as number | null;
      if (ts === null || ts <= wm) this.lateRecordsDropped++;
      else this.buffer.push(r);
    }
  }

  processWatermark(watermark: number): void {
    this.flush(watermark);
    this.ctx.output.emitWatermark(watermark);
  }

  finish(): void {
    this.flush(Infinity);
  }

  snapshotState(): unknown {
    return this.buffer.map((r) => r.fields);
  }

  private flush(upTo: number): void {
    const ready: Row[] = [];
    const keep: Row[] = [];
    for (const r of this.buffer) ((r.fields[this.timeIndex] as number) <= upTo ? ready : keep).push(r);
    if (ready.length === 0) return;
    this.buffer = keep;
    ready.sort(this.cmp);
    this.ctx.output.collect(ready);
  }
}

export function temporalSortFactory(name: string, timeIndex: number, keys: readonly SortKeySpec[]): OperatorFactory {
  return { name, create: () => new TemporalSortOperator(timeIndex, keys) };
}
