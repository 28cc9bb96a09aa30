import type { Row } from '../types/row.js';
import type { StateKey } from './state/state.js';

/**
 * How records of an edge are spread over the consumer's subtasks.
 * - `forward`: subtask i sends to subtask i (parallelisms must be equal).
 * - `hash`: `key(row)` returns the state key the consuming keyed operator sets for that row (a number
 *   hash of the key fields, or the key value itself); the row goes to the subtask owning the key's key
 *   group (see key-groups.ts). Keyed operators need this, and must key their state the same way.
 * - `rebalance`: round robin per batch.
 * - `broadcast`: every subtask gets every batch.
 */
export type Partitioner =
  | { readonly kind: 'forward' }
  | { readonly kind: 'hash'; readonly key: (row: Row) => StateKey }
  | { readonly kind: 'rebalance' }
  | { readonly kind: 'broadcast' };
