import type { Row } from '../types/row.js';

/**
 * How records of an edge are spread over the consumer's subtasks.
 * - `forward`: subtask i sends to subtask i (parallelisms must be equal).
 * - `hash`: `key(row)` returns a number hash (e.g. computed from the key fields without building strings);
 *   the row goes to subtask `(hash >>> 0) % parallelism`. Keyed operators need this.
 * - `rebalance`: round robin per batch.
 * - `broadcast`: every subtask gets every batch.
 */
export type Partitioner =
  | { readonly kind: 'forward' }
  | { readonly kind: 'hash'; readonly key: (row: Row) => number }
  | { readonly kind: 'rebalance' }
  | { readonly kind: 'broadcast' };
