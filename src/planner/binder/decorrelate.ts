import { PlanningError } from '../../errors/sluice-error.js';
import type { BinaryExpr, Expression } from '../../sql/ast/expressions.js';
import type { Query, SelectItem } from '../../sql/ast/query.js';
import { needsAggregate } from './bind-aggregate.js';
import { bindExpression } from './bind-expression.js';
import type { Cte, QueryBinder } from './bind-query.js';
import type { Scope } from './scope.js';

/**
 * A correlated IN / EXISTS subquery rewritten as an uncorrelated one: `WHERE inner = outer` conjuncts are
 * taken out of the subquery, whose select list gains the inner sides (after its own columns); the caller
 * joins on the outer sides. Only equality correlations in the top-level WHERE of a plain SELECT (no
 * aggregation) are supported.
 */
export interface Decorrelated {
  readonly query: Query;
  /** Outer expressions, pairwise equal to the select list's columns from `firstCorrelated` on. */
  readonly outer: readonly Expression[];
  readonly firstCorrelated: number;
}

function conjuncts(e: Expression): Expression[] {
  return e.kind === 'binary' && e.op === 'AND' ? [...conjuncts(e.left), ...conjuncts(e.right)] : [e];
}

/**
 * Decorrelates `query` when its WHERE refers to `outerScope`; undefined when it is not correlated.
 * `keepItems` false (EXISTS) drops the subquery's own select list.
 * @throws PlanningError for correlations it cannot rewrite.
 */
export async function decorrelate(binder: QueryBinder, query: Query, outerScope: Scope, keepItems: boolean, ctes: ReadonlyMap<string, Cte>): Promise<Decorrelated | undefined> {
  if (query.kind !== 'select' || query.where === null || query.from === null) return undefined;
  const inner = await binder.bindTableRef(query.from, ctes);
  const resolves = (e: Expression, scope: Scope): boolean => {
    try {
      bindExpression(e, binder.exprContext(scope));
      return true;
    } catch {
      return false;
    }
  };
  const pairs: { inner: Expression; outer: Expression }[] = [];
  const rest: Expression[] = [];
  for (const c of conjuncts(query.where)) {
    if (c.kind === 'binary' && c.op === '=') {
      const l = resolves(c.left, inner.scope);
      const r = resolves(c.right, inner.scope);
      if (l && !r && resolves(c.right, outerScope)) {
        pairs.push({ inner: c.left, outer: c.right });
        continue;
      }
      if (r && !l && resolves(c.left, outerScope)) {
        pairs.push({ inner: c.right, outer: c.left });
        continue;
      }
    }
    rest.push(c);
  }
  if (pairs.length === 0) return undefined;
  for (const c of rest) {
    if (!resolves(c, inner.scope)) throw new PlanningError('Correlated subqueries support only equality correlations (inner = outer) in the WHERE clause yet');
  }
  if (query.groupBy.length > 0 || query.having !== null || needsAggregate(query, binder.functions)) {
    throw new PlanningError('Correlated subqueries with aggregation are not supported yet');
  }
  const where = rest.length === 0 ? null : rest.reduce((a, b): BinaryExpr => ({ kind: 'binary', op: 'AND', left: a, right: b, pos: a.pos }));
  const own: SelectItem[] = keepItems ? [...query.items] : [];
  const extra: SelectItem[] = pairs.map((p, i) => ({ expr: p.inner, alias: { value: `$corr${i}`, pos: p.inner.pos }, pos: p.inner.pos }));
  return { query: { ...query, where, items: [...own, ...extra] }, outer: pairs.map((p) => p.outer), firstCorrelated: own.length };
}
