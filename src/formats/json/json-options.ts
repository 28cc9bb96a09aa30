import { ConfigOptions } from '../../config/config-options.js';
import type { ReadableConfig } from '../../config/configuration.js';
import { ValidationError } from '../../errors/sluice-error.js';
import type { JsonDecodeSettings } from './json-to-row.js';
import type { JsonEncodeSettings } from './row-to-json.js';

/** Options of `'format' = 'json'` (Flink's JsonFormatOptions); keys as the user writes them after `json.`. */
export const JsonOptions = {
  FAIL_ON_MISSING_FIELD: ConfigOptions.key('fail-on-missing-field')
    .booleanType()
    .defaultValue(false)
    .withDescription('Fail when a field of the schema is missing from a JSON object, instead of reading NULL.'),

  IGNORE_PARSE_ERRORS: ConfigOptions.key('ignore-parse-errors')
    .booleanType()
    .defaultValue(false)
    .withDescription('Skip fields and rows with parse errors instead of failing: a value that does not convert is NULL, a message that is not a JSON object is skipped and counted.'),

  TIMESTAMP_FORMAT: ConfigOptions.key('timestamp-format.standard')
    .enumType(['SQL', 'ISO-8601'])
    .defaultValue('SQL')
    .withDescription("Timestamp text: 'SQL' writes '2020-12-30 12:13:14.123', 'ISO-8601' writes '2020-12-30T12:13:14.123'."),

  MAP_NULL_KEY_MODE: ConfigOptions.key('map-null-key.mode')
    .enumType(['FAIL', 'DROP', 'LITERAL'])
    .defaultValue('FAIL')
    .withDescription("What to do with a NULL map key when writing: 'FAIL', 'DROP' the entry, or write 'map-null-key.literal'."),

  MAP_NULL_KEY_LITERAL: ConfigOptions.key('map-null-key.literal')
    .stringType()
    .defaultValue('null')
    .withDescription("The key written for a NULL map key when 'map-null-key.mode' is 'LITERAL'."),

  ENCODE_DECIMAL_AS_PLAIN_NUMBER: ConfigOptions.key('encode.decimal-as-plain-number')
    .booleanType()
    .defaultValue(false)
    .withDescription('Write DECIMAL without scientific notation (0.000000027 instead of 2.7E-8).'),

  ENCODE_IGNORE_NULL_FIELDS: ConfigOptions.key('encode.ignore-null-fields')
    .booleanType()
    .defaultValue(false)
    .withDescription('Leave fields holding NULL out of the written objects.'),

  DECODE_JSON_PARSER_ENABLED: ConfigOptions.key('decode.json-parser.enabled')
    .booleanType()
    .defaultValue(true)
    .withDescription('Accepted for compatibility with Flink; Sluice always uses its own decoder.'),
} as const;

/** Decoder settings from the format options, validated as Flink does. */
export function readJsonDecodeSettings(options: ReadableConfig): JsonDecodeSettings & { readonly ignoreParseErrors: boolean } {
  const failOnMissingField = options.get(JsonOptions.FAIL_ON_MISSING_FIELD);
  const ignoreParseErrors = options.get(JsonOptions.IGNORE_PARSE_ERRORS);
  if (failOnMissingField && ignoreParseErrors) {
    throw new ValidationError("'fail-on-missing-field' and 'ignore-parse-errors' shouldn't both be true.");
  }
  return { failOnMissingField, ignoreParseErrors, timestampStandard: options.get(JsonOptions.TIMESTAMP_FORMAT) };
}

/** Encoder settings from the format options. */
export function readJsonEncodeSettings(options: ReadableConfig): JsonEncodeSettings {
  return {
    timestampStandard: options.get(JsonOptions.TIMESTAMP_FORMAT),
    mapNullKeyMode: options.get(JsonOptions.MAP_NULL_KEY_MODE),
    mapNullKeyLiteral: options.get(JsonOptions.MAP_NULL_KEY_LITERAL),
    encodeDecimalAsPlainNumber: options.get(JsonOptions.ENCODE_DECIMAL_AS_PLAIN_NUMBER),
    encodeIgnoreNullFields: options.get(JsonOptions.ENCODE_IGNORE_NULL_FIELDS),
  };
}

/** Defaults, for code that builds a codec without a table (tests, the CLI's jsonl reader). */
export const DEFAULT_JSON_DECODE: JsonDecodeSettings & { readonly ignoreParseErrors: boolean } = {
  failOnMissingField: false,
  ignoreParseErrors: false,
  timestampStandard: 'SQL',
};

export const DEFAULT_JSON_ENCODE: JsonEncodeSettings = {
  timestampStandard: 'SQL',
  mapNullKeyMode: 'FAIL',
  mapNullKeyLiteral: 'null',
  encodeDecimalAsPlainNumber: false,
  encodeIgnoreNullFields: false,
};
