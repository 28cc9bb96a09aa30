import { isRowtimeAttribute, isTimeAttribute } from '../../types/logical-type.js';
import type { RankNode } from './plan-node.js';

/** How a Deduplicate keeps rows: the first or last per key, by event or processing time. */
export interface Deduplication {
  readonly keep: 'FirstRow' | 'LastRow';
  readonly order: 'ROWTIME' | 'PROCTIME';
}

/**
 * The rank a Deduplicate is (Flink's RankUtil.canConvertToDeduplicate): ROW_NUMBER bounded to 1, ordered by a
 * single time attribute, without the rank number (RankNumberColumnRemoveRule removes a selected one).
 * Undefined for any other rank.
 */
export function deduplicationOf(n: RankNode): Deduplication | undefined {
  if ((n.rankType ?? 'ROW_NUMBER') !== 'ROW_NUMBER' || n.limit !== 1 || n.outputRankNumber || n.orderKeys.length !== 1) return undefined;
  const key = n.orderKeys[0]!;
  const t = n.input.fields[key.index]!.type;
  if (!isTimeAttribute(t)) return undefined;
  return { keep: key.descending ? 'LastRow' : 'FirstRow', order: isRowtimeAttribute(t) ? 'ROWTIME' : 'PROCTIME' };
}

/**
 * The first row per key by processing time never changes once emitted: Flink plans it insert-only
 * (FlinkChangelogModeInferenceProgram: "only proctime first row deduplicate does not produce UPDATE changes").
 * An event-time first row can still be replaced by an earlier late row, so it stays updating.
 */
export function isProctimeFirstRow(n: RankNode): boolean {
  const d = deduplicationOf(n);
  return d !== undefined && d.keep === 'FirstRow' && d.order === 'PROCTIME';
}
