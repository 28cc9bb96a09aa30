import type { PlanNode } from './plan-node.js';

/**
 * How a node needs the rows of one of its inputs spread over its subtasks (Flink's FlinkRelDistribution as a
 * node requires it of an input). `single`: one subtask sees every row, so the node runs with parallelism 1.
 * `hash`: rows with equal `keys` (field indexes of that input) meet in one subtask.
 */
export type Distribution = { readonly kind: 'single' } | { readonly kind: 'hash'; readonly keys: readonly number[] };

const SINGLE: Distribution = { kind: 'single' };

function hashOrSingle(keys: readonly number[]): Distribution {
  return keys.length === 0 ? SINGLE : { kind: 'hash', keys };
}

/**
 * The distribution node `n` requires of its input `input` (0-based), or undefined when it takes the rows
 * where they are (chained, or forwarded). One answer for both the job graph's exchanges and EXPLAIN's
 * `Exchange(distribution=[...])` lines, so the plan printed is the plan run.
 */
export function requiredDistribution(n: PlanNode, input: number): Distribution | undefined {
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
