import { compileRex } from '../rex/compile-rex.js';
import { literal } from '../rex/rex-node.js';
import type { RexNode } from '../rex/rex-node.js';

// A JSON_OBJECT / JSON_ARRAY inside another embeds raw only while it is still that call: folded into a STRING literal
// it would be embedded as an escaped string (a real Flink embeds `JSON_ARRAY(s, JSON_ARRAY(10, 'x'))` raw).
const UNFOLDED = new Set(['ROW', 'ARRAY', 'MAP', 'JSON_OBJECT', 'JSON_ARRAY', 'JSON']);

function foldable(n: RexNode): boolean {
  return !n.type.kind.startsWith('ROW') && !(n.kind === 'call' && UNFOLDED.has(n.op));
}

/**
 * Evaluates deterministic constant sub-expressions at planning time. A sub-expression that fails (e.g.
 * a bad CAST) is left in place so the error surfaces at run time, as in Flink.
 *
 * Only maximal constant sub-trees are compiled (one compilation for `1 + 2 + ... + 100000`, not one
 * per `+`): constness is computed once bottom-up, then folding goes top-down and stops at the first
 * constant node that evaluates.
 */
export function foldConstants(n: RexNode, timeZone: string): RexNode {
  const constant = new Map<RexNode, boolean>();
  const isConst = (x: RexNode): boolean => {
    const known = constant.get(x);
    if (known !== undefined) return known;
    let c: boolean;
    if (x.kind === 'literal') c = true;
    else if (x.kind === 'call') {
      c = x.deterministic;
      // Every operand is visited (and memoised) even after a non-constant one, for the top-down pass.
      for (const o of x.operands) c = isConst(o) && c;
    } else c = false;
    constant.set(x, c);
    return c;
  };
  isConst(n);
  const fold = (x: RexNode): RexNode => {
    if (x.kind !== 'call') return x;
    // Calcite's RexSimplify: an operand that cannot be NULL makes IS [NOT] NULL a constant without evaluating it,
    // so a NOT NULL CAST that would fail (CAST('apple' AS DECIMAL(10, 2)) IS NOT NULL) is TRUE in Flink, not an error.
    if ((x.op === 'IS NOT NULL' || x.op === 'IS NULL') && x.operands.length === 1 && !x.operands[0]!.type.nullable && x.operands[0]!.type.kind !== 'NULL') {
      return literal(x.op === 'IS NOT NULL', x.type);
    }
    if (constant.get(x) === true && foldable(x)) {
      try {
        return literal(compileRex(x, { timeZone })([]), x.type);
      } catch {
        // Fall through: fold what can be folded below, keep this call for run time.
      }
    }
    const operands = x.operands.map(fold);
    const rebuilt = { ...x, operands };
    // An operand that became a literal above (IS NULL of a NOT NULL operand) can make its parent constant too:
    // IS TRUE(IS NULL(j IS NOT JSON)) is FALSE, and a filter on it prunes the input as in Flink.
    if (x.deterministic && foldable(rebuilt) && operands.some((o, i) => o !== x.operands[i]) && operands.every((o) => o.kind === 'literal')) {
      try {
        return literal(compileRex(rebuilt, { timeZone })([]), x.type);
      } catch {
        // Kept for run time, as above.
      }
    }
    return rebuilt;
  };
  return fold(n);
}
