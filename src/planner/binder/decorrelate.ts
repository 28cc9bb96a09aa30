import { PlanningError } from '../../errors/sluice-error.js';
import type { BinaryExpr, Expression } from '../../sql/ast/expressions.js';
import type { Query, SelectItem } from '../../sql/ast/query.js';
import { childExpressions } from '../../sql/ast/visitor.js';
import { findAggregates, needsAggregate } from './bind-aggregate.js';
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
  /**
   * Correlated conjuncts other than `inner = outer` (`o.amount > c.limit`): the join's condition, over the
   * outer row and the inner FROM's columns, which then follow the correlation columns in the select list.
   */
  readonly conditions: readonly Expression[];
  /** The subquery's FROM scope, whose columns the select list ends with when there are `conditions`. */
  readonly innerScope: Scope;
}

function conjuncts(e: Expression): Expression[] {
  return e.kind === 'binary' && e.op === 'AND' ? [...conjuncts(e.left), ...conjuncts(e.right)] : [e];
}

/**
 * Decorrelates `query` when its WHERE refers to `outerScope`; undefined when it is not correlated.
 * `keepItems` false (EXISTS) drops the subquery's own select list.
 * @throws PlanningError for correlations it cannot rewrite.
 */
/** The `inner = outer` conjuncts of a subquery's WHERE, and the rest; undefined when it is not correlated. */
async function correlation(
  binder: QueryBinder,
  query: Query,
  outerScope: Scope,
  ctes: ReadonlyMap<string, Cte>,
  /** An IN subquery is joined on its compared value: it needs no `inner = outer` pair, other correlations will do. */
  keyedByValue = false,
): Promise<{ pairs: { inner: Expression; outer: Expression }[]; rest: Expression[]; outerConditions: Expression[]; innerScope: Scope } | undefined> {
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
  if (pairs.length === 0 && !keyedByValue) return undefined;
  const outerConditions: Expression[] = [];
  for (const c of rest) {
    if (resolves(c, inner.scope)) continue;
    if (!resolves(c, inner.scope.concat(outerScope))) {
      throw new PlanningError('A condition of a correlated subquery refers to columns neither of the subquery nor of the query around it (or to a name both have: qualify it)');
    }
    outerConditions.push(c);
  }
  if (pairs.length === 0 && outerConditions.length === 0) return undefined;
  return { pairs, rest: rest.filter((c) => !outerConditions.includes(c)), outerConditions, innerScope: inner.scope };
}

function andOf(es: readonly Expression[]): Expression | null {
  return es.length === 0 ? null : es.reduce((a, b): BinaryExpr => ({ kind: 'binary', op: 'AND', left: a, right: b, pos: a.pos }));
}

/**
 * A correlated scalar subquery computing one aggregate (`(SELECT AVG(o.amount) FROM orders o WHERE o.cust =
 * c.id)`) rewritten as an uncorrelated aggregate grouped by the inner sides of the correlations (its select
 * list: those, then the value, then the aggregate calls of `empty`); the caller LEFT JOINs it on the outer
 * sides. A key with no inner rows has no group, so its value is NULL, which is the aggregate of no rows except
 * for COUNT: `emptyIsZero` then says the caller must read a missing value as 0, and `empty` (a value that uses
 * COUNT inside an expression, `COUNT(*) + 1`) gives the expression the caller evaluates for a missing key instead,
 * over each call's value on no rows.
 */
export interface DecorrelatedScalar {
  readonly query: Query;
  readonly outer: readonly Expression[];
  readonly emptyIsZero: boolean;
  readonly empty: { readonly expr: Expression; readonly aggregates: readonly Expression[] } | null;
}

/**
 * Decorrelates a scalar subquery whose WHERE refers to `outerScope`; undefined when it is not correlated.
 * @throws PlanningError for shapes it cannot rewrite.
 */
export async function decorrelateScalar(binder: QueryBinder, query: Query, outerScope: Scope, ctes: ReadonlyMap<string, Cte>): Promise<DecorrelatedScalar | undefined> {
  const corr = await correlation(binder, query, outerScope, ctes);
  if (corr === undefined || query.kind !== 'select') return undefined;
  if (corr.outerConditions.length > 0) throw new PlanningError('Correlated scalar subqueries support only equality correlations (inner = outer) yet');
  if (query.items.length !== 1) throw new PlanningError('A scalar subquery must return exactly one column');
  if (query.groupBy.length > 0 || query.having !== null || !needsAggregate(query, binder.functions)) {
    throw new PlanningError('Correlated scalar subqueries are supported yet as one aggregate without GROUP BY (SELECT AGG(x) FROM t WHERE t.k = outer.k)');
  }
  const item = query.items[0]!;
  const e = item.expr;
  const emptyIsZero = isCount(e);
  const aggregates = !emptyIsZero && mentionsCount(e) ? findAggregates(e, binder.functions) : [];
  const keys: SelectItem[] = corr.pairs.map((p, i) => ({ expr: p.inner, alias: { value: `$corr${i}`, pos: p.inner.pos }, pos: p.inner.pos }));
  const value: SelectItem = { ...item, alias: item.alias ?? { value: '$value', pos: item.pos } };
  // Each call of an expression over COUNT as a column too: its type types the call's value on no rows.
  const calls: SelectItem[] = aggregates.map((a, i) => ({ expr: a, alias: { value: `$agg${i}`, pos: a.pos }, pos: a.pos }));
  return {
    query: { ...query, where: andOf(corr.rest), items: [...keys, value, ...calls], groupBy: corr.pairs.map((p) => ({ kind: 'group-expr' as const, expr: p.inner, pos: p.inner.pos })) },
    outer: corr.pairs.map((p) => p.outer),
    emptyIsZero,
    empty: aggregates.length === 0 ? null : { expr: e, aggregates },
  };
}

/** Whether `e` calls COUNT anywhere: its value over no rows is 0, not the NULL a missing group gives. */
function mentionsCount(e: Expression): boolean {
  return isCount(e) || childExpressions(e).some(mentionsCount);
}

export function isCount(e: Expression): boolean {
  return e.kind === 'function-call' && e.name.length === 1 && e.name[0]!.toUpperCase() === 'COUNT';
}

export async function decorrelate(binder: QueryBinder, query: Query, outerScope: Scope, keepItems: boolean, ctes: ReadonlyMap<string, Cte>): Promise<Decorrelated | undefined> {
  const corr = await correlation(binder, query, outerScope, ctes, keepItems);
  if (corr === undefined || query.kind !== 'select') return undefined;
  const { pairs, rest, outerConditions, innerScope } = corr;
  if (query.groupBy.length > 0 || query.having !== null || needsAggregate(query, binder.functions)) {
    throw new PlanningError('Correlated subqueries with aggregation are not supported yet');
  }
  const where = andOf(rest);
  const own: SelectItem[] = keepItems ? [...query.items] : [];
  const extra: SelectItem[] = pairs.map((p, i) => ({ expr: p.inner, alias: { value: `$corr${i}`, pos: p.inner.pos }, pos: p.inner.pos }));
  // The inner FROM's columns, for the correlated conditions evaluated at the join.
  const pos = query.pos;
  const innerColumns: SelectItem[] =
    outerConditions.length === 0
      ? []
      : innerScope.columns.map((c, i) => ({
          expr: { kind: 'identifier' as const, names: c.qualifier === null ? [c.name] : [c.qualifier, c.name], pos },
          alias: { value: `$inner${i}`, pos },
          pos,
        }));
  return {
    query: { ...query, where, items: [...own, ...extra, ...innerColumns] },
    outer: pairs.map((p) => p.outer),
    firstCorrelated: own.length,
    conditions: outerConditions,
    innerScope,
  };
}
