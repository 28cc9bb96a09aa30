import { beforeAll, describe, expect, it } from 'vitest';
import type { Kafka } from 'kafkajs';
import { resolveSplits } from '../../../src/connectors/kafka/client/offsets-resolver.js';
import { discoverPartitions } from '../../../src/connectors/kafka/client/partition-discovery.js';
import { KafkaOffsetCommitter } from '../../../src/connectors/kafka/client/offset-committer.js';
import { KafkaRecordWriter } from '../../../src/connectors/kafka/client/kafka-record-writer.js';
import { ConnectorError } from '../../../src/errors/index.js';
import { brokerAvailable, createTopic, produce, testKafka, uniqueTopic } from './broker.js';

const up = await brokerAvailable();

describe.skipIf(!up)('Kafka offsets, discovery, offset commits and writers against a real broker', () => {
  let kafka: Kafka;
  const topic = uniqueTopic('offsets');
  const t0 = 1_700_000_000_000;

  beforeAll(async () => {
    kafka = testKafka();
    await createTopic(kafka, topic, 2);
    // partition 0: 10 records at t0, t0+1000, ...; partition 1: 4 records
    await produce(kafka, topic, 0, Array.from({ length: 10 }, (_, i) => `a${i}`), Array.from({ length: 10 }, (_, i) => t0 + i * 1000));
    await produce(kafka, topic, 1, ['b0', 'b1', 'b2', 'b3'], [t0, t0, t0, t0]);
  });

  async function withAdmin<T>(f: (admin: ReturnType<Kafka['admin']>) => Promise<T>): Promise<T> {
    const admin = kafka.admin();
    await admin.connect();
    try {
      return await f(admin);
    } finally {
      await admin.disconnect();
    }
  }

  it('discovers partitions of a topic list and of a pattern, and rejects a missing topic', async () => {
    await withAdmin(async (admin) => {
      expect(await discoverPartitions(admin, { kind: 'topics', topics: [topic] })).toEqual([
        { topic, partition: 0 },
        { topic, partition: 1 },
      ]);
      const prefix = topic.replace(/-[0-9a-f]+$/, '');
      const found = await discoverPartitions(admin, { kind: 'pattern', pattern: new RegExp(`${prefix}-[0-9a-f]+`) });
      expect(found.filter((tp) => tp.topic === topic)).toHaveLength(2);
      expect(await discoverPartitions(admin, { kind: 'pattern', pattern: /no-such-topic-.*/ })).toEqual([]);
      await expect(discoverPartitions(admin, { kind: 'topics', topics: ['no-such-topic-xyz'] })).rejects.toThrow(ConnectorError);
    });
  });

  it('resolves earliest, latest, timestamp and specific startup offsets with bounded stops', async () => {
    await withAdmin(async (admin) => {
      const parts = [
        { topic, partition: 0 },
        { topic, partition: 1 },
      ];
      const key = (s: { partition: number; startingOffset: bigint; stoppingOffset?: bigint }) => [s.partition, s.startingOffset, s.stoppingOffset];
      expect((await resolveSplits(admin, parts, { kind: 'earliest-offset' }, { kind: 'latest-offset' })).map(key)).toEqual([
        [0, 0n, 10n],
        [1, 0n, 4n],
      ]);
      expect((await resolveSplits(admin, parts, { kind: 'latest-offset' }, { kind: 'unbounded' })).map(key)).toEqual([
        [0, 10n, undefined],
        [1, 4n, undefined],
      ]);
      // First record at or after t0+3500 is a4; partition 1 has none that late -> its end.
      expect((await resolveSplits(admin, parts, { kind: 'timestamp', timestampMs: t0 + 3500 }, { kind: 'timestamp', timestampMs: t0 + 6000 })).map(key)).toEqual([
        [0, 4n, 6n],
        [1, 4n, 4n],
      ]);
      const specific = new Map([[`${topic}-0`, 7n]]);
      expect(
        (await resolveSplits(admin, parts, { kind: 'specific-offsets', offsets: specific }, { kind: 'specific-offsets', offsets: new Map([[`${topic}-0`, 9n]]) })).map(key),
      ).toEqual([
        [0, 7n, 9n],
        [1, 0n, 0n], // not listed: starts at earliest, and bounded specific-offsets leaves it unread
      ]);
    });
  });

  it('commits offsets to a group for monitoring and resolves group-offsets from them', async () => {
    const group = `${topic}-group`;
    const committer = new KafkaOffsetCommitter(kafka, group);
    try {
      await committer.commit([{ topic, partition: 0, offset: 5n }]);
    } finally {
      await committer.close();
    }
    await withAdmin(async (admin) => {
      const parts = [
        { topic, partition: 0 },
        { topic, partition: 1 },
      ];
      await expect(resolveSplits(admin, parts, { kind: 'group-offsets', groupId: group, reset: 'none' }, { kind: 'unbounded' })).rejects.toThrow(
        new RegExp(`no committed offset for ${topic}-1`),
      );
      const splits = await resolveSplits(admin, parts, { kind: 'group-offsets', groupId: group, reset: 'latest' }, { kind: 'unbounded' });
      expect(splits.map((s) => s.startingOffset)).toEqual([5n, 4n]);
    });
  });

  it('at-least-once writer with the fixed partitioner puts every record of a subtask on one partition', async () => {
    const out = uniqueTopic('alo');
    await createTopic(kafka, out, 3);
    const writer = await KafkaRecordWriter.open(kafka, { deliveryGuarantee: 'at-least-once', subtaskId: 4, partitioner: 'fixed', transactionTimeoutMs: 60_000, acks: -1 });
    try {
      await writer.write(Array.from({ length: 6 }, (_, i) => ({ topic: out, key: Buffer.from(`k${i}`), value: Buffer.from(`v${i}`) })));
      expect(await writer.prepareCommit(1)).toEqual([]);
    } finally {
      await writer.close();
    }
    const offsets = await withAdmin((admin) => admin.fetchTopicOffsets(out));
    expect(offsets.map((o) => [o.partition, o.high]).sort()).toEqual([
      [0, '0'],
      [1, '6'], // 4 % 3
      [2, '0'],
    ]);
  });

  it('round-robin spreads records evenly and none delivers too', async () => {
    const out = uniqueTopic('rr');
    await createTopic(kafka, out, 3);
    const writer = await KafkaRecordWriter.open(kafka, { deliveryGuarantee: 'none', subtaskId: 0, partitioner: 'round-robin', transactionTimeoutMs: 60_000, acks: 1 });
    try {
      await writer.write(Array.from({ length: 9 }, (_, i) => ({ topic: out, key: null, value: Buffer.from(`v${i}`) })));
    } finally {
      await writer.close();
    }
    const offsets = await withAdmin((admin) => admin.fetchTopicOffsets(out));
    expect(offsets.map((o) => o.high)).toEqual(['3', '3', '3']);
  });

  it('exactly-once without a transactional id prefix is rejected with Flink wording', async () => {
    await expect(KafkaRecordWriter.open(kafka, { deliveryGuarantee: 'exactly-once', subtaskId: 0, partitioner: 'default', transactionTimeoutMs: 1000, acks: -1 })).rejects.toThrow(
      'sink.transactional-id-prefix must be specified when using DeliveryGuarantee.EXACTLY_ONCE.',
    );
  });
});
