import type { ConfigOption } from '../../config/config-option.js';
import type { ReadableConfig } from '../../config/configuration.js';
import { ChangelogMode } from '../../factories/changelog-mode.js';
import type { DynamicTableFactoryContext } from '../../factories/dynamic-table-factory.js';
import type { MetadataTypes } from '../../factories/dynamic-table-source.js';
import type { DecodingFormat, DecodingFormatFactory, EncodingFormat, EncodingFormatFactory } from '../../factories/format.js';
import type { LogicalType, RowType } from '../../types/logical-type.js';
import { readJsonEncodeSettings } from '../json/json-options.js';
import { CanalJsonOptions } from './canal-json-options.js';
import { CanalJsonDecoder } from './canal-json-decoder.js';
import type { CanalDecodeSettings } from './canal-json-decoder.js';
import { CanalJsonEncoder } from './canal-json-encoder.js';
import { CANAL_METADATA } from './canal-metadata.js';

class CanalJsonDecodingFormat implements DecodingFormat {
  private metadataKeys: readonly string[] = [];

  constructor(private readonly settings: CanalDecodeSettings) {}

  createRuntimeDecoder(physicalType: RowType): CanalJsonDecoder {
    return new CanalJsonDecoder(physicalType, this.settings, this.metadataKeys);
  }

  getChangelogMode(): ChangelogMode {
    return ChangelogMode.all();
  }

  listReadableMetadata(): MetadataTypes {
    return new Map<string, LogicalType>([...CANAL_METADATA].map(([k, m]) => [k, m.type]));
  }

  applyReadableMetadata(keys: readonly string[]): void {
    this.metadataKeys = [...keys];
  }
}

/** `'format' = 'canal-json'`: Alibaba Canal change events as a changelog (Flink's CanalJsonFormatFactory). */
export class CanalJsonFormatFactory implements DecodingFormatFactory, EncodingFormatFactory {
  readonly factoryIdentifier = 'canal-json';
  readonly description = 'Canal change events in JSON; produces and accepts +I, -U, +U, -D.';

  requiredOptions(): readonly ConfigOption<unknown>[] {
    return [];
  }

  optionalOptions(): readonly ConfigOption<unknown>[] {
    return Object.values(CanalJsonOptions) as ConfigOption<unknown>[];
  }

  createDecodingFormat(_ctx: DynamicTableFactoryContext, o: ReadableConfig): DecodingFormat {
    const settings: CanalDecodeSettings = {
      ignoreParseErrors: o.get(CanalJsonOptions.IGNORE_PARSE_ERRORS),
      timestampStandard: o.get(CanalJsonOptions.TIMESTAMP_FORMAT),
      failOnMissingField: false,
      databaseInclude: o.get(CanalJsonOptions.DATABASE_INCLUDE),
      tableInclude: o.get(CanalJsonOptions.TABLE_INCLUDE),
    };
    // Compile the patterns now so a bad regex fails the DDL, not the first record.
    new CanalJsonDecoder({ kind: 'ROW', fields: [], nullable: true }, settings);
    return new CanalJsonDecodingFormat(settings);
  }

  createEncodingFormat(_ctx: DynamicTableFactoryContext, o: ReadableConfig): EncodingFormat {
    const settings = readJsonEncodeSettings(o);
    return {
      createRuntimeEncoder: (physicalType: RowType) => new CanalJsonEncoder(physicalType, settings),
      getChangelogMode: () => ChangelogMode.all(),
    };
  }
}
