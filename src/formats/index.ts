import type { Factory } from '../factories/factory.js';
import { ArrowFormatFactory } from './arrow/arrow-format-factory.js';
import { AvroFormatFactory } from './avro/avro-format-factory.js';
import { CanalJsonFormatFactory } from './canal-json/canal-json-format-factory.js';
import { CsvFormatFactory } from './csv/csv-format-factory.js';
import { DebeziumJsonFormatFactory } from './debezium-json/debezium-json-format-factory.js';
import { JsonFormatFactory } from './json/json-format-factory.js';
import { RawFormatFactory } from './raw/raw-format-factory.js';

export { FormatError } from './format-error.js';
export { JsonFormatFactory } from './json/json-format-factory.js';
export { JsonOptions } from './json/json-options.js';
export { JsonRowDecoder } from './json/json-row-decoder.js';
export { JsonRowEncoder } from './json/json-row-encoder.js';
export { CsvFormatFactory } from './csv/csv-format-factory.js';
export { CsvOptions } from './csv/csv-options.js';
export { CsvRowDecoder } from './csv/csv-row-decoder.js';
export { CsvRowEncoder } from './csv/csv-row-encoder.js';
export { splitCsvRecords } from './csv/csv-record-splitter.js';
export { RawFormatFactory } from './raw/raw-format-factory.js';
export { RawOptions } from './raw/raw-options.js';
export { DebeziumJsonFormatFactory } from './debezium-json/debezium-json-format-factory.js';
export { DebeziumJsonOptions } from './debezium-json/debezium-json-options.js';
export { CanalJsonFormatFactory } from './canal-json/canal-json-format-factory.js';
export { CanalJsonOptions } from './canal-json/canal-json-options.js';
export { AvroFormatFactory } from './avro/avro-format-factory.js';
export { AvroOptions } from './avro/avro-options.js';
export { AvroRowDecoder, AvroRowEncoder } from './avro/avro-row-codec.js';
export { avroSchemaOf } from './avro/avro-schema.js';
export { ArrowFormatFactory } from './arrow/arrow-format-factory.js';
export { ArrowOptions } from './arrow/arrow-options.js';
export { ArrowBulkDecoder } from './arrow/arrow-bulk-decoder.js';
export { ArrowBulkEncoder } from './arrow/arrow-bulk-encoder.js';
export { isBulkFormatFactory } from './arrow/bulk-format.js';
export type { BulkDecoder, BulkEncoder, BulkDecodingFormat, BulkEncodingFormat, BulkFormatFactory } from './arrow/bulk-format.js';

/**
 * Every format Sluice ships, for the factory registry's discovery. Message formats implement
 * Decoding/EncodingFormatFactory; `arrow` is a BulkFormatFactory (see `isBulkFormatFactory`).
 */
export const builtinFormatFactories: Factory[] = [
  new JsonFormatFactory(),
  new CsvFormatFactory(),
  new RawFormatFactory(),
  new DebeziumJsonFormatFactory(),
  new CanalJsonFormatFactory(),
  new AvroFormatFactory(),
  new ArrowFormatFactory(),
];
