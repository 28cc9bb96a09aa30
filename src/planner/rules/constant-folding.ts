import { compileRex } from '../rex/compile-rex.js';
import { isConstant, literal } from '../rex/rex-node.js';
import type { RexNode } from '../rex/rex-node.js';

/**
 * Evaluates deterministic constant sub-expressions at planning time. A sub-expression that fails (e.g.
 * a bad CAST) is left in place so the error surfaces at run time, as in Flink.
 */
export function foldConstants(n: RexNode, timeZone: string): RexNode {
  if (n.kind !== 'call') return n;
  const operands = n.operands.map((o) => foldConstants(o, timeZone));
  const folded: RexNode = { ...n, operands };
  if (isConstant(folded) && !folded.type.kind.startsWith('ROW') && folded.op !== 'ROW' && folded.op !== 'ARRAY' && folded.op !== 'MAP') {
    try {
      return literal(compileRex(folded, { timeZone })([]), folded.type);
    } catch {
      return folded;
    }
  }
  return folded;
}
