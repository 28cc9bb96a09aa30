import { locateError, PlanningError, ValidationError } from '../../errors/sluice-error.js';
import { rangeOf } from '../../sql/position.js';
import type { Expression, IdentifierExpr } from '../../sql/ast/expressions.js';
import type { Query, SelectItem, SelectQuery } from '../../sql/ast/query.js';
import { childExpressions } from '../../sql/ast/visitor.js';
import { findAggregates, needsAggregate } from './bind-aggregate.js';
import { andOf, conjuncts, pullFactors, substitute } from './where-ast.js';
import type { BoundRelation, Cte, QueryBinder } from './bind-query.js';
import type { Scope } from './scope.js';

/*
 * Correlated subqueries rewritten as uncorrelated ones, at the AST: the conjuncts of the subquery's WHERE that name
 * the query around it are taken out, and the caller joins on them (bind-correlated.ts). A name resolves in the
 * subquery's FROM first and in the enclosing query only when the FROM has no such column (SQL scoping), so `b` in
 * `SELECT * FROM l WHERE EXISTS (SELECT 1 FROM r WHERE b > 2)` is `l.b` when `r` has no `b`.
 */

/** The `$cor<i>` name a correlated condition reads the i-th outer reference by. */
export function outerRefName(i: number): string {
  return `$cor${i}`;
}

/** How a subquery's WHERE refers to the query around it. */
interface Correlation {
  /** The subquery's FROM, bound. */
  readonly inner: BoundRelation;
  /** `inner = outer` conjuncts: an expression over the FROM, and one over the enclosing query (as written). */
  readonly pairs: readonly { readonly inner: Expression; readonly outer: Expression }[];
  /** The other correlated conjuncts, each outer reference renamed `$cor<i>`. */
  readonly conditions: readonly Expression[];
  /** Every correlated conjunct (`pairs` included), renamed as `conditions` are. */
  readonly all: readonly Expression[];
  /** Conjuncts over the FROM alone. */
  readonly rest: readonly Expression[];
  /** The outer references, as written; `$cor<i>` stands for the i-th. */
  readonly outerRefs: readonly IdentifierExpr[];
  /** Whether an outer reference sits under an OR (see `underOr`). */
  readonly underOr: boolean;
}

/** A PlanningError pointing at the subquery (not inside a view, whose positions are not the statement's). */
function refuse(binder: QueryBinder, at: SelectQuery, message: string): PlanningError {
  const e = new PlanningError(message);
  return binder.insideView ? e : locateError(e, rangeOf(at));
}


/** Whether `id` names a column of `scope` (an ambiguous name does too: that error is the subquery's own). */
function isColumnOf(scope: Scope, id: IdentifierExpr): boolean {
  try {
    scope.resolve(id.names);
    return true;
  } catch (e) {
    return e instanceof ValidationError && e.message.includes('ambiguous');
  }
}

/** The column references of `e` (not entering nested subqueries), split by the scope each resolves in. */
function references(e: Expression, inner: Scope, outer: Scope, out: { inner: number; outer: IdentifierExpr[] } = { inner: 0, outer: [] }): { inner: number; outer: IdentifierExpr[] } {
  if (e.kind === 'identifier') {
    if (isColumnOf(inner, e)) out.inner++;
    else if (isColumnOf(outer, e)) out.outer.push(e);
    // A name of neither is left for binding to report.
    else out.inner++;
  }
  for (const c of childExpressions(e)) references(c, inner, outer, out);
  return out;
}


/**
 * The correlation of `query`'s WHERE with `outerScope`; undefined when the WHERE names nothing of the enclosing
 * query (or `query` is no plain SELECT).
 */
async function correlation(binder: QueryBinder, query: Query, outerScope: Scope, ctes: ReadonlyMap<string, Cte>): Promise<Correlation | undefined> {
  if (query.kind !== 'select' || query.where === null || query.from === null) return undefined;
  const inner = await binder.bindTableRef(query.from, ctes);
  const pairs: { inner: Expression; outer: Expression }[] = [];
  const correlated: Expression[] = [];
  const rest: Expression[] = [];
  const outerRefs: IdentifierExpr[] = [];
  const paired = new Set<Expression>();
  const renamed = new Map<unknown, Expression>();
  const byName = new Map<string, number>();
  for (const c of conjuncts(query.where).flatMap(pullFactors)) {
    const refs = references(c, inner.scope, outerScope);
    if (refs.outer.length === 0) {
      rest.push(c);
      continue;
    }
    for (const id of refs.outer) {
      const key = id.names.join('\u0000');
      let i = byName.get(key);
      if (i === undefined) {
        i = outerRefs.push(id) - 1;
        byName.set(key, i);
      }
      renamed.set(id, { kind: 'identifier', names: [outerRefName(i)], pos: id.pos });
    }
    correlated.push(c);
    if (c.kind === 'binary' && c.op === '=') {
      const l = references(c.left, inner.scope, outerScope);
      const r = references(c.right, inner.scope, outerScope);
      if (l.outer.length === 0 && r.inner === 0) pairs.push({ inner: c.left, outer: c.right });
      else if (r.outer.length === 0 && l.inner === 0) pairs.push({ inner: c.right, outer: c.left });
      else continue;
      paired.add(c);
    }
  }
  if (outerRefs.length === 0) return undefined;
  return {
    inner,
    pairs,
    conditions: correlated.filter((c) => !paired.has(c)).map((c) => substitute(c, renamed)),
    all: correlated.map((c) => substitute(c, renamed)),
    rest,
    outerRefs,
    underOr: correlated.some((c) => underOr(c, inner.scope, outerScope)),
  };
}

/**
 * Whether one of the IN / EXISTS subqueries `queries` of a WHERE names the enclosing query under an OR (`underOr`).
 * Flink 2.3's SubQueryDecorrelator then gives up on the whole WHERE, so every IN / EXISTS of it is left to Calcite's
 * value generator: none matches an outer row with a NULL reference (`EXISTS (... WHERE COALESCE(l.b, 0) < r.e)` is
 * not TRUE for a NULL b then, though it is alone).
 */
export async function anyCorrelatedUnderOr(binder: QueryBinder, queries: readonly Query[], outerScope: Scope, ctes: ReadonlyMap<string, Cte>): Promise<boolean> {
  for (const q of queries) {
    try {
      if ((await correlation(binder, q, outerScope, ctes))?.underOr === true) return true;
    } catch {
      // A subquery that does not bind reports its error when it is joined.
    }
  }
  return false;
}

/**
 * Whether `e` names the enclosing query under an OR (or a NOT of an AND, an OR once the NOT is pushed in). Flink 2.3's
 * SubQueryDecorrelator gives up on such a correlation (its source marks a correlation variable under an OR as not
 * supported yet) and leaves the subquery to Calcite's RelDecorrelator, whose value generator joins back on the outer
 * references with `=`: an outer row with a NULL reference then has no match, even where the OR holds without it.
 */
function underOr(e: Expression, inner: Scope, outer: Scope): boolean {
  const or = (e.kind === 'binary' && e.op === 'OR') || (e.kind === 'unary' && e.op === 'NOT' && e.operand.kind === 'binary' && e.operand.op === 'AND');
  if (or) return references(e, inner, outer).outer.length > 0;
  return childExpressions(e).some((c) => underOr(c, inner, outer));
}

/**
 * A correlated IN / EXISTS subquery rewritten as an uncorrelated one: its select list gains the inner sides of the
 * `inner = outer` conjuncts (after its own columns); the caller joins on the outer sides and on `conditions`.
 */
export interface Decorrelated {
  readonly query: SelectQuery;
  /** Outer expressions, pairwise equal to the select list's columns from `firstCorrelated` on. */
  readonly outer: readonly Expression[];
  readonly firstCorrelated: number;
  /**
   * Correlated conjuncts other than `inner = outer` (`o.amount > c.limit`), the outer references renamed
   * `$cor<i>` (`outerRefs[i]`): the join's condition, over those and the inner FROM's columns, which then follow the
   * correlation columns in the select list.
   */
  readonly conditions: readonly Expression[];
  readonly outerRefs: readonly IdentifierExpr[];
  /**
   * An outer reference sits under an OR: as in Flink, an outer row matches only where every outer reference is not
   * NULL (the semantics of a value generator joined back with `=`).
   */
  readonly nullRejecting: boolean;
  /** The subquery's FROM scope, whose columns the select list ends with when there are `conditions`. */
  readonly innerScope: Scope;
  /**
   * Set for an aggregate correlated by more than equalities: `query` (FROM and WHERE aside) is then the aggregate over
   * the value generator, grouped by the outer references too, whose values follow its own columns (`outer` are the
   * references).
   */
  readonly generator: ValueGenerator | null;
}

/**
 * The inner FROM joined with the distinct values of the outer references (`$cor<i>`) on the correlated conjuncts, as
 * Calcite's decorrelator builds it: each outer value then meets the inner rows its subquery reads, and an aggregate
 * grouped by the references computes every outer value's subquery at once.
 */
export interface ValueGenerator {
  readonly inner: BoundRelation;
  /** The correlated conjuncts, over the inner FROM and `$cor<i>`. */
  readonly conditions: readonly Expression[];
  /** The uncorrelated conjuncts, over the inner FROM. */
  readonly rest: Expression | null;
}

/** Whether every GROUP BY element is a plain expression (no grouping sets, whose empty set gives a row of no rows). */
function plainGroupBy(q: SelectQuery): boolean {
  return q.groupBy.every((g) => g.kind === 'group-expr');
}

/**
 * Decorrelates an IN (`keepItems`) or EXISTS subquery when its WHERE refers to `outerScope`; undefined when it is
 * not correlated. With an aggregate, the inner sides of the correlations join the grouping keys: all rows of a group
 * then meet the same outer rows; correlated by more than equalities, the outer references do, over a value
 * generator. EXISTS ignores GROUP BY without HAVING (a group exists when a row does).
 * @throws PlanningError for correlations it cannot rewrite.
 */
export async function decorrelate(binder: QueryBinder, query: Query, outerScope: Scope, keepItems: boolean, ctes: ReadonlyMap<string, Cte>): Promise<Decorrelated | undefined> {
  const corr = await correlation(binder, query, outerScope, ctes);
  if (corr === undefined || query.kind !== 'select') return undefined;
  const { pairs, conditions, inner } = corr;
  let q: SelectQuery = query;
  if (!keepItems && q.having === null && plainGroupBy(q)) q = { ...q, groupBy: [], quantifier: 'ALL', items: [] };
  const extra: SelectItem[] = pairs.map((p, i) => ({ expr: p.inner, alias: { value: `$corr${i}`, pos: p.inner.pos }, pos: p.inner.pos }));
  if (needsAggregate(q, binder.functions)) {
    // An aggregate without GROUP BY groups by the correlation too, as Flink 2.3 decorrelates it: a key with no inner
    // rows has no group, so `x IN (SELECT COUNT(*) ...)` is FALSE there (not a comparison with COUNT 0) and NOT IN
    // is TRUE (the reference Flink answers so).
    if (!plainGroupBy(q)) throw refuse(binder, query, 'Correlated subqueries with GROUPING SETS, ROLLUP or CUBE are not supported yet');
    if (conditions.length > 0) {
      // Correlated by more than equalities: group by the outer references themselves, over a value generator.
      const refs: Expression[] = corr.outerRefs.map((_, i) => ({ kind: 'identifier', names: [outerRefName(i)], pos: query.pos }));
      const keys: SelectItem[] = refs.map((r, i) => ({ expr: r, alias: { value: `$corr${i}`, pos: r.pos }, pos: r.pos }));
      const own: SelectItem[] = keepItems ? [...q.items] : [];
      return {
        query: { ...q, where: null, items: [...own, ...keys], groupBy: [...q.groupBy, ...refs.map((r) => ({ kind: 'group-expr' as const, expr: r, pos: r.pos }))] },
        outer: corr.outerRefs,
        firstCorrelated: own.length,
        conditions: [],
        outerRefs: corr.outerRefs,
        nullRejecting: false,
        innerScope: inner.scope,
        generator: { inner, conditions: corr.all, rest: andOf(corr.rest) },
      };
    }
    q = { ...q, groupBy: [...q.groupBy, ...extra.map((e) => ({ kind: 'group-expr' as const, expr: e.expr, pos: e.pos }))] };
  }
  const own: SelectItem[] = keepItems ? [...q.items] : [];
  // The inner FROM's columns, for the correlated conditions evaluated at the join.
  const pos = query.pos;
  const innerColumns: SelectItem[] =
    conditions.length === 0
      ? []
      : inner.scope.columns.map((c, i) => ({
          expr: { kind: 'identifier' as const, names: c.qualifier === null ? [c.name] : [c.qualifier, c.name], pos },
          alias: { value: `$inner${i}`, pos },
          pos,
        }));
  return {
    query: { ...q, where: andOf(corr.rest), items: [...own, ...extra, ...innerColumns] },
    outer: pairs.map((p) => p.outer),
    firstCorrelated: own.length,
    conditions,
    outerRefs: corr.outerRefs,
    nullRejecting: corr.underOr,
    innerScope: inner.scope,
    generator: null,
  };
}

/**
 * A correlated scalar subquery computing one aggregate (`(SELECT AVG(o.amount) FROM orders o WHERE o.cust =
 * c.id)`) rewritten as an uncorrelated aggregate grouped by the correlation (its select list: the group keys, then
 * the value, then the aggregate calls of `empty`); the caller LEFT JOINs it on the outer sides. A key with no inner
 * rows has no group, so its value is NULL, which is the aggregate of no rows except for COUNT: `emptyIsZero` then
 * says the caller must read a missing value as 0, and `empty` (a value that uses COUNT inside an expression,
 * `COUNT(*) + 1`) gives the expression the caller evaluates for a missing key instead, over each call's value on no
 * rows.
 *
 * With only `inner = outer` correlations whose outer sides are columns, the aggregate groups by the inner sides
 * (`query`, `outer`). Any other correlation (`o.amount > c.limit`, an OR, `o.cust = COALESCE(c.id, 0)`) needs the
 * outer values themselves: `generator` then says to join the
 * inner FROM with the distinct outer references (a value generator, as Calcite's decorrelator builds) on the
 * correlated conjuncts, and to group by those references.
 */
export interface DecorrelatedScalar {
  readonly query: SelectQuery;
  readonly outer: readonly Expression[];
  readonly emptyIsZero: boolean;
  readonly empty: { readonly expr: Expression; readonly aggregates: readonly Expression[] } | null;
  readonly generator: ValueGenerator | null;
}

/**
 * Decorrelates a scalar subquery whose WHERE refers to `outerScope`; undefined when it is not correlated.
 * @throws PlanningError for shapes it cannot rewrite.
 */
export async function decorrelateScalar(binder: QueryBinder, query: Query, outerScope: Scope, ctes: ReadonlyMap<string, Cte>): Promise<DecorrelatedScalar | undefined> {
  const corr = await correlation(binder, query, outerScope, ctes);
  if (corr === undefined || query.kind !== 'select') return undefined;
  if (query.items.length !== 1) throw refuse(binder, query, 'A scalar subquery must return exactly one column');
  if (query.groupBy.length > 0 || query.having !== null || !needsAggregate(query, binder.functions)) {
    throw refuse(binder, query, 'Correlated scalar subqueries are supported yet as one aggregate without GROUP BY (SELECT AGG(x) FROM t WHERE t.k = outer.k)');
  }
  const item = query.items[0]!;
  const e = item.expr;
  const emptyIsZero = isCount(e);
  const aggregates = !emptyIsZero && mentionsCount(e) ? findAggregates(e, binder.functions) : [];
  const value: SelectItem = { ...item, alias: item.alias ?? { value: '$value', pos: item.pos } };
  // Each call of an expression over COUNT as a column too: its type types the call's value on no rows.
  const calls: SelectItem[] = aggregates.map((a, i) => ({ expr: a, alias: { value: `$agg${i}`, pos: a.pos }, pos: a.pos }));
  const empty = aggregates.length === 0 ? null : { expr: e, aggregates };
  // Calcite's decorrelator, which Flink 2.3 leaves scalar subqueries to, keys the aggregate by the inner side only
  // where the outer side is a column itself; any other correlation goes through the value generator, whose groups an
  // outer row with a NULL reference never meets: `r.d = COALESCE(l.b, 40)` counts no rows for a NULL b there.
  if (corr.conditions.length > 0 || corr.pairs.some((p) => p.outer.kind !== 'identifier')) {
    const refs: Expression[] = corr.outerRefs.map((_, i) => ({ kind: 'identifier', names: [outerRefName(i)], pos: query.pos }));
    const keys: SelectItem[] = refs.map((r, i) => ({ expr: r, alias: { value: `$corr${i}`, pos: r.pos }, pos: r.pos }));
    return {
      query: { ...query, where: null, items: [...keys, value, ...calls], groupBy: refs.map((r) => ({ kind: 'group-expr' as const, expr: r, pos: r.pos })) },
      outer: corr.outerRefs,
      emptyIsZero,
      empty,
      generator: { inner: corr.inner, conditions: corr.all, rest: andOf(corr.rest) },
    };
  }
  const keys: SelectItem[] = corr.pairs.map((p, i) => ({ expr: p.inner, alias: { value: `$corr${i}`, pos: p.inner.pos }, pos: p.inner.pos }));
  return {
    query: { ...query, where: andOf(corr.rest), items: [...keys, value, ...calls], groupBy: corr.pairs.map((p) => ({ kind: 'group-expr' as const, expr: p.inner, pos: p.inner.pos })) },
    outer: corr.pairs.map((p) => p.outer),
    emptyIsZero,
    empty,
    generator: null,
  };
}

/** Whether `e` calls COUNT anywhere: its value over no rows is 0, not the NULL a missing group gives. */
function mentionsCount(e: Expression): boolean {
  return isCount(e) || childExpressions(e).some(mentionsCount);
}

export function isCount(e: Expression): boolean {
  return e.kind === 'function-call' && e.name.length === 1 && e.name[0]!.toUpperCase() === 'COUNT';
}

/**
 * `WHERE` with each correlated `[NOT] EXISTS (SELECT agg ...)` conjunct over an aggregate without GROUP BY rewritten
 * as a test of a scalar subquery. Such a subquery has exactly one row for every outer row, even where no inner row
 * matches, unless HAVING drops it: EXISTS is TRUE, or `(SELECT <having> ...) IS TRUE`, which the scalar
 * decorrelation answers with COUNT 0 where no inner row matches. (IN is no such test in Flink: it joins the
 * aggregate grouped by the correlation, where a key with no inner rows has no group; see decorrelate.)
 * An uncorrelated subquery is left to the semi join.
 */
export async function aggregateExistsAsScalars(binder: QueryBinder, where: Expression, ctes: ReadonlyMap<string, Cte>): Promise<Expression> {
  const out: Expression[] = [];
  for (const c of conjuncts(where)) {
    let negated = false;
    let e = c;
    while (e.kind === 'unary' && e.op === 'NOT') {
      negated = !negated;
      e = e.operand;
    }
    const q = e.kind === 'exists' ? e.query : undefined;
    if (q === undefined || q.kind !== 'select' || q.groupBy.length > 0 || !needsAggregate(q, binder.functions) || !(await isCorrelated(binder, q, ctes))) {
      out.push(c);
      continue;
    }
    const pos = c.pos;
    const test: Expression =
      q.having === null
        ? { kind: 'boolean-literal', value: true, pos }
        : { kind: 'is', expr: { kind: 'subquery', query: { ...q, items: [{ expr: q.having, alias: null, pos }], having: null }, pos }, negated: false, test: 'TRUE', pos };
    out.push(negated ? { kind: 'unary', op: 'NOT', operand: test, pos } : test);
  }
  return andOf(out)!;
}

/** Whether `q` names columns it does not have (those of an enclosing query, to be decorrelated). */
async function isCorrelated(binder: QueryBinder, q: Query, ctes: ReadonlyMap<string, Cte>): Promise<boolean> {
  try {
    await binder.bindQuery(q, ctes);
    return false;
  } catch (e) {
    if (e instanceof ValidationError) return true;
    throw e;
  }
}
