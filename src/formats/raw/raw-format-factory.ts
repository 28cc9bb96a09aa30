import type { ConfigOption } from '../../config/config-option.js';
import type { ReadableConfig } from '../../config/configuration.js';
import { ChangelogMode } from '../../factories/changelog-mode.js';
import type { DynamicTableFactoryContext } from '../../factories/dynamic-table-factory.js';
import type { DecodingFormatFactory, EncodingFormat, EncodingFormatFactory } from '../../factories/format.js';
import type { RowType } from '../../types/logical-type.js';
import type { SplittableDecodingFormat } from '../../connectors/filesystem/line-splitting.js';
import { RawOptions, readRawSettings } from './raw-options.js';
import { RawRowDecoder, RawRowEncoder } from './raw-codec.js';

/** `'format' = 'raw'`: the message is the value of the one physical column (Flink's RawFormatFactory). */
export class RawFormatFactory implements DecodingFormatFactory, EncodingFormatFactory {
  readonly factoryIdentifier = 'raw';
  readonly description = 'The message bytes as the single column (string, bytes or a fixed-size number).';

  requiredOptions(): readonly ConfigOption<unknown>[] {
    return [];
  }

  optionalOptions(): readonly ConfigOption<unknown>[] {
    return Object.values(RawOptions) as ConfigOption<unknown>[];
  }

  createDecodingFormat(_ctx: DynamicTableFactoryContext, formatOptions: ReadableConfig): SplittableDecodingFormat {
    const settings = readRawSettings(formatOptions);
    return {
      createRuntimeDecoder: (physicalType: RowType) => new RawRowDecoder(physicalType, settings),
      getChangelogMode: () => ChangelogMode.insertOnly(),
      // Read from files, a line is a message: a reader starting mid-file finds the next one at the next line break.
      isSplittable: () => true,
    };
  }

  createEncodingFormat(_ctx: DynamicTableFactoryContext, formatOptions: ReadableConfig): EncodingFormat {
    const settings = readRawSettings(formatOptions);
    return {
      createRuntimeEncoder: (physicalType: RowType) => new RawRowEncoder(physicalType, settings),
      getChangelogMode: () => ChangelogMode.insertOnly(),
    };
  }
}
