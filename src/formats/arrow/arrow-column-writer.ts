import { Buffer } from 'node:buffer';
import * as A from 'apache-arrow';
import type { LogicalType } from '../../types/logical-type.js';
import type { Row } from '../../types/row.js';
import { FieldValueError } from '../format-error.js';
import { epochMicrosOf, epochNanosOf, PreciseTimestamp } from '../../types/values/precise-timestamp.js';

/**
 * Builds field `column` of rows `[start, end)` as one Arrow column, writing its buffers directly instead of
 * going through apache-arrow's per-cell builders. Called by `ArrowBulkEncoder` once per column and record
 * batch; synchronous, loops over the rows without allocating per cell (strings: one join per batch).
 * NULL (or a missing field) sets no validity bit; no bitmap at all when the column has no NULL.
 * @throws FieldValueError when a value is not in the representation of docs/values.md for its type.
 */
export type ArrowColumnWriter = (rows: readonly Row[], column: number, start: number, end: number) => A.Data;

/**
 * The direct writer for a logical type written as `arrowType` (what `toArrowType` gives for it), or
 * undefined for the types left to apache-arrow's builders: DECIMAL, nested types, NULL.
 */
export function arrowColumnWriter(t: LogicalType, arrowType: A.DataType): ArrowColumnWriter | undefined {
  switch (t.kind) {
    case 'BOOLEAN':
      return boolWriter(arrowType);
    case 'TINYINT':
      return numberWriter(arrowType, (n) => new Int8Array(n), t.kind);
    case 'SMALLINT':
      return numberWriter(arrowType, (n) => new Int16Array(n), t.kind);
    case 'INT':
    case 'INTERVAL_YEAR_MONTH':
    case 'DATE':
    case 'TIME':
      // DATE is Date32 days and TIME is Time32 ms in Arrow: the same int32 Sluice holds.
      return numberWriter(arrowType, (n) => new Int32Array(n), t.kind);
    case 'FLOAT':
      return numberWriter(arrowType, (n) => new Float32Array(n), t.kind);
    case 'DOUBLE':
      return numberWriter(arrowType, (n) => new Float64Array(n), t.kind);
    case 'BIGINT':
      return bigintWriter(arrowType);
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ':
      return t.precision <= 3 ? epochMsWriter(arrowType, t.kind) : preciseTimestampWriter(arrowType, t.kind, t.precision > 6 ? 'ns' : 'us');
    case 'INTERVAL_DAY_TIME':
      return epochMsWriter(arrowType, t.kind);
    case 'CHAR':
    case 'VARCHAR':
      return utf8Writer(arrowType);
    case 'BINARY':
    case 'VARBINARY':
      return binaryWriter(arrowType);
    default:
      return undefined;
  }
}

/** A column's validity bitmap, allocated at its first NULL since Arrow leaves it out when nothing is NULL. */
class Validity {
  bitmap: Uint8Array | undefined = undefined;
  nullCount = 0;

  constructor(private readonly length: number) {}

  setNull(i: number): void {
    if (this.bitmap === undefined) {
      const bitmap = new Uint8Array((this.length + 7) >> 3).fill(0xff);
      // Bits past the end stay clear, as apache-arrow's own builders leave them.
      if ((this.length & 7) !== 0) bitmap[bitmap.length - 1] = (1 << (this.length & 7)) - 1;
      this.bitmap = bitmap;
    }
    this.bitmap[i >> 3]! &= ~(1 << (i & 7));
    this.nullCount++;
  }
}

function wrongValue(v: unknown, type: string): FieldValueError {
  const shown = typeof v === 'bigint' ? `${v}n` : typeof v === 'string' ? JSON.stringify(v) : String(v);
  return new FieldValueError(`cannot write ${typeof v} ${shown} as ${type}.`);
}

function isNull(v: unknown): boolean {
  return v === null || v === undefined;
}

/** The column's `Data`; `type` is only known at run time, so makeData's generic overload takes the props. */
function data(type: A.DataType, length: number, validity: Validity, buffers: { data: ArrayBufferView; valueOffsets?: Int32Array }): A.Data {
  const props = { type, length, nullCount: validity.nullCount, nullBitmap: validity.bitmap, ...buffers };
  return A.makeData(props);
}

type NumberArray = Int8Array | Int16Array | Int32Array | Float32Array | Float64Array;

function numberWriter(type: A.DataType, alloc: (n: number) => NumberArray, typeName: string): ArrowColumnWriter {
  return (rows, c, start, end) => {
    const n = end - start;
    const values = alloc(n);
    const validity = new Validity(n);
    for (let i = 0; i < n; i++) {
      const v = rows[start + i]!.fields[c];
      if (typeof v === 'number') values[i] = v;
      else if (isNull(v)) validity.setNull(i);
      else throw wrongValue(v, typeName);
    }
    return data(type, n, validity, { data: values });
  };
}

function boolWriter(type: A.DataType): ArrowColumnWriter {
  return (rows, c, start, end) => {
    const n = end - start;
    const bits = new Uint8Array((n + 7) >> 3);
    const validity = new Validity(n);
    for (let i = 0; i < n; i++) {
      const v = rows[start + i]!.fields[c];
      if (v === true) bits[i >> 3]! |= 1 << (i & 7);
      else if (v === false) continue;
      else if (isNull(v)) validity.setNull(i);
      else throw wrongValue(v, 'BOOLEAN');
    }
    return data(type, n, validity, { data: bits });
  };
}

function bigintWriter(type: A.DataType): ArrowColumnWriter {
  return (rows, c, start, end) => {
    const n = end - start;
    const values = new BigInt64Array(n);
    const validity = new Validity(n);
    for (let i = 0; i < n; i++) {
      const v = rows[start + i]!.fields[c];
      if (typeof v === 'bigint') values[i] = v;
      else if (isNull(v)) validity.setNull(i);
      else throw wrongValue(v, 'BIGINT');
    }
    return data(type, n, validity, { data: values });
  };
}

const TWO_32 = 4294967296;

/**
 * Int64 columns holding integral numbers (epoch ms, interval ms): written as little-endian lo/hi int32
 * words, which spares a BigInt per cell. The check that the words give back `v` rejects fractions, NaN and
 * values beyond the int64 range, which the builders' `BigInt(v)` rejected too.
 */
function epochMsWriter(type: A.DataType, typeName: string): ArrowColumnWriter {
  return (rows, c, start, end) => {
    const n = end - start;
    const words = new Int32Array(2 * n);
    const validity = new Validity(n);
    for (let i = 0; i < n; i++) {
      const v = rows[start + i]!.fields[c];
      if (typeof v === 'number') {
        const hi = Math.floor(v / TWO_32) | 0;
        const lo = v >>> 0;
        if (hi * TWO_32 + lo !== v) throw wrongValue(v, typeName);
        words[2 * i] = lo;
        words[2 * i + 1] = hi;
      } else if (isNull(v)) validity.setNull(i);
      else throw wrongValue(v, typeName);
    }
    return data(type, n, validity, { data: words });
  };
}

/**
 * TIMESTAMP(4..9) columns: Timestamp[us] (p <= 6) or Timestamp[ns] int64s of the exact epoch micro- / nanoseconds
 * of each value (a PreciseTimestamp or a whole millisecond); apache-arrow's builders take epoch ms only.
 */
function preciseTimestampWriter(type: A.DataType, typeName: string, unit: 'us' | 'ns'): ArrowColumnWriter {
  return (rows, c, start, end) => {
    const n = end - start;
    const values = new BigInt64Array(n);
    const validity = new Validity(n);
    for (let i = 0; i < n; i++) {
      const v = rows[start + i]!.fields[c];
      if (isNull(v)) validity.setNull(i);
      else if ((typeof v === 'number' && Number.isInteger(v)) || v instanceof PreciseTimestamp) {
        values[i] = unit === 'us' ? epochMicrosOf(v) : epochNanosOf(v);
      } else throw wrongValue(v, typeName);
    }
    return data(type, n, validity, { data: values });
  };
}

/** Utf8 (and Binary) offsets are int32: a batch holds at most this many bytes of one column. */
const MAX_COLUMN_BYTES = 0x7fffffff;

/** Below V8's longest string (2^29 - 24 code units), so a join never fails. */
const MAX_JOINED_CHARS = 1 << 28;

function utf8Writer(type: A.DataType): ArrowColumnWriter {
  return (rows, c, start, end) => {
    const n = end - start;
    const parts = new Array<string>(n);
    const validity = new Validity(n);
    for (let i = 0; i < n; i++) {
      const v = rows[start + i]!.fields[c];
      if (typeof v === 'string') parts[i] = v;
      else if (isNull(v)) {
        parts[i] = '';
        validity.setNull(i);
      } else throw wrongValue(v, 'STRING');
    }
    const { bytes, offsets } = utf8Buffers(parts);
    return data(type, n, validity, { data: bytes, valueOffsets: offsets });
  };
}

/**
 * The UTF-8 bytes of `parts` back to back and their n + 1 offsets. The strings are joined and encoded in one
 * call (per-string encoding costs a native call each, about twice the time); when the bytes are as many as
 * the UTF-16 code units, all is ASCII and each string's length is its byte length, otherwise each string's
 * byte length is measured. A batch longer than `maxJoinedChars` is joined in pieces.
 * @throws FieldValueError when the bytes overflow int32 offsets.
 */
export function utf8Buffers(parts: readonly string[], maxJoinedChars = MAX_JOINED_CHARS): { bytes: Uint8Array; offsets: Int32Array } {
  const n = parts.length;
  const offsets = new Int32Array(n + 1);
  const pieces: Uint8Array[] = [];
  let total = 0;
  for (let from = 0; from < n; ) {
    let to = from + 1;
    for (let chars = parts[from]!.length; to < n && chars + parts[to]!.length <= maxJoinedChars; to++) chars += parts[to]!.length;
    const joined = from === 0 && to === n ? parts.join('') : parts.slice(from, to).join('');
    const bytes = Buffer.from(joined, 'utf8');
    if (total + bytes.byteLength > MAX_COLUMN_BYTES) {
      throw new FieldValueError(`a record batch of strings over ${MAX_COLUMN_BYTES} bytes does not fit Arrow's Utf8; lower 'batch-size'.`);
    }
    if (bytes.byteLength === joined.length) {
      for (let i = from; i < to; i++) offsets[i + 1] = total += parts[i]!.length;
    } else {
      for (let i = from; i < to; i++) offsets[i + 1] = total += Buffer.byteLength(parts[i]!, 'utf8');
    }
    pieces.push(bytes);
    from = to;
  }
  return { bytes: pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, total), offsets };
}

function binaryWriter(type: A.DataType): ArrowColumnWriter {
  return (rows, c, start, end) => {
    const n = end - start;
    const offsets = new Int32Array(n + 1);
    const validity = new Validity(n);
    let o = 0;
    for (let i = 0; i < n; i++) {
      const v = rows[start + i]!.fields[c];
      if (v instanceof Uint8Array) o += v.byteLength;
      else if (isNull(v)) validity.setNull(i);
      else throw wrongValue(v, 'BYTES');
      offsets[i + 1] = o;
    }
    if (o > MAX_COLUMN_BYTES) throw new FieldValueError(`a record batch of bytes over ${MAX_COLUMN_BYTES} bytes does not fit Arrow's Binary; lower 'batch-size'.`);
    const bytes = new Uint8Array(o);
    for (let i = 0; i < n; i++) {
      const v = rows[start + i]!.fields[c];
      if (v instanceof Uint8Array) bytes.set(v, offsets[i]!);
    }
    return data(type, n, validity, { data: bytes, valueOffsets: offsets });
  };
}
