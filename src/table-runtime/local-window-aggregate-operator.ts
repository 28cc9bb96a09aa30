import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import type { Row } from '../types/row.js';
import { RowKind } from '../types/row-kind.js';
import type { AggregateSpec } from './group-aggregate-operator.js';
import type { WindowAssignment } from './window-assigner-operator.js';
import { WindowGroups } from './window-groups.js';
import type { WindowBucket } from './window-groups.js';
import { SliceAssigner } from './window-slice-assigner.js';

export interface LocalWindowAggregateSpec {
  /** The event-time field; rows with a NULL time are dropped, as the window TVF drops them. */
  readonly timeIndex: number;
  readonly window: Exclude<WindowAssignment, { kind: 'SESSION' }>;
  /** The group keys other than the window (input fields), in the order the partial rows carry them. */
  readonly keys: readonly number[];
}

/**
 * Groups buffered before a flush is forced: bounds the memory of a subtask that sees many keys between two
 * watermarks (Flink flushes its buffer when its managed memory is full). A flush only sends partial results
 * early; the global phase merges them the same.
 */
const MAX_BUFFERED_GROUPS = 100_000;

/**
 * The local phase of a two-phase window aggregate (Flink's LocalSlicingWindowAggOperator): accumulates the rows of
 * its subtask per group key and slice, and emits the partial results (the key values, one accumulator per call,
 * the slice end; see `WindowGroups.emitPartials`) downstream:
 * - when the watermark reaches the end - 1 of the earliest buffered slice (every slice is then sent, before
 *   the watermark is forwarded, so the global phase has them before it may fire their windows);
 * - before a checkpoint barrier (`prepareSnapshotPreBarrier`), so it keeps no state;
 * - when it holds more than MAX_BUFFERED_GROUPS groups, and at end of input.
 * It drops no row as late: the global phase decides lateness by slice as a one-phase aggregate does by row.
 */
export class LocalWindowAggregateOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private readonly groups: WindowGroups;
  private readonly assigner: SliceAssigner;
  private readonly slices = new Map<number, WindowBucket>();
  private last: WindowBucket | null = null;
  /** The earliest end among the buffered slices. */
  private minSliceEnd = Number.POSITIVE_INFINITY;
  private buffered = 0;

  constructor(
    private readonly spec: LocalWindowAggregateSpec,
    aggs: readonly AggregateSpec[],
  ) {
    this.groups = new WindowGroups(spec.keys, [], aggs, null);
    this.assigner = new SliceAssigner(spec.window);
  }

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
  }

  processBatch(rows: Row[]): void {
    const ti = this.spec.timeIndex;
    const groups = this.groups;
    const assigner = this.assigner;
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      if (row.kind !== RowKind.INSERT && row.kind !== RowKind.UPDATE_AFTER) continue;
      const f = row.fields;
      const ts = f[ti] as number | null;
      if (ts === null) continue;
      const se = assigner.sliceEnd(ts);
      if (se !== se) continue; // in no window (HOP with a slide above its size)
      let b = this.last;
      if (b === null || b.end !== se) {
        b = this.slices.get(se) ?? null;
        if (b === null) {
          b = { start: se - assigner.slice, end: se, groups: new Map() };
          this.slices.set(se, b);
          if (se < this.minSliceEnd) this.minSliceEnd = se;
        }
        this.last = b;
      }
      const h = groups.hashRow(f);
      const g = groups.groupOf(b, f, h);
      if (groups.created) this.buffered++;
      groups.accumulate(g, f);
    }
    if (this.buffered > MAX_BUFFERED_GROUPS) this.flush();
  }

  processWatermark(watermark: number): void {
    if (this.minSliceEnd - 1 <= watermark) this.flush();
    this.ctx.output.emitWatermark(watermark);
  }

  prepareSnapshotPreBarrier(): void {
    this.flush();
  }

  finish(): void {
    this.flush();
  }

  /** Emits the partial results of every buffered slice, earliest slice first, and forgets them. */
  private flush(): void {
    if (this.slices.size === 0) return;
    const ends = [...this.slices.keys()].sort((a, b) => a - b);
    const out: Row[] = [];
    for (const se of ends) this.groups.emitPartials(this.slices.get(se)!.groups, se, out);
    this.slices.clear();
    this.last = null;
    this.minSliceEnd = Number.POSITIVE_INFINITY;
    this.buffered = 0;
    if (out.length > 0) this.ctx.output.collect(out);
  }
}

export function localWindowAggregateFactory(name: string, spec: LocalWindowAggregateSpec, aggs: () => AggregateSpec[]): OperatorFactory {
  return { name, create: () => new LocalWindowAggregateOperator(spec, aggs()) };
}
