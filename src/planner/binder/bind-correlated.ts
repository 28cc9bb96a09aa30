import { ValidationError } from '../../errors/sluice-error.js';
import type { Expression } from '../../sql/ast/expressions.js';
import type { SelectQuery } from '../../sql/ast/query.js';
import { DataTypes } from '../../types/data-types.js';
import { notNull, withNullability } from '../../types/logical-type.js';
import { commonType } from '../expressions/type-rules.js';
import type { PlanNode } from '../logical/plan-node.js';
import { call, inputRef, literal } from '../rex/rex-node.js';
import type { RexNode } from '../rex/rex-node.js';
import { bindAggregate } from './bind-aggregate.js';
import { bindBinary, bindExpression, castTo, comparison } from './bind-expression.js';
import { joinRelations } from './bind-join.js';
import type { SubqueryConjunct } from './bind-join.js';
import { distinct, identity, project, requireBoolean } from './bind-query.js';
import type { BoundRelation, Cte, QueryBinder } from './bind-query.js';
import { isCount, outerRefName } from './decorrelate.js';
import type { Decorrelated, DecorrelatedScalar, ValueGenerator } from './decorrelate.js';
import { Scope } from './scope.js';

/*
 * The joins that take the place of decorrelated subqueries (decorrelate.ts): a semi (anti) join for IN / EXISTS, a
 * LEFT join of a per-key aggregate for a scalar subquery.
 */

const BOOLEAN_NN = notNull(DataTypes.BOOLEAN());

function andAll(cs: readonly RexNode[]): RexNode | null {
  return cs.length === 0 ? null : cs.reduce((a, b) => bindBinary('AND', a, b));
}

/** Columns no condition can name (`$<tag><i>`), standing for the join row's columns it does not read by name. */
function unnamed(types: readonly { type: RexNode['type'] }[], tag: string): Scope {
  return new Scope(types.map((f, i) => ({ qualifier: null, name: `$${tag}${i}`, type: f.type })));
}

/** The outer references of a correlated condition as the join row's columns `$cor<i>`. */
function outerRefScope(refs: readonly RexNode[]): Scope {
  return new Scope(refs.map((r, i) => ({ qualifier: null, name: outerRefName(i), type: r.type })));
}

/**
 * A decorrelated IN / EXISTS: a semi (anti) join on the compared value (IN) plus every correlation pair, testing the
 * other correlated conditions at the join. NULL correlation keys never match, as `inner = outer` is not TRUE for them.
 *
 * `x NOT IN (subquery)` over a nullable `x` or value is null-aware: a row is dropped when some inner row of its
 * correlation has the value `x`, or when either is NULL (the comparison is then UNKNOWN, and so is NOT IN), and kept
 * when there is no inner row at all. So the value is no join key then but the condition `x = v OR x IS NULL OR v IS
 * NULL`, beside the correlation keys.
 */
export async function correlatedSemiJoin(
  binder: QueryBinder,
  left: PlanNode,
  scope: Scope,
  sub: SubqueryConjunct,
  corr: Decorrelated,
  ctes: ReadonlyMap<string, Cte>,
  outerFrom: () => Promise<PlanNode>,
): Promise<PlanNode> {
  const ctx = binder.exprContext(scope);
  const outer = [...(sub.expr === null ? [] : [sub.expr]), ...corr.outer].map((e) => bindExpression(e, ctx));
  const right =
    corr.generator === null ? await binder.bindQuery(corr.query, ctes) : generatedAggregate(binder, await outerFrom(), outer.slice(outer.length - corr.outer.length), corr.query, corr.generator);
  const rightCols = outer.map((_, i) => (sub.expr === null ? corr.firstCorrelated + i : i === 0 ? 0 : corr.firstCorrelated + i - 1));
  if (sub.expr !== null && corr.firstCorrelated !== 1) throw new ValidationError('The subquery of IN must return exactly one column');
  const { lk, rk } = correlationKeys(outer, right, rightCols);
  const nullAware = sub.negated && sub.expr !== null && (lk[0]!.type.nullable || rk[0]!.type.nullable);
  const refs = corr.conditions.length === 0 ? [] : corr.outerRefs.map((e) => bindExpression(e, ctx));
  const n = left.fields.length;
  const l2 = project(left, [...identity(left.fields), ...lk, ...refs], [...left.fields.map((f) => f.name), ...lk.map((_, i) => `$k${i}`), ...refs.map((_, i) => outerRefName(i))]);
  // With correlated conditions beyond `inner = outer`, the inner FROM's columns come along for the join to test.
  const firstInner = corr.firstCorrelated + corr.outer.length;
  const inner = corr.conditions.length === 0 ? [] : right.fields.slice(firstInner).map((f, i) => inputRef(firstInner + i, f.name, f.type));
  const r2 = project(right, [...rk, ...inner], [...rk.map((_, i) => `$k${i}`), ...inner.map((_, i) => `$inner${i}`)]);
  const conds: RexNode[] = [];
  if (corr.conditions.length > 0) {
    // The join row: the outer row and its keys (unnameable), the outer references by their `$cor<i>` names, the
    // inner keys (unnameable), then the inner FROM's columns by their own names.
    const joinScope = unnamed(l2.fields.slice(0, n + lk.length), 'outer')
      .concat(outerRefScope(refs))
      .concat(unnamed(rk, 'key'))
      .concat(corr.innerScope);
    for (const c of corr.conditions) {
      const b = bindExpression(c, binder.exprContext(joinScope));
      requireBoolean(b, 'WHERE');
      conds.push(b);
    }
  }
  if (corr.nullRejecting) {
    // Flink's value generator semantics (decorrelate.ts, underOr): no match for an outer row with a NULL reference.
    refs.forEach((r, i) => {
      if (r.type.nullable) conds.push(call('IS NOT NULL', [inputRef(n + lk.length + i, outerRefName(i), r.type)], BOOLEAN_NN));
    });
  }
  const keys = lk.map((_, i) => i).filter((i) => !(nullAware && i === 0));
  if (nullAware) {
    const x = inputRef(n, '$k0', lk[0]!.type);
    const v = inputRef(l2.fields.length, '$k0', rk[0]!.type);
    const isNull = (r: RexNode): RexNode => call('IS NULL', [r], BOOLEAN_NN);
    conds.push(bindBinary('OR', bindBinary('OR', comparison('=', x, v), isNull(x)), isNull(v)));
  }
  const join: PlanNode = {
    kind: 'join',
    joinType: sub.negated ? 'ANTI' : 'SEMI',
    left: l2,
    right: r2,
    leftKeys: keys.map((i) => n + i),
    rightKeys: keys,
    condition: andAll(conds),
    fields: l2.fields,
  };
  return project(join, identity(left.fields), left.fields.map((f) => f.name));
}

/**
 * The join keys of a decorrelated subquery: each outer expression and the subquery's column `rightCols[i]`,
 * both cast to their common type.
 */
function correlationKeys(outer: readonly RexNode[], right: PlanNode, rightCols: readonly number[]): { lk: RexNode[]; rk: RexNode[] } {
  const lk: RexNode[] = [];
  const rk: RexNode[] = [];
  outer.forEach((l, i) => {
    const rf = right.fields[rightCols[i]!]!;
    const r = inputRef(rightCols[i]!, rf.name, rf.type);
    const t = commonType([l.type, r.type]);
    if (t === undefined) throw new ValidationError(`Cannot compare ${l.type.kind} with ${r.type.kind} in a correlated subquery`);
    lk.push(castTo(l, t));
    rk.push(castTo(r, t));
  });
  return { lk, rk };
}

/**
 * The aggregate of a subquery correlated by conditions other than `inner = outer`, over its value generator: the
 * distinct outer references (`$cor<i>`, valued `refs` over `outerFrom`) joined with the inner FROM on the correlated
 * conjuncts; `query` groups by those references.
 */
function generatedAggregate(binder: QueryBinder, outerFrom: PlanNode, refs: readonly RexNode[], query: SelectQuery, gen: ValueGenerator): PlanNode {
  const values: BoundRelation = { node: distinct(project(outerFrom, refs, refs.map((_, i) => outerRefName(i)))), scope: outerRefScope(refs) };
  const onScope = binder.exprContext(gen.inner.scope.concat(values.scope));
  const on = gen.conditions.map((c) => {
    const b = bindExpression(c, onScope);
    requireBoolean(b, 'WHERE');
    return b;
  });
  const joined = joinRelations(gen.inner, values, 'INNER', andAll(on));
  let node = joined.node;
  if (gen.rest !== null) {
    const cond = bindExpression(gen.rest, binder.exprContext(joined.scope));
    requireBoolean(cond, 'WHERE');
    node = { kind: 'calc', input: node, projects: identity(node.fields), condition: cond, fields: node.fields };
  }
  return bindAggregate(binder, query, query.items, node, joined.scope);
}

/**
 * A decorrelated scalar subquery joined to `left`: a LEFT join of its per-key aggregate on the correlation
 * keys, adding one column, the subquery's value for the row (0 for a COUNT over no rows, else NULL there).
 * Returns the new node and a reference to that column. `outerFrom` binds the enclosing query's FROM afresh, for a
 * value generator (a plan shared by two branches would share its source, whose pushed-down projection and filters
 * are the source's own).
 */
export async function correlatedScalarJoin(
  binder: QueryBinder,
  left: PlanNode,
  scope: Scope,
  corr: DecorrelatedScalar,
  ctes: ReadonlyMap<string, Cte>,
  outerFrom: () => Promise<PlanNode>,
): Promise<{ node: PlanNode; value: RexNode }> {
  const ctx = binder.exprContext(scope);
  const outer = corr.outer.map((e) => bindExpression(e, ctx));
  const right = corr.generator === null ? await binder.bindQuery(corr.query, ctes) : generatedAggregate(binder, await outerFrom(), outer, corr.query, corr.generator);
  const k = corr.outer.length;
  // The groups join back with `=`, as Flink 2.3 joins them: an outer row whose reference is NULL meets no group
  // (its subquery reads as one over no rows), even where the conditions would hold for it (`r.d = l.b OR r.c = l.a`
  // with `l.a` NULL); the reference Flink answers so.
  const { lk, rk } = correlationKeys(outer, right, corr.outer.map((_, i) => i));
  const n = left.fields.length;
  const vf = right.fields[k]!;
  const l2 = project(left, [...identity(left.fields), ...lk], [...left.fields.map((f) => f.name), ...lk.map((_, i) => `$k${i}`)]);
  const r2 = project(right, [...rk, inputRef(k, vf.name, vf.type)], [...rk.map((_, i) => `$k${i}`), '$value']);
  const keyIdx = rk.map((_, i) => i);
  const joined: PlanNode = {
    kind: 'join',
    joinType: 'LEFT',
    left: l2,
    right: r2,
    leftKeys: keyIdx.map((i) => n + i),
    rightKeys: keyIdx,
    condition: null,
    fields: [...l2.fields, ...r2.fields.map((f) => ({ name: f.name, type: withNullability(f.type, true) }))],
  };
  const at = l2.fields.length + k;
  const missing = inputRef(at, '$value', withNullability(vf.type, true));
  let value = corr.emptyIsZero ? call('COALESCE', [missing, literal(0n, vf.type)], withNullability(vf.type, false)) : missing;
  if (corr.empty !== null) {
    // No inner row for the key (the join found no group: its key column, never NULL in a group, is NULL): the
    // expression over each call's value on no rows, COUNT 0 and every other aggregate NULL.
    const empty = corr.empty;
    const onNoRows = (e: Expression): RexNode | undefined => {
      const i = empty.aggregates.indexOf(e);
      if (i < 0) return undefined;
      const t = right.fields[k + 1 + i]!.type;
      return isCount(e) ? literal(0n, t) : literal(null, withNullability(t, true));
    };
    const none = bindExpression(empty.expr, binder.exprContext(new Scope([]), onNoRows));
    const unmatched = call('IS NULL', [inputRef(l2.fields.length, '$k0', withNullability(r2.fields[0]!.type, true))], BOOLEAN_NN);
    value = call('CASE', [unmatched, castTo(none, withNullability(vf.type, true)), missing], withNullability(vf.type, true));
  }
  const node = project(joined, [...identity(left.fields), value], [...left.fields.map((f) => f.name), '$scalar']);
  return { node, value: inputRef(n, '$scalar', value.type) };
}
