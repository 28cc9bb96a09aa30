import type { RexNode } from './rex-node.js';
import { rexToString } from './rex-to-string.js';

/** A structural key of an expression (for matching GROUP BY expressions); planning time only. */
export function rexKey(n: RexNode): string {
  return rexToString(n, (i) => `$${i}`) + ':' + n.type.kind;
}
