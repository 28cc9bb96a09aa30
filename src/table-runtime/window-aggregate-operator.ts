import type { ValueState } from '../runtime/state/state.js';
import type { FiredTimer } from '../runtime/timer-service.js';
import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import { Row } from '../types/row.js';
import { RowKind } from '../types/row-kind.js';
import { hashFields, valuesEqual } from '../types/values/equality.js';
import { accumulator } from './group-aggregate-operator.js';
import type { AggregateSpec } from './group-aggregate-operator.js';

interface WindowGroup {
  readonly key: unknown[];
  readonly accs: unknown[];
  readonly windowEnd: number;
}

/**
 * Window aggregate over the output of a window TVF (Flink's WindowAggregate): groups by keys that include
 * window_start and window_end, registers an event-time timer at window_end - 1 and emits each group's
 * final row (+I) when the watermark passes it. Rows of windows already fired are late: dropped and
 * counted in `lateRecordsDropped`. Insert-only input. At end of input every open window is emitted.
 */
export class WindowAggregateOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private state!: ValueState<WindowGroup[]>;
  private readonly adders: ((acc: unknown, f: readonly unknown[]) => void)[];
  /** Rows dropped because their window had already fired. */
  lateRecordsDropped = 0;

  constructor(
    private readonly groupKeys: readonly number[],
    private readonly aggs: readonly AggregateSpec[],
    private readonly windowEndField: number,
  ) {
    this.adders = aggs.map((a) => accumulator(a, true));
  }

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    this.state = ctx.keyedState.getState<WindowGroup[]>('windows');
  }

  processBatch(rows: Row[]): void {
    const ks = this.ctx.keyedState;
    const timers = this.ctx.timerService;
    const wm = timers.currentWatermark();
    for (const row of rows) {
      const f = row.fields;
      const end = f[this.windowEndField] as number;
      if (end - 1 <= wm) {
        this.lateRecordsDropped++;
        continue;
      }
      ks.setCurrentKey(hashFields(f, this.groupKeys));
      let groups = this.state.value();
      let g: WindowGroup | undefined;
      if (groups !== undefined) {
        for (let x = 0; x < groups.length && g === undefined; x++) if (sameKey(groups[x]!.key, f, this.groupKeys)) g = groups[x];
      }
      if (g === undefined) {
        g = { key: this.groupKeys.map((k) => f[k]), accs: this.aggs.map((a) => a.fn.createAccumulator()), windowEnd: end };
        if (groups === undefined) {
          groups = [g];
          this.state.update(groups);
        } else groups.push(g);
        timers.registerEventTimeTimer(end - 1);
      }
      for (let i = 0; i < this.aggs.length; i++) {
        const a = this.aggs[i]!;
        if (a.filterArg >= 0 && f[a.filterArg] !== true) continue;
        this.adders[i]!(g.accs[i], f);
      }
    }
  }

  onTimer(timer: FiredTimer): void {
    const groups = this.state.value();
    if (groups === undefined) return;
    const out: Row[] = [];
    const keep: WindowGroup[] = [];
    for (const g of groups) {
      if (g.windowEnd - 1 <= timer.timestamp) out.push(this.emit(g));
      else keep.push(g);
    }
    if (keep.length === 0) this.state.clear();
    else this.state.update(keep);
    if (out.length > 0) this.ctx.output.collect(out);
  }

  finish(): void {
    const ks = this.ctx.keyedState;
    const out: Row[] = [];
    for (const k of [...ks.keys('windows')]) {
      ks.setCurrentKey(k);
      for (const g of this.state.value() ?? []) out.push(this.emit(g));
      this.state.clear();
    }
    out.sort((a, b) => (a.fields[this.windowEndOut()] as number) - (b.fields[this.windowEndOut()] as number));
    if (out.length > 0) this.ctx.output.collect(out);
  }

  private windowEndOut(): number {
    return Math.max(0, this.groupKeys.indexOf(this.windowEndField));
  }

  private emit(g: WindowGroup): Row {
    const fields = g.key.slice();
    for (let i = 0; i < this.aggs.length; i++) fields.push(this.aggs[i]!.fn.getValue(g.accs[i]));
    return new Row(RowKind.INSERT, fields);
  }
}

function sameKey(key: readonly unknown[], f: readonly unknown[], keys: readonly number[]): boolean {
  for (let i = 0; i < keys.length; i++) if (!valuesEqual(key[i], f[keys[i]!])) return false;
  return true;
}

export function windowAggregateFactory(name: string, groupKeys: readonly number[], aggs: () => AggregateSpec[], windowEndField: number): OperatorFactory {
  return { name, create: () => new WindowAggregateOperator(groupKeys, aggs(), windowEndField) };
}
