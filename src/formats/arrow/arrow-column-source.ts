import { isAscii } from 'node:buffer';
import * as A from 'apache-arrow';
import type { LogicalType } from '../../types/logical-type.js';
import { asciiDecode } from '../common/utf8.js';
import { isSignedInt, readColumn } from './arrow-columns.js';
import type { ColumnValues } from './arrow-columns.js';

type Chunk = A.Data<A.DataType>;

/**
 * Where the row assembler takes row `j` (0-based within the range read) of one column from. The common
 * layouts are read straight from the Arrow buffers inside the row loop, so no per-column array of values
 * (and, for timestamps and booleans, no boxed intermediate) is built; the rest is read up front by
 * `readColumn` (`values`, NULLs already applied).
 */
export type ColumnSource =
  /** `values[j]` is the value: a typed array view of the range whose elements are Sluice values. */
  | { readonly kind: 'typed'; readonly values: ArrayLike<unknown>; readonly validity: Validity | undefined }
  /** Int64 epoch values as two int32 halves (`words[2j]` low, `words[2j+1]` high), times `scale` ms. */
  | { readonly kind: 'int64'; readonly words: Int32Array; readonly unit: 'ms' | 'us' | 's'; readonly validity: Validity | undefined }
  /** An ASCII string column: one decoded `text` of the range, cut at `offsets[j] - base`. */
  | { readonly kind: 'ascii'; readonly text: string; readonly offsets: Int32Array; readonly base: number; readonly validity: Validity | undefined }
  /** Bit `offset + j` of `bits`. */
  | { readonly kind: 'bool'; readonly bits: Uint8Array; readonly offset: number; readonly validity: Validity | undefined }
  /** Already Sluice values, NULLs included. */
  | { readonly kind: 'values'; readonly values: ColumnValues };

/** Row `j` of the range holds a value when bit `offset + j` of `bitmap` is set. */
export interface Validity {
  readonly bitmap: Uint8Array;
  readonly offset: number;
}

/** The shape of the assembler a source needs: one letter per kind, `?` when it has NULLs. */
export function sourceSignature(s: ColumnSource): string {
  switch (s.kind) {
    case 'typed':
      return s.validity === undefined ? 't' : 't?';
    case 'int64':
      return (s.unit === 'ms' ? 'm' : s.unit === 'us' ? 'u' : 's') + (s.validity === undefined ? '' : '?');
    case 'ascii':
      return s.validity === undefined ? 'a' : 'a?';
    case 'bool':
      return s.validity === undefined ? 'b' : 'b?';
    case 'values':
      return 'v';
  }
}

function validityOf(d: Chunk, from: number): Validity | undefined {
  if (d.nullCount === 0 || d.nullBitmap === undefined || d.nullBitmap.length === 0) return undefined;
  return { bitmap: d.nullBitmap, offset: d.offset + from };
}

/** The typed-array layout Sluice writes for `t`, when chunk `d` has it (its elements are the values). */
function isDirect(d: Chunk, t: LogicalType): boolean {
  const typeId = d.type.typeId;
  switch (t.kind) {
    case 'TINYINT':
      return isSignedInt(d, 8);
    case 'SMALLINT':
      return isSignedInt(d, 16);
    case 'INT':
    case 'INTERVAL_YEAR_MONTH':
      return isSignedInt(d, 32);
    case 'BIGINT':
      // Elements of a BigInt64Array are bigints already: no conversion helper per cell.
      return isSignedInt(d, 64);
    case 'FLOAT':
      return typeId === A.Type.Float && (d.type as A.Float).precision === A.Precision.SINGLE;
    case 'DOUBLE':
      return typeId === A.Type.Float && (d.type as A.Float).precision !== A.Precision.HALF;
    case 'DATE':
      return typeId === A.Type.Date && (d.type as A.Date_).unit === A.DateUnit.DAY;
    case 'TIME':
      return typeId === A.Type.Time && (d.type as A.Time).unit === A.TimeUnit.MILLISECOND && (d.type as A.Time).bitWidth === 32;
    default:
      return false;
  }
}

/**
 * How to read rows [from, to) of chunk `d` as logical type `t`. Errors (only from the `readColumn`
 * fallback) name the row within the chunk; the caller adds the batch and column.
 */
export function columnSource(d: Chunk, t: LogicalType, from: number, to: number): ColumnSource {
  const validity = validityOf(d, from);
  if (isDirect(d, t)) {
    return { kind: 'typed', values: (d.values as Int32Array).subarray(from, to), validity };
  }
  if ((t.kind === 'TIMESTAMP' || t.kind === 'TIMESTAMP_LTZ') && d.type.typeId === A.Type.Timestamp) {
    const unit = (d.type as A.Timestamp).unit;
    // Nanosecond epoch values pass 2^53: the halves would round, readColumn divides exactly.
    if (unit !== A.TimeUnit.NANOSECOND) {
      const v = d.values as BigInt64Array;
      const words = new Int32Array(v.buffer, v.byteOffset + from * 8, (to - from) * 2);
      return { kind: 'int64', words, unit: unit === A.TimeUnit.MILLISECOND ? 'ms' : unit === A.TimeUnit.MICROSECOND ? 'us' : 's', validity };
    }
  }
  if ((t.kind === 'VARCHAR' || t.kind === 'CHAR') && d.type.typeId === A.Type.Utf8) {
    const offsets = (d.valueOffsets as Int32Array).subarray(from, to + 1);
    const bytes = d.values as Uint8Array;
    const start = offsets[0]!;
    const end = offsets[to - from]!;
    // One native decode of the range, then substrings, when it is ASCII (the common case). A whole record
    // batch at once was slower: strings that large live in large-object space, freed only by full GCs.
    if (isAscii(bytes.subarray(start, end))) return { kind: 'ascii', text: asciiDecode(bytes, start, end), offsets, base: start, validity };
  }
  if (t.kind === 'BOOLEAN' && d.type.typeId === A.Type.Bool) {
    return { kind: 'bool', bits: d.values as Uint8Array, offset: d.offset + from, validity };
  }
  return { kind: 'values', values: readColumn(d, t, from, to) };
}
