import type { Factory } from '../factories/factory.js';
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
export { RawFormatFactory } from './raw/raw-format-factory.js';
export { RawOptions } from './raw/raw-options.js';
export { DebeziumJsonFormatFactory } from './debezium-json/debezium-json-format-factory.js';
export { DebeziumJsonOptions } from './debezium-json/debezium-json-options.js';
export { CanalJsonFormatFactory } from './canal-json/canal-json-format-factory.js';
export { CanalJsonOptions } from './canal-json/canal-json-options.js';

/** Every format Sluice ships, for the factory registry's discovery. */
export const builtinFormatFactories: Factory[] = [
  new JsonFormatFactory(),
  new CsvFormatFactory(),
  new RawFormatFactory(),
  new DebeziumJsonFormatFactory(),
  new CanalJsonFormatFactory(),
];
