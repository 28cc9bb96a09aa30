import type { PlanNode } from '../logical/plan-node.js';
import { hashOrSingle, SINGLE } from './distribution.js';
import type { RequiredDistribution } from './distribution.js';

/**
 * The distribution node `n` requires of its input `input` (0-based), or undefined when it takes the rows where they
 * are (chained, or forwarded). The exchange-insertion rule (physical-planner.ts) puts an exchange wherever the input
 * does not already satisfy it.
 */
export function requiredDistribution(n: PlanNode, input: number): RequiredDistribution | undefined {
  switch (n.kind) {
    case 'aggregate': {
      // A window aggregate is partitioned by its plain keys: every window of a key in one subtask.
      const w = n.window;
      return hashOrSingle(w === undefined ? n.groupKeys : n.groupKeys.filter((k) => k !== w.windowStartField && k !== w.windowEndField));
    }
    case 'global-window-aggregate':
      // The local phase emits the plain group keys first.
      return hashOrSingle(Array.from({ length: n.keys.filter((k) => k.kind === 'field').length }, (_, k) => k));
    case 'sort':
      return SINGLE;
    case 'rank': {
      // A window Top-N, as a window aggregate, is partitioned by its plain keys: every window of a key in one subtask.
      const w = n.window;
      return hashOrSingle(w === undefined ? n.partitionKeys : n.partitionKeys.filter((k) => k !== w.startField && k !== w.endField));
    }
    case 'over':
    case 'match':
      return hashOrSingle(n.partitionKeys);
    case 'changelog-normalize':
      return hashOrSingle(n.uniqueKeys);
    case 'join':
      // A null-aware anti join (NOT IN) compares every left row with all of the right side's NULLs.
      if (n.leftKeys.length === 0 || n.semiNulls === 'not-in') return SINGLE;
      return { kind: 'hash', keys: input === 0 ? n.leftKeys : n.rightKeys };
    default:
      return undefined;
  }
}
