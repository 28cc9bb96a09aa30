import * as A from 'apache-arrow';
import type { RowType } from '../../types/logical-type.js';
import type { Row } from '../../types/row.js';
import { hasNestedFineTimestamp, writeExactTimestamps } from './arrow-nested-timestamps.js';
import { encodeError, withField } from '../format-error.js';
import type { BulkEncoder } from './bulk-format.js';
import { arrowColumnWriter } from './arrow-column-writer.js';
import type { ArrowColumnWriter } from './arrow-column-writer.js';
import { toArrowType } from './arrow-types.js';
import { toArrowConverter } from './arrow-values.js';

/** Arrow IPC container: a stream (`.arrows`) or a file with footer (`.arrow`). */
export type ArrowIpcFormat = 'stream' | 'file';

export interface ArrowEncodeSettings {
  readonly ipcFormat: ArrowIpcFormat;
  /** Rows per record batch. */
  readonly batchSize: number;
}

/**
 * Writes rows as Arrow IPC with record batches of `batchSize` rows, one column per physical field (types
 * from `toArrowType`). Runs once per file part. Flat columns are written straight into Arrow buffers
 * (`arrowColumnWriter`); the rest (DECIMAL, nested types, NULL) through apache-arrow's
 * builders, which cost a generic call or more per cell.
 */
export class ArrowBulkEncoder implements BulkEncoder {
  readonly fileExtension: string;
  private readonly schema: A.Schema;
  private readonly types: A.DataType[];
  private readonly converters: (((v: unknown) => unknown) | undefined)[];
  private readonly writers: (ArrowColumnWriter | undefined)[];

  constructor(
    private readonly rowType: RowType,
    private readonly settings: ArrowEncodeSettings,
  ) {
    this.types = rowType.fields.map((f) => toArrowType(f.type));
    this.schema = new A.Schema(rowType.fields.map((f, i) => new A.Field(f.name, this.types[i]!, true)));
    this.converters = rowType.fields.map((f) => toArrowConverter(f.type));
    this.writers = rowType.fields.map((f, i) => arrowColumnWriter(f.type, this.types[i]!));
    this.fileExtension = settings.ipcFormat === 'file' ? 'arrow' : 'arrows';
  }

  encode(rows: readonly Row[]): Uint8Array {
    const batches: A.RecordBatch[] = [];
    const size = Math.max(1, this.settings.batchSize);
    // An empty file still carries the schema, in one empty batch.
    if (rows.length === 0) batches.push(this.batch(rows, 0, 0));
    for (let start = 0; start < rows.length; start += size) batches.push(this.batch(rows, start, Math.min(rows.length, start + size)));
    return A.tableToIPC(new A.Table(this.schema, batches), this.settings.ipcFormat);
  }

  private batch(rows: readonly Row[], start: number, end: number): A.RecordBatch {
    const children = this.types.map((type, c) => {
      const writer = this.writers[c];
      if (writer !== undefined) {
        try {
          return writer(rows, c, start, end);
        } catch (e) {
          throw encodeError('arrow', withField(e, this.rowType.fields[c]!.name));
        }
      }
      const builder = A.makeBuilder({ type, nullValues: [null, undefined] });
      const conv = this.converters[c];
      for (let r = start; r < end; r++) {
        const v = rows[r]!.fields[c];
        try {
          builder.append(v === null || v === undefined || conv === undefined ? v : conv(v));
        } catch (e) {
          throw encodeError('arrow', withField(e, this.rowType.fields[c]!.name));
        }
      }
      const data = builder.finish().toVector().data[0]!;
      const t = this.rowType.fields[c]!.type;
      if (hasNestedFineTimestamp(t)) writeExactTimestamps(data, t, rows.slice(start, end).map((r) => r.fields[c]));
      return data;
    });
    const struct = A.makeData({ type: new A.Struct(this.schema.fields), length: end - start, nullCount: 0, children });
    return new A.RecordBatch(this.schema, struct);
  }
}
