import type { AggCall, AggregateNode, CalcNode, PlanNode, WindowSpec } from '../logical/plan-node.js';
import { inputRef } from '../rex/rex-node.js';
import { conditionBelowWindowTvf } from '../logical/window-tvf-filter.js';

/**
 * A TUMBLE / HOP / CUMULATE window aggregate fused with the window TVF below it (Flink's WindowAggregate
 * with `windowing=[TUMBLE(time_col=...)]`): the aggregate reads the TVF's input rows and assigns windows
 * itself, so no row with window columns is built per input row, and rows are partitioned by the plain
 * group keys only (every window of a key lands in one subtask).
 */
export interface FusedWindow {
  /** The TVF's input: the rows the fused operator reads. */
  readonly input: PlanNode;
  readonly timeIndex: number;
  readonly window: Exclude<WindowSpec, { kind: 'SESSION' }>;
  /** Per group key (in the aggregate's order): a field of `input`, or the window start / end. */
  readonly keys: readonly ({ readonly kind: 'field'; readonly index: number } | { readonly kind: 'start' } | { readonly kind: 'end' })[];
  /** The aggregate calls with `args` and `filterArg` re-pointed at fields of `input`. */
  readonly calls: readonly AggCall[];
}

/**
 * The fused form of `agg` when its input is the window TVF, or a calc of plain column references over it
 * whose condition can be evaluated before the TVF (it then filters the fused operator's input), and no key or
 * argument reads window_time; else undefined.
 */
export function fuseWindowAggregate(agg: AggregateNode): FusedWindow | undefined {
  if (agg.window === undefined || agg.window.spec.kind === 'SESSION') return undefined;
  let calc: CalcNode | null = null;
  let tvf = agg.input;
  if (tvf.kind === 'calc') {
    calc = tvf;
    tvf = tvf.input;
  }
  if (tvf.kind !== 'window-tvf' || tvf.window.kind === 'SESSION') return undefined;
  if (calc !== null && !calc.projects.every((p) => p.kind === 'input-ref')) return undefined;
  const condition = conditionBelowWindowTvf(calc, tvf);
  if (condition === undefined) return undefined;
  const base = tvf.input.fields.length;
  /** The TVF output field an aggregate input field reads. */
  const source = (i: number): number => {
    if (calc === null) return i;
    const p = calc.projects[i]!;
    return p.kind === 'input-ref' ? p.index : -1;
  };
  const keys: FusedWindow['keys'][number][] = [];
  for (const k of agg.groupKeys) {
    const s = source(k);
    if (s < 0 || s === base + 2) return undefined;
    keys.push(s === base ? { kind: 'start' } : s === base + 1 ? { kind: 'end' } : { kind: 'field', index: s });
  }
  const plain = (i: number): number | undefined => {
    const s = source(i);
    return s >= 0 && s < base ? s : undefined;
  };
  const calls: AggCall[] = [];
  for (const c of agg.aggCalls) {
    const args = c.args.map(plain);
    if (args.some((a) => a === undefined)) return undefined;
    const filterArg = c.filterArg < 0 ? -1 : plain(c.filterArg);
    if (filterArg === undefined) return undefined;
    calls.push({ ...c, args: args as number[], filterArg });
  }
  const rows = tvf.input;
  const input: PlanNode =
    condition === null ? rows : { kind: 'calc', input: rows, projects: rows.fields.map((f, i) => inputRef(i, f.name, f.type)), condition, fields: rows.fields };
  return { input, timeIndex: tvf.timeIndex, window: tvf.window, keys, calls };
}
