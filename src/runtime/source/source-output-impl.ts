import type { Row } from '../../types/row.js';
import type { ColumnBatch } from '../../types/columns/column-batch.js';
import type { ReaderOutput, SourceOutput } from './reader-output.js';
import type { WatermarkStrategy } from './watermark-strategy.js';

/** Per-split watermark generator and idleness tracker. */
class SplitOutput implements SourceOutput<Row> {
  maxTimestamp = -Infinity;
  explicitWatermark = -Infinity;
  idle = false;
  lastActivity: number;

  constructor(
    private readonly owner: ReaderOutputImpl,
    private readonly strategy: WatermarkStrategy<Row> | undefined,
  ) {
    this.lastActivity = owner.now;
  }

  collect(record: Row, timestamp?: number): void {
    if (this.owner.columns !== undefined) this.owner.columnsToRows();
    this.owner.buffer.push(record);
    const s = this.strategy;
    if (s !== undefined) {
      const t = s.timestampOf(record, timestamp);
      if (t > this.maxTimestamp) this.maxTimestamp = t;
    }
    this.touched();
  }

  collectBatch(records: readonly Row[]): void {
    if (this.owner.columns !== undefined) this.owner.columnsToRows();
    const s = this.strategy;
    // The common case: a whole fetched batch becomes the task's batch with one copy (not a push per row).
    if (this.owner.buffer.length === 0) this.owner.buffer = records.slice();
    else for (let i = 0; i < records.length; i++) this.owner.buffer.push(records[i]!);
    if (s !== undefined) {
      let max = this.maxTimestamp;
      for (let i = 0; i < records.length; i++) {
        const t = s.timestampOf(records[i]!, undefined);
        if (t > max) max = t;
      }
      this.maxTimestamp = max;
    }
    if (records.length > 0) this.touched();
  }

  /**
   * A columnar batch stays columnar when it is the poll's only output and needs no timestamps; otherwise
   * (a watermark strategy reads timestamps from rows, or rows came first) it joins the batch as rows.
   */
  collectColumns(batch: ColumnBatch): void {
    const o = this.owner;
    if (this.strategy === undefined && o.buffer.length === 0 && o.columns === undefined) {
      o.columns = batch;
      if (batch.length > 0) this.touched();
      return;
    }
    this.collectBatch(batch.toRows());
  }

  private touched(): void {
    this.lastActivity = this.owner.now;
    this.idle = false;
  }

  emitWatermark(watermark: number): void {
    if (watermark > this.explicitWatermark) this.explicitWatermark = watermark;
    this.touched();
  }

  markIdle(): void {
    this.idle = true;
  }

  markActive(): void {
    this.touched();
  }

  watermark(): number {
    const gen = this.strategy ? this.maxTimestamp - this.strategy.outOfOrdernessMs - 1 : -Infinity;
    return Math.max(gen, this.explicitWatermark);
  }
}

/**
 * The `ReaderOutput` the source task hands to `pollNext`: collects records into the batch under
 * construction and tracks per-split watermarks and idleness. The task drains `buffer` after each poll
 * and asks `combinedWatermark` what to forward.
 */
export class ReaderOutputImpl implements ReaderOutput<Row> {
  buffer: Row[] = [];
  /** A columnar batch collected instead of rows; when set, `buffer` is empty. The task drains both. */
  columns: ColumnBatch | undefined = undefined;
  /** Processing time of the current poll, set by the task (one clock read per poll, not per record). */
  now = Date.now();
  private readonly splits = new Map<string, SplitOutput>();
  private main: SplitOutput | undefined;

  constructor(private readonly strategy: WatermarkStrategy<Row> | undefined) {}

  private mainOutput(): SplitOutput {
    return (this.main ??= new SplitOutput(this, this.strategy));
  }

  collect(record: Row, timestamp?: number): void {
    this.mainOutput().collect(record, timestamp);
  }
  collectBatch(records: readonly Row[]): void {
    this.mainOutput().collectBatch(records);
  }
  collectColumns(batch: ColumnBatch): void {
    this.mainOutput().collectColumns(batch);
  }

  /** Turns the pending columnar batch into rows ahead of rows collected after it. */
  columnsToRows(): void {
    const c = this.columns;
    if (c === undefined) return;
    this.columns = undefined;
    const rows = c.toRows();
    if (this.buffer.length === 0) this.buffer = rows;
    else for (const r of rows) this.buffer.push(r);
  }
  emitWatermark(watermark: number): void {
    this.mainOutput().emitWatermark(watermark);
  }
  markIdle(): void {
    this.mainOutput().markIdle();
  }
  markActive(): void {
    this.mainOutput().markActive();
  }

  createOutputForSplit(splitId: string): SourceOutput<Row> {
    let o = this.splits.get(splitId);
    if (!o) this.splits.set(splitId, (o = new SplitOutput(this, this.strategy)));
    return o;
  }

  releaseOutputForSplit(splitId: string): void {
    this.splits.delete(splitId);
  }

  /** Watermark of each live split output (for alignment). */
  splitWatermarks(): Map<string, number> {
    const m = new Map<string, number>();
    for (const [id, o] of this.splits) m.set(id, o.watermark());
    return m;
  }

  /**
   * The minimum watermark over active outputs, or 'idle' when every output is idle (by `markIdle` or by
   * the strategy's idle timeout). With no outputs at all the source is neither: -Infinity.
   */
  combinedWatermark(): number | 'idle' {
    const timeout = this.strategy?.idleTimeoutMs;
    let min = Infinity;
    let any = false;
    let anyActive = false;
    const visit = (o: SplitOutput): void => {
      any = true;
      if (timeout !== undefined && !o.idle && this.now - o.lastActivity >= timeout) o.idle = true;
      if (o.idle) return;
      anyActive = true;
      const w = o.watermark();
      if (w < min) min = w;
    };
    if (this.main) visit(this.main);
    for (const o of this.splits.values()) visit(o);
    if (!any) return -Infinity;
    return anyActive ? min : 'idle';
  }
}
