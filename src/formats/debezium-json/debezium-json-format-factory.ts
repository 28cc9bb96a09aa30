import type { ConfigOption } from '../../config/config-option.js';
import type { ReadableConfig } from '../../config/configuration.js';
import { ChangelogMode } from '../../factories/changelog-mode.js';
import type { DynamicTableFactoryContext } from '../../factories/dynamic-table-factory.js';
import type { MetadataTypes } from '../../factories/dynamic-table-source.js';
import type { DecodingFormat, DecodingFormatFactory, EncodingFormat, EncodingFormatFactory } from '../../factories/format.js';
import type { LogicalType, RowType } from '../../types/logical-type.js';
import { ValidationError } from '../../errors/sluice-error.js';
import { readJsonEncodeSettings } from '../json/json-options.js';
import { DebeziumJsonOptions } from './debezium-json-options.js';
import { DebeziumJsonDecoder } from './debezium-json-decoder.js';
import type { DebeziumDecodeSettings } from './debezium-json-decoder.js';
import { DebeziumJsonEncoder } from './debezium-json-encoder.js';
import { DEBEZIUM_METADATA } from './debezium-metadata.js';

/** Decoding side: remembers the metadata keys the planner applied for the decoders it creates. */
class DebeziumJsonDecodingFormat implements DecodingFormat {
  private metadataKeys: readonly string[] = [];

  constructor(private readonly settings: DebeziumDecodeSettings) {}

  createRuntimeDecoder(physicalType: RowType): DebeziumJsonDecoder {
    return new DebeziumJsonDecoder(physicalType, this.settings, this.metadataKeys);
  }

  getChangelogMode(): ChangelogMode {
    return ChangelogMode.all();
  }

  listReadableMetadata(): MetadataTypes {
    return new Map<string, LogicalType>([...DEBEZIUM_METADATA].map(([k, m]) => [k, m.type]));
  }

  applyReadableMetadata(keys: readonly string[]): void {
    this.metadataKeys = [...keys];
  }
}

/** `'format' = 'debezium-json'`: Debezium change events as a changelog (Flink's DebeziumJsonFormatFactory). */
export class DebeziumJsonFormatFactory implements DecodingFormatFactory, EncodingFormatFactory {
  readonly factoryIdentifier = 'debezium-json';
  readonly description = 'Debezium change events in JSON; produces and accepts +I, -U, +U, -D.';

  requiredOptions(): readonly ConfigOption<unknown>[] {
    return [];
  }

  optionalOptions(): readonly ConfigOption<unknown>[] {
    return Object.values(DebeziumJsonOptions) as ConfigOption<unknown>[];
  }

  createDecodingFormat(_ctx: DynamicTableFactoryContext, o: ReadableConfig): DecodingFormat {
    return new DebeziumJsonDecodingFormat({
      schemaInclude: o.get(DebeziumJsonOptions.SCHEMA_INCLUDE),
      ignoreParseErrors: o.get(DebeziumJsonOptions.IGNORE_PARSE_ERRORS),
      timestampStandard: o.get(DebeziumJsonOptions.TIMESTAMP_FORMAT),
      failOnMissingField: false,
    });
  }

  createEncodingFormat(_ctx: DynamicTableFactoryContext, o: ReadableConfig): EncodingFormat {
    if (o.get(DebeziumJsonOptions.SCHEMA_INCLUDE)) {
      throw new ValidationError("Debezium JSON serialization doesn't support 'debezium-json.schema-include' option been set to true.");
    }
    const settings = readJsonEncodeSettings(o);
    return {
      createRuntimeEncoder: (physicalType: RowType) => new DebeziumJsonEncoder(physicalType, settings),
      getChangelogMode: () => ChangelogMode.all(),
    };
  }
}
