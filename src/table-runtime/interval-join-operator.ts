import type { ValueState } from '../runtime/state/state.js';
import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import type { Row } from '../types/row.js';
import { JoinOperator } from './join-operator.js';
import type { JoinSpec } from './join-operator.js';

/** `lower <= left[leftTime] - right[rightTime] <= upper`, in ms (`rightTime` indexes the right row). */
export interface IntervalJoinBounds {
  readonly leftTime: number;
  readonly rightTime: number;
  readonly lower: number;
  readonly upper: number;
}

/** How the regular join stores a row (its state layout, shared here to clean it). */
interface Entry {
  readonly fields: unknown[];
}

/**
 * Inner interval join (Flink's IntervalJoin, streaming): joins like the regular join (the full ON condition
 * decides matches) and, as the watermark advances, drops stored rows no future row of the other side can
 * match: a left row at `tl` once `tl - lower <= watermark`, a right row at `tr` once `tr + upper <= watermark`.
 * Cleanup walks the state when the watermark has moved by a quarter of the interval (at least 1 s).
 */
export class IntervalJoinOperator implements StreamOperator {
  private readonly join: JoinOperator;
  private ctx!: OperatorContext;
  private left!: ValueState<Entry[]>;
  private right!: ValueState<Entry[]>;
  private lastCleanup = Number.NEGATIVE_INFINITY;
  private readonly step: number;
  /** Rows dropped by cleanup (for tests and metrics). */
  expiredRows = 0;

  constructor(
    spec: JoinSpec,
    private readonly bounds: IntervalJoinBounds,
  ) {
    this.join = new JoinOperator(spec);
    this.step = Math.max(1000, (bounds.upper - bounds.lower) / 4);
  }

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    this.join.open(ctx);
    this.left = ctx.keyedState.getState<Entry[]>('left');
    this.right = ctx.keyedState.getState<Entry[]>('right');
  }

  processBatch(rows: Row[], inputIndex: number): void {
    this.join.processBatch(rows, inputIndex);
  }

  processWatermark(watermark: number): void {
    if (watermark - this.lastCleanup >= this.step || watermark === Number.POSITIVE_INFINITY) {
      this.lastCleanup = watermark;
      const { leftTime, rightTime, lower, upper } = this.bounds;
      this.clean('left', this.left, (f) => (f[leftTime] as number | null) === null || (f[leftTime] as number) - lower <= watermark);
      this.clean('right', this.right, (f) => (f[rightTime] as number | null) === null || (f[rightTime] as number) + upper <= watermark);
    }
    this.ctx.output.emitWatermark(watermark);
  }

  finish(): void {
    this.join.finish();
  }

  private clean(name: string, state: ValueState<Entry[]>, expired: (f: readonly unknown[]) => boolean): void {
    const ks = this.ctx.keyedState;
    const prev = ks.getCurrentKey();
    for (const k of [...ks.keys(name)]) {
      ks.setCurrentKey(k);
      const list = state.value();
      if (list === undefined) continue;
      const keep = list.filter((e) => !expired(e.fields));
      if (keep.length === list.length) continue;
      this.expiredRows += list.length - keep.length;
      if (keep.length === 0) state.clear();
      else state.update(keep);
    }
    ks.setCurrentKey(prev);
  }
}

export function intervalJoinFactory(name: string, spec: JoinSpec, bounds: IntervalJoinBounds): OperatorFactory {
  return { name, create: () => new IntervalJoinOperator(spec, bounds) };
}
