import * as A from 'apache-arrow';
import type { LogicalType } from '../../types/logical-type.js';
import type { ColumnVector, Validity } from '../../types/columns/column-vector.js';
import { isSignedInt, readColumn } from './arrow-columns.js';

type Chunk = A.Data<A.DataType>;

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
 * How to read rows [from, to) of chunk `d` as logical type `t`: the common layouts point into the Arrow
 * buffers (no copy), the rest are read up front by `readColumn`. Errors (only from the `readColumn`
 * fallback) name the row within the chunk; the caller adds the batch and column.
 */
export function columnSource(d: Chunk, t: LogicalType, from: number, to: number): ColumnVector {
  const validity = validityOf(d, from);
  if (isDirect(d, t)) {
    return { kind: 'typed', values: (d.values as Int32Array).subarray(from, to), validity };
  }
  if ((t.kind === 'TIMESTAMP' || t.kind === 'TIMESTAMP_LTZ') && d.type.typeId === A.Type.Timestamp) {
    const unit = (d.type as A.Timestamp).unit;
    // Nanosecond epoch values pass 2^53: the halves would round, readColumn divides exactly. A TIMESTAMP(4..9) read
    // from micro- or nanoseconds keeps the digits below the millisecond: readColumn builds its values too.
    const finer = unit === A.TimeUnit.NANOSECOND || unit === A.TimeUnit.MICROSECOND;
    if (unit !== A.TimeUnit.NANOSECOND && !(finer && t.precision > 3)) {
      const v = d.values as BigInt64Array;
      const words = new Int32Array(v.buffer, v.byteOffset + from * 8, (to - from) * 2);
      return { kind: 'int64', words, unit: unit === A.TimeUnit.MILLISECOND ? 'ms' : unit === A.TimeUnit.MICROSECOND ? 'us' : 's', validity };
    }
  }
  if ((t.kind === 'VARCHAR' || t.kind === 'CHAR') && d.type.typeId === A.Type.Utf8) {
    // Kept as bytes; decoded when rows are built (per range of at most 1024 rows: a whole record batch's
    // text at once was slower, strings that large live in large-object space, freed only by full GCs).
    return { kind: 'utf8', bytes: d.values as Uint8Array, offsets: (d.valueOffsets as Int32Array).subarray(from, to + 1), validity };
  }
  if (t.kind === 'BOOLEAN' && d.type.typeId === A.Type.Bool) {
    return { kind: 'bool', bits: d.values as Uint8Array, offset: d.offset + from, validity };
  }
  return { kind: 'values', values: readColumn(d, t, from, to) };
}
