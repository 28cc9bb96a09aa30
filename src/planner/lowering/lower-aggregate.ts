// Lowering of aggregates: GROUP BY, window and session aggregates, and the two phases of a window aggregate.
import { PlanningError } from '../../errors/sluice-error.js';
import { RowKind } from '../../types/row-kind.js';
import { hashFields } from '../../types/values/equality.js';
import { builtinAggregate } from '../../table-runtime/aggregates/builtin-aggregates.js';
import { BUILTIN_AGGREGATES } from '../functions/aggregates/builtin-aggregate-types.js';
import { groupAggregateFactory } from '../../table-runtime/group-aggregate-operator.js';
import type { AggregateSpec } from '../../table-runtime/group-aggregate-operator.js';
import { sessionWindowFactory } from '../../table-runtime/session-window-operator.js';
import { windowAggregateFactory } from '../../table-runtime/window-aggregate-operator.js';
import type { WindowAggregateSpec } from '../../table-runtime/window-aggregate-operator.js';
import { localWindowAggregateFactory } from '../../table-runtime/local-window-aggregate-operator.js';
import type { AggCall, AggregateNode, GlobalWindowAggregateNode, LocalWindowAggregateNode, PlanNode } from '../logical/plan-node.js';
import { fuseWindowAggregate } from './window-fusion.js';
import type { Lowering, Stream, VertexDraft } from './lowering-context.js';
import type { AggregateFunction } from '../../table-runtime/aggregates/aggregate-function.js';
import type { LogicalType } from '../../types/logical-type.js';

/** A group / window / session aggregate; `output` projects a window aggregate's columns (null: all). */
export function lowerAggregate(b: Lowering, n: AggregateNode, output: readonly number[] | null, name: string): Stream {
  const o = b.options;
  const fused = fuseWindowAggregate(n);
  const inputNode = fused?.input ?? n.input;
  const input = b.lower(inputNode);
  const keys = n.groupKeys;
  const w = n.window;
  // A fused window aggregate reads below its window TVF: the plain keys its exchange hashes, as fields of that input.
  const fusedKeys = fused?.keys.flatMap((k) => (k.kind === 'field' ? [k.index] : []));
  const v = b.keyedVertex(n, name);
  const calls = fused?.calls ?? n.aggCalls;
  // Window aggregates and batch jobs only ever see inserts; a streaming GROUP BY sees retractions only
  // when its input updates. Without them MIN / MAX keep just the best value (Flink's MaxAggFunction).
  const retracts = o.mode === 'streaming' && w === undefined && !b.physical.of(inputNode).changelog.isInsertOnly();
  const aggs = aggregateSpecs(b, calls, inputNode, retracts);
  if (w === undefined) {
    const updateBefore = b.physical.of(n).changelog.contains(RowKind.UPDATE_BEFORE);
    v.operators.push(groupAggregateFactory(name, keys, aggs, o.mode, o.stateTtlMs ?? 0, o.miniBatch === true, updateBefore));
  }
  else if (w.spec.kind === 'SESSION') {
    v.operators.push(sessionWindowFactory(name, { groupKeys: keys, windowStartField: w.windowStartField, windowEndField: w.windowEndField, gap: w.spec.gap }, aggs));
  } else {
    const spec: WindowAggregateSpec =
      fused !== undefined
        ? { input: { kind: 'assign', timeIndex: fused.timeIndex, window: fused.window, byWindow: o.mode === 'batch' }, keys: fused.keys, output }
        : {
            input: { kind: 'fields', startField: w.windowStartField, endField: w.windowEndField, window: w.spec },
            keys: keys.map((k) => (k === w.windowStartField ? { kind: 'start' as const } : k === w.windowEndField ? { kind: 'end' as const } : { kind: 'field' as const, index: k })),
            output,
          };
    v.operators.push(windowAggregateFactory(name, spec, aggs));
  }
  if (fusedKeys === undefined) b.exchange(n, input, v);
  else connectOnRowKeys(b, n, input, v, fusedKeys);
  return { id: v.id, parallelism: v.parallelism };
}

/**
 * Connects `input` to `v`, the vertex of `n`, through the exchange the physical plan puts in front of `n`, hashing the
 * same key values at `rowKeys` of `input`'s rows: `n` reads rows below the ones the plan's exchange was planned on (a
 * window aggregate fused with its TVF, or doing its local phase's work).
 */
function connectOnRowKeys(b: Lowering, n: PlanNode, input: Stream, v: VertexDraft, rowKeys: readonly number[]): void {
  const d = b.physical.exchangeInto(n, 0)?.distribution;
  if (d?.kind !== 'single' && d?.keys.length !== rowKeys.length) throw new PlanningError('internal: a window aggregate hashes the keys of its exchange');
  b.connect(input, v, d.kind === 'single' ? { kind: 'rebalance' } : { kind: 'hash', key: (r) => hashFields(r.fields, rowKeys) });
}

/**
 * A fresh instance of `call`'s function over input fields of `inputTypes`: a user-defined aggregate from the
 * function registry, else the built-in (`retracts`: whether the input may retract, see builtinAggregate).
 */
export function aggregateFunction(b: Lowering, c: AggCall, inputTypes: readonly LogicalType[], retracts = true): AggregateFunction<unknown> {
  const argTypes = c.args.map((i) => inputTypes[i]!);
  const def = b.options.functions?.lookup(c.name);
  return def?.kind === 'aggregate' && !BUILTIN_AGGREGATES.has(c.name)
    ? def.create(argTypes, { distinct: c.distinct, star: c.args.length === 0 })
    : builtinAggregate(c.name, argTypes, c.type, { retracts });
}

/** How the operators run `calls` over the rows of `inputNode` (one fresh set per operator instance). */
export function aggregateSpecs(b: Lowering, calls: readonly AggCall[], inputNode: PlanNode, retracts: boolean): () => AggregateSpec[] {
  const inputTypes = inputNode.fields.map((f) => f.type);
  return () =>
    calls.map((c) => {
      const fn = aggregateFunction(b, c, inputTypes, retracts);
      const countStar = c.name === 'COUNT' && c.args.length === 0;
      return { fn, args: c.args, distinct: c.distinct, filterArg: c.filterArg, countStar };
    });
}

/**
 * The global phase of a two-phase window aggregate, behind a hash exchange on the group keys the local phase
 * forwards first (the same hash a one-phase window aggregate's exchange computes from the input rows, so
 * either plan's state lands in the same key groups); `output` projects its columns (null: all).
 */
export function lowerGlobalWindow(b: Lowering, n: GlobalWindowAggregateNode, output: readonly number[] | null, name: string): Stream {
  const local = n.input;
  if (local.kind !== 'local-window-aggregate') throw new PlanningError('internal: a global window aggregate reads its local phase');
  if (b.options.mode === 'streaming' && b.keyedParallelism(n) === 1) {
    const below = b.lower(local.input);
    if (below.parallelism === 1) return lowerWindowInOnePhase(b, n, local, below, output, name);
  }
  const input = b.lower(local);
  const keyCount = local.groupKeys.length;
  const v = b.keyedVertex(n, name);
  // The calls' functions as the local phase creates them (over its input's types); they only merge here.
  const localAggs = aggregateSpecs(b, local.aggCalls, local.input, false);
  const aggs = (): AggregateSpec[] => localAggs().map((a) => ({ ...a, args: [], filterArg: -1 }));
  const spec: WindowAggregateSpec = { input: { kind: 'partial', keyCount, window: n.window }, keys: n.keys, output };
  v.operators.push(windowAggregateFactory(name, spec, aggs));
  b.exchange(n, input, v);
  return { id: v.id, parallelism: v.parallelism };
}

/**
 * Both phases of a two-phase window aggregate at parallelism 1: subtask 0 of every task shares one thread (slot
 * sharing), so the local phase would shrink no exchange and only add a partial row and a group per key and
 * slice (a fifth of a HOP job's CPU, and as much again to merge them). The global phase's vertex then
 * accumulates the input rows by slice itself, as a one-phase aggregate does. What it keeps in a checkpoint is
 * what the global phase keeps (the groups by slice, in the same key groups: its exchange hashes the same key
 * values), so a job resumed at another parallelism takes it over in either plan; EXPLAIN still shows Flink's
 * two phases.
 */
function lowerWindowInOnePhase(
  b: Lowering,
  n: GlobalWindowAggregateNode,
  local: LocalWindowAggregateNode,
  input: Stream,
  output: readonly number[] | null,
  name: string,
): Stream {
  const v = b.keyedVertex(n, name);
  const keys = n.keys.map((k) => (k.kind === 'field' ? { kind: 'field' as const, index: local.groupKeys[k.index]! } : k));
  const spec: WindowAggregateSpec = { input: { kind: 'assign', timeIndex: local.timeIndex, window: n.window }, keys, output };
  v.operators.push(windowAggregateFactory(name, spec, aggregateSpecs(b, local.aggCalls, local.input, false)));
  connectOnRowKeys(b, n, input, v, local.groupKeys);
  return { id: v.id, parallelism: v.parallelism };
}

/** The local phase of a window aggregate, chained after its input, before the exchange: it pre-aggregates the rows of its subtask. */
export function lowerLocalWindowAggregate(b: Lowering, n: LocalWindowAggregateNode, name: string): Stream {
  // Chained after its input, before the exchange: it pre-aggregates the rows of its subtask.
  const input = b.chainTarget(b.lower(n.input), name);
  const local = { timeIndex: n.timeIndex, window: n.window, keys: n.groupKeys };
  b.draft(input.id).operators.push(localWindowAggregateFactory(name, local, aggregateSpecs(b, n.aggCalls, n.input, false)));
  return input;
}
