import type { ConfigOption } from '../../config/config-option.js';
import type { ReadableConfig } from '../../config/configuration.js';
import { ChangelogMode } from '../../factories/changelog-mode.js';
import type { DynamicTableFactoryContext } from '../../factories/dynamic-table-factory.js';
import type { DecodingFormatFactory, EncodingFormat, EncodingFormatFactory } from '../../factories/format.js';
import type { RowType } from '../../types/logical-type.js';
import type { SplittableDecodingFormat } from '../../connectors/filesystem/line-splitting.js';
import { CsvOptions, readCsvSettings } from './csv-options.js';
import { CsvRowDecoder } from './csv-row-decoder.js';
import { CsvRowEncoder } from './csv-row-encoder.js';

/** `'format' = 'csv'`: one CSV record per message or line, insert-only (Flink's CsvFormatFactory). */
export class CsvFormatFactory implements DecodingFormatFactory, EncodingFormatFactory {
  readonly factoryIdentifier = 'csv';
  readonly description = 'CSV records (RFC 4180 quoting), one per message or line; insert-only.';

  requiredOptions(): readonly ConfigOption<unknown>[] {
    return [];
  }

  optionalOptions(): readonly ConfigOption<unknown>[] {
    return Object.values(CsvOptions) as ConfigOption<unknown>[];
  }

  createDecodingFormat(_ctx: DynamicTableFactoryContext, formatOptions: ReadableConfig): SplittableDecodingFormat {
    const settings = readCsvSettings(formatOptions);
    // A quoted field, or an escaped line break, may hold a `\n`: a reader starting mid-file could not tell
    // whether a line break ends a record without reading from the start (Flink's csv reader never splits).
    const splittable = settings.quoteCharacter === undefined && settings.escapeCharacter === undefined;
    return {
      createRuntimeDecoder: (physicalType: RowType) => new CsvRowDecoder(physicalType, settings),
      createProjectedDecoder: (physicalType: RowType, projection: readonly number[], options?: { readonly transientValues?: boolean }) =>
        new CsvRowDecoder(physicalType, settings, { projection, views: options?.transientValues === true }),
      getChangelogMode: () => ChangelogMode.insertOnly(),
      isSplittable: () => splittable,
    };
  }

  createEncodingFormat(_ctx: DynamicTableFactoryContext, formatOptions: ReadableConfig): EncodingFormat {
    const settings = readCsvSettings(formatOptions);
    return {
      createRuntimeEncoder: (physicalType: RowType) => new CsvRowEncoder(physicalType, settings),
      getChangelogMode: () => ChangelogMode.insertOnly(),
    };
  }
}
