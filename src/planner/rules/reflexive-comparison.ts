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
export function simplifyReflexiveComparisons(n: RexNode): RexNode {
  if (n.kind !== 'call') return n;
  const operands = n.operands.map(simplifyReflexiveComparisons);
  // NOT (a < b) is a >= b, and so on: RexSimplify.simplifyNot negates a comparison under NOT. The same for every
  // value but NaN, which is unordered: Flink answers NOT (NaN > 1.5) FALSE (NaN <= 1.5), and so must Sluice.
  const inner = operands[0];
  if (n.op === 'NOT' && operands.length === 1 && inner !== undefined && inner.kind === 'call' && inner.operands.length === 2) {
    const negated = NEGATION[inner.op];
    if (negated !== undefined) {
      // Without `fn`: the comparison is found again by its new name.
      const { fn: _, ...comparison } = inner;
      return simplifyReflexiveComparisons({ ...comparison, op: negated });
    }
  }
  const same = TRUE_WHEN_SAME.has(n.op) ? true : FALSE_WHEN_SAME.has(n.op) ? false : undefined;
  const [a, b] = operands;
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
