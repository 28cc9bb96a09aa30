import { PlanningError, ValidationError } from '../../errors/sluice-error.js';
import { identifierToString } from '../../catalog/object-identifier.js';
import type { Expression } from '../../sql/ast/expressions.js';
import type { JoinRef, NamedTableRef, Query, UnnestRef } from '../../sql/ast/query.js';
import { childExpressions } from '../../sql/ast/visitor.js';
import { DataTypes } from '../../types/data-types.js';
import { isRowtimeAttribute, notNull, withNullability } from '../../types/logical-type.js';
import { commonType } from '../expressions/type-rules.js';
import type { PlanField, PlanNode } from '../logical/plan-node.js';
import { call, collectInputRefs, inputRef, rewriteInputRefs } from '../rex/rex-node.js';
import type { RexNode } from '../rex/rex-node.js';
import { bindBinary, bindExpression, castTo, comparison } from './bind-expression.js';
import { identity, project, requireBoolean } from './bind-query.js';
import type { BoundRelation, Cte, QueryBinder } from './bind-query.js';
import { Scope } from './scope.js';
import { bindLateralTable, isLateralTableFunction } from './bind-lateral-table.js';
import { decorrelate } from './decorrelate.js';
import { correlatedSemiJoin } from './bind-correlated.js';
import { resolveTableNamed } from './table-not-found.js';

/*
 * Joins of every kind the binder builds: regular joins (with computed or cast keys), lookup joins,
 * UNNEST, LATERAL TABLE (bind-lateral-table.ts), and the semi / anti joins of IN and EXISTS subqueries.
 */

export async function bindJoin(binder: QueryBinder, ref: JoinRef, ctes: ReadonlyMap<string, Cte>): Promise<BoundRelation> {
  if (ref.right.kind === 'unnest') return bindUnnest(binder, ref, ref.right, ctes);
  if (isLateralTableFunction(ref)) return bindLateralTable(binder, ref, ctes);
  if (ref.right.kind === 'table' && ref.right.forSystemTimeAsOf !== null) return bindLookupJoin(binder, ref, ref.right, ctes);
  const left = await binder.bindTableRef(ref.left, ctes);
  const right = await binder.bindTableRef(ref.right, ctes);
  const scope = left.scope.concat(right.scope);
  const nl = left.node.fields.length;
  let cond: RexNode | null = null;
  const c = ref.condition;
  if (ref.natural || c?.kind === 'using') {
    const names =
      c?.kind === 'using' ? c.columns.map((x) => x.value) : left.node.fields.map((f) => f.name).filter((n) => right.node.fields.some((g) => g.name === n));
    for (const name of names) {
      const li = left.node.fields.findIndex((f) => f.name === name);
      const ri = right.node.fields.findIndex((f) => f.name === name);
      if (li < 0 || ri < 0) throw new ValidationError(`Column '${name}' not found in ${li < 0 ? 'left' : 'right'} side of join`);
      const eq = comparison('=', inputRef(li, name, left.node.fields[li]!.type), inputRef(nl + ri, name, right.node.fields[ri]!.type));
      cond = cond === null ? eq : bindBinary('AND', cond, eq);
    }
  } else if (c?.kind === 'on') {
    cond = bindExpression(c.expr, binder.exprContext(scope));
    requireBoolean(cond, 'ON');
  }
  const joinType = ref.joinType === 'COMMA' || ref.joinType === 'CROSS' ? 'INNER' : ref.joinType;
  return joinRelations(left, right, joinType, cond);
}

/**
 * Two bound relations joined on `cond` (over the left columns then the right ones), its equalities as keys; the
 * scope is both scopes, the columns of an outer join's padded side made nullable.
 */
export function joinRelations(left: BoundRelation, right: BoundRelation, joinType: 'INNER' | 'LEFT' | 'RIGHT' | 'FULL', cond: RexNode | null): BoundRelation {
  const scope = left.scope.concat(right.scope);
  const nl = left.node.fields.length;
  const split = splitEquiCondition(cond, nl);
  const nullableLeft = joinType === 'RIGHT' || joinType === 'FULL';
  const nullableRight = joinType === 'LEFT' || joinType === 'FULL';
  const used = new Set<string>();
  const fields = [...left.node.fields.map((f) => ({ f, n: nullableLeft })), ...right.node.fields.map((f) => ({ f, n: nullableRight }))].map(({ f, n }) => {
    let name = f.name;
    for (let k = 0; used.has(name); k++) name = `${f.name}${k}`;
    used.add(name);
    return { name, type: n ? withNullability(f.type, true) : f.type };
  });
  const outScope = new Scope(scope.columns.map((col, i) => ({ ...col, type: fields[i]!.type })));
  if (split.leftExtras.length === 0 && split.rightExtras.length === 0) {
    const node: PlanNode = { kind: 'join', joinType, left: left.node, right: right.node, leftKeys: split.leftKeys, rightKeys: split.rightKeys, condition: split.rest, fields };
    return { node, scope: outScope };
  }
  // Computed or cast join keys: compute them below the join, join on them, then drop them again.
  const nr = right.node.fields.length;
  const eL = split.leftExtras.length;
  const l2 = project(left.node, [...identity(left.node.fields), ...split.leftExtras], [...left.node.fields.map((f) => f.name), ...split.leftExtras.map((_, i) => `$lkey${i}`)]);
  const r2 = project(right.node, [...identity(right.node.fields), ...split.rightExtras], [...right.node.fields.map((f) => f.name), ...split.rightExtras.map((_, i) => `$rkey${i}`)]);
  const shift = (r: RexNode): RexNode => rewriteInputRefs(r, (ref) => (ref.index < nl ? ref : inputRef(ref.index + eL, ref.name, ref.type)));
  const joinFields = [
    ...l2.fields.map((f) => ({ name: f.name, type: nullableLeft ? withNullability(f.type, true) : f.type })),
    ...r2.fields.map((f) => ({ name: f.name, type: nullableRight ? withNullability(f.type, true) : f.type })),
  ];
  const join: PlanNode = {
    kind: 'join',
    joinType,
    left: l2,
    right: r2,
    leftKeys: split.leftKeys,
    rightKeys: split.rightKeys.map((k) => (k < 0 ? nr + (-k - 1) : k)),
    condition: split.rest === null ? null : shift(split.rest),
    fields: joinFields,
  };
  const keep = [...Array.from({ length: nl }, (_, i) => i), ...Array.from({ length: nr }, (_, i) => nl + eL + i)];
  const node = project(join, keep.map((i) => inputRef(i, joinFields[i]!.name, joinFields[i]!.type)), fields.map((f) => f.name));
  return { node, scope: outScope };
}

/**
 * `JOIN dim FOR SYSTEM_TIME AS OF t.proctime [AS d] ON t.k = d.id`: a lookup join when the dimension
 * table's source is a LookupTableSource. Equality conjuncts on dimension columns become lookup keys.
 */
async function bindLookupJoin(binder: QueryBinder, ref: JoinRef, dim: NamedTableRef, ctes: ReadonlyMap<string, Cte>): Promise<BoundRelation> {
  if (ref.joinType !== 'INNER' && ref.joinType !== 'LEFT') throw new PlanningError(`${ref.joinType} JOIN is not supported for temporal table joins`);
  const left = await binder.bindTableRef(ref.left, ctes);
  const period = bindExpression(dim.forSystemTimeAsOf!, binder.exprContext(left.scope));
  if (isRowtimeAttribute(period.type)) return bindTemporalJoin(binder, ref, dim, left, period, ctes);
  const resolved = await resolveTableNamed(binder.ctx, dim.name, { positioned: !binder.insideView });
  if (resolved.table.kind !== 'table') throw new PlanningError(`Temporal table join requires a table, but '${dim.name.parts.join('.')}' is a view`);
  const source = binder.ctx.createSource(resolved.identifier, resolved.table, resolved.isTemporary);
  if (source.kind !== 'lookup-source') {
    throw new PlanningError(`Temporal table join requires the table '${identifierToString(resolved.identifier)}' to support lookups (a LookupTableSource); its connector only supports scans`);
  }
  const rightFields = resolved.table.schema.physicalColumns().map((c) => ({ name: c.name, type: c.type }));
  const alias = dim.alias?.value ?? dim.name.parts[dim.name.parts.length - 1]!;
  const rightScope = Scope.of(rightFields, alias);
  const scope = left.scope.concat(rightScope);
  const nl = left.node.fields.length;
  const cond = ref.condition?.kind === 'on' ? bindExpression(ref.condition.expr, binder.exprContext(scope)) : null;
  const split = splitEquiCondition(cond, nl);
  if (split.rightExtras.length > 0) throw new PlanningError('Lookup join keys on the dimension table must be plain columns');
  if (split.leftKeys.length === 0) throw new PlanningError(`Temporal table join requires an equality condition on fields of table '${identifierToString(resolved.identifier)}'.`);
  let input = left.node;
  const leftKeys = split.leftKeys;
  if (split.leftExtras.length > 0) {
    input = project(left.node, [...identity(left.node.fields), ...split.leftExtras], [...left.node.fields.map((f) => f.name), ...split.leftExtras.map((_, i) => `$lkey${i}`)]);
  }
  const eL = input.fields.length - nl;
  const shift = (r: RexNode): RexNode => rewriteInputRefs(r, (x) => (x.index < nl ? x : inputRef(x.index + eL, x.name, x.type)));
  const joinType = ref.joinType === 'LEFT' ? 'LEFT' : 'INNER';
  const rf = rightFields.map((f) => ({ name: f.name, type: joinType === 'LEFT' ? withNullability(f.type, true) : f.type }));
  const node: PlanNode = {
    kind: 'lookup-join',
    input,
    identifier: resolved.identifier,
    source,
    joinType,
    leftKeys,
    rightKeys: split.rightKeys,
    rightFields,
    condition: split.rest === null ? null : shift(split.rest),
    fields: [...input.fields, ...rf],
  };
  const keep = [...Array.from({ length: nl }, (_, i) => i), ...rightFields.map((_, i) => nl + eL + i)];
  const out = eL === 0 ? node : project(node, keep.map((i) => inputRef(i, node.fields[i]!.name, node.fields[i]!.type)), keep.map((i) => node.fields[i]!.name));
  return { node: out, scope: new Scope([...left.scope.columns, ...rightScope.columns.map((c, i) => ({ ...c, type: rf[i]!.type }))]) };
}

/**
 * `JOIN versioned FOR SYSTEM_TIME AS OF l.rowtime [AS v] ON l.k = v.pk`: an event-time temporal join. The
 * versioned table needs a primary key and a rowtime attribute, and the ON clause an equality on the key.
 */
async function bindTemporalJoin(
  binder: QueryBinder,
  ref: JoinRef,
  dim: NamedTableRef,
  left: BoundRelation,
  period: RexNode,
  ctes: ReadonlyMap<string, Cte>,
): Promise<BoundRelation> {
  if (binder.ctx.mode === 'batch') throw new PlanningError('Event-time temporal table joins are only supported in streaming mode');
  if (period.kind !== 'input-ref') throw new PlanningError('FOR SYSTEM_TIME AS OF must reference a time attribute column of the left table');
  const resolved = await resolveTableNamed(binder.ctx, dim.name, { positioned: !binder.insideView });
  const pk = resolved.table.kind === 'table' ? resolved.table.schema.primaryKey : undefined;
  if (pk === undefined) {
    throw new ValidationError(`Temporal Table Join requires primary key in versioned table, but no primary key can be found. Table: '${identifierToString(resolved.identifier)}'`);
  }
  const right = await binder.bindTableRef({ ...dim, forSystemTimeAsOf: null }, ctes);
  const rightTime = right.node.fields.findIndex((f) => isRowtimeAttribute(f.type));
  if (rightTime < 0) {
    throw new ValidationError(
      `Event-Time Temporal Table Join requires both primary key and row time attribute in versioned table, but no row time attribute can be found. Table: '${identifierToString(resolved.identifier)}'`,
    );
  }
  const nl = left.node.fields.length;
  const scope = left.scope.concat(right.scope);
  const cond = ref.condition?.kind === 'on' ? bindExpression(ref.condition.expr, binder.exprContext(scope)) : null;
  const split = splitEquiCondition(cond, nl);
  if (split.rightExtras.length > 0) throw new PlanningError('Temporal table join keys on the versioned table must be plain columns');
  const keyNames = split.rightKeys.map((k) => right.node.fields[k]!.name);
  const missing = pk.columns.filter((c) => !keyNames.includes(c));
  if (missing.length > 0 || split.leftKeys.length === 0) {
    throw new ValidationError(`Temporal table join requires an equality condition on the primary key [${pk.columns.join(', ')}] of '${identifierToString(resolved.identifier)}'.`);
  }
  if (ref.joinType !== 'INNER' && ref.joinType !== 'LEFT') throw new PlanningError(`${ref.joinType} JOIN is not supported for temporal table joins`);
  const joinType = ref.joinType;
  // A left key that is an expression (`o.id % 5`, or a column cast to the key's type) is computed in a
  // projection below the join, as Flink does, and projected away above it.
  const eL = split.leftExtras.length;
  const joinLeft =
    eL === 0
      ? left.node
      : project(left.node, [...identity(left.node.fields), ...split.leftExtras], [...left.node.fields.map((f) => f.name), ...split.leftExtras.map((_, i) => `$lkey${i}`)]);
  const shift = (r: RexNode): RexNode => rewriteInputRefs(r, (x) => (x.index < nl ? x : inputRef(x.index + eL, x.name, x.type)));
  const fields = [...joinLeft.fields, ...right.node.fields.map((f) => ({ name: f.name, type: joinType === 'LEFT' ? withNullability(f.type, true) : f.type }))];
  const used = new Set<string>();
  const unique = fields.map((f) => {
    let name = f.name;
    for (let k = 0; used.has(name); k++) name = `${f.name}${k}`;
    used.add(name);
    return { name, type: f.type };
  });
  const node: PlanNode = {
    kind: 'join',
    joinType,
    left: joinLeft,
    right: right.node,
    leftKeys: split.leftKeys,
    rightKeys: split.rightKeys,
    condition: split.rest === null || eL === 0 ? split.rest : shift(split.rest),
    fields: unique,
    temporal: { leftTime: period.index, rightTime },
  };
  const keep = [...Array.from({ length: nl }, (_, i) => i), ...right.node.fields.map((_, i) => nl + eL + i)];
  const out = eL === 0 ? node : project(node, keep.map((i) => inputRef(i, unique[i]!.name, unique[i]!.type)), keep.map((i) => unique[i]!.name));
  return { node: out, scope: new Scope(scope.columns.map((c, i) => ({ ...c, type: unique[keep[i]!]!.type }))) };
}

/** `t CROSS JOIN UNNEST(t.arr) AS u(x)` (also `, UNNEST(...)` and `LEFT JOIN UNNEST(...) ON TRUE`). */
async function bindUnnest(binder: QueryBinder, ref: JoinRef, un: UnnestRef, ctes: ReadonlyMap<string, Cte>): Promise<BoundRelation> {
  if (ref.joinType !== 'CROSS' && ref.joinType !== 'COMMA' && ref.joinType !== 'INNER' && ref.joinType !== 'LEFT') {
    throw new PlanningError(`${ref.joinType} JOIN UNNEST is not supported`);
  }
  if (ref.condition !== null && !(ref.condition.kind === 'on' && ref.condition.expr.kind === 'boolean-literal' && ref.condition.expr.value)) {
    throw new PlanningError('JOIN UNNEST supports only ON TRUE');
  }
  if (un.exprs.length !== 1) throw new PlanningError('UNNEST of several collections is not supported yet');
  const left = await binder.bindTableRef(ref.left, ctes);
  const coll = bindExpression(un.exprs[0]!, binder.exprContext(left.scope));
  const t = coll.type;
  let cols: PlanField[];
  if (t.kind === 'ARRAY' && t.element.kind === 'ROW') cols = t.element.fields.map((f) => ({ name: f.name, type: withNullability(f.type, true) }));
  else if (t.kind === 'ARRAY' || t.kind === 'MULTISET') cols = [{ name: 'EXPR$0', type: t.element }];
  else if (t.kind === 'MAP') cols = [{ name: 'KEY', type: t.key }, { name: 'VALUE', type: t.value }];
  else throw new ValidationError(`UNNEST requires an ARRAY, MAP or MULTISET, but got ${t.kind}`);
  if (un.withOrdinality) cols.push({ name: 'ORDINALITY', type: notNull(DataTypes.INT()) });
  const aliases = un.columnAliases.map((c) => c.value);
  if (aliases.length > 0 && aliases.length !== cols.length) {
    throw new ValidationError(`List of column aliases must have same degree as table; table has ${cols.length} columns, whereas alias list has ${aliases.length} columns`);
  }
  const named = cols.map((c, i) => ({ name: aliases[i] ?? c.name, type: ref.joinType === 'LEFT' ? withNullability(c.type, true) : c.type }));
  const node: PlanNode = {
    kind: 'unnest',
    input: left.node,
    collection: coll,
    withOrdinality: un.withOrdinality,
    keepEmpty: ref.joinType === 'LEFT',
    fields: [...left.node.fields, ...named],
  };
  return { node, scope: left.scope.concat(Scope.of(named, un.alias?.value ?? null)) };
}

/** `left` filtered by an IN / EXISTS subquery: a semi (or anti) join on the compared values. */
export async function semiJoin(
  binder: QueryBinder,
  left: PlanNode,
  scope: Scope,
  sub: SubqueryConjunct,
  ctes: ReadonlyMap<string, Cte>,
  /** Binds the FROM of `left` afresh (a value generator's distinct outer values read it a second time). */
  outerFrom: () => Promise<PlanNode>,
  /** No outer row with a NULL outer reference matches (decorrelate.ts, anyCorrelatedUnderOr). */
  nullRejecting = false,
): Promise<PlanNode> {
  const kind = sub.negated ? 'ANTI' : 'SEMI';
  let right: PlanNode;
  try {
    right = await binder.bindQuery(sub.query, ctes);
  } catch (e) {
    // An unknown column may be a reference to the outer query: try it as a correlated subquery.
    if (!(e instanceof ValidationError)) throw e;
    const corr = await decorrelate(binder, sub.query, scope, sub.expr !== null, ctes);
    if (corr === undefined) throw e;
    return correlatedSemiJoin(binder, left, scope, sub, nullRejecting ? { ...corr, nullRejecting } : corr, ctes, outerFrom);
  }
  if (sub.expr === null) {
    return { kind: 'join', joinType: kind, left, right, leftKeys: [], rightKeys: [], condition: null, fields: left.fields };
  }
  if (right.fields.length !== 1) throw new ValidationError('The subquery of IN must return exactly one column');
  const l = bindExpression(sub.expr, binder.exprContext(scope));
  const r = inputRef(0, right.fields[0]!.name, right.fields[0]!.type);
  const t = commonType([l.type, r.type]);
  if (t === undefined) throw new ValidationError(`Values passed to IN operator must have compatible types: ${l.type.kind} and ${r.type.kind}`);
  const n = left.fields.length;
  const l2 = project(left, [...identity(left.fields), castTo(l, t)], [...left.fields.map((f) => f.name), '$in']);
  const r2 = project(right, [castTo(r, t)], ['$in']);
  // x NOT IN (...) is UNKNOWN when x or any subquery value is NULL (unless the subquery is empty).
  const notIn = sub.negated && (l.type.nullable || r.type.nullable);
  const join: PlanNode = { kind: 'join', joinType: kind, left: l2, right: r2, leftKeys: [n], rightKeys: [0], condition: null, fields: l2.fields, ...(notIn ? { semiNulls: 'not-in' as const } : {}) };
  return project(join, identity(left.fields), left.fields.map((f) => f.name));
}

/**
 * Splits a join condition into equi-key pairs and the remaining predicate. A key side that is not a
 * plain column of its input (an expression, or a column cast to the common type) becomes an extra
 * column computed below the join (`leftExtras` over the left input, `rightExtras` over the right one).
 */
export function splitEquiCondition(
  cond: RexNode | null,
  leftCount: number,
): { leftKeys: number[]; rightKeys: number[]; rest: RexNode | null; leftExtras: RexNode[]; rightExtras: RexNode[] } {
  const leftKeys: number[] = [];
  const rightKeys: number[] = [];
  const leftExtras: RexNode[] = [];
  const rightExtras: RexNode[] = [];
  const rest: RexNode[] = [];
  const side = (r: RexNode): 'left' | 'right' | 'none' | 'both' => {
    const refs = [...collectInputRefs(r)];
    if (refs.length === 0) return 'none';
    if (refs.every((i) => i < leftCount)) return 'left';
    if (refs.every((i) => i >= leftCount)) return 'right';
    return 'both';
  };
  const conjuncts = cond === null ? [] : cond.kind === 'call' && cond.op === 'AND' ? cond.operands : [cond];
  for (const c of conjuncts) {
    if (c.kind === 'call' && c.op === '=' && c.operands.length === 2) {
      let [a, b] = c.operands as [RexNode, RexNode];
      if (side(a) === 'right' && side(b) === 'left') [a, b] = [b, a];
      if (side(a) === 'left' && side(b) === 'right') {
        // Keys compare by representation, so both sides must have the same type.
        const t = commonType([a.type, b.type]);
        if (t !== undefined) {
          a = castTo(a, t);
          b = castTo(b, t);
        }
        const local = rewriteInputRefs(b, (ref) => inputRef(ref.index - leftCount, ref.name, ref.type));
        leftKeys.push(a.kind === 'input-ref' ? a.index : leftCount + leftExtras.push(a) - 1);
        rightKeys.push(local.kind === 'input-ref' ? local.index : -(rightExtras.push(local)));
        continue;
      }
    }
    rest.push(c);
  }
  const restNode = rest.length === 0 ? null : rest.length === 1 ? rest[0]! : call('AND', rest, DataTypes.BOOLEAN());
  // Right extras are placeholders -1, -2, ...: the caller puts them after the right input's columns.
  return { leftKeys, rightKeys, rest: restNode, leftExtras, rightExtras };
}

/** Scalar subqueries `(SELECT ...)` used as values in `e` (not entering nested subqueries). */
export function findScalarSubqueries(e: Expression, out: (Expression & { kind: 'subquery' })[] = []): (Expression & { kind: 'subquery' })[] {
  if (e.kind === 'subquery') {
    out.push(e);
    return out;
  }
  for (const c of childExpressions(e)) findScalarSubqueries(c, out);
  return out;
}

export interface SubqueryConjunct {
  readonly expr: Expression | null;
  readonly query: Query;
  readonly negated: boolean;
}

export function splitAnd(e: Expression): Expression[] {
  return e.kind === 'binary' && e.op === 'AND' ? [...splitAnd(e.left), ...splitAnd(e.right)] : [e];
}

/** `x [NOT] IN (SELECT ...)`, `[NOT] EXISTS (SELECT ...)`, or undefined. */
export function subqueryConjunct(e: Expression): SubqueryConjunct | undefined {
  if (e.kind === 'in-subquery') return { expr: e.expr, query: e.query, negated: e.negated };
  if (e.kind === 'exists') return { expr: null, query: e.query, negated: false };
  if (e.kind === 'unary' && e.op === 'NOT') {
    const inner = subqueryConjunct(e.operand);
    if (inner !== undefined) return { ...inner, negated: !inner.negated };
  }
  return undefined;
}

