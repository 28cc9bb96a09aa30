import { PlanningError, ValidationError } from '../../errors/sluice-error.js';
import type { Expression, FunctionCall } from '../../sql/ast/expressions.js';
import { isSourcePosition } from '../../sql/position.js';
import type { NamedWindow, SelectItem, WindowSpec } from '../../sql/ast/query.js';
import { childExpressions } from '../../sql/ast/visitor.js';
import { DataTypes } from '../../types/data-types.js';
import { notNull } from '../../types/logical-type.js';

import type { OverCall, PlanNode, RankType, SortKey } from '../logical/plan-node.js';
import { inputRef, isConstant, literal } from '../rex/rex-node.js';
import { compileRex } from '../rex/compile-rex.js';
import { isTimeAttribute } from '../../types/logical-type.js';
import { aggregateType } from './bind-aggregate.js';
import type { RexNode } from '../rex/rex-node.js';
import { bindExpression, checkAt } from './bind-expression.js';
import type { ExprBindContext } from './bind-expression.js';
import { Scope } from './scope.js';
import { identity, project } from './bind-query.js';

function findOverCalls(e: Expression, out: FunctionCall[] = []): FunctionCall[] {
  if (e.kind === 'function-call' && e.over !== null) {
    out.push(e);
    return out;
  }
  for (const c of childExpressions(e)) findOverCalls(c, out);
  return out;
}

/** True when a select list uses OVER. */
export function hasOverCalls(items: readonly SelectItem[]): boolean {
  return items.some((it) => findOverCalls(it.expr).length > 0);
}

function resolveSpec(c: FunctionCall, windows: readonly NamedWindow[]): WindowSpec {
  const over = c.over!;
  if (over.kind === 'window-ref') {
    const w = windows.find((x) => x.name.value === over.name);
    if (w === undefined) throw new ValidationError(`Window '${over.name}' not found`);
    return w.spec;
  }
  if (over.baseWindow !== null) {
    const w = windows.find((x) => x.name.value === over.baseWindow);
    if (w === undefined) throw new ValidationError(`Window '${over.baseWindow}' not found`);
    return {
      ...w.spec,
      partitionBy: over.partitionBy.length > 0 ? over.partitionBy : w.spec.partitionBy,
      orderBy: over.orderBy.length > 0 ? over.orderBy : w.spec.orderBy,
      frame: over.frame ?? w.spec.frame,
    };
  }
  return over;
}

type OverBinding = { node: PlanNode; scope: Scope; intercept: (e: Expression) => RexNode | undefined };

/**
 * Binds the OVER calls of a select list: only ROW_NUMBER() -> a rank node (Top-N / dedup once a
 * `WHERE rn <= N` is found); aggregates (SUM, COUNT, ...) -> an over-aggregate node. The calls are then
 * bound as references to the new columns.
 */
export function bindOver(
  items: readonly SelectItem[],
  windows: readonly NamedWindow[],
  input: PlanNode,
  scope: Scope,
  ctx: ExprBindContext,
  mode: 'streaming' | 'batch',
): OverBinding {
  const calls = items.flatMap((it) => findOverCalls(it.expr));
  const names = calls.map((c) => c.name[c.name.length - 1]!.toUpperCase());
  const ranking = (n: string): n is RankType => n === 'ROW_NUMBER' || n === 'RANK' || n === 'DENSE_RANK';
  const specs = calls.map((c) => resolveSpec(c, windows));
  const shape = (sp: WindowSpec): string => JSON.stringify(stripPos([sp.partitionBy, sp.orderBy]));
  // Calls of one kind over the same PARTITION BY and ORDER BY share one node (a rank for ROW_NUMBER / RANK /
  // DENSE_RANK, an over aggregate otherwise); each other window adds a node on top, ranks first. Several windows
  // are for batch mode: Flink's streaming planner refuses them.
  const groups = new Map<string, number[]>();
  calls.forEach((_, i) => {
    const k = `${ranking(names[i]!) ? names[i] : 'AGG'}:${shape(specs[i]!)}`;
    groups.set(k, [...(groups.get(k) ?? []), i]);
  });
  if (mode === 'streaming' && groups.size > 1) {
    if (names.some(ranking)) throw new PlanningError('Ranking functions cannot be mixed with each other or with OVER aggregates in one select list in streaming mode');
    throw new PlanningError('Over Agg: Unsupported use of OVER windows. All aggregates must be computed on the same window. please re-check the over window statement.');
  }
  const ordered = [...groups.entries()].sort(([a], [b]) => Number(a.startsWith('AGG')) - Number(b.startsWith('AGG')));
  let node = input;
  let window = 0;
  const byAst = new Map<Expression, number>();
  for (const [, members] of ordered) {
    const name = names[members[0]!]!;
    if (ranking(name)) {
      const layer = rankLayer(node, members.map((i) => calls[i]!), specs[members[0]!]!, ctx, name, window++);
      node = layer.node;
      for (const i of members) byAst.set(calls[i]!, layer.callField);
      continue;
    }
    const layer = overLayer(node, members.map((i) => calls[i]!), members.map((i) => specs[i]!), members.map((i) => names[i]!), ctx, mode, window++);
    node = layer.node;
    members.forEach((i, j) => byAst.set(calls[i]!, layer.callFields[j]!));
  }
  const top = node;
  // The input's columns keep their names; what the layers added (computed arguments, the calls) is reachable only
  // through the calls themselves.
  const added = top.fields.slice(scope.columns.length).map((f, i) => ({ qualifier: null, name: `$over:${i}:${f.name}`, type: f.type }));
  return {
    node: top,
    scope: new Scope([...scope.columns, ...added]),
    intercept: (e) => {
      const i = byAst.get(e);
      return i === undefined ? undefined : inputRef(i, top.fields[i]!.name, top.fields[i]!.type);
    },
  };
}

/**
 * One over node on top of `input` for `calls`, which share one window (PARTITION BY and ORDER BY): partition
 * keys, the order key and arguments that are expressions are computed by a calc below it. Returns the node and
 * the field of each call. Calls are named as Calcite names them: `w<window>$o<call>`.
 */
function overLayer(
  input: PlanNode,
  calls: readonly FunctionCall[],
  specs: readonly WindowSpec[],
  names: readonly string[],
  ctx: ExprBindContext,
  mode: 'streaming' | 'batch',
  window: number,
): { node: PlanNode; callFields: number[] } {
  const spec = specs[0]!;
  if (spec.orderBy.length > 1) throw new ValidationError('OVER aggregates require exactly one ORDER BY key');
  const pre: RexNode[] = input.fields.map((f, i) => inputRef(i, f.name, f.type));
  const argIndex = (r: RexNode): number => {
    if (r.kind === 'input-ref') return r.index;
    pre.push(r);
    return pre.length - 1;
  };
  // Without ORDER BY every row of a partition is a peer of every other and the window is the whole partition,
  // which a constant order key gives (one peer group). Flink's batch planner ignores a frame there too:
  // `SUM(id) OVER (ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)` is the partition's sum in every row.
  const unordered = spec.orderBy.length === 0;
  const order = unordered ? literal(0, notNull(DataTypes.INT())) : bindExpression(spec.orderBy[0]!.expr, ctx);
  const descending = !unordered && spec.orderBy[0]!.direction === 'DESC';
  if (mode === 'streaming' && (order.kind !== 'input-ref' || !isTimeAttribute(order.type) || descending)) {
    throw new PlanningError("OVER windows' ordering in stream mode must be defined on a time attribute.");
  }
  const orderIndex = argIndex(order);
  const partitionKeys = spec.partitionBy.map((e) => argIndex(bindExpression(e, ctx)));
  const constant = (e: Expression): unknown => {
    const r = bindExpression(e, { ...ctx, scope: new Scope([]) });
    if (!isConstant(r)) throw new ValidationError('OVER window frame offsets must be constants');
    return compileRex(r)([]);
  };
  const overCalls: OverCall[] = calls.map((c, i) => {
    const sp = specs[i]!;
    const name = names[i]!;
    const star = c.args.length === 1 && c.args[0]!.kind === 'star';
    const argRex = star ? [] : c.args.map((a) => bindExpression(a, ctx));
    const args = argRex.map(argIndex);
    const type = checkAt(c, ctx.positioned, () => aggregateType(name, argRex.map((r) => r.type), name !== 'COUNT', ctx.functions, c.quantifier === 'DISTINCT'));
    const frame = unordered ? null : sp.frame;
    const unit: 'ROWS' | 'RANGE' = frame?.unit ?? 'RANGE';
    let preceding: number | null = null;
    if (frame !== null) {
      if (frame.end !== null && frame.end.kind !== 'current-row') throw new PlanningError('OVER windows must end at CURRENT ROW');
      switch (frame.start.kind) {
        case 'unbounded-preceding':
          break;
        case 'current-row':
          preceding = 0;
          break;
        case 'preceding':
          preceding = Number(constant(frame.start.offset));
          break;
        default:
          throw new PlanningError('OVER windows must start at a PRECEDING bound');
      }
    }
    return { call: { name, args, distinct: c.quantifier === 'DISTINCT', filterArg: -1, type, alias: `w${window}$o${i}` }, frame: { unit, preceding } };
  });
  const below: PlanNode =
    pre.length === input.fields.length ? input : { kind: 'calc', input, projects: pre, condition: null, fields: pre.map((r, i) => ({ name: input.fields[i]?.name ?? `$f${i}`, type: r.type })) };
  const base = below.fields.length;
  const node: PlanNode = {
    kind: 'over',
    input: below,
    partitionKeys,
    orderKey: { index: orderIndex, descending, nullsFirst: !descending },
    calls: overCalls,
    fields: [...below.fields, ...overCalls.map((c) => ({ name: c.call.alias, type: c.call.type }))],
  };
  return { node, callFields: overCalls.map((_, i) => base + i) };
}

/** ROW_NUMBER() / RANK() / DENSE_RANK() OVER (PARTITION BY ... ORDER BY ...) -> a rank node over `input`, and its number's field. */
function rankLayer(input: PlanNode, calls: readonly FunctionCall[], spec: WindowSpec, ctx: ExprBindContext, rankType: RankType, window: number): { node: PlanNode; callField: number } {
  for (const c of calls) if (c.args.length > 0) throw new ValidationError(`${rankType} takes no arguments`);
  // PARTITION BY and ORDER BY expressions other than columns (`MOD(id, 10)`) are computed as hidden columns
  // after the input's, as Calcite projects them below the window.
  const computed: RexNode[] = [];
  const col = (e: Expression): number => {
    const r = bindExpression(e, ctx);
    return r.kind === 'input-ref' ? r.index : input.fields.length + computed.push(r) - 1;
  };
  const partitionKeys = spec.partitionBy.map((e) => col(e));
  const orderKeys: SortKey[] = spec.orderBy.map((o) => {
    const descending = o.direction === 'DESC';
    return { index: col(o.expr), descending, nullsFirst: o.nulls === null ? !descending : o.nulls === 'FIRST' };
  });
  if (orderKeys.length === 0) throw new ValidationError(`${rankType}() requires an ORDER BY in its OVER clause`);
  const below =
    computed.length === 0 ? input : project(input, [...identity(input.fields), ...computed], [...input.fields.map((f) => f.name), ...computed.map((_, i) => `$rankKey${i}`)]);
  const rnType = notNull(DataTypes.BIGINT());
  const alias = `w${window}$o0`;
  const node: PlanNode = {
    kind: 'rank',
    input: below,
    partitionKeys,
    orderKeys,
    limit: null,
    outputRankNumber: true,
    fields: [...below.fields, { name: alias, type: rnType }],
    ...(rankType === 'ROW_NUMBER' ? {} : { rankType }),
  };
  return { node, callField: below.fields.length };
}

function stripPos(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v, (k, x) => (k === 'pos' || (k === 'end' && isSourcePosition(x)) ? undefined : x)));
}
