import type { ConfigOption } from '../../config/config-option.js';
import type { ReadableConfig } from '../../config/configuration.js';
import { ChangelogMode } from '../../factories/changelog-mode.js';
import type { DynamicTableFactoryContext } from '../../factories/dynamic-table-factory.js';
import type { DecodingFormat, DecodingFormatFactory, EncodingFormat, EncodingFormatFactory } from '../../factories/format.js';
import type { RowType } from '../../types/logical-type.js';
import { ValidationError } from '../../errors/sluice-error.js';
import { AvroOptions } from './avro-options.js';
import { AvroRowDecoder, AvroRowEncoder } from './avro-row-codec.js';
import type { AvroTimestampMapping } from './avro-schema.js';

/** Checks the options; the timestamp mapping they choose. */
function check(o: ReadableConfig): AvroTimestampMapping {
  if (o.get(AvroOptions.ENCODING) !== 'binary') throw new ValidationError("Sluice's avro format supports only 'avro.encoding' = 'binary'.");
  return o.get(AvroOptions.TIMESTAMP_MAPPING_LEGACY) ? 'legacy' : 'local';
}

/** `'format' = 'avro'`: Avro binary records without header, schema derived from the table (Flink's AvroFormatFactory). */
export class AvroFormatFactory implements DecodingFormatFactory, EncodingFormatFactory {
  readonly factoryIdentifier = 'avro';
  readonly description = 'Avro binary records, schema derived from the table; insert-only.';

  requiredOptions(): readonly ConfigOption<unknown>[] {
    return [];
  }

  optionalOptions(): readonly ConfigOption<unknown>[] {
    return Object.values(AvroOptions) as ConfigOption<unknown>[];
  }

  createDecodingFormat(_ctx: DynamicTableFactoryContext, o: ReadableConfig): DecodingFormat {
    const mapping = check(o);
    return {
      createRuntimeDecoder: (physicalType: RowType) => new AvroRowDecoder(physicalType, mapping),
      getChangelogMode: () => ChangelogMode.insertOnly(),
    };
  }

  createEncodingFormat(_ctx: DynamicTableFactoryContext, o: ReadableConfig): EncodingFormat {
    const mapping = check(o);
    return {
      createRuntimeEncoder: (physicalType: RowType) => new AvroRowEncoder(physicalType, mapping),
      getChangelogMode: () => ChangelogMode.insertOnly(),
    };
  }
}
