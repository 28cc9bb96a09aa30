import { call } from '../rex/rex-node.js';
import type { RexNode } from '../rex/rex-node.js';
import { DataTypes } from '../../types/data-types.js';

/** The operands of a (nested) AND, or the expression itself. */
export function conjunctsOf(r: RexNode): RexNode[] {
  return r.kind === 'call' && r.op === 'AND' ? r.operands.flatMap(conjunctsOf) : [r];
}

/** AND of one or more conditions (the condition itself when there is one). */
export function andOf(rs: readonly RexNode[]): RexNode {
  return rs.length === 1 ? rs[0]! : call('AND', rs, DataTypes.BOOLEAN());
}

/** AND of zero or more conditions; null when there are none (a Calc without condition). */
export function andOrNull(rs: readonly RexNode[]): RexNode | null {
  return rs.length === 0 ? null : andOf(rs);
}

/** True if `r` and everything below it is deterministic. */
export function deterministic(r: RexNode): boolean {
  return r.kind !== 'call' || (r.deterministic && r.operands.every(deterministic));
}
