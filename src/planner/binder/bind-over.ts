import { PlanningError, ValidationError } from '../../errors/sluice-error.js';
import type { Expression, FunctionCall } from '../../sql/ast/expressions.js';
import type { NamedWindow, SelectItem, WindowSpec } from '../../sql/ast/query.js';
import { childExpressions } from '../../sql/ast/visitor.js';
import { DataTypes } from '../../types/data-types.js';
import { notNull } from '../../types/logical-type.js';
import type { PlanNode, SortKey } from '../logical/plan-node.js';
import { inputRef } from '../rex/rex-node.js';
import type { RexNode } from '../rex/rex-node.js';
import { bindExpression } from './bind-expression.js';
import type { ExprBindContext } from './bind-expression.js';
import { Scope } from './scope.js';

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

/**
 * Binds `ROW_NUMBER() OVER (PARTITION BY ... ORDER BY ...)` in a select list into a rank node over
 * `input`; the calls are then bound as a reference to the rank column. Other OVER aggregates are not
 * supported yet.
 */
export function bindRankOver(
  items: readonly SelectItem[],
  windows: readonly NamedWindow[],
  input: PlanNode,
  scope: Scope,
  ctx: ExprBindContext,
): { node: PlanNode; scope: Scope; intercept: (e: Expression) => RexNode | undefined } {
  const calls = items.flatMap((it) => findOverCalls(it.expr));
  const first = calls[0]!;
  for (const c of calls) {
    const name = c.name[c.name.length - 1]!.toUpperCase();
    if (name !== 'ROW_NUMBER') throw new PlanningError(`OVER aggregate ${name} is not supported yet; only ROW_NUMBER() for Top-N and deduplication`);
    if (c.args.length > 0) throw new ValidationError('ROW_NUMBER takes no arguments');
  }
  if (calls.length > 1 && JSON.stringify(stripPos(calls[0]!.over)) !== JSON.stringify(stripPos(calls[1]!.over))) {
    throw new PlanningError('Only one ROW_NUMBER() window per query is supported yet');
  }
  let spec: WindowSpec;
  if (first.over!.kind === 'window-ref') {
    const ref = first.over!.name;
    const w = windows.find((x) => x.name.value === ref);
    if (w === undefined) throw new ValidationError(`Window '${ref}' not found`);
    spec = w.spec;
  } else spec = first.over as WindowSpec;
  const col = (e: Expression, what: string): number => {
    const r = bindExpression(e, ctx);
    if (r.kind !== 'input-ref') throw new PlanningError(`${what} of ROW_NUMBER() supports only columns yet`);
    return r.index;
  };
  const partitionKeys = spec.partitionBy.map((e) => col(e, 'PARTITION BY'));
  const orderKeys: SortKey[] = spec.orderBy.map((o) => {
    const descending = o.direction === 'DESC';
    return { index: col(o.expr, 'ORDER BY'), descending, nullsFirst: o.nulls === null ? !descending : o.nulls === 'FIRST' };
  });
  if (orderKeys.length === 0) throw new ValidationError('ROW_NUMBER() requires an ORDER BY in its OVER clause');
  const rnIndex = input.fields.length;
  const rnType = notNull(DataTypes.BIGINT());
  const node: PlanNode = {
    kind: 'rank',
    input,
    partitionKeys,
    orderKeys,
    limit: null,
    outputRankNumber: true,
    fields: [...input.fields, { name: `w0$o0`, type: rnType }],
  };
  const callSet = new Set<Expression>(calls);
  return {
    node,
    scope: new Scope([...scope.columns, { qualifier: null, name: '$rank', type: rnType }]),
    intercept: (e) => (callSet.has(e) ? inputRef(rnIndex, 'w0$o0', rnType) : undefined),
  };
}

function stripPos(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v, (k, x) => (k === 'pos' ? undefined : x)));
}
