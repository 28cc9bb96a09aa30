/**
 * The planner's view of a Kafka table write (Flink's KafkaDynamicSink): accepted changelog, writable
 * metadata, and the Sink V2 KafkaSink built from the validated options.
 */
import { ChangelogMode } from '../../factories/changelog-mode.js';
import type { DynamicTableSink, SinkContext, SinkRuntimeProvider } from '../../factories/dynamic-table-sink.js';
import type { MetadataTypes } from '../../factories/dynamic-table-source.js';
import type { EncodingFormat } from '../../factories/format.js';
import { ValidationError } from '../../errors/sluice-error.js';
import type { RowType } from '../../types/logical-type.js';
import type { AnySink } from '../../runtime/sink/sink.js';
import type { Row } from '../../types/row.js';
import type { KafkaClientSettings } from './client/kafka-properties.js';
import type { DeliveryGuarantee } from './client/kafka-record-writer.js';
import type { TopicSubscription } from './client/partition-discovery.js';
import type { SinkPartitionerKind } from './client/sink-partitioner.js';
import { isWritableMetadataKey, writableMetadataTypes, type WritableMetadataKey } from './kafka-metadata.js';
import { KafkaRecordSerializer } from './kafka-record-serializer.js';
import { KafkaSink } from './kafka-sink.js';
import type { LostTransactionAction } from './kafka-options.js';
import type { FormatProjection } from './kafka-table-options.js';

export interface KafkaDynamicSinkParams {
  readonly physicalArity: number;
  readonly projection: FormatProjection;
  readonly keyFormat: EncodingFormat | undefined;
  readonly valueFormat: EncodingFormat;
  readonly client: KafkaClientSettings;
  readonly subscription: TopicSubscription;
  readonly deliveryGuarantee: DeliveryGuarantee;
  readonly transactionalIdPrefix: string | undefined;
  /** `sink.commit.on-lost-transaction`; 'fail' when absent. */
  readonly onLostTransaction?: LostTransactionAction;
  readonly partitioner: SinkPartitionerKind;
  readonly upsert: boolean;
  readonly bufferFlushMaxRows: number;
  readonly bufferFlushIntervalMs: number;
  readonly parallelism: number | undefined;
}

export class KafkaDynamicSink implements DynamicTableSink {
  private metadataKeys: WritableMetadataKey[] = [];

  constructor(private readonly p: KafkaDynamicSinkParams) {}

  getChangelogMode(_requested: ChangelogMode): ChangelogMode {
    return this.p.upsert ? ChangelogMode.upsert() : this.p.valueFormat.getChangelogMode();
  }

  listWritableMetadata(): MetadataTypes {
    return writableMetadataTypes();
  }

  applyWritableMetadata(keys: readonly string[], _consumedType: RowType): void {
    this.metadataKeys = keys.map((k) => {
      if (!isWritableMetadataKey(k)) throw new ValidationError(`Kafka has no writable metadata key '${k}'.`);
      return k;
    });
  }

  /** The Sink V2 sink; callable without a planner (tests, benches). */
  createSink(): KafkaSink {
    const p = this.p;
    const layout = {
      keyIndexes: p.projection.keyIndexes,
      valueIndexes: p.projection.valueIndexes,
      physicalArity: p.physicalArity,
      metadataKeys: [...this.metadataKeys],
      upsert: p.upsert,
    };
    // Fail at planning, not in the first write, when no topic can be chosen.
    const make = (): KafkaRecordSerializer =>
      new KafkaRecordSerializer(
        layout,
        p.subscription,
        p.keyFormat?.createRuntimeEncoder(p.projection.keyType),
        p.valueFormat.createRuntimeEncoder(p.projection.valueType),
      );
    make();
    return new KafkaSink({
      client: p.client,
      deliveryGuarantee: p.deliveryGuarantee,
      ...(p.transactionalIdPrefix !== undefined ? { transactionalIdPrefix: p.transactionalIdPrefix } : {}),
      ...(p.onLostTransaction !== undefined ? { onLostTransaction: p.onLostTransaction } : {}),
      partitioner: p.partitioner,
      createSerializer: make,
      bufferFlushMaxRows: p.bufferFlushMaxRows,
      bufferFlushIntervalMs: p.bufferFlushIntervalMs,
    });
  }

  getSinkRuntimeProvider(_ctx: SinkContext): SinkRuntimeProvider {
    return {
      sink: this.createSink() as unknown as AnySink<Row>,
      ...(this.p.parallelism !== undefined ? { parallelism: this.p.parallelism } : {}),
    };
  }

  /**
   * Each row is encoded as it is written: key, value and headers are copied into buffers of their own. Only a
   * row's topic (the `topic` metadata column) stays a value of the row, in a record that may outlive the write
   * (buffered by upsert-kafka's `sink.buffer-flush.*`, or still in flight with delivery `none`).
   */
  keepsRowValues(): boolean {
    return this.metadataKeys.includes('topic');
  }

  asSummaryString(): string {
    const s = this.p.subscription;
    const what = s.kind === 'topics' ? `topic=[${s.topics.join(', ')}]` : `topic-pattern=${s.pattern.source}`;
    return `${this.p.upsert ? 'upsert-kafka' : 'kafka'}(${what}, delivery=${this.p.deliveryGuarantee})`;
  }
}
