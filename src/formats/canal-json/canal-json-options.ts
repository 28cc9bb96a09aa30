import { ConfigOptions } from '../../config/config-options.js';
import { JsonOptions } from '../json/json-options.js';

/** Options of `'format' = 'canal-json'` (Flink's CanalJsonFormatOptions), keys as written after `canal-json.`. */
export const CanalJsonOptions = {
  IGNORE_PARSE_ERRORS: JsonOptions.IGNORE_PARSE_ERRORS,
  TIMESTAMP_FORMAT: JsonOptions.TIMESTAMP_FORMAT,
  MAP_NULL_KEY_MODE: JsonOptions.MAP_NULL_KEY_MODE,
  MAP_NULL_KEY_LITERAL: JsonOptions.MAP_NULL_KEY_LITERAL,
  ENCODE_DECIMAL_AS_PLAIN_NUMBER: JsonOptions.ENCODE_DECIMAL_AS_PLAIN_NUMBER,
  ENCODE_IGNORE_NULL_FIELDS: JsonOptions.ENCODE_IGNORE_NULL_FIELDS,
  DATABASE_INCLUDE: ConfigOptions.key('database.include')
    .stringType()
    .noDefaultValue()
    .withDescription('Regular expression the whole "database" meta field must match; other messages are skipped.'),
  TABLE_INCLUDE: ConfigOptions.key('table.include')
    .stringType()
    .noDefaultValue()
    .withDescription('Regular expression the whole "table" meta field must match; other messages are skipped.'),
} as const;
