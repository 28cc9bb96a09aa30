import type { ReadableConfig } from '../config/configuration.js';
import type { RowType } from '../types/logical-type.js';
import type { Row } from '../types/row.js';
import type { ChangelogMode } from './changelog-mode.js';
import type { Factory } from './factory.js';
import type { DynamicTableFactoryContext } from './dynamic-table-factory.js';
import type { MetadataTypes } from './dynamic-table-source.js';

/**
 * Where a message came from, so a decoding error can name it ("topic 'orders', partition 2, offset 17",
 * "file /data/a.csv, line 40"). Built lazily by the caller only when an error happens.
 */
export type MessageOrigin = () => string;

/**
 * Turns one message (a Kafka value, a file line, a Pravega event) into rows. Changelog formats may
 * append several rows (debezium's update yields -U and +U) or none (a skipped bad record).
 * Called on the hot path once per message: it must not await and should allocate little.
 */
export interface DeserializationSchema {
  /**
   * Appends the decoded rows to `out`. Throws a `FormatError` on a bad record unless the format is
   * configured to ignore parse errors, in which case it appends nothing and counts the record in
   * `skippedRecords`.
   */
  deserialize(message: Uint8Array, out: Row[], origin?: MessageOrigin): void;
  /**
   * Optional: `deserialize` of a message whose bytes are all ASCII (so UTF-8 without a byte order mark), given as
   * its text. A line-oriented source that has checked a whole chunk of lines for ASCII at once calls it per line
   * instead of `deserialize`, which saves a byte view, a UTF-8 check and a UTF-8 decode per message. Appends and
   * throws exactly as `deserialize` of the same bytes; synchronous, called on the source's hot path.
   */
  deserializeText?(text: string, out: Row[], origin?: MessageOrigin): void;
  /** Records skipped by `ignore-parse-errors`; shown by the CLI, never dropped silently. */
  readonly skippedRecords: number;
  /** Values of the format's readable metadata keys for the last decoded message, in requested order. */
  readonly metadataValues?: readonly unknown[];
  /**
   * Optional: fetches, without blocking, what decoding these messages needs from outside (a registry's writer
   * schemas), so `deserialize` stays synchronous. A connector that reads asynchronously awaits it for each batch
   * before the messages reach `deserialize`. Returns undefined when nothing is missing (the usual case, no promise);
   * rejects with a ConnectorError when a lookup fails.
   */
  prepare?(messages: readonly Uint8Array[]): Promise<void> | undefined;
}

/** Turns one row into one message. Called once per row on the hot path. */
export interface SerializationSchema {
  serialize(row: Row): Uint8Array;
  /**
   * Optional: asynchronous setup before the first `serialize` (register a schema, get its id). A connector that
   * supports such formats awaits it once per encoder; `serialize` does no I/O.
   */
  open?(): Promise<void>;
}

export interface DecodingFormat {
  /** A decoder whose rows hold every field of `physicalType`, in order. */
  createRuntimeDecoder(physicalType: RowType): DeserializationSchema;
  /**
   * Optional, Flink's ProjectableDecodingFormat: a decoder whose rows hold only the fields `projection` lists
   * (indexes into `physicalType`, in the order given), so a source with a projection pushed into it builds one
   * row per record instead of decoding the full row and projecting it. The other fields are still stepped over
   * (a record keeps its shape checks: field count, quoting) but never converted, as in Flink (a bad value in a
   * column nobody reads is then no error). A source calls it only when the format has it.
   * `options.transientValues`: the rows' values die with their batch (ScanContext.transientValues), so strings may be
   * views into the text they were read from.
   */
  createProjectedDecoder?(physicalType: RowType, projection: readonly number[], options?: { readonly transientValues?: boolean }): DeserializationSchema;
  getChangelogMode(): ChangelogMode;
  /** Metadata the format itself can read (debezium's `ingestion-timestamp`, ...). */
  listReadableMetadata?(): MetadataTypes;
  applyReadableMetadata?(keys: readonly string[]): void;
}

export interface EncodingFormat {
  createRuntimeEncoder(physicalType: RowType): SerializationSchema;
  getChangelogMode(): ChangelogMode;
}

/** `'format' = 'json'` and friends, for formats that decode one message at a time. */
export interface DecodingFormatFactory extends Factory {
  createDecodingFormat(ctx: DynamicTableFactoryContext, formatOptions: ReadableConfig): DecodingFormat;
}

export interface EncodingFormatFactory extends Factory {
  createEncodingFormat(ctx: DynamicTableFactoryContext, formatOptions: ReadableConfig): EncodingFormat;
}

export function isDecodingFormatFactory(f: Factory): f is DecodingFormatFactory {
  return typeof (f as Partial<DecodingFormatFactory>).createDecodingFormat === 'function';
}

export function isEncodingFormatFactory(f: Factory): f is EncodingFormatFactory {
  return typeof (f as Partial<EncodingFormatFactory>).createEncodingFormat === 'function';
}
