import { ConfigOptions } from '../../config/config-options.js';
import type { ReadableConfig } from '../../config/configuration.js';
import { ValidationError } from '../../errors/sluice-error.js';

/** Options of `'format' = 'csv'` (Flink's CsvFormatOptions); keys as written after `csv.`. */
export const CsvOptions = {
  FIELD_DELIMITER: ConfigOptions.key('field-delimiter')
    .stringType()
    .defaultValue(',')
    .withDescription("Field delimiter, a single character (default ','); '\\t' is accepted for a tab."),
  DISABLE_QUOTE_CHARACTER: ConfigOptions.key('disable-quote-character')
    .booleanType()
    .defaultValue(false)
    .withDescription("Read and write without quoting; 'quote-character' must then not be set."),
  QUOTE_CHARACTER: ConfigOptions.key('quote-character')
    .stringType()
    .defaultValue('"')
    .withDescription('Character enclosing field values (default \'"\').'),
  ALLOW_COMMENTS: ConfigOptions.key('allow-comments')
    .booleanType()
    .defaultValue(false)
    .withDescription("Ignore lines starting with '#'."),
  IGNORE_PARSE_ERRORS: ConfigOptions.key('ignore-parse-errors')
    .booleanType()
    .defaultValue(false)
    .withDescription('Skip fields and rows with parse errors instead of failing: a field that does not parse is NULL, a line that cannot be split is skipped and counted.'),
  ARRAY_ELEMENT_DELIMITER: ConfigOptions.key('array-element-delimiter')
    .stringType()
    .defaultValue(';')
    .withDescription("Separator of ARRAY elements and nested ROW fields (default ';')."),
  ESCAPE_CHARACTER: ConfigOptions.key('escape-character')
    .stringType()
    .noDefaultValue()
    .withDescription('Character that makes the next character literal (disabled by default).'),
  NULL_LITERAL: ConfigOptions.key('null-literal')
    .stringType()
    .noDefaultValue()
    .withDescription('Text read and written as NULL (by default NULL is written as an empty field).'),
  WRITE_BIGDECIMAL_IN_SCIENTIFIC_NOTATION: ConfigOptions.key('write-bigdecimal-in-scientific-notation')
    .booleanType()
    .defaultValue(true)
    .withDescription('Write DECIMAL as Java BigDecimal.toString (2.7E-8); false writes plain digits.'),
} as const;

/** Resolved CSV settings shared by the decoder and encoder. */
export interface CsvSettings {
  readonly fieldDelimiter: string;
  /** Undefined when quoting is disabled. */
  readonly quoteCharacter: string | undefined;
  readonly allowComments: boolean;
  readonly ignoreParseErrors: boolean;
  readonly arrayElementDelimiter: string;
  readonly escapeCharacter: string | undefined;
  readonly nullLiteral: string | undefined;
  readonly writeBigDecimalInScientificNotation: boolean;
}

export const DEFAULT_CSV: CsvSettings = {
  fieldDelimiter: ',',
  quoteCharacter: '"',
  allowComments: false,
  ignoreParseErrors: false,
  arrayElementDelimiter: ';',
  escapeCharacter: undefined,
  nullLiteral: undefined,
  writeBigDecimalInScientificNotation: true,
};

function singleChar(key: string, value: string): string {
  const v = value === '\\t' ? '\t' : value;
  if (v.length !== 1) throw new ValidationError(`Option '${key}' must be a string with single character, but was: ${value}`);
  return v;
}

/** Settings from the format options, validated as Flink's CsvFormatFactory does. */
export function readCsvSettings(options: ReadableConfig): CsvSettings {
  const disableQuote = options.get(CsvOptions.DISABLE_QUOTE_CHARACTER);
  if (disableQuote && options.contains(CsvOptions.QUOTE_CHARACTER)) {
    throw new ValidationError("Format cannot define a quote character and disabled quote character at the same time.");
  }
  const escape = options.get(CsvOptions.ESCAPE_CHARACTER);
  return {
    fieldDelimiter: singleChar(CsvOptions.FIELD_DELIMITER.key, options.get(CsvOptions.FIELD_DELIMITER)),
    quoteCharacter: disableQuote ? undefined : singleChar(CsvOptions.QUOTE_CHARACTER.key, options.get(CsvOptions.QUOTE_CHARACTER)),
    allowComments: options.get(CsvOptions.ALLOW_COMMENTS),
    ignoreParseErrors: options.get(CsvOptions.IGNORE_PARSE_ERRORS),
    arrayElementDelimiter: options.get(CsvOptions.ARRAY_ELEMENT_DELIMITER),
    escapeCharacter: escape === undefined ? undefined : singleChar(CsvOptions.ESCAPE_CHARACTER.key, escape),
    nullLiteral: options.get(CsvOptions.NULL_LITERAL),
    writeBigDecimalInScientificNotation: options.get(CsvOptions.WRITE_BIGDECIMAL_IN_SCIENTIFIC_NOTATION),
  };
}
