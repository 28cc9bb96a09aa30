import * as A from 'apache-arrow';
import type { RowType } from '../../types/logical-type.js';
import type { Row } from '../../types/row.js';
import type { MessageOrigin } from '../../factories/format.js';
import { FieldValueError, decodeError, withField } from '../format-error.js';
import type { FormatError } from '../format-error.js';
import { ColumnBatch } from '../../types/columns/column-batch.js';
import type { ColumnVector } from '../../types/columns/column-vector.js';
import type { BulkDecoder } from './bulk-format.js';
import { columnSource } from './arrow-column-source.js';

/**
 * Most rows one yield of `decodeBatches` holds. A record batch is often 8192 rows or more; all its rows are
 * alive until the caller takes them, and every young-generation GC meanwhile copies them. Reading 1024 at a
 * time from the same batch keeps that live set small and cuts the collector's share of a read by a half.
 */
const ROWS_PER_YIELD = 1024;

type Chunk = A.Data<A.DataType>;

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
   * The rows in batches of at most ROWS_PER_YIELD, record batch by record batch, so a reader can hand each
   * batch on before the next is built (rows that die young are far cheaper for the garbage collector than
   * one file-sized array).
   */
  *decodeBatches(data: Uint8Array, origin?: MessageOrigin): Generator<Row[], void, undefined> {
    for (const batch of this.decodeColumnBatches(data, origin)) yield batch.toRows();
  }

  /**
   * The same batches as columns pointing into `data` (no row is built; strings of a batch are decoded
   * once, as one text). The IPC data is read one record batch at a time: a whole `Table` up front kept
   * every batch's metadata alive, and copied, through each young-generation GC of the read.
   */
  *decodeColumnBatches(data: Uint8Array, origin?: MessageOrigin): Generator<ColumnBatch, void, undefined> {
    const fail = (e: unknown): FormatError => decodeError('arrow', 'Arrow IPC data', `${data.length} bytes`, e, origin);
    let batches: Iterator<A.RecordBatch>;
    let indexes: number[];
    try {
      const reader = openReader(data);
      indexes = this.columnIndexes(reader.schema);
      batches = reader[Symbol.iterator]();
    } catch (e) {
      throw fail(e);
    }
    let base = 0;
    for (;;) {
      let next: IteratorResult<A.RecordBatch>;
      try {
        next = batches.next();
      } catch (e) {
        throw fail(unreadable(e));
      }
      if (next.done === true) return;
      const batch = next.value;
      const columns = indexes.map((i) => batch.data.children[i]!);
      for (let from = 0; from < batch.numRows; from += ROWS_PER_YIELD) {
        const to = Math.min(batch.numRows, from + ROWS_PER_YIELD);
        let vectors: ColumnVector[];
        try {
          vectors = this.vectors(columns, from, to, base);
        } catch (e) {
          throw fail(e);
        }
        base += to - from;
        yield new ColumnBatch(vectors, to - from);
      }
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

  /** Rows [from, to) of a record batch whose columns (in physical field order) are `columns`. */
  private vectors(columns: readonly Chunk[], from: number, to: number, base: number): ColumnVector[] {
    const fields = this.rowType.fields;
    const out = new Array<ColumnVector>(fields.length);
    for (let c = 0; c < fields.length; c++) {
      try {
        out[c] = columnSource(columns[c]!, fields[c]!.type, from, to);
      } catch (e) {
        throw withField(withField(e, `row ${base}`), fields[c]!.name);
      }
    }
    return out;
  }
}

function unreadable(e: unknown): FieldValueError {
  return e instanceof FieldValueError ? e : new FieldValueError(`not an Arrow IPC stream or file (${e instanceof Error ? e.message : String(e)}).`);
}

/** A synchronous reader of the IPC stream or file in `data`, opened (its schema read). */
function openReader(data: Uint8Array): A.RecordBatchReader {
  try {
    const reader = A.RecordBatchReader.from(data);
    reader.open();
    if (reader.schema === undefined) throw new Error('no schema message');
    return reader;
  } catch (e) {
    throw unreadable(e);
  }
}
