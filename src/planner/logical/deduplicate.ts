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
 */
export function isProctimeFirstRow(n: RankNode): boolean {
  const d = deduplicationOf(n);
  return d !== undefined && d.keep === 'FirstRow' && d.order === 'PROCTIME';
}

/**
 * The first row per key by event time over an insert-only input: Flink 2.x plans it insert-only too
 * (`outputInsertOnly=[true]`), emitting each key's earliest row once the watermark passes it and dropping late
 * rows (RowTimeDeduplicateKeepFirstRowFunction); Flink 1.20 planned it updating. Over an updating input it
 * stays an updating deduplication.
 */
export function isRowtimeInsertOnlyFirstRow(n: RankNode, inputInsertOnly: boolean): boolean {
  const d = deduplicationOf(n);
  return inputInsertOnly && d !== undefined && d.keep === 'FirstRow' && d.order === 'ROWTIME';
}

/** A first-row deduplication that emits inserts only (by processing time, or by event time over inserts). */
export function isInsertOnlyFirstRow(n: RankNode, inputInsertOnly: boolean): boolean {
  return isProctimeFirstRow(n) || isRowtimeInsertOnlyFirstRow(n, inputInsertOnly);
}
