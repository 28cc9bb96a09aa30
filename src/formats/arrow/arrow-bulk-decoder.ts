import * as A from 'apache-arrow';
import type { RowType } from '../../types/logical-type.js';
import type { Row } from '../../types/row.js';
import type { MessageOrigin } from '../../factories/format.js';
import { FieldValueError, decodeError, withField } from '../format-error.js';
import type { FormatError } from '../format-error.js';
import type { BulkDecoder } from './bulk-format.js';
import { columnSource } from './arrow-column-source.js';
import type { ColumnSource } from './arrow-column-source.js';
import { RowAssemblers } from './arrow-row-assembler.js';

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
  private readonly assemblers = new RowAssemblers();

  constructor(private readonly rowType: RowType) {}

  decode(data: Uint8Array, origin?: MessageOrigin): Row[] {
    const all: Row[] = [];
    for (const batch of this.decodeBatches(data, origin)) for (const r of batch) all.push(r);
    return all;
  }

  /**
   * The rows in batches of at most ROWS_PER_YIELD, record batch by record batch, so a reader can hand each
   * batch on before the next is built (rows that die young are far cheaper for the garbage collector than
   * one file-sized array). The IPC data is read one record batch at a time too: a whole `Table` up front
   * kept every batch's metadata alive, and copied, through each young-generation GC of the read.
   */
  *decodeBatches(data: Uint8Array, origin?: MessageOrigin): Generator<Row[], void, undefined> {
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
        let rows: Row[];
        try {
          rows = this.readRows(columns, from, to, base);
        } catch (e) {
          throw fail(e);
        }
        base += to - from;
        yield rows;
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
  private readRows(columns: readonly Chunk[], from: number, to: number, base: number): Row[] {
    const fields = this.rowType.fields;
    const sources = new Array<ColumnSource>(fields.length);
    for (let c = 0; c < fields.length; c++) {
      const d = columns[c]!;
      try {
        sources[c] = columnSource(d, fields[c]!.type, from, to);
      } catch (e) {
        throw withField(withField(e, `row ${base}`), fields[c]!.name);
      }
    }
    return this.assemblers.assemble(sources, to - from);
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
