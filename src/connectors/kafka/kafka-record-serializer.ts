/**
 * Table row -> Kafka record (Flink's DynamicKafkaRecordSerializationSchema): key columns through the key
 * format, value columns through the value format, writable metadata (topic, headers, timestamp) from
 * the columns after the physical ones. In upsert mode a -D becomes a tombstone (null value) and -U is
 * dropped (the following +U carries the new value).
 */
import type { SerializationSchema } from '../../factories/format.js';
import { ConnectorError } from '../../errors/sluice-error.js';
import { Row } from '../../types/row.js';
import { RowKind } from '../../types/row-kind.js';
import { matchesWhole, type TopicSubscription } from './client/partition-discovery.js';
import type { KafkaSinkRecord } from './client/kafka-record-writer.js';
import type { WritableMetadataKey } from './kafka-metadata.js';

export interface KafkaSinkLayout {
  readonly keyIndexes: readonly number[];
  readonly valueIndexes: readonly number[];
  readonly physicalArity: number;
  /** Writable metadata after the physical columns, in this order. */
  readonly metadataKeys: readonly WritableMetadataKey[];
  readonly upsert: boolean;
}

export class KafkaRecordSerializer {
  private readonly topicPos: number;
  private readonly headersPos: number;
  private readonly timestampPos: number;
  private readonly defaultTopic: string | undefined;
  private readonly allowedTopics: ReadonlySet<string> | undefined;

  constructor(
    private readonly layout: KafkaSinkLayout,
    private readonly subscription: TopicSubscription,
    private readonly keyEncoder: SerializationSchema | undefined,
    private readonly valueEncoder: SerializationSchema,
  ) {
    const pos = (k: WritableMetadataKey): number => {
      const i = layout.metadataKeys.indexOf(k);
      return i < 0 ? -1 : layout.physicalArity + i;
    };
    this.topicPos = pos('topic');
    this.headersPos = pos('headers');
    this.timestampPos = pos('timestamp');
    if (subscription.kind === 'topics') {
      this.allowedTopics = new Set(subscription.topics);
      if (subscription.topics.length === 1) this.defaultTopic = subscription.topics[0];
    }
    if (this.defaultTopic === undefined && this.topicPos < 0) {
      throw new ConnectorError(
        subscription.kind === 'pattern'
          ? "A Kafka sink with 'topic-pattern' needs the 'topic' metadata column to choose the topic of each row."
          : "A Kafka sink with several topics in 'topic' needs the 'topic' metadata column to choose the topic of each row.",
      );
    }
  }

  /** Serializes one row, or returns undefined for a row that produces no record (-U in upsert mode). */
  serialize(row: Row): KafkaSinkRecord | undefined {
    const L = this.layout;
    if (L.upsert && row.kind === RowKind.UPDATE_BEFORE) return undefined;
    const f = row.fields;
    const key = this.keyEncoder ? Buffer.from(this.keyEncoder.serialize(project(f, L.keyIndexes, RowKind.INSERT))) : null;
    const tombstone = L.upsert && row.kind === RowKind.DELETE;
    const value = tombstone ? null : Buffer.from(this.valueEncoder.serialize(project(f, L.valueIndexes, L.upsert ? RowKind.INSERT : row.kind)));
    const topic = this.topicOf(f);
    const rec: { topic: string; key: Buffer | null; value: Buffer | null; headers?: Record<string, Buffer>; timestamp?: number } = {
      topic,
      key,
      value,
    };
    if (this.headersPos >= 0) {
      const h = f[this.headersPos] as ReadonlyMap<string, Uint8Array | null> | null;
      if (h && h.size > 0) {
        const out: Record<string, Buffer> = {};
        for (const [k, v] of h) if (v !== null) out[k] = Buffer.from(v);
        rec.headers = out;
      }
    }
    if (this.timestampPos >= 0) {
      const ts = f[this.timestampPos];
      if (typeof ts === 'number') rec.timestamp = ts;
    }
    return rec;
  }

  private topicOf(fields: readonly unknown[]): string {
    if (this.topicPos < 0) return this.defaultTopic as string;
    const t = fields[this.topicPos];
    if (typeof t !== 'string') {
      if (this.defaultTopic !== undefined) return this.defaultTopic;
      throw new ConnectorError("The 'topic' metadata column of a Kafka sink row is null; every row must name its topic.");
    }
    if (this.allowedTopics && !this.allowedTopics.has(t)) {
      throw new ConnectorError(`The topic '${t}' of a written row is not in the sink's 'topic' list [${[...this.allowedTopics].join(', ')}].`);
    }
    if (this.subscription.kind === 'pattern' && !matchesWhole(this.subscription.pattern, t)) {
      throw new ConnectorError(`The topic '${t}' of a written row does not match the sink's 'topic-pattern' '${this.subscription.pattern.source}'.`);
    }
    return t;
  }
}

/**
 * The key or value part of a row. The value keeps the row's kind, so a changelog format (debezium-json,
 * canal-json, debezium-avro-confluent) writes updates and deletes as such; upsert mode and keys are
 * plain inserts, as in Flink's DynamicKafkaRecordSerializationSchema.
 */
function project(fields: readonly unknown[], idx: readonly number[], kind: RowKind): Row {
  const out = new Array<unknown>(idx.length);
  for (let i = 0; i < idx.length; i++) out[i] = fields[idx[i] as number];
  return new Row(kind, out);
}
