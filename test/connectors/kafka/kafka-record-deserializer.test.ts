import { describe, expect, it } from 'vitest';
import type { DeserializationSchema, MessageOrigin } from '../../../src/factories/format.js';
import type { RawKafkaMessage } from '../../../src/connectors/kafka/client/kafkajs-internals.js';
import { KafkaRecordDeserializer, type KafkaRowLayout, type SplitDecodeContext } from '../../../src/connectors/kafka/kafka-record-deserializer.js';
import { recordTimestamp } from '../../../src/connectors/kafka/kafka-metadata.js';
import { Row } from '../../../src/types/row.js';
import { RowKind } from '../../../src/types/row-kind.js';

/** 'a,b' -> one row (a, b); 'skip' -> nothing (an ignored parse error); 'x2' -> two rows; 'bad' throws with the origin. */
class CsvLikeDecoder implements DeserializationSchema {
  skippedRecords = 0;
  deserialize(message: Uint8Array, out: Row[], origin?: MessageOrigin): void {
    const text = Buffer.from(message).toString();
    if (text === 'skip') {
      this.skippedRecords++;
      return;
    }
    if (text === 'bad') throw new Error(`bad record at ${origin?.()}`);
    if (text === 'x2') {
      out.push(Row.insert('x', 1), Row.insert('x', 2));
      return;
    }
    const [a, b] = text.split(',');
    out.push(Row.insert(a, Number(b)));
  }
}

const msg = (offset: number, value: string | null, timestamp = String(1_764_505_000_000 + offset)): RawKafkaMessage => ({
  offset: String(offset),
  timestamp,
  key: null,
  value: value === null ? null : Buffer.from(value),
});

const ctx = (): SplitDecodeContext => ({ topic: 't', partition: 3, liveKeys: new Set() });
const layout = (metadataKeys: KafkaRowLayout['metadataKeys'] = []): KafkaRowLayout => ({
  physicalArity: 2,
  keyIndexes: [],
  valueIndexes: [0, 1],
  metadataKeys,
  upsert: false,
});

describe('KafkaRecordDeserializer.deserializeBatch', () => {
  it('decodes a whole batch and pairs every row with its own record timestamp', () => {
    const d = new KafkaRecordDeserializer(layout(), undefined, new CsvLikeDecoder());
    const rows: Row[] = [];
    const ts: number[] = [];
    d.deserializeBatch([msg(0, 'a,1'), msg(1, 'skip'), msg(2, 'x2'), msg(3, null), msg(4, 'b,2')], ctx(), rows, ts);
    expect(rows.map((r) => r.fields)).toEqual([['a', 1], ['x', 1], ['x', 2], ['b', 2]]);
    const base = 1_764_505_000_000;
    expect(ts).toEqual([base, base + 2, base + 2, base + 4]);
    expect(d.skippedRecords).toBe(1);
  });

  it('appends requested metadata columns after the physical ones, read from each record', () => {
    const d = new KafkaRecordDeserializer(layout(['offset', 'timestamp', 'partition']), undefined, new CsvLikeDecoder());
    const rows: Row[] = [];
    const ts: number[] = [];
    d.deserializeBatch([msg(7, 'a,1'), msg(8, 'b,2', '-1')], ctx(), rows, ts);
    expect(rows.map((r) => [r.kind, ...r.fields])).toEqual([
      [RowKind.INSERT, 'a', 1, 7n, 1_764_505_000_007, 3],
      [RowKind.INSERT, 'b', 2, 8n, -1, 3],
    ]);
    expect(ts).toEqual([1_764_505_000_007, -1]);
  });

  it('names the record that failed to decode', () => {
    const d = new KafkaRecordDeserializer(layout(), undefined, new CsvLikeDecoder());
    expect(() => d.deserializeBatch([msg(0, 'a,1'), msg(41, 'bad')], ctx(), [], [])).toThrow("topic 't', partition 3, offset 41");
  });
});

describe('recordTimestamp', () => {
  it('reads kafkajs decimal timestamps as exact epoch ms, odd ones the slow way', () => {
    const t = (timestamp: string): number => recordTimestamp({ offset: '0', timestamp, key: null, value: null });
    expect(t('1764505000123')).toBe(1_764_505_000_123);
    expect(t('0')).toBe(0);
    expect(t('-1')).toBe(-1);
    expect(t('999999999999999')).toBe(999_999_999_999_999);
    expect(t('12345678901234567')).toBe(12_345_678_901_234_567);
  });
});
