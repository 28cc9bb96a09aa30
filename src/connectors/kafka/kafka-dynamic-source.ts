/**
 * The planner's view of a Kafka table read (Flink's KafkaDynamicSource): changelog mode, readable
 * metadata, and the FLIP-27 KafkaSource built from the validated options.
 */
import { ChangelogMode } from '../../factories/changelog-mode.js';
import type { MetadataTypes, ScanContext, ScanRuntimeProvider, ScanTableSource } from '../../factories/dynamic-table-source.js';
import type { DecodingFormat } from '../../factories/format.js';
import { ValidationError } from '../../errors/sluice-error.js';
import type { RowType } from '../../types/logical-type.js';
import type { AnySource } from '../../runtime/source/source.js';
import type { Row } from '../../types/row.js';
import type { KafkaClientSettings } from './client/kafka-properties.js';
import type { StartingOffsets, StoppingOffsets } from './client/offsets-resolver.js';
import type { TopicSubscription } from './client/partition-discovery.js';
import { isReadableMetadataKey, readableMetadataTypes, type ReadableMetadataKey } from './kafka-metadata.js';
import { KafkaRecordDeserializer } from './kafka-record-deserializer.js';
import { KafkaSource } from './kafka-source.js';
import type { FormatProjection } from './kafka-table-options.js';

export interface KafkaDynamicSourceParams {
  readonly tableName: string;
  readonly physicalArity: number;
  readonly projection: FormatProjection;
  readonly keyFormat: DecodingFormat | undefined;
  readonly valueFormat: DecodingFormat;
  readonly client: KafkaClientSettings;
  readonly subscription: TopicSubscription;
  readonly starting: StartingOffsets;
  readonly stopping: StoppingOffsets;
  readonly discoveryIntervalMs: number;
  readonly upsert: boolean;
  readonly parallelism: number | undefined;
}

export class KafkaDynamicSource implements ScanTableSource {
  readonly kind = 'scan-source' as const;
  /** Watermarks are generated per split inside the source, as Flink's SupportsWatermarkPushDown. */
  readonly supportsWatermarkPushDown = true;
  private metadataKeys: ReadableMetadataKey[] = [];

  constructor(private readonly p: KafkaDynamicSourceParams) {}

  getChangelogMode(): ChangelogMode {
    return this.p.upsert ? ChangelogMode.upsert() : this.p.valueFormat.getChangelogMode();
  }

  listReadableMetadata(): MetadataTypes {
    return readableMetadataTypes();
  }

  applyReadableMetadata(keys: readonly string[], _producedType: RowType): void {
    this.metadataKeys = keys.map((k) => {
      if (!isReadableMetadataKey(k)) throw new ValidationError(`Kafka has no readable metadata key '${k}'.`);
      return k;
    });
  }

  /** The FLIP-27 source; callable without a planner (tests, benches). */
  createSource(): KafkaSource {
    const p = this.p;
    const layout = {
      physicalArity: p.physicalArity,
      keyIndexes: p.projection.keyIndexes,
      valueIndexes: p.projection.valueIndexes,
      metadataKeys: [...this.metadataKeys],
      upsert: p.upsert,
    };
    return new KafkaSource({
      client: p.client,
      subscription: p.subscription,
      starting: p.starting,
      stopping: p.stopping,
      discoveryIntervalMs: p.discoveryIntervalMs,
      createDeserializer: () =>
        new KafkaRecordDeserializer(
          layout,
          p.keyFormat?.createRuntimeDecoder(p.projection.keyType),
          p.valueFormat.createRuntimeDecoder(p.projection.valueType),
        ),
    });
  }

  getScanRuntimeProvider(ctx: ScanContext): ScanRuntimeProvider {
    const source = this.createSource();
    const bounded = source.boundedness() === 'BOUNDED';
    if (ctx.batchMode && !bounded) {
      throw new ValidationError(
        `Querying an unbounded table '${this.p.tableName}' in batch mode is not allowed. ` +
          "The table source is unbounded; set 'scan.bounded.mode' to read it in batch mode.",
      );
    }
    return {
      source: source as unknown as AnySource<Row>,
      bounded,
      ...(this.p.parallelism !== undefined ? { parallelism: this.p.parallelism } : {}),
    };
  }

  asSummaryString(): string {
    const s = this.p.subscription;
    const what = s.kind === 'topics' ? `topic=[${s.topics.join(', ')}]` : `topic-pattern=${s.pattern.source}`;
    return `${this.p.upsert ? 'upsert-kafka' : 'kafka'}(${what})`;
  }
}
