import type { ConfigOption } from '../../config/config-option.js';
import type { ReadableConfig } from '../../config/configuration.js';
import { ChangelogMode } from '../../factories/changelog-mode.js';
import type { DynamicTableFactoryContext } from '../../factories/dynamic-table-factory.js';
import type { DecodingFormat, DecodingFormatFactory, EncodingFormat, EncodingFormatFactory } from '../../factories/format.js';
import type { RowType } from '../../types/logical-type.js';
import { ValidationError } from '../../errors/sluice-error.js';
import { AvroOptions } from './avro-options.js';
import { AvroRowDecoder, AvroRowEncoder } from './avro-row-codec.js';

function check(o: ReadableConfig): void {
  if (o.get(AvroOptions.ENCODING) !== 'binary') throw new ValidationError("Sluice's avro format supports only 'avro.encoding' = 'binary'.");
  if (!o.get(AvroOptions.TIMESTAMP_MAPPING_LEGACY)) {
    throw new ValidationError("Sluice's avro format supports only the legacy timestamp mapping ('avro.timestamp_mapping.legacy' = 'true').");
  }
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
    check(o);
    return {
      createRuntimeDecoder: (physicalType: RowType) => new AvroRowDecoder(physicalType),
      getChangelogMode: () => ChangelogMode.insertOnly(),
    };
  }

  createEncodingFormat(_ctx: DynamicTableFactoryContext, o: ReadableConfig): EncodingFormat {
    check(o);
    return {
      createRuntimeEncoder: (physicalType: RowType) => new AvroRowEncoder(physicalType),
      getChangelogMode: () => ChangelogMode.insertOnly(),
    };
  }
}
