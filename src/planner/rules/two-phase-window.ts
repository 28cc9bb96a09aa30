import { builtinAggregate } from '../../table-runtime/aggregates/builtin-aggregates.js';
import { DataTypes } from '../../types/data-types.js';
import { isRowtimeAttribute, notNull } from '../../types/logical-type.js';
import type { LogicalType } from '../../types/logical-type.js';
import { BUILTIN_AGGREGATES } from '../functions/aggregates/builtin-aggregate-types.js';
import type { FunctionLookup } from '../functions/function-registry.js';
import type {
  AggCall,
  AggregateNode,
  CalcNode,
  GlobalWindowAggregateNode,
  LocalWindowAggregateNode,
  PlanField,
  PlanNode,
  WindowKeySource,
} from '../logical/plan-node.js';
import { fuseWindowAggregate } from '../lowering/window-fusion.js';
import { inputRef } from '../rex/rex-node.js';

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
 * phase. Sluice splits only the window aggregate fused with its TVF (lowering/window-fusion.ts), and keeps a
 * DISTINCT call one phase (Flink carries the distinct values in the accumulator; Sluice's distinct sets do not
 * merge across slices).
 */
export function splitWindowAggregate(n: PlanNode, o: TwoPhaseWindowOptions): PlanNode {
  if (n.kind !== 'aggregate' || n.window === undefined || o.mode !== 'streaming' || o.strategy === 'ONE_PHASE') return n;
  const fused = fuseWindowAggregate(n);
  if (fused === undefined) return n;
  const input = fused.input;
  if (!isRowtimeAttribute(input.fields[fused.timeIndex]!.type)) return n;
  const inputTypes = input.fields.map((f) => f.type);
  if (!fused.calls.every((c) => !c.distinct && o.canMerge(c, c.args.map((i) => inputTypes[i]!)))) return n;

  // The columns the local phase reads, in Flink's order: the projection above the TVF without the window
  // columns, then the time column.
  const used: number[] = [];
  const use = (i: number): void => {
    if (!used.includes(i)) used.push(i);
  };
  if (n.input.kind === 'calc') {
    for (const p of n.input.projects) if (p.kind === 'input-ref' && p.index < input.fields.length) use(p.index);
  } else {
    for (const k of fused.keys) if (k.kind === 'field') use(k.index);
    for (const c of fused.calls) {
      c.args.forEach(use);
      if (c.filterArg >= 0) use(c.filterArg);
    }
  }
  use(fused.timeIndex);
  const identity = used.length === input.fields.length && used.every((u, i) => u === i);
  const pruned: PlanNode = identity ? input : pruneCalc(input, used);
  const at = (i: number): number => (identity ? i : used.indexOf(i));

  const plainKeys = fused.keys.flatMap((k) => (k.kind === 'field' ? [at(k.index)] : []));
  const calls = fused.calls.map((c): AggCall => ({ ...c, args: c.args.map(at), filterArg: c.filterArg < 0 ? -1 : at(c.filterArg) }));
  const accNames = accumulatorNames(calls);
  const localFields: PlanField[] = [
    ...plainKeys.map((k) => pruned.fields[k]!),
    ...calls.map((c, i) => ({ name: accNames[i]!, type: c.type })),
    { name: '$slice_end', type: notNull(DataTypes.BIGINT()) },
  ];
  const local: LocalWindowAggregateNode = {
    kind: 'local-window-aggregate',
    input: pruned,
    groupKeys: plainKeys,
    aggCalls: calls,
    timeIndex: at(fused.timeIndex),
    window: fused.window,
    accNames,
    fields: localFields,
  };
  let next = 0;
  const keys = fused.keys.map((k): WindowKeySource => (k.kind === 'field' ? { kind: 'field', index: next++ } : k));
  const global: GlobalWindowAggregateNode = {
    kind: 'global-window-aggregate',
    input: local,
    keys,
    aggCalls: (n as AggregateNode).aggCalls,
    window: fused.window,
    fields: n.fields,
  };
  return global;
}

function pruneCalc(input: PlanNode, used: readonly number[]): CalcNode {
  return {
    kind: 'calc',
    input,
    projects: used.map((i) => inputRef(i, input.fields[i]!.name, input.fields[i]!.type)),
    condition: null,
    fields: used.map((i) => input.fields[i]!),
  };
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
