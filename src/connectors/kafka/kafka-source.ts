/**
 * The FLIP-27 Kafka source (Flink's KafkaSource): an enumerator that discovers and assigns partition
 * splits, and one KafkaSourceReader per subtask. Bounded exactly when `scan.bounded.mode` is not
 * `unbounded`; then it also runs in batch mode.
 *
 * @example
 * const source = new KafkaSource({ client, subscription: { kind: 'topics', topics: ['orders'] },
 *   starting: { kind: 'earliest-offset' }, stopping: { kind: 'latest-offset' }, discoveryIntervalMs: 0,
 *   createDeserializer: () => new KafkaRecordDeserializer(layout, undefined, valueDecoder) });
 */
import type { Source } from '../../runtime/source/source.js';
import type { Boundedness } from '../../runtime/source/source-split.js';
import type { SourceReader, SourceReaderContext } from '../../runtime/source/source-reader.js';
import type { SplitEnumerator, SplitEnumeratorContext } from '../../runtime/source/split-enumerator.js';
import type { VersionedSerializer } from '../../runtime/serializer.js';
import type { Row } from '../../types/row.js';
import type { KafkaClientSettings } from './client/kafka-properties.js';
import type { StartingOffsets, StoppingOffsets } from './client/offsets-resolver.js';
import type { TopicSubscription } from './client/partition-discovery.js';
import type { KafkaRecordDeserializer } from './kafka-record-deserializer.js';
import { KafkaSourceEnumerator } from './kafka-source-enumerator.js';
import { KafkaSourceReader } from './kafka-source-reader.js';
import {
  kafkaEnumeratorStateSerializer,
  kafkaSplitSerializer,
  type KafkaEnumeratorState,
  type KafkaSourceSplit,
} from './kafka-source-split.js';

export interface KafkaSourceSettings {
  readonly client: KafkaClientSettings;
  readonly subscription: TopicSubscription;
  readonly starting: StartingOffsets;
  readonly stopping: StoppingOffsets;
  /** `scan.topic-partition-discovery.interval` in ms; 0 disables periodic discovery. */
  readonly discoveryIntervalMs: number;
  /** A fresh deserializer per reader (they hold per-call scratch buffers). */
  readonly createDeserializer: () => KafkaRecordDeserializer;
}

export class KafkaSource implements Source<Row, KafkaSourceSplit, KafkaEnumeratorState> {
  constructor(readonly settings: KafkaSourceSettings) {}

  boundedness(): Boundedness {
    return this.settings.stopping.kind === 'unbounded' ? 'CONTINUOUS_UNBOUNDED' : 'BOUNDED';
  }

  createReader(ctx: SourceReaderContext): SourceReader<Row, KafkaSourceSplit> {
    return new KafkaSourceReader(ctx, { client: this.settings.client, deserializer: this.settings.createDeserializer() });
  }

  createEnumerator(ctx: SplitEnumeratorContext<KafkaSourceSplit>): SplitEnumerator<KafkaSourceSplit, KafkaEnumeratorState> {
    return new KafkaSourceEnumerator(ctx, this.enumeratorSettings());
  }

  restoreEnumerator(
    ctx: SplitEnumeratorContext<KafkaSourceSplit>,
    checkpoint: KafkaEnumeratorState,
  ): SplitEnumerator<KafkaSourceSplit, KafkaEnumeratorState> {
    return new KafkaSourceEnumerator(ctx, this.enumeratorSettings(), checkpoint);
  }

  getSplitSerializer(): VersionedSerializer<KafkaSourceSplit> {
    return kafkaSplitSerializer;
  }

  getEnumeratorCheckpointSerializer(): VersionedSerializer<KafkaEnumeratorState> {
    return kafkaEnumeratorStateSerializer;
  }

  private enumeratorSettings() {
    const s = this.settings;
    return {
      client: s.client,
      subscription: s.subscription,
      starting: s.starting,
      stopping: s.stopping,
      discoveryIntervalMs: s.discoveryIntervalMs,
      bounded: this.boundedness() === 'BOUNDED',
    };
  }
}
