import { Row } from '../types/row.js';
import { RowKind } from '../types/row-kind.js';
import { valuesEqual } from '../types/values/equality.js';

/** What the update-fast Top-N needs to know of its rank (see RankSpec.updateFast). */
export interface UpdateFastRange {
  /** Input positions of the unique key each update is for. */
  readonly rowKey: readonly number[];
  readonly rankStart: number;
  readonly rankEnd: number;
  readonly outputRankNumber: boolean;
}

type Compare = (a: unknown[], b: unknown[]) => number;

/**
 * One upsert (an insertion or the new version of the row with its unique key) into a partition's top rows, with the
 * changes Flink's update-fast Top-N emits for it, in its order: FastTop1Function for ranks 1..1, else
 * UpdatableTopNFunction. `rows` holds the partition's buffer, sorted by `cmp`, rows that tie in the order they
 * entered it; it is changed in place. The planner picks this only when an update can move a row only towards the
 * top (rank-strategy.ts), so the buffer keeps the top rows alone: a row that left it comes back as a new row.
 */
export function upsertTopN(rows: unknown[][], input: unknown[], r: UpdateFastRange, cmp: Compare, out: Row[]): void {
  const emit = new Emitter(r, out);
  if (r.rankStart === 1 && r.rankEnd === 1) {
    fastTop1(rows, input, cmp, emit);
    return;
  }
  const at = rows.findIndex((row) => r.rowKey.every((k) => valuesEqual(row[k], input[k])));
  if (r.outputRankNumber || r.rankStart > 1) withRowNumber(rows, input, at, r.rankEnd, cmp, emit);
  else withoutRowNumber(rows, input, at, r.rankEnd, cmp, emit);
}

/** FastTop1Function: the partition's one row, replaced by a better one (a tie or a worse one changes nothing). */
function fastTop1(rows: unknown[][], input: unknown[], cmp: Compare, emit: Emitter): void {
  const held = rows[0];
  if (held === undefined) {
    rows.push(input);
    emit.ranked(RowKind.INSERT, input, 1);
  } else if (cmp(input, held) < 0) {
    rows[0] = input;
    emit.ranked(RowKind.UPDATE_BEFORE, held, 1);
    emit.ranked(RowKind.UPDATE_AFTER, input, 1);
  }
}

/** UpdatableTopNFunction without the rank number: only the set of top rows matters, not their order. */
function withoutRowNumber(rows: unknown[][], input: unknown[], at: number, rankEnd: number, cmp: Compare, emit: Emitter): void {
  if (at >= 0) {
    const old = rows[at]!;
    if (cmp(old, input) === 0) rows[at] = input;
    else {
      rows.splice(at, 1);
      insertAfterTies(rows, input, cmp);
    }
    emit.plain(RowKind.UPDATE_BEFORE, old);
    emit.plain(RowKind.UPDATE_AFTER, input);
    return;
  }
  if (!inBufferRange(rows, input, rankEnd, cmp)) return;
  insertAfterTies(rows, input, cmp);
  if (rows.length > rankEnd) emit.plain(RowKind.DELETE, rows.pop()!);
  emit.plain(RowKind.INSERT, input);
}

/** UpdatableTopNFunction with the rank number (or an offset): each position whose row changed is updated. */
function withRowNumber(rows: unknown[][], input: unknown[], at: number, rankEnd: number, cmp: Compare, emit: Emitter): void {
  if (at < 0) {
    if (!inBufferRange(rows, input, rankEnd, cmp)) return;
    insertAfterTies(rows, input, cmp);
    emitShifted(rows, input, undefined, rankEnd, cmp, emit);
    return;
  }
  const old = rows[at]!;
  const c = cmp(input, old);
  if (c === 0) {
    rows[at] = input;
    emit.ranked(RowKind.UPDATE_BEFORE, old, at + 1);
    emit.ranked(RowKind.UPDATE_AFTER, input, at + 1);
    return;
  }
  rows.splice(at, 1);
  const newAt = insertAfterTies(rows, input, cmp);
  if (c < 0) emitShifted(rows, input, { row: old, rank: at + 1 }, rankEnd, cmp, emit);
  else moveDown(rows, input, newAt + 1, old, at + 1, emit);
}

/**
 * The changes after `input` entered at its place (Flink's emitRecordsWithRowNumber): each row from there down to
 * the old row's rank (or the end of the top) moves one rank down, as -U of the row that held the rank and +U of
 * the one that holds it now. Rows that fell below the top, beyond the group of ties the last rank is in, leave
 * the buffer.
 */
function emitShifted(rows: unknown[][], input: unknown[], old: { row: unknown[]; rank: number } | undefined, rankEnd: number, cmp: Compare, emit: Emitter): void {
  let rank = 0;
  let current = input;
  let found = false;
  let oldRetracted = false;
  let g = 0;
  while (g < rows.length && rank <= rankEnd) {
    let end = g + 1;
    while (end < rows.length && cmp(rows[g]!, rows[end]!) === 0) end++;
    if (!found && cmp(rows[g]!, input) === 0) {
      rank += end - g;
      found = true;
    } else if (found && old === undefined) {
      for (let j = g; j < end && rank <= rankEnd; j++) {
        const prev = rows[j]!;
        emit.ranked(RowKind.UPDATE_BEFORE, prev, rank);
        emit.ranked(RowKind.UPDATE_AFTER, current, rank);
        current = prev;
        rank++;
      }
    } else if (found && old !== undefined) {
      if (cmp(rows[g]!, old.row) > 0) {
        // Ranks below the old row's keep their rows.
        g = end;
        break;
      }
      for (let j = g; j < end && rank < old.rank; j++) {
        const prev = rows[j]!;
        emit.ranked(RowKind.UPDATE_BEFORE, prev, rank);
        if (current === input && !oldRetracted) {
          // The row's old version goes before its new one (both have its unique key).
          emit.ranked(RowKind.UPDATE_BEFORE, old.row, old.rank);
          oldRetracted = true;
        }
        emit.ranked(RowKind.UPDATE_AFTER, current, rank);
        current = prev;
        rank++;
      }
    } else {
      rank += end - g;
    }
    g = end;
  }
  if (rank <= rankEnd) {
    if (old === undefined) emit.ranked(RowKind.INSERT, current, rank);
    else {
      if (!oldRetracted) emit.ranked(RowKind.UPDATE_BEFORE, old.row, old.rank);
      emit.ranked(RowKind.UPDATE_AFTER, current, rank);
    }
    return;
  }
  rows.length = g;
}

/**
 * An update that moved its row down, which monotonic order keys rule out unless upstream state expired: Flink
 * then warns and renumbers the ranks between the old and the new position (emitRecordsWithRowNumberIgnoreStateError).
 */
function moveDown(rows: unknown[][], input: unknown[], newRank: number, old: unknown[], oldRank: number, emit: Emitter): void {
  emit.ranked(RowKind.UPDATE_BEFORE, old, oldRank);
  for (let rank = 1; rank < newRank && rank <= rows.length; rank++) {
    if (rank >= oldRank) {
      emit.ranked(RowKind.UPDATE_BEFORE, rows[rank - 1]!, rank + 1);
      emit.ranked(RowKind.UPDATE_AFTER, rows[rank - 1]!, rank);
    }
  }
  emit.ranked(RowKind.UPDATE_AFTER, input, newRank);
}

/** Whether a new row belongs in the buffer: it beats the worst held row, or the buffer is not full. */
function inBufferRange(rows: unknown[][], input: unknown[], rankEnd: number, cmp: Compare): boolean {
  const worst = rows[rows.length - 1];
  return worst === undefined || cmp(input, worst) < 0 || rows.length < rankEnd;
}

/** Inserts `row` after the rows it ties with; returns its index. */
function insertAfterTies(rows: unknown[][], row: unknown[], cmp: Compare): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cmp(rows[mid]!, row) <= 0) lo = mid + 1;
    else hi = mid;
  }
  rows.splice(lo, 0, row);
  return lo;
}

/** Writes output rows: with the rank number when asked, and a ranked row only when its rank is emitted. */
class Emitter {
  constructor(
    private readonly r: UpdateFastRange,
    private readonly out: Row[],
  ) {}

  ranked(kind: RowKind, row: unknown[], rank: number): void {
    if (rank < this.r.rankStart || rank > this.r.rankEnd) return;
    this.out.push(new Row(kind, this.r.outputRankNumber ? [...row, BigInt(rank)] : row.slice()));
  }

  plain(kind: RowKind, row: unknown[]): void {
    this.out.push(new Row(kind, row.slice()));
  }
}
