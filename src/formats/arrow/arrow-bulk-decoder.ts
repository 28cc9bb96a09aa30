import * as A from 'apache-arrow';
import type { RowType } from '../../types/logical-type.js';
import { Row } from '../../types/row.js';
import { RowKind } from '../../types/row-kind.js';
import type { MessageOrigin } from '../../factories/format.js';
import { FieldValueError, decodeError, withField } from '../format-error.js';
import type { BulkDecoder } from './bulk-format.js';
import { readColumn } from './arrow-columns.js';
import type { ColumnValues } from './arrow-columns.js';

/**
 * Most rows one yield of `decodeBatches` holds. A record batch is often 8192 rows or more; all its rows are
 * alive until the caller takes them, and every young-generation GC meanwhile copies them. Reading 1024 at a
 * time from the same batch keeps that live set small and cuts the collector's share of a read by a half.
 */
const ROWS_PER_YIELD = 1024;

/** Builds `n` +I rows whose field `c` of row `i` is `columns[c][i]`. */
type RowAssembler = (columns: readonly ColumnValues[], n: number) => Row[];

/**
 * The row loop is generated per arity: each row's fields are one array literal of constant size (a
 * packed array allocated in one step; `new Array(arity)` filled column by column is holey and cost more
 * than all the reading), and each column read is its own call site that sees one or two array types.
 */
function createRowAssembler(arity: number): RowAssembler {
  const names = Array.from({ length: arity }, (_, c) => `c${c}`);
  const source = `return function assembleRows(columns, n) {
    const [${names.join(', ')}] = columns;
    const rows = new Array(n);
    for (let i = 0; i < n; i++) rows[i] = new Row(INSERT, [${names.map((c) => `${c}[i]`).join(', ')}]);
    return rows;
  };`;
  return new Function('Row', 'INSERT', source)(Row, RowKind.INSERT) as RowAssembler;
}

/** One column of a record batch as one indexable array (a batch column almost always has one chunk). */
function concatChunks(parts: ColumnValues[], n: number): ColumnValues {
  if (parts.length === 1) return parts[0]!;
  const out = new Array<unknown>(n);
  let k = 0;
  for (const p of parts) for (let i = 0; i < p.length; i++) out[k++] = p[i];
  return out;
}

/**
 * Reads a whole Arrow IPC stream or file into +I rows. Columns are matched to the physical fields by
 * name; a missing column is an error naming the columns the data has.
 */
export class ArrowBulkDecoder implements BulkDecoder {
  private readonly assemble: RowAssembler;

  constructor(private readonly rowType: RowType) {
    this.assemble = createRowAssembler(rowType.fields.length);
  }

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
      for (let from = 0; from < batch.numRows; from += ROWS_PER_YIELD) {
        const to = Math.min(batch.numRows, from + ROWS_PER_YIELD);
        let rows: Row[];
        try {
          rows = this.readBatch(from === 0 && to === batch.numRows ? batch : batch.slice(from, to), indexes, base);
        } catch (e) {
          throw decodeError('arrow', 'Arrow IPC data', `${data.length} bytes`, e, origin);
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

  private readBatch(batch: A.RecordBatch, indexes: readonly number[], base: number): Row[] {
    const fields = this.rowType.fields;
    const columns = new Array<ColumnValues>(fields.length);
    for (let c = 0; c < fields.length; c++) {
      const column = batch.getChildAt(indexes[c]!)!;
      const parts: ColumnValues[] = [];
      let chunkBase = 0;
      for (const d of column.data) {
        try {
          parts.push(readColumn(d, fields[c]!.type));
        } catch (e) {
          throw withField(withField(e, `row ${base + chunkBase}`), fields[c]!.name);
        }
        chunkBase += d.length;
      }
      columns[c] = concatChunks(parts, batch.numRows);
    }
    return this.assemble(columns, batch.numRows);
  }
}

function readTable(data: Uint8Array): A.Table {
  try {
    return A.tableFromIPC(data);
  } catch (e) {
    throw new FieldValueError(`not an Arrow IPC stream or file (${e instanceof Error ? e.message : String(e)}).`);
  }
}
