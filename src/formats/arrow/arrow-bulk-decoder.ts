import { isAscii } from 'node:buffer';
import * as A from 'apache-arrow';
import { Decimal } from '../../types/decimal.js';
import type { LogicalType, RowType } from '../../types/logical-type.js';
import { Row } from '../../types/row.js';
import { RowKind } from '../../types/row-kind.js';
import type { MessageOrigin } from '../../factories/format.js';
import { FieldValueError, decodeError, withField } from '../format-error.js';
import type { BulkDecoder } from './bulk-format.js';
import { fromArrowValue, wordsToBigInt } from './arrow-values.js';

type Chunk = A.Data<A.DataType>;

const latin1 = new TextDecoder('latin1');
const utf8 = new TextDecoder('utf-8');

/** True when row `i` of the chunk holds a value. */
function validity(d: Chunk): ((i: number) => boolean) | undefined {
  if (d.nullCount === 0 || d.nullBitmap === undefined || d.nullBitmap.length === 0) return undefined;
  const bm = d.nullBitmap;
  const off = d.offset;
  return (i) => (bm[(off + i) >> 3]! & (1 << ((off + i) & 7))) !== 0;
}

/**
 * Writes the values of one column chunk into `fields[base + i][col]`. Primitive columns of the layout
 * Sluice writes are read straight from their buffers; anything else goes through `Vector.get`.
 */
function readChunk(d: Chunk, t: LogicalType, rows: Row[], base: number, col: number): void {
  const n = d.length;
  const valid = validity(d);
  const put = (i: number, v: unknown): void => {
    rows[base + i]!.fields[col] = v;
  };
  const typeId = d.type.typeId;
  const values = d.values as ArrayLike<number | bigint> | undefined;
  const direct =
    ((t.kind === 'TINYINT' && typeId === A.Type.Int && (d.type as A.Int).bitWidth === 8) ||
      (t.kind === 'SMALLINT' && typeId === A.Type.Int && (d.type as A.Int).bitWidth === 16) ||
      ((t.kind === 'INT' || t.kind === 'INTERVAL_YEAR_MONTH') && typeId === A.Type.Int && (d.type as A.Int).bitWidth === 32) ||
      (t.kind === 'BIGINT' && typeId === A.Type.Int && (d.type as A.Int).bitWidth === 64 && (d.type as A.Int).isSigned) ||
      ((t.kind === 'FLOAT' || t.kind === 'DOUBLE') && typeId === A.Type.Float) ||
      (t.kind === 'DATE' && typeId === A.Type.Date && (d.type as A.Date_).unit === A.DateUnit.DAY) ||
      (t.kind === 'TIME' && typeId === A.Type.Time && (d.type as A.Time).unit === A.TimeUnit.MILLISECOND && (d.type as A.Time).bitWidth === 32)) &&
    values !== undefined;
  if (direct) {
    for (let i = 0; i < n; i++) put(i, valid === undefined || valid(i) ? values[i] : null);
    return;
  }
  if ((t.kind === 'VARCHAR' || t.kind === 'CHAR') && typeId === A.Type.Utf8) {
    const offsets = d.valueOffsets as Int32Array;
    const bytes = d.values as Uint8Array;
    // One decode of the whole buffer, then substrings, when it is ASCII (the common case).
    const start = offsets[0]!;
    const span = bytes.subarray(start, offsets[n]!);
    const ascii = isAscii(span);
    const all = ascii ? latin1.decode(span) : '';
    for (let i = 0; i < n; i++) {
      if (valid !== undefined && !valid(i)) put(i, null);
      else put(i, ascii ? all.substring(offsets[i]! - start, offsets[i + 1]! - start) : utf8.decode(bytes.subarray(offsets[i]!, offsets[i + 1]!)));
    }
    return;
  }
  if ((t.kind === 'BINARY' || t.kind === 'VARBINARY') && typeId === A.Type.Binary) {
    const offsets = d.valueOffsets as Int32Array;
    const bytes = d.values as Uint8Array;
    for (let i = 0; i < n; i++) put(i, valid !== undefined && !valid(i) ? null : bytes.slice(offsets[i]!, offsets[i + 1]!));
    return;
  }
  if (t.kind === 'DECIMAL' && typeId === A.Type.Decimal && (d.type as A.Decimal).bitWidth === 128) {
    const words = d.values as Uint32Array;
    const scale = (d.type as A.Decimal).scale;
    for (let i = 0; i < n; i++) {
      if (valid !== undefined && !valid(i)) put(i, null);
      else {
        const dec = Decimal.of(wordsToBigInt(words, i), scale);
        put(i, scale === t.scale ? dec : dec.toPrecision(t.precision, t.scale));
      }
    }
    return;
  }
  if ((t.kind === 'TIMESTAMP' || t.kind === 'TIMESTAMP_LTZ') && typeId === A.Type.Timestamp) {
    const v64 = d.values as unknown as BigInt64Array;
    const unit = (d.type as A.Timestamp).unit;
    const div = unit === A.TimeUnit.SECOND ? 0.001 : unit === A.TimeUnit.MILLISECOND ? 1 : unit === A.TimeUnit.MICROSECOND ? 1000 : 1_000_000;
    for (let i = 0; i < n; i++) {
      if (valid !== undefined && !valid(i)) put(i, null);
      else put(i, div === 1 ? Number(v64[i]!) : Math.floor(Number(v64[i]!) / div));
    }
    return;
  }
  const vector = A.makeVector(d);
  for (let i = 0; i < n; i++) {
    try {
      put(i, fromArrowValue(vector.get(i), t, d.type));
    } catch (e) {
      throw withField(e instanceof Error && !(e instanceof FieldValueError) ? new FieldValueError(e.message) : e, `[${base + i}]`);
    }
  }
}

/**
 * Reads a whole Arrow IPC stream or file into +I rows. Columns are matched to the physical fields by
 * name; a missing column is an error naming the columns the data has.
 */
export class ArrowBulkDecoder implements BulkDecoder {
  constructor(private readonly rowType: RowType) {}

  decode(data: Uint8Array, origin?: MessageOrigin): Row[] {
    const all: Row[] = [];
    for (const batch of this.decodeBatches(data, origin)) for (const r of batch) all.push(r);
    return all;
  }

  /**
   * The rows one Arrow record batch at a time, so a reader can hand each batch on before the next is
   * built (rows that die young are far cheaper for the garbage collector than one file-sized array).
   */
  *decodeBatches(data: Uint8Array, origin?: MessageOrigin): Generator<Row[], void, undefined> {
    let table: A.Table;
    let indexes: number[];
    try {
      table = readTable(data);
      indexes = this.columnIndexes(table.schema);
    } catch (e) {
      throw decodeError('arrow', 'Arrow IPC data', `${data.length} bytes`, e, origin);
    }
    let base = 0;
    for (const batch of table.batches) {
      let rows: Row[];
      try {
        rows = this.readBatch(batch, indexes, base);
      } catch (e) {
        throw decodeError('arrow', 'Arrow IPC data', `${data.length} bytes`, e, origin);
      }
      base += batch.numRows;
      yield rows;
    }
  }

  private columnIndexes(schema: A.Schema): number[] {
    const names = schema.fields.map((f) => f.name);
    return this.rowType.fields.map((f) => {
      const i = names.indexOf(f.name);
      if (i < 0) throw new FieldValueError(`column '${f.name}' is missing; the data has columns [${names.join(', ')}].`);
      return i;
    });
  }

  private readBatch(batch: A.RecordBatch, indexes: readonly number[], base: number): Row[] {
    const arity = this.rowType.fields.length;
    const rows = new Array<Row>(batch.numRows);
    for (let r = 0; r < rows.length; r++) rows[r] = new Row(RowKind.INSERT, new Array<unknown>(arity));
    for (let c = 0; c < arity; c++) {
      const column = batch.getChildAt(indexes[c]!)!;
      let chunkBase = 0;
      for (const d of column.data) {
        try {
          readChunk(d, this.rowType.fields[c]!.type, rows, chunkBase, c);
        } catch (e) {
          throw withField(withField(e, `row ${base + chunkBase}`), this.rowType.fields[c]!.name);
        }
        chunkBase += d.length;
      }
    }
    return rows;
  }
}

function readTable(data: Uint8Array): A.Table {
  try {
    return A.tableFromIPC(data);
  } catch (e) {
    throw new FieldValueError(`not an Arrow IPC stream or file (${e instanceof Error ? e.message : String(e)}).`);
  }
}
