import { Row } from '../../types/row.js';
import type { RowKind } from '../../types/row-kind.js';
import { decodeState, encodeState } from '../state/state-codec.js';

/** Rows one input of a task received, in the order it processed them. */
export interface InputRows {
  readonly inputIndex: number;
  readonly rows: readonly Row[];
}

/**
 * The rows in flight of an unaligned checkpoint (`TaskSnapshot.inFlight`): one `[inputIndex, kind, fields]`
 * entry per row, in the order the task processed them, encoded with the state codec, which keeps every SQL
 * value exact (DECIMAL, timestamps beyond milliseconds, nested rows). docs/state-format.md describes it.
 */
export function encodeInFlight(batches: readonly InputRows[]): Uint8Array {
  const entries: [number, RowKind, unknown[]][] = [];
  for (const b of batches) for (const r of b.rows) entries.push([b.inputIndex, r.kind, r.fields]);
  return encodeState(entries);
}

/**
 * A copy of `rows` for `encodeInFlight` to write later, deep down to nested values: an operator may keep a row's
 * nested values (a ROW or ARRAY field, a partial accumulator of a two-phase aggregate) and change them after the
 * row was recorded, and the checkpoint must hold the rows as they arrived. The copy goes through the state codec,
 * which keeps every SQL value exact; it runs only between an unaligned snapshot and its last barrier.
 */
export function copyInputRows(inputIndex: number, rows: readonly Row[]): InputRows {
  const copied = decodeState(encodeState(rows.map((r) => [r.kind, r.fields]))) as [RowKind, unknown[]][];
  return { inputIndex, rows: copied.map(([kind, fields]) => new Row(kind, fields)) };
}

/** The rows `encodeInFlight` wrote, as batches of consecutive rows of one input. */
export function decodeInFlight(data: Uint8Array): InputRows[] {
  const entries = decodeState(data) as [number, RowKind, unknown[]][];
  const out: { inputIndex: number; rows: Row[] }[] = [];
  for (const [inputIndex, kind, fields] of entries) {
    const last = out[out.length - 1];
    const row = new Row(kind, fields);
    if (last !== undefined && last.inputIndex === inputIndex) last.rows.push(row);
    else out.push({ inputIndex, rows: [row] });
  }
  return out;
}
