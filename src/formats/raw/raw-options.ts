import { ConfigOptions } from '../../config/config-options.js';
import type { ReadableConfig } from '../../config/configuration.js';
import { ValidationError } from '../../errors/sluice-error.js';

/** Options of `'format' = 'raw'` (Flink's RawFormatOptions); keys as written after `raw.`. */
export const RawOptions = {
  CHARSET: ConfigOptions.key('charset')
    .stringType()
    .defaultValue('UTF-8')
    .withDescription('Charset of a string column: UTF-8, UTF-16, UTF-16BE, UTF-16LE, ISO-8859-1 or US-ASCII.'),
  ENDIANNESS: ConfigOptions.key('endianness')
    .stringType()
    .defaultValue('big-endian')
    .withDescription("Byte order of a numeric column: 'big-endian' or 'little-endian'."),
} as const;

/** The charsets Sluice can encode and decode, by Java's canonical name. */
export type RawCharset = 'UTF-8' | 'UTF-16' | 'UTF-16BE' | 'UTF-16LE' | 'ISO-8859-1' | 'US-ASCII';

const CHARSETS: Readonly<Record<string, RawCharset>> = {
  'UTF-8': 'UTF-8',
  UTF8: 'UTF-8',
  'UTF-16': 'UTF-16',
  UTF_16: 'UTF-16',
  'UTF-16BE': 'UTF-16BE',
  'UTF-16LE': 'UTF-16LE',
  'ISO-8859-1': 'ISO-8859-1',
  LATIN1: 'ISO-8859-1',
  'US-ASCII': 'US-ASCII',
  ASCII: 'US-ASCII',
};

export interface RawSettings {
  readonly charset: RawCharset;
  readonly bigEndian: boolean;
}

export const DEFAULT_RAW: RawSettings = { charset: 'UTF-8', bigEndian: true };

/** Settings from the format options, with Flink's messages for bad values. */
export function readRawSettings(options: ReadableConfig): RawSettings {
  const name = options.get(RawOptions.CHARSET);
  const charset = CHARSETS[name.toUpperCase()];
  if (charset === undefined) throw new ValidationError(`Unsupported 'raw.charset' name: ${name}.`);
  const endianness = options.get(RawOptions.ENDIANNESS);
  if (endianness !== 'big-endian' && endianness !== 'little-endian') {
    throw new ValidationError(
      `Unsupported endianness name: ${endianness}. Valid values of 'raw.endianness' option are 'big-endian' and 'little-endian'.`,
    );
  }
  return { charset, bigEndian: endianness === 'big-endian' };
}
