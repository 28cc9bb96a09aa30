/**
 * Kafka's metadata columns (Flink's KafkaDynamicSource.ReadableMetadata / KafkaDynamicSink.WritableMetadata):
 * their keys, types, and how a value is read from a fetched record.
 */
import { DataTypes } from '../../types/data-types.js';
import { notNull } from '../../types/logical-type.js';
import type { LogicalType } from '../../types/logical-type.js';
import type { RawKafkaMessage } from './client/kafkajs-internals.js';

export const READABLE_METADATA = ['topic', 'partition', 'headers', 'leader-epoch', 'offset', 'timestamp', 'timestamp-type'] as const;
export type ReadableMetadataKey = (typeof READABLE_METADATA)[number];

export const WRITABLE_METADATA = ['topic', 'headers', 'timestamp'] as const;
export type WritableMetadataKey = (typeof WRITABLE_METADATA)[number];

export function readableMetadataTypes(): Map<string, LogicalType> {
  return new Map<string, LogicalType>([
    ['topic', notNull(DataTypes.STRING())],
    ['partition', notNull(DataTypes.INT())],
    ['headers', notNull(DataTypes.MAP(DataTypes.STRING(), DataTypes.BYTES()))],
    ['leader-epoch', DataTypes.INT()],
    ['offset', notNull(DataTypes.BIGINT())],
    ['timestamp', notNull(DataTypes.TIMESTAMP_LTZ(3))],
    ['timestamp-type', notNull(DataTypes.STRING())],
  ]);
}

export function writableMetadataTypes(): Map<string, LogicalType> {
  return new Map<string, LogicalType>([
    ['topic', notNull(DataTypes.STRING())],
    ['headers', notNull(DataTypes.MAP(DataTypes.STRING(), DataTypes.BYTES()))],
    ['timestamp', notNull(DataTypes.TIMESTAMP_LTZ(3))],
  ]);
}

export function isReadableMetadataKey(k: string): k is ReadableMetadataKey {
  return (READABLE_METADATA as readonly string[]).includes(k);
}

export function isWritableMetadataKey(k: string): k is WritableMetadataKey {
  return (WRITABLE_METADATA as readonly string[]).includes(k);
}

/** What kafkajs's record decoder leaves on each record besides the public fields. */
interface RecordBatchContext {
  readonly batchContext?: { readonly partitionLeaderEpoch?: number; readonly timestampType?: number };
}

function headersOf(record: RawKafkaMessage): Map<string, Uint8Array | null> {
  const out = new Map<string, Uint8Array | null>();
  const h = record.headers;
  if (!h) return out;
  for (const [k, v] of Object.entries(h)) {
    // A repeated header key: Flink's MAP keeps the last value.
    const last = Array.isArray(v) ? v[v.length - 1] : v;
    out.set(k, last === undefined ? null : typeof last === 'string' ? new Uint8Array(Buffer.from(last)) : new Uint8Array(last));
  }
  return out;
}

/**
 * A record's timestamp (a decimal string from kafkajs) as epoch ms. Called once per record on the hot
 * path: `Number(s)` on a 13-digit string takes V8's slow generic path (~0.4 us), a digit loop ~1/3 of that.
 */
export function recordTimestamp(record: RawKafkaMessage): number {
  const s = record.timestamp;
  const len = s.length;
  // Beyond 15 digits a double is no longer exact; '-1' (no timestamp) and odd input go the slow way.
  if (len === 0 || len > 15) return Number(s);
  let v = 0;
  for (let i = 0; i < len; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return Number(s);
    v = v * 10 + d;
  }
  return v;
}

/** One metadata value of a record, in Sluice's value representation. Called per record per column. */
export function readMetadata(key: ReadableMetadataKey, record: RawKafkaMessage, topic: string, partition: number): unknown {
  switch (key) {
    case 'topic':
      return topic;
    case 'partition':
      return partition;
    case 'headers':
      return headersOf(record);
    case 'leader-epoch': {
      const e = (record as RawKafkaMessage & RecordBatchContext).batchContext?.partitionLeaderEpoch;
      return e === undefined || e < 0 ? null : e;
    }
    case 'offset':
      return BigInt(record.offset);
    case 'timestamp':
      return recordTimestamp(record);
    case 'timestamp-type': {
      const t = (record as RawKafkaMessage & RecordBatchContext).batchContext?.timestampType;
      return t === 1 ? 'LogAppendTime' : t === 0 ? 'CreateTime' : 'NoTimestampType';
    }
    default: {
      const never: never = key;
      return never;
    }
  }
}
