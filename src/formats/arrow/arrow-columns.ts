import { isAscii } from 'node:buffer';
import * as A from 'apache-arrow';
import { Decimal } from '../../types/decimal.js';
import type { LogicalType } from '../../types/logical-type.js';
import { FieldValueError, withField } from '../format-error.js';
import { timestampOfEpochNanos } from '../../types/values/precise-timestamp.js';
import { asciiDecode, utf8Decode } from '../../util/utf8.js';
import { fromArrowValue, wordsToBigInt } from './arrow-values.js';
import { hasNestedFineTimestamp, readExactTimestamps } from './arrow-nested-timestamps.js';

type Chunk = A.Data<A.DataType>;

/**
 * The values of one column chunk, indexable by row: element `i` is already the Sluice value of row `i`
 * (docs/values.md). A typed array when the Arrow buffer holds exactly those values and no nulls (an
 * Int64 column is a BigInt64Array, whose elements are bigints), else a plain array.
 */
export type ColumnValues = ArrayLike<unknown>;

const TWO_32 = 4294967296;

/** True when row `from + i` of the chunk holds a value. */
function validity(d: Chunk, from: number): ((i: number) => boolean) | undefined {
  if (d.nullCount === 0 || d.nullBitmap === undefined || d.nullBitmap.length === 0) return undefined;
  const bm = d.nullBitmap;
  const off = d.offset + from;
  return (i) => (bm[(off + i) >> 3]! & (1 << ((off + i) & 7))) !== 0;
}

/** `values` with NULL where the validity bitmap says so (a copy only when the chunk has nulls). */
function withNulls(values: ArrayLike<unknown>, n: number, valid: ((i: number) => boolean) | undefined): ColumnValues {
  if (valid === undefined) return values;
  const out = new Array<unknown>(n);
  for (let i = 0; i < n; i++) out[i] = valid(i) ? values[i] : null;
  return out;
}

/** True when the chunk is a signed Arrow Int of `bitWidth` bits. */
export function isSignedInt(d: Chunk, bitWidth: number): boolean {
  return d.type.typeId === A.Type.Int && (d.type as A.Int).bitWidth === bitWidth && (d.type as A.Int).isSigned;
}

/**
 * A 64-bit column (Int64, Timestamp) as JS numbers, read as two 32-bit halves: Number(bigint) per cell
 * allocates a bigint first and costs about eight times as much. Exact for |v| < 2^53 (every epoch ms).
 */
function int64AsNumbers(values: BigInt64Array, n: number, div: number): Float64Array {
  const w = new Int32Array(values.buffer, values.byteOffset, n * 2);
  const out = new Float64Array(n);
  if (div === 1) for (let i = 0; i < n; i++) out[i] = w[2 * i + 1]! * TWO_32 + (w[2 * i]! >>> 0);
  else for (let i = 0; i < n; i++) out[i] = Math.floor((w[2 * i + 1]! * TWO_32 + (w[2 * i]! >>> 0)) / div);
  return out;
}

/** Nanoseconds to ms exactly: nanosecond epoch values pass 2^53, so the halves trick would round. */
function nanosAsMillis(values: BigInt64Array, n: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    const q = v / 1_000_000n;
    out[i] = Number(v < 0n && q * 1_000_000n !== v ? q - 1n : q);
  }
  return out;
}

/**
 * TIMESTAMP(4..9) values of int64 epoch micro- (`toNanos` 1000) or nanoseconds (1), every digit kept: as Flink's
 * Arrow vectors (TimestampData of the millisecond and the nanos of it), not truncated to the column's precision.
 */
function preciseTimestamps(values: BigInt64Array, n: number, toNanos: bigint): unknown[] {
  const out = new Array<unknown>(n);
  for (let i = 0; i < n; i++) out[i] = timestampOfEpochNanos(values[i]! * toNanos);
  return out;
}

function strings(d: Chunk, from: number, n: number, valid: ((i: number) => boolean) | undefined): ColumnValues {
  const offsets = (d.valueOffsets as Int32Array).subarray(from, from + n + 1);
  const bytes = d.values as Uint8Array;
  const out = new Array<unknown>(n);
  const start = offsets[0]!;
  const end = offsets[n]!;
  // One decode of the whole buffer, then substrings, when it is ASCII (the common case).
  if (isAscii(bytes.subarray(start, end))) {
    const all = asciiDecode(bytes, start, end);
    for (let i = 0; i < n; i++) out[i] = valid !== undefined && !valid(i) ? null : all.substring(offsets[i]! - start, offsets[i + 1]! - start);
  } else {
    for (let i = 0; i < n; i++) out[i] = valid !== undefined && !valid(i) ? null : utf8Decode(bytes.subarray(offsets[i]!, offsets[i + 1]!));
  }
  return out;
}

/**
 * The Sluice values of rows [from, to) of one column chunk read as logical type `t` (a range of the chunk
 * rather than a `Data.slice` of it: slicing cost as much as reading). Columns of the layout Sluice writes (and
 * the same layouts from other writers) are read straight from their buffers in one tight loop per column;
 * anything else (nested types, other units and widths) goes through `Vector.get` and `fromArrowValue`.
 * Errors name the row within the chunk; the caller adds the batch and column.
 */
export function readColumn(d: Chunk, t: LogicalType, from = 0, to = d.length): ColumnValues {
  const n = to - from;
  const valid = validity(d, from);
  const typeId = d.type.typeId;
  switch (t.kind) {
    case 'TINYINT':
      if (isSignedInt(d, 8)) return withNulls((d.values as Int8Array).subarray(from, to), n, valid);
      break;
    case 'SMALLINT':
      if (isSignedInt(d, 16)) return withNulls((d.values as Int16Array).subarray(from, to), n, valid);
      break;
    case 'INT':
    case 'INTERVAL_YEAR_MONTH':
      if (isSignedInt(d, 32)) return withNulls((d.values as Int32Array).subarray(from, to), n, valid);
      break;
    case 'BIGINT':
      // Elements of a BigInt64Array are bigints already: no conversion, one allocation per cell on read.
      if (isSignedInt(d, 64)) return withNulls((d.values as BigInt64Array).subarray(from, to), n, valid);
      break;
    case 'FLOAT':
    case 'DOUBLE': {
      if (typeId !== A.Type.Float) break;
      const precision = (d.type as A.Float).precision;
      // Float32 elements are exactly Math.fround's values; a DOUBLE column read as FLOAT must be rounded.
      if (precision === A.Precision.SINGLE || (precision === A.Precision.DOUBLE && t.kind === 'DOUBLE')) {
        return withNulls((d.values as Float32Array | Float64Array).subarray(from, to), n, valid);
      }
      if (precision === A.Precision.DOUBLE) return withNulls(Float32Array.from((d.values as Float64Array).subarray(from, to)), n, valid);
      break;
    }
    case 'BOOLEAN': {
      if (typeId !== A.Type.Bool) break;
      const bits = d.values as Uint8Array;
      const off = d.offset + from;
      const out = new Array<unknown>(n);
      for (let i = 0; i < n; i++) out[i] = valid !== undefined && !valid(i) ? null : (bits[(off + i) >> 3]! & (1 << ((off + i) & 7))) !== 0;
      return out;
    }
    case 'DATE':
      if (typeId === A.Type.Date && (d.type as A.Date_).unit === A.DateUnit.DAY) return withNulls((d.values as Int32Array).subarray(from, to), n, valid);
      break;
    case 'TIME':
      if (typeId === A.Type.Time && (d.type as A.Time).unit === A.TimeUnit.MILLISECOND && (d.type as A.Time).bitWidth === 32) {
        return withNulls((d.values as Int32Array).subarray(from, to), n, valid);
      }
      break;
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ': {
      if (typeId !== A.Type.Timestamp) break;
      const unit = (d.type as A.Timestamp).unit;
      const v64 = (d.values as BigInt64Array).subarray(from, to);
      if (t.precision > 3 && (unit === A.TimeUnit.NANOSECOND || unit === A.TimeUnit.MICROSECOND)) {
        return withNulls(preciseTimestamps(v64, n, unit === A.TimeUnit.NANOSECOND ? 1n : 1000n), n, valid);
      }
      const ms =
        unit === A.TimeUnit.NANOSECOND
          ? nanosAsMillis(v64, n)
          : int64AsNumbers(v64, n, unit === A.TimeUnit.SECOND ? 0.001 : unit === A.TimeUnit.MILLISECOND ? 1 : 1000);
      return withNulls(ms, n, valid);
    }
    case 'CHAR':
    case 'VARCHAR':
      if (typeId === A.Type.Utf8) return strings(d, from, n, valid);
      break;
    case 'BINARY':
    case 'VARBINARY': {
      if (typeId !== A.Type.Binary) break;
      const offsets = (d.valueOffsets as Int32Array).subarray(from, to + 1);
      const bytes = d.values as Uint8Array;
      const out = new Array<unknown>(n);
      for (let i = 0; i < n; i++) out[i] = valid !== undefined && !valid(i) ? null : bytes.slice(offsets[i]!, offsets[i + 1]!);
      return out;
    }
    case 'DECIMAL': {
      if (typeId !== A.Type.Decimal || (d.type as A.Decimal).bitWidth !== 128) break;
      const words = d.values as Uint32Array;
      const scale = (d.type as A.Decimal).scale;
      const out = new Array<unknown>(n);
      for (let i = 0; i < n; i++) {
        if (valid !== undefined && !valid(i)) out[i] = null;
        else {
          const dec = Decimal.of(wordsToBigInt(words, from + i), scale);
          out[i] = scale === t.scale ? dec : dec.toPrecision(t.precision, t.scale);
        }
      }
      return out;
    }
    default:
      break;
  }
  return generic(from === 0 && to === d.length ? d : d.slice(from, n), t);
}

/** Through apache-arrow's getters: nested values and layouts Sluice does not write. */
function generic(d: Chunk, t: LogicalType): ColumnValues {
  const n = d.length;
  const vector = A.makeVector(d);
  const out = new Array<unknown>(n);
  for (let i = 0; i < n; i++) {
    try {
      out[i] = fromArrowValue(vector.get(i), t, d.type);
    } catch (e) {
      throw withField(e instanceof Error && !(e instanceof FieldValueError) ? new FieldValueError(e.message) : e, `[${i}]`);
    }
  }
  if (hasNestedFineTimestamp(t)) readExactTimestamps(d, t, out);
  return out;
}
