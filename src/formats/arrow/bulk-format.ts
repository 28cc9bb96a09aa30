import type { ReadableConfig } from '../../config/configuration.js';
import type { ChangelogMode } from '../../factories/changelog-mode.js';
import type { DynamicTableFactoryContext } from '../../factories/dynamic-table-factory.js';
import type { Factory } from '../../factories/factory.js';
import type { MessageOrigin } from '../../factories/format.js';
import type { RowType } from '../../types/logical-type.js';
import type { Row } from '../../types/row.js';
import type { ColumnBatch } from '../../types/columns/column-batch.js';

/**
 * Decodes a whole file (or object) at once, for formats whose unit is not a message (Arrow IPC, later
 * Parquet/ORC). Used by the filesystem connector; called once per file, off the per-record hot path, and
 * never awaits: the caller has already read the bytes.
 */
export interface BulkDecoder {
  /**
   * All rows of `data`, as +I rows whose fields follow the physical type given at creation (matched by
   * column name). @throws FormatError naming `origin` when the data is not readable.
   */
  decode(data: Uint8Array, origin?: MessageOrigin): Row[];
  /**
   * The same rows in batches, lazily: a reader should emit each batch downstream before pulling the next.
   * Batches follow the format's own (an Arrow record batch) but hold at most 1024 rows, so a big record
   * batch arrives in several. Synchronous; never awaits.
   */
  decodeBatches(data: Uint8Array, origin?: MessageOrigin): Iterable<Row[]>;
  /**
   * The same batches as columns, for a columnar format: no row is built, so a reader whose next operator
   * works on columns hands them on as they are. Absent for formats that decode to rows anyway.
   */
  decodeColumnBatches?(data: Uint8Array, origin?: MessageOrigin): Iterable<ColumnBatch>;
}

/**
 * Encodes a batch of rows into one self-contained file body. The filesystem sink calls it when it rolls
 * an in-progress file (so once per file part, with every row of that part); never per row.
 */
export interface BulkEncoder {
  /** The complete bytes of a file holding `rows` (row kinds are not written). */
  encode(rows: readonly Row[]): Uint8Array;
  /** File name suffix without the dot (`arrow`, `arrows`). */
  readonly fileExtension: string;
}

export interface BulkDecodingFormat {
  createBulkDecoder(physicalType: RowType): BulkDecoder;
  getChangelogMode(): ChangelogMode;
}

export interface BulkEncodingFormat {
  createBulkEncoder(physicalType: RowType): BulkEncoder;
  getChangelogMode(): ChangelogMode;
}

/** `'format' = 'arrow'` and other whole-file formats; the filesystem connector discovers these. */
export interface BulkFormatFactory extends Factory {
  createBulkDecodingFormat(ctx: DynamicTableFactoryContext, formatOptions: ReadableConfig): BulkDecodingFormat;
  createBulkEncodingFormat(ctx: DynamicTableFactoryContext, formatOptions: ReadableConfig): BulkEncodingFormat;
}

export function isBulkFormatFactory(f: Factory): f is BulkFormatFactory {
  return typeof (f as Partial<BulkFormatFactory>).createBulkDecodingFormat === 'function';
}
