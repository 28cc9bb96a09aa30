import type { BinaryExpr, Expression } from '../../sql/ast/expressions.js';

/*
 * Rewrites of a WHERE condition at the AST, for decorrelating subqueries (decorrelate.ts): its conjuncts, Calcite's
 * pullFactors, and a copy with some nodes replaced.
 */

export function conjuncts(e: Expression): Expression[] {
  return e.kind === 'binary' && e.op === 'AND' ? [...conjuncts(e.left), ...conjuncts(e.right)] : [e];
}

function disjuncts(e: Expression): Expression[] {
  return e.kind === 'binary' && e.op === 'OR' ? [...disjuncts(e.left), ...disjuncts(e.right)] : [e];
}

/** A key equal for expressions written alike (positions aside). */
function sameKey(e: Expression): string {
  return JSON.stringify(e, (k, v: unknown) => (k === 'pos' || k === 'end' ? undefined : typeof v === 'bigint' ? v.toString() : v));
}

/**
 * `(p AND q) OR (p AND r)` as the conjuncts `p` and `q OR r` (Calcite's pullFactors, which Flink's plans show; it holds
 * in three-valued logic too): a correlation written in every branch of an OR becomes a conjunct of its own, so an
 * `inner = outer` pair keys the join instead of a condition over every pair of rows.
 */
export function pullFactors(e: Expression): Expression[] {
  if (e.kind !== 'binary' || e.op !== 'OR') return [e];
  const branches = disjuncts(e).map(conjuncts);
  const keyed = branches.map((b) => new Set(b.map(sameKey)));
  const common = new Map<string, Expression>();
  for (const c of branches[0]!) {
    const k = sameKey(c);
    if (keyed.every((b) => b.has(k))) common.set(k, c);
  }
  if (common.size === 0) return [e];
  const rests = branches.map((b) => b.filter((c) => !common.has(sameKey(c))));
  // p OR (p AND q) is p.
  if (rests.some((r) => r.length === 0)) return [...common.values()];
  const or = rests.map((r) => andOf(r)!).reduce((a, b): BinaryExpr => ({ kind: 'binary', op: 'OR', left: a, right: b, pos: a.pos }));
  return [...common.values(), or];
}

export function andOf(es: readonly Expression[]): Expression | null {
  return es.length === 0 ? null : es.reduce((a, b): BinaryExpr => ({ kind: 'binary', op: 'AND', left: a, right: b, pos: a.pos }));
}

/** `value` with every node that is a key of `map` replaced by its value (a structural copy; the AST is plain data). */
export function substitute<T>(value: T, map: ReadonlyMap<unknown, Expression>): T {
  if (typeof value !== 'object' || value === null) return value;
  const hit = map.get(value);
  if (hit !== undefined) return hit as T;
  if (Array.isArray(value)) return value.map((v) => substitute(v, map)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = substitute(v, map);
  return out as T;
}
