import { builtinAggregate } from '../../table-runtime/aggregates/builtin-aggregates.js';
import { DataTypes } from '../../types/data-types.js';
import { isRowtimeAttribute, notNull } from '../../types/logical-type.js';
import type { LogicalType } from '../../types/logical-type.js';
import { BUILTIN_AGGREGATES } from '../functions/aggregates/builtin-aggregate-types.js';
import type { FunctionLookup } from '../functions/function-registry.js';
import { conditionBelowWindowTvf } from '../logical/window-tvf-filter.js';
import type { AggCall, GlobalWindowAggregateNode, LocalWindowAggregateNode, PlanNode, WindowKeySource } from '../logical/plan-node.js';
import { collectInputRefs, inputRef } from '../rex/rex-node.js';
import type { RexNode } from '../rex/rex-node.js';

/** `table.optimizer.agg-phase-strategy`. */
export type AggPhaseStrategy = 'AUTO' | 'ONE_PHASE' | 'TWO_PHASE';

/** What the split needs to know beyond the plan. */
export interface TwoPhaseWindowOptions {
  readonly mode: 'streaming' | 'batch';
  readonly strategy: AggPhaseStrategy;
  /** Whether the implementation of `call` (over arguments of these types) can merge two accumulators. */
  readonly canMerge: (call: AggCall, argTypes: readonly LogicalType[]) => boolean;
}

/**
 * Flink's TwoStageOptimizedWindowAggregateRule: a streaming TUMBLE / HOP / CUMULATE window aggregate becomes a
 * LocalWindowAggregate (before the exchange, partial accumulators per key and slice) and a GlobalWindowAggregate
 * (after it, merging them per slice), so that rows are pre-aggregated before they cross the exchange. As Flink,
 * only when the strategy is not ONE_PHASE (AUTO splits: no mini-batch is needed for window aggregates, whose
 * local phase buffers until the watermark anyway), the window is on event time (a processing-time window must
 * be materialized in one place), and every call can merge. SESSION windows are not cut into slices and stay one
 * phase. The projection between the TVF and the aggregate moves below the local phase (its expressions, such as
 * a FILTER's condition, are computed there), as Flink fuses the TVF into the aggregate. Sluice keeps a DISTINCT
 * call one phase (Flink carries the distinct values in the accumulator; Sluice's distinct sets do not merge
 * across slices), and an aggregate whose keys or arguments read window_time.
 */
export function splitWindowAggregate(n: PlanNode, o: TwoPhaseWindowOptions): PlanNode {
  if (n.kind !== 'aggregate' || n.window === undefined || o.mode !== 'streaming' || o.strategy === 'ONE_PHASE') return n;
  const calc = n.input.kind === 'calc' ? n.input : null;
  const tvf = calc === null ? n.input : calc.input;
  if (tvf.kind !== 'window-tvf' || tvf.window.kind === 'SESSION') return n;
  // A WHERE moves below the local phase with the projection; one that reads window columns keeps it one phase.
  const condition = conditionBelowWindowTvf(calc, tvf);
  if (condition === undefined) return n;
  const input = tvf.input;
  const base = input.fields.length;
  if (!isRowtimeAttribute(input.fields[tvf.timeIndex]!.type)) return n;

  // The aggregate's input fields over the TVF's input, as Flink moves the projection below the TVF before it
  // fuses the TVF into the aggregate: window_start / window_end, or an expression over the TVF's input columns
  // (undefined: it reads window_time, or a window column inside an expression).
  type Source = { readonly kind: 'start' } | { readonly kind: 'end' } | { readonly kind: 'expr'; readonly rex: RexNode; readonly name: string };
  const sourceOf = (i: number): Source | undefined => {
    const rex = calc === null ? inputRef(i, tvf.fields[i]!.name, tvf.fields[i]!.type) : calc.projects[i]!;
    if (rex.kind === 'input-ref' && rex.index === base) return { kind: 'start' };
    if (rex.kind === 'input-ref' && rex.index === base + 1) return { kind: 'end' };
    return [...collectInputRefs(rex)].every((r) => r < base) ? { kind: 'expr', rex, name: (calc ?? tvf).fields[i]!.name } : undefined;
  };

  // The local phase reads the projection's columns other than the window's, in its order, then the time column.
  const projects: RexNode[] = [];
  const names: string[] = [];
  const positions = new Map<number, number>();
  const position = (i: number): number | undefined => {
    const known = positions.get(i);
    if (known !== undefined) return known;
    const s = sourceOf(i);
    if (s?.kind !== 'expr') return undefined;
    const same = s.rex.kind === 'input-ref' ? projects.findIndex((p) => p.kind === 'input-ref' && p.index === (s.rex as { index: number }).index) : -1;
    const at = same >= 0 ? same : projects.push(s.rex) - 1;
    if (same < 0) names.push(s.name);
    positions.set(i, at);
    return at;
  };
  const width = calc === null ? tvf.fields.length : calc.projects.length;
  for (let i = 0; i < width; i++) if (sourceOf(i)?.kind === 'expr') position(i);
  let timeAt = projects.findIndex((p) => p.kind === 'input-ref' && p.index === tvf.timeIndex);
  if (timeAt < 0) {
    timeAt = projects.push(inputRef(tvf.timeIndex, input.fields[tvf.timeIndex]!.name, input.fields[tvf.timeIndex]!.type)) - 1;
    names.push(input.fields[tvf.timeIndex]!.name);
  }

  const keys: WindowKeySource[] = [];
  const plainKeys: number[] = [];
  for (const k of n.groupKeys) {
    const s = sourceOf(k);
    if (s === undefined) return n;
    if (s.kind === 'start' || s.kind === 'end') keys.push(s);
    else {
      keys.push({ kind: 'field', index: plainKeys.length });
      plainKeys.push(position(k)!);
    }
  }
  const calls: AggCall[] = [];
  for (const c of n.aggCalls) {
    const args = c.args.map(position);
    const filterArg = c.filterArg < 0 ? -1 : position(c.filterArg);
    if (args.some((a) => a === undefined) || filterArg === undefined) return n;
    calls.push({ ...c, args: args as number[], filterArg });
  }
  const argTypes = (c: AggCall): LogicalType[] => c.args.map((i) => projects[i]!.type);
  if (!calls.every((c) => !c.distinct && o.canMerge(c, argTypes(c)))) return n;

  const identity = condition === null && projects.length === base && projects.every((p, i) => p.kind === 'input-ref' && p.index === i && names[i] === input.fields[i]!.name);
  const pruned: PlanNode = identity
    ? input
    : { kind: 'calc', input, projects, condition, fields: projects.map((p, i) => ({ name: names[i]!, type: p.type })) };
  const accNames = accumulatorNames(calls);
  const local: LocalWindowAggregateNode = {
    kind: 'local-window-aggregate',
    input: pruned,
    groupKeys: plainKeys,
    aggCalls: calls,
    timeIndex: timeAt,
    window: tvf.window,
    accNames,
    fields: [
      ...plainKeys.map((k) => pruned.fields[k]!),
      ...calls.map((c, i) => ({ name: accNames[i]!, type: c.type })),
      { name: '$slice_end', type: notNull(DataTypes.BIGINT()) },
    ],
  };
  const global: GlobalWindowAggregateNode = { kind: 'global-window-aggregate', input: local, keys, aggCalls: n.aggCalls, window: tvf.window, fields: n.fields };
  return global;
}

/**
 * Flink's names of the accumulator fields a local aggregate emits: each function's buffer fields (`count1` for
 * COUNT(*), `sum` and `count` for AVG, the lower-cased name for a user-defined function) numbered `$0`, `$1`, ...
 * across the calls; a call with several fields prints them in parentheses.
 */
export function accumulatorNames(calls: readonly AggCall[]): string[] {
  let i = 0;
  return calls.map((c) => {
    const parts = bufferFields(c).map((b) => `${b}$${i++}`);
    return parts.length === 1 ? parts[0]! : `(${parts.join(', ')})`;
  });
}

function bufferFields(c: AggCall): readonly string[] {
  switch (c.name) {
    case 'COUNT':
      return c.args.length === 0 ? ['count1'] : ['count'];
    case 'SUM':
    case 'SUM0':
      return ['sum'];
    case 'AVG':
      return ['sum', 'count'];
    case 'MIN':
      return ['min'];
    case 'MAX':
      return ['max'];
    default:
      return [c.name.toLowerCase()];
  }
}

/**
 * Whether the aggregate `call` names can merge accumulators, as the lowering will create it: a user-defined
 * aggregate function by its `merge` method, a built-in one by Sluice's implementation (COUNT, SUM, SUM0, AVG,
 * MIN, MAX merge; FIRST_VALUE, LAST_VALUE and LISTAGG do not, as in Flink).
 */
export function aggregateCanMerge(functions: FunctionLookup | undefined, call: AggCall, argTypes: readonly LogicalType[]): boolean {
  const def = functions?.lookup(call.name);
  if (def?.kind === 'aggregate' && !BUILTIN_AGGREGATES.has(call.name)) {
    return def.create(argTypes, { distinct: call.distinct, star: call.args.length === 0 }).merge !== undefined;
  }
  if (!BUILTIN_AGGREGATES.has(call.name)) return false;
  return builtinAggregate(call.name, argTypes, call.type, { retracts: false }).merge !== undefined;
}
