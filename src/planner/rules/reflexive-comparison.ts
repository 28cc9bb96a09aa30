import { rexKey } from '../rex/rex-key.js';
import { typesEqual } from '../../types/logical-type.js';
import { deterministic } from './conjuncts.js';
import { call, literal } from '../rex/rex-node.js';
import type { RexNode } from '../rex/rex-node.js';

const TRUE_WHEN_SAME: ReadonlySet<string> = new Set(['=', '>=', '<=']);
const FALSE_WHEN_SAME: ReadonlySet<string> = new Set(['<>', '<', '>']);
const NEGATION: Readonly<Record<string, string>> = { '=': '<>', '<>': '=', '<': '>=', '>=': '<', '>': '<=', '<=': '>' };

/**
 * `x = x`, `x >= x`, `x <= x` become "TRUE unless x is NULL" and `x <> x`, `x < x`, `x > x` "FALSE unless x is
 * NULL", as Calcite's RexSimplify rewrites them in every Flink plan (`null OR x IS NOT NULL`, `null AND x IS NULL`).
 * The two differ only for a floating-point NaN, which compares unequal to itself: Flink answers `NaN >= NaN` TRUE and
 * `NaN <> NaN` FALSE, and so must Sluice.
 */
/**
 * `(NOT x) IS k` as `x IS k'` (RexSimplify.simplifyIs2), for the two k where a real Flink 2.3 then compares a NaN as
 * Java does (`<` and `>` FALSE): (NOT (NaN > y)) IS NOT TRUE and IS FALSE answer as (NaN > y) IS NOT FALSE and IS
 * TRUE. For IS TRUE and IS NOT FALSE Flink goes on to a range search that orders NaN above every number (Calcite's
 * Sarg, Double.compareTo), which Sluice does not model: those keep the negated comparison, right except for a NaN
 * operand (docs/differences-from-flink.md).
 */
const IS_OF_NOT: Readonly<Record<string, string>> = { 'IS FALSE': 'IS TRUE', 'IS NOT TRUE': 'IS NOT FALSE' };

/**
 * Operators whose NULL-ness Flink's generated code takes from the operands' alone, even where the value is NULL for
 * another reason (a DECIMAL product that overflows is NULL, yet IS NOT NULL when its operands are: Flink 2.3 answers
 * so and its NOT NULL enforcer then finds the NULL). Sluice rewrites `f(a, b) IS NOT NULL` as `a IS NOT NULL AND b IS
 * NOT NULL` (IS NULL as OR), as Calcite's RexSimplify does for its Strong operators, for those of them that never fail:
 * + - * and negation (overflow wraps or is NULL), comparisons, NOT and a CAST to a character string. Not for `/` (an
 * integer division by zero fails in Flink) nor other CASTs (CAST(NaN AS DECIMAL) fails there, IS NULL or not).
 */
const NULL_WHEN_AN_OPERAND_IS: ReadonlySet<string> = new Set(['+', '-', '*', 'NEGATE', '=', '<>', '<', '<=', '>', '>=', 'NOT']);
const nullWhenAnOperandIs = (c: RexNode & { kind: 'call' }): boolean =>
  NULL_WHEN_AN_OPERAND_IS.has(c.op) || (c.op === 'CAST' && (c.type.kind === 'VARCHAR' || c.type.kind === 'CHAR'));

export function simplifyReflexiveComparisons(n: RexNode, filter = false): RexNode {
  if (n.kind !== 'call') return n;
  // An IS over a NOT loses the NOT before the operand is simplified, as simplifyIs2 runs on the operand as written:
  // (NOT (NaN > y)) IS NOT TRUE is (NaN > y) IS NOT FALSE, TRUE only for a NULL y, not NaN <= y IS NOT TRUE (every
  // row), which is what negating the comparison under the NOT first would give. Flink keeps only the NULL y row.
  const under = n.operands[0];
  // `x IS TRUE` is x where x is never NULL, and in a filter, where NULL drops the row as FALSE does; so is `x IS NOT
  // FALSE` where x is never NULL (simplifyIs2). What x is then simplifies in that context: Flink's
  // WHERE ((y <= 2) IS FALSE) IS TRUE is WHERE y > 2, which keeps no NaN.
  if (n.operands.length === 1 && under !== undefined && ((n.op === 'IS TRUE' && (filter || !under.type.nullable)) || (n.op === 'IS NOT FALSE' && !under.type.nullable))) {
    return simplifyReflexiveComparisons(under, filter);
  }
  if ((n.op === 'IS NOT NULL' || n.op === 'IS NULL') && under?.kind === 'call' && under.operands.length > 0 && nullWhenAnOperandIs(under)) {
    const type = { ...n.type, nullable: false };
    const each = under.operands.map((o) => call(n.op, [o], type));
    return simplifyReflexiveComparisons(each.length === 1 ? each[0]! : call(n.op === 'IS NOT NULL' ? 'AND' : 'OR', each, type), filter);
  }
  const isOfNot = IS_OF_NOT[n.op];
  if (isOfNot !== undefined && n.operands.length === 1 && under?.kind === 'call' && under.op === 'NOT' && under.operands.length === 1) {
    return simplifyReflexiveComparisons(call(isOfNot, [under.operands[0]!], n.type), filter);
  }
  // A filter's condition keeps its context through AND / OR (Calcite's unknownAs FALSE): NULL and FALSE drop a row alike.
  const operands = n.operands.map((o) => simplifyReflexiveComparisons(o, filter && (n.op === 'AND' || n.op === 'OR')));
  // NOT (a < b) is a >= b, and so on: RexSimplify.simplifyNot negates a comparison under NOT. The same for every
  // value but NaN, which is unordered: Flink answers NOT (NaN > 1.5) FALSE (NaN <= 1.5), and so must Sluice.
  const inner = operands[0];
  if (n.op === 'NOT' && operands.length === 1 && inner !== undefined && inner.kind === 'call') {
    if (inner.operands.length === 2) {
      const negated = NEGATION[inner.op];
      if (negated !== undefined) {
        // Without `fn`: the comparison is found again by its new name.
        const { fn: _, ...comparison } = inner;
        return simplifyReflexiveComparisons({ ...comparison, op: negated });
      }
    }
    // simplifyNot distributes NOT over AND / OR (De Morgan, exact in three-valued logic), so the comparisons below are
    // negated too: Flink answers NOT (t = t AND x < NaN) FALSE (x >= NaN is FALSE); NOT NOT x is x.
    if (inner.op === 'NOT' && inner.operands.length === 1) return inner.operands[0]!;
    if (inner.op === 'AND' || inner.op === 'OR') {
      const negatedOperands = inner.operands.map((o) => simplifyReflexiveComparisons(call('NOT', [o], { ...o.type })));
      return call(inner.op === 'AND' ? 'OR' : 'AND', negatedOperands, n.type);
    }
  }
  // `x IS FALSE` is NOT x where NULL counts as FALSE (a filter) or x is never NULL; so is `x IS NOT TRUE` when x is
  // never NULL (RexSimplify.simplifyIs): Flink's WHERE (NaN < y) IS FALSE keeps no row.
  if ((n.op === 'IS FALSE' && (filter || !inner?.type.nullable)) || (n.op === 'IS NOT TRUE' && inner !== undefined && !inner.type.nullable)) {
    if (inner !== undefined && inner.kind === 'call' && (NEGATION[inner.op] !== undefined || inner.op === 'AND' || inner.op === 'OR')) {
      return simplifyReflexiveComparisons(call('NOT', [inner], { ...n.type, nullable: inner.type.nullable }), filter);
    }
  }
  const same = TRUE_WHEN_SAME.has(n.op) ? true : FALSE_WHEN_SAME.has(n.op) ? false : undefined;
  const [a, b] = operands;
  // RexSimplify removes more that can fail: a CASE whose branches are all the same expression is that expression,
  // NULLIF(x, x) is NULL, and a comparison with a NULL literal is NULL, its other operand never evaluated (Flink
  // answers CAST(CAST(NaN AS DECIMAL(12, 3)) AS INT) < NULLIF(id, CASE WHEN c THEN id ELSE id END) with NULL).
  if (n.op === 'CASE' && operands.length >= 3 && operands.length % 2 === 1 && operands.every(deterministic)) {
    const first = operands[1]!;
    const values = operands.filter((_, i) => i % 2 === 1 || i === operands.length - 1);
    if (typesEqual(first.type, n.type) && values.every((v) => sameRex(v, first))) return first;
  }
  if (n.op === 'NULLIF' && a !== undefined && b !== undefined && deterministic(a) && sameRex(a, b)) return literal(null, { ...n.type, nullable: true });
  if (same !== undefined && operands.length === 2 && operands.some((o) => o.kind === 'literal' && o.value === null)) {
    return literal(null, { ...n.type, nullable: true });
  }
  if (same !== undefined && operands.length === 2 && a !== undefined && b !== undefined && a.type.kind !== 'NULL' && deterministic(a) && sameRex(a, b)) {
    if (!a.type.nullable) return literal(same, { ...n.type, nullable: false });
    const isNull = call('IS NULL', [a], { ...n.type, nullable: false });
    return call('CASE', [isNull, literal(null, { ...n.type, nullable: true }), literal(same, { ...n.type, nullable: false })], n.type);
  }
  return operands.every((o, i) => o === n.operands[i]) ? n : { ...n, operands };
}

/**
 * The same expression, types included at every level (as Calcite's digest): CAST(t AS TIMESTAMP(6)) and
 * CAST(t AS TIMESTAMP(2)) are not the same, though rexKey prints both alike.
 */
function sameRex(a: RexNode, b: RexNode): boolean {
  if (a.kind !== b.kind || !typesEqual(a.type, b.type)) return false;
  if (a.kind === 'input-ref') return b.kind === 'input-ref' && a.index === b.index;
  if (a.kind === 'literal') return b.kind === 'literal' && rexKey(a) === rexKey(b);
  return b.kind === 'call' && a.op === b.op && a.operands.length === b.operands.length && a.operands.every((o, i) => sameRex(o, b.operands[i]!));
}
