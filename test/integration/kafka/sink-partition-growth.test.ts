// Partitions added to an output topic while a writer runs are written to once the writer's metadata is
// older than metadata.max.age.ms, for every sink.partitioner (Kafka's producer does the same).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kafka } from 'kafkajs';
import { KafkaCommitter, KafkaRecordWriter, type KafkaRecordWriterOptions } from '../../../src/connectors/kafka/client/kafka-record-writer.js';
import type { SinkPartitionerKind } from '../../../src/connectors/kafka/client/sink-partitioner.js';
import { TableEnvironment } from '../../../src/api/table-environment.js';
import { BOOTSTRAP, brokerAvailable, createTopic, testKafka, uniqueTopic } from './broker.js';

const up = await brokerAvailable();
const AGE_MS = 200;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!up)('Kafka sink follows partitions added to its output topic', () => {
  let kafka: Kafka;
  let admin: ReturnType<Kafka['admin']>;

  beforeAll(async () => {
    kafka = testKafka();
    admin = kafka.admin();
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.disconnect();
  });

  /** Records per partition (high watermarks: committed or not), by partition number. */
  async function perPartition(topic: string): Promise<number[]> {
    const offsets = await admin.fetchTopicOffsets(topic);
    return offsets.sort((a, b) => a.partition - b.partition).map((o) => Number(o.high));
  }

  /** Waits until the broker's metadata lists `count` partitions with leaders (under load that lags the admin call). */
  async function brokerKnowsPartitions(topic: string, count: number): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
      const ready = topics[0]?.partitions.filter((p) => p.leader >= 0).length ?? 0;
      if (ready >= count) return;
      if (Date.now() > deadline) throw new Error(`topic ${topic} has ${ready} of ${count} partitions with leaders after 10 s`);
      await sleep(50);
    }
  }

  /** Waits until the partitions' offsets add up to at least `records` (10 s at most; the test's assertions judge what is there). */
  async function committedAtLeast(topic: string, records: number): Promise<void> {
    const deadline = Date.now() + 10_000;
    while ((await perPartition(topic)).reduce((a, b) => a + b, 0) < records && Date.now() < deadline) await sleep(50);
  }

  async function writeAcrossGrowth(partitioner: SinkPartitionerKind, extra: Partial<KafkaRecordWriterOptions> = {}): Promise<number[][]> {
    const topic = uniqueTopic(`grow-${partitioner}`);
    await createTopic(kafka, topic, 1);
    const writer = await KafkaRecordWriter.open(kafka, {
      deliveryGuarantee: 'at-least-once',
      subtaskId: 3,
      partitioner,
      transactionTimeoutMs: 60_000,
      acks: -1,
      metadataMaxAgeMs: AGE_MS,
      ...extra,
    });
    const batch = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ topic, key: null, value: Buffer.from(`v${from + i}`) }));
    try {
      await writer.write(batch(0, 20));
      const before = await perPartition(topic);
      await admin.createPartitions({ topicPartitions: [{ topic, count: 4 }] });
      await brokerKnowsPartitions(topic, 4);
      await sleep(AGE_MS + 100); // the writer's metadata is stale now: its next send re-reads it
      await writer.write(batch(20, 40));
      if (extra.deliveryGuarantee === 'exactly-once') {
        // Offsets count committed records only: commit the one transaction both writes went into.
        const committer = new KafkaCommitter(kafka);
        await committer.commit(await writer.prepareCommit(1));
        await committer.close();
        // The broker answers EndTxn before it writes the commit markers, so the offsets move a moment later.
        await committedAtLeast(topic, 60);
      }
      return [before, await perPartition(topic)];
    } finally {
      await writer.close();
    }
  }

  it('fixed: a subtask moves to subtask % newCount', async () => {
    const [before, after] = await writeAcrossGrowth('fixed');
    expect(before).toEqual([20]);
    expect(after).toEqual([20, 0, 0, 40]); // 3 % 1 = 0, then 3 % 4 = 3
  });

  it('round-robin: cycles over all four partitions', async () => {
    const [before, after] = await writeAcrossGrowth('round-robin');
    expect(before).toEqual([20]);
    expect(after).toEqual([30, 10, 10, 10]);
  });

  it("default (kafkajs's partitioner, keyless records), at-least-once and exactly-once: the new partitions get records", async () => {
    for (const extra of [{}, { deliveryGuarantee: 'exactly-once', transactionalIdPrefix: uniqueTopic('grow-tx') } as const]) {
      const [before, after] = await writeAcrossGrowth('default', extra);
      expect(before).toEqual([extra.deliveryGuarantee === 'exactly-once' ? 0 : 20]); // uncommitted yet
      expect(after).toHaveLength(4);
      expect(after.slice(1).every((n) => n > 0)).toBe(true);
    }
  });

  it('a running SQL job writes to partitions added while it runs', async () => {
    const topic = uniqueTopic('grow-job');
    await createTopic(kafka, topic, 1);
    const env = TableEnvironment.create({ mode: 'streaming' });
    try {
      await (
        await env.executeSql(
          "CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '120', 'rows-per-second' = '40')",
        )
      ).await();
      await (
        await env.executeSql(
          `CREATE TEMPORARY TABLE dst (id BIGINT) WITH ('connector' = 'kafka', 'topic' = '${topic}', ` +
            `'properties.bootstrap.servers' = '${BOOTSTRAP}', 'format' = 'json', 'sink.partitioner' = 'round-robin', ` +
            `'properties.metadata.max.age.ms' = '${AGE_MS}')`,
        )
      ).await();
      const job = await env.executeSql('INSERT INTO dst SELECT * FROM gen');
      const deadline = Date.now() + 10_000;
      while ((await perPartition(topic))[0] === 0 && Date.now() < deadline) await sleep(50);
      await admin.createPartitions({ topicPartitions: [{ topic, count: 3 }] });
      await job.await();
      const after = await perPartition(topic);
      expect(after.reduce((a, b) => a + b, 0)).toBe(120);
      expect(after[1]).toBeGreaterThan(0);
      expect(after[2]).toBeGreaterThan(0);
    } finally {
      await env.close();
    }
  });
});
