import type { ConfigOption } from '../../config/config-option.js';
import type { ReadableConfig } from '../../config/configuration.js';
import { ChangelogMode } from '../../factories/changelog-mode.js';
import type { DynamicTableFactoryContext } from '../../factories/dynamic-table-factory.js';
import type { DecodingFormatFactory, EncodingFormat, EncodingFormatFactory } from '../../factories/format.js';
import type { RowType } from '../../types/logical-type.js';
import type { SplittableDecodingFormat } from '../../connectors/filesystem/line-splitting.js';
import { JsonOptions, readJsonDecodeSettings, readJsonEncodeSettings } from './json-options.js';
import { JsonRowDecoder } from './json-row-decoder.js';
import { JsonRowEncoder } from './json-row-encoder.js';

/** `'format' = 'json'`: one JSON object per message, insert-only (Flink's JsonFormatFactory). */
export class JsonFormatFactory implements DecodingFormatFactory, EncodingFormatFactory {
  readonly factoryIdentifier = 'json';
  readonly description = 'JSON objects, one per message; insert-only.';

  requiredOptions(): readonly ConfigOption<unknown>[] {
    return [];
  }

  optionalOptions(): readonly ConfigOption<unknown>[] {
    return Object.values(JsonOptions) as ConfigOption<unknown>[];
  }

  createDecodingFormat(_ctx: DynamicTableFactoryContext, formatOptions: ReadableConfig): SplittableDecodingFormat {
    const settings = readJsonDecodeSettings(formatOptions);
    return {
      createRuntimeDecoder: (physicalType: RowType) => new JsonRowDecoder(physicalType, settings),
      getChangelogMode: () => ChangelogMode.insertOnly(),
      // One object per line: a reader starting mid-file finds the next record at the next line break.
      isSplittable: () => true,
    };
  }

  createEncodingFormat(_ctx: DynamicTableFactoryContext, formatOptions: ReadableConfig): EncodingFormat {
    const settings = readJsonEncodeSettings(formatOptions);
    return {
      createRuntimeEncoder: (physicalType: RowType) => new JsonRowEncoder(physicalType, settings),
      getChangelogMode: () => ChangelogMode.insertOnly(),
    };
  }
}
