import { ConfigOptions } from '../../config/config-options.js';
import { JsonOptions } from '../json/json-options.js';

/**
 * Options of `'format' = 'debezium-json'` (Flink's DebeziumJsonFormatOptions): `schema-include` plus the
 * JSON options it shares, with the same keys and defaults.
 */
export const DebeziumJsonOptions = {
  SCHEMA_INCLUDE: ConfigOptions.key('schema-include')
    .booleanType()
    .defaultValue(false)
    .withDescription('Messages carry the Kafka Connect schema envelope ({"schema": ..., "payload": ...}); decoding only.'),
  IGNORE_PARSE_ERRORS: JsonOptions.IGNORE_PARSE_ERRORS,
  TIMESTAMP_FORMAT: JsonOptions.TIMESTAMP_FORMAT,
  MAP_NULL_KEY_MODE: JsonOptions.MAP_NULL_KEY_MODE,
  MAP_NULL_KEY_LITERAL: JsonOptions.MAP_NULL_KEY_LITERAL,
  ENCODE_DECIMAL_AS_PLAIN_NUMBER: JsonOptions.ENCODE_DECIMAL_AS_PLAIN_NUMBER,
  ENCODE_IGNORE_NULL_FIELDS: JsonOptions.ENCODE_IGNORE_NULL_FIELDS,
} as const;
