import { ChangelogMode } from '../../factories/changelog-mode.js';
import type { DynamicTableSink, SinkContext, SinkRuntimeProvider } from '../../factories/dynamic-table-sink.js';
import type { MetadataTypes, ScanContext, ScanRuntimeProvider, ScanTableSource } from '../../factories/dynamic-table-source.js';
import type { DecodingFormat, EncodingFormat } from '../../factories/format.js';
import { ValidationError } from '../../errors/sluice-error.js';
import type { LogicalType, RowType } from '../../types/logical-type.js';
import type { PravegaSinkConfig, PravegaSourceConfig } from './pravega-options.js';
import { createPravegaSink } from './sink/pravega-sink.js';
import { PravegaSource } from './source/pravega-source.js';

/** The one readable metadata key: Java's serialized `EventPointer` of the event a row came from. */
export const EVENT_POINTER_METADATA = 'event_pointer';
const EVENT_POINTER_TYPE: LogicalType = { kind: 'VARBINARY', length: 2147483647, nullable: false };

/** `'connector' = 'pravega'` as a scan source; changelog mode is the format's. */
export class PravegaDynamicSource implements ScanTableSource {
  readonly kind = 'scan-source';
  private metadataKeys: readonly string[] = [];

  constructor(
    private readonly config: PravegaSourceConfig,
    private readonly format: DecodingFormat,
    private readonly physicalType: RowType,
    private readonly parallelism?: number,
  ) {}

  getChangelogMode(): ChangelogMode {
    return this.format.getChangelogMode();
  }

  listReadableMetadata(): MetadataTypes {
    return new Map([[EVENT_POINTER_METADATA, EVENT_POINTER_TYPE]]);
  }

  applyReadableMetadata(keys: readonly string[]): void {
    this.metadataKeys = keys;
  }

  getScanRuntimeProvider(ctx: ScanContext): ScanRuntimeProvider {
    if (ctx.batchMode && !this.config.bounded) {
      throw new ValidationError("The Pravega source is unbounded in batch mode: set 'scan.execution.type' = 'batch' or 'scan.end-streamcuts'");
    }
    const format = this.format;
    const physical = this.physicalType;
    const source = new PravegaSource(this.config, {
      createDeserializer: () => format.createRuntimeDecoder(physical),
      withEventPointer: this.metadataKeys.includes(EVENT_POINTER_METADATA),
    });
    return { source, bounded: this.config.bounded, ...(this.parallelism === undefined ? {} : { parallelism: this.parallelism }) };
  }

  asSummaryString(): string {
    return `pravega(streams=[${this.config.streams.map((s) => `${s.scope}/${s.stream}`).join(', ')}])`;
  }
}

/** `'connector' = 'pravega'` as a sink: append-only as in Flink (no upsert or retract). */
export class PravegaDynamicSink implements DynamicTableSink {
  constructor(
    private readonly config: PravegaSinkConfig,
    private readonly format: EncodingFormat,
    private readonly physicalType: RowType,
    private readonly parallelism?: number,
  ) {}

  getChangelogMode(_requested: ChangelogMode): ChangelogMode {
    return ChangelogMode.insertOnly();
  }

  getSinkRuntimeProvider(_ctx: SinkContext): SinkRuntimeProvider {
    const field = this.config.routingKeyField;
    let routingKeyIndex: number | undefined;
    if (field !== undefined) {
      routingKeyIndex = this.physicalType.fields.findIndex((f) => f.name === field);
      if (routingKeyIndex < 0) throw new ValidationError(`Key field '${field}' not found`);
    }
    const format = this.format;
    const physical = this.physicalType;
    const sink = createPravegaSink({
      config: this.config,
      createSerializer: () => format.createRuntimeEncoder(physical),
      ...(routingKeyIndex === undefined ? {} : { routingKeyIndex }),
    });
    return { sink: sink as SinkRuntimeProvider['sink'], ...(this.parallelism === undefined ? {} : { parallelism: this.parallelism }) };
  }

  asSummaryString(): string {
    return `pravega(stream=${this.config.scope}/${this.config.stream}, semantic=${this.config.semantic})`;
  }
}
