import type { ChangelogInference } from './changelog.js';
import { deduplicationOf } from './deduplicate.js';
import { modifiedMonotonicity } from './modified-monotonicity.js';
import type { RankNode } from './plan-node.js';
import { upsertKeys } from './upsert-keys.js';

/**
 * How a streaming Top-N takes its input (Flink's RankProcessStrategy): `append-fast` over inserts only,
 * `update-fast` over updates by a unique key (`rowKey`, input positions) that holds the partition key, when each
 * order key can only move towards the top (a COUNT or MAX ordered DESC, a MIN ordered ASC, a group key): each update
 * is then one change of the row with that key, and the Top-N keeps only its top rows (UpdatableTopNFunction, or
 * FastTop1Function for a Top-1); `retract` otherwise, taking a retraction and an insertion as two changes.
 */
export type RankStrategy = { readonly kind: 'append-fast' } | { readonly kind: 'retract' } | { readonly kind: 'update-fast'; readonly rowKey: readonly number[] };

export function rankStrategy(n: RankNode, changelog: ChangelogInference): RankStrategy {
  if (changelog.of(n.input).isInsertOnly()) return { kind: 'append-fast' };
  if ((n.rankType ?? 'ROW_NUMBER') !== 'ROW_NUMBER' || n.limit === null || n.window !== undefined || deduplicationOf(n) !== undefined) return { kind: 'retract' };
  const key = upsertKeys(n.input).find((k) => n.partitionKeys.every((p) => k.includes(p)));
  if (key === undefined) return { kind: 'retract' };
  const mono = modifiedMonotonicity(n.input, changelog);
  if (mono === null || n.orderKeys.length === 0) return { kind: 'retract' };
  const towardsTop = n.orderKeys.every((k) => {
    const m = mono[k.index];
    return m === 'constant' || (m === 'increasing' && k.descending) || (m === 'decreasing' && !k.descending);
  });
  return towardsTop ? { kind: 'update-fast', rowKey: key } : { kind: 'retract' };
}

/** Flink's EXPLAIN text of a strategy: `UpdateFastStrategy[0,1]` names the unique key's positions. */
export function rankStrategyText(s: RankStrategy): string {
  return s.kind === 'append-fast' ? 'AppendFastStrategy' : s.kind === 'retract' ? 'RetractStrategy' : `UpdateFastStrategy[${s.rowKey.join(',')}]`;
}
