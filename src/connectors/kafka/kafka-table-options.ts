/**
 * Turns validated `WITH` options into what the Kafka source and sink need, with Flink's validation
 * messages (KafkaConnectorOptionsUtil). Pure: no broker is contacted here, so every user mistake is
 * reported at CREATE/INSERT planning time, before a job starts.
 */
import type { ReadableConfig } from '../../config/configuration.js';
import { ValidationError } from '../../errors/sluice-error.js';
import type { ResolvedSchema } from '../../types/schema.js';
import type { LogicalType, RowType } from '../../types/logical-type.js';
import { toKafkaClientSettings, type KafkaClientSettings } from './client/kafka-properties.js';
import { parseSpecificOffsets, type StartingOffsets, type StoppingOffsets } from './client/offsets-resolver.js';
import type { TopicSubscription } from './client/partition-discovery.js';
import { parseSinkPartitioner, type SinkPartitionerKind } from './client/sink-partitioner.js';
import type { DeliveryGuarantee } from './client/kafka-record-writer.js';
import { KafkaOptions, PROPERTIES_PREFIX, type ValueFieldsInclude } from './kafka-options.js';

/** The raw `properties.*` keys with the prefix removed, as the client layer expects them. */
export function kafkaProperties(options: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(options)) if (k.startsWith(PROPERTIES_PREFIX)) out[k.slice(PROPERTIES_PREFIX.length)] = v;
  return out;
}

/** Client settings from `properties.*`; a bad property is a ValidationError naming it. */
export function clientSettingsOf(options: Readonly<Record<string, string>>): KafkaClientSettings {
  try {
    return toKafkaClientSettings(kafkaProperties(options));
  } catch (e) {
    throw new ValidationError(e instanceof Error ? e.message : String(e), { cause: e });
  }
}

/** `topic` xor `topic-pattern`, as Flink's validateSourceTopic / validateSinkTopic. */
export function subscriptionOf(conf: ReadableConfig): TopicSubscription {
  const topics = conf.get(KafkaOptions.TOPIC);
  const pattern = conf.get(KafkaOptions.TOPIC_PATTERN);
  if (topics !== undefined && topics.length > 0 && pattern !== undefined) {
    throw new ValidationError("Option 'topic' and 'topic-pattern' shouldn't be set together.");
  }
  if (pattern !== undefined) {
    try {
      return { kind: 'pattern', pattern: new RegExp(pattern) };
    } catch (e) {
      throw new ValidationError(`Invalid 'topic-pattern' '${pattern}': ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
  }
  if (topics === undefined || topics.length === 0) throw new ValidationError("Either 'topic' or 'topic-pattern' must be set.");
  return { kind: 'topics', topics: topics.map((t) => t.trim()) };
}

function singleTopic(sub: TopicSubscription, what: string): string {
  if (sub.kind === 'topics' && sub.topics.length === 1) return sub.topics[0] as string;
  throw new ValidationError(`Currently Kafka source only supports ${what} for single topic.`);
}

/** `scan.startup.*` (Flink's validateScanStartupMode + getStartupOptions). */
export function startingOffsetsOf(conf: ReadableConfig, sub: TopicSubscription, client: KafkaClientSettings): StartingOffsets {
  const mode = conf.get(KafkaOptions.SCAN_STARTUP_MODE);
  switch (mode) {
    case 'earliest-offset':
    case 'latest-offset':
      return { kind: mode };
    case 'group-offsets':
      // Flink without a group id starts from the group's (absent) offsets and falls back to auto.offset.reset.
      if (client.groupId === undefined) {
        return client.autoOffsetReset === 'latest' ? { kind: 'latest-offset' } : { kind: 'earliest-offset' };
      }
      return { kind: 'group-offsets', groupId: client.groupId, reset: client.autoOffsetReset };
    case 'timestamp': {
      const ts = conf.get(KafkaOptions.SCAN_STARTUP_TIMESTAMP_MILLIS);
      if (ts === undefined) throw new ValidationError("'scan.startup.timestamp-millis' is required in 'timestamp' startup mode but missing.");
      return { kind: 'timestamp', timestampMs: ts };
    }
    case 'specific-offsets': {
      const text = conf.get(KafkaOptions.SCAN_STARTUP_SPECIFIC_OFFSETS);
      if (text === undefined) {
        throw new ValidationError("'scan.startup.specific-offsets' is required in 'specific-offsets' startup mode but missing.");
      }
      const topic = singleTopic(sub, 'specific offset');
      const offsets = parseOrValidation(topic, text, KafkaOptions.SCAN_STARTUP_SPECIFIC_OFFSETS.key);
      return client.groupId === undefined ? { kind: 'specific-offsets', offsets } : { kind: 'specific-offsets', offsets, groupId: client.groupId };
    }
    default: {
      const never: never = mode;
      return never;
    }
  }
}

/** `scan.bounded.*` (Flink's validateScanBoundedMode + getBoundedOptions). */
export function stoppingOffsetsOf(conf: ReadableConfig, sub: TopicSubscription, client: KafkaClientSettings): StoppingOffsets {
  const mode = conf.get(KafkaOptions.SCAN_BOUNDED_MODE);
  switch (mode) {
    case 'unbounded':
    case 'latest-offset':
      return { kind: mode };
    case 'group-offsets':
      if (client.groupId === undefined) {
        throw new ValidationError("'properties.group.id' is required in 'group-offsets' bounded mode but missing.");
      }
      return { kind: 'group-offsets', groupId: client.groupId };
    case 'timestamp': {
      const ts = conf.get(KafkaOptions.SCAN_BOUNDED_TIMESTAMP_MILLIS);
      if (ts === undefined) throw new ValidationError("'scan.bounded.timestamp-millis' is required in 'timestamp' bounded mode but missing.");
      return { kind: 'timestamp', timestampMs: ts };
    }
    case 'specific-offsets': {
      const text = conf.get(KafkaOptions.SCAN_BOUNDED_SPECIFIC_OFFSETS);
      if (text === undefined) {
        throw new ValidationError("'scan.bounded.specific-offsets' is required in 'specific-offsets' bounded mode but missing.");
      }
      const topic = singleTopic(sub, 'specific offset');
      return { kind: 'specific-offsets', offsets: parseOrValidation(topic, text, KafkaOptions.SCAN_BOUNDED_SPECIFIC_OFFSETS.key) };
    }
    default: {
      const never: never = mode;
      return never;
    }
  }
}

function parseOrValidation(topic: string, text: string, key: string): Map<string, bigint> {
  try {
    return parseSpecificOffsets(topic, text, key);
  } catch (e) {
    throw new ValidationError(e instanceof Error ? e.message : String(e), { cause: e });
  }
}

/**
 * Which physical columns the key and the value formats carry (Flink's createKeyFormatProjection /
 * createValueFormatProjection), as indexes into the physical columns, and the formats' row types
 * (key columns with `key.fields-prefix` stripped).
 */
export interface FormatProjection {
  readonly keyIndexes: readonly number[];
  readonly valueIndexes: readonly number[];
  readonly keyType: RowType;
  readonly valueType: RowType;
}

export function formatProjectionOf(
  schema: ResolvedSchema,
  keyFields: readonly string[],
  keyPrefix: string | undefined,
  include: ValueFieldsInclude,
  hasKeyFormat: boolean,
): FormatProjection {
  const physical = schema.physicalColumns();
  const names = physical.map((c) => c.name);
  if (!hasKeyFormat && keyFields.length > 0) {
    throw new ValidationError("The option 'key.fields' can only be declared if a key format is defined using 'key.format'.");
  }
  if (hasKeyFormat && keyFields.length === 0) {
    throw new ValidationError("A key format 'key.format' requires the declaration of one or more of key fields using 'key.fields'.");
  }
  const prefix = keyPrefix ?? '';
  if (prefix !== '' && include === 'ALL') {
    throw new ValidationError(
      "A key prefix is not allowed when option 'value.fields-include' is set to 'ALL'. Set it to 'EXCEPT_KEY' instead to avoid field overlaps.",
    );
  }
  const keyIndexes = keyFields.map((f) => {
    const i = names.indexOf(f);
    if (i < 0) {
      throw new ValidationError(
        `Could not find the field '${f}' in the table schema for usage in the key format. A key field must be a regular, physical column. ` +
          `The following columns can be selected in the 'key.fields' option:\n[${names.join(', ')}]`,
      );
    }
    if (!f.startsWith(prefix)) {
      throw new ValidationError(
        `All fields in 'key.fields' must be prefixed with '${prefix}' when option 'key.fields-prefix' is set but field '${f}' is not prefixed.`,
      );
    }
    return i;
  });
  const keySet = new Set(keyIndexes);
  const valueIndexes = physical.map((_, i) => i).filter((i) => include === 'ALL' || !keySet.has(i));
  const rowOf = (idx: readonly number[], strip: string): RowType => ({
    kind: 'ROW',
    nullable: false,
    fields: idx.map((i) => {
      const c = physical[i]!;
      return { name: c.name.slice(strip.length), type: c.type as LogicalType };
    }),
  });
  return { keyIndexes, valueIndexes, keyType: rowOf(keyIndexes, prefix), valueType: rowOf(valueIndexes, '') };
}

/** `sink.partitioner` with Flink's round-robin check. */
export function sinkPartitionerOf(conf: ReadableConfig, keyFields: readonly string[]): SinkPartitionerKind {
  let kind: SinkPartitionerKind;
  try {
    kind = parseSinkPartitioner(conf.get(KafkaOptions.SINK_PARTITIONER));
  } catch (e) {
    throw new ValidationError(e instanceof Error ? e.message : String(e), { cause: e });
  }
  if (kind === 'round-robin' && keyFields.length > 0) {
    throw new ValidationError("Currently 'round-robin' partitioner only works when option 'key.fields' is not specified.");
  }
  return kind;
}

/** `sink.delivery-guarantee` and `sink.transactional-id-prefix` (Flink's validateDeliveryGuarantee). */
export function deliveryOf(conf: ReadableConfig): { guarantee: DeliveryGuarantee; transactionalIdPrefix: string | undefined } {
  const guarantee = conf.get(KafkaOptions.DELIVERY_GUARANTEE);
  const prefix = conf.get(KafkaOptions.TRANSACTIONAL_ID_PREFIX);
  if (guarantee === 'exactly-once' && (prefix === undefined || prefix.trim() === '')) {
    throw new ValidationError('sink.transactional-id-prefix must be specified when using DeliveryGuarantee.EXACTLY_ONCE.');
  }
  return { guarantee, transactionalIdPrefix: prefix };
}
