// A topic deleted under a reader (or partitions whose brokers stay away) fails the fetch after the
// unavailability timeout, naming the partitions, instead of returning empty results forever.
import { describe, expect, it } from 'vitest';
import { KafkaPartitionSplitReader } from '../../../src/connectors/kafka/client/partition-split-reader.js';
import { toKafkaClientSettings } from '../../../src/connectors/kafka/client/kafka-properties.js';
import { BOOTSTRAP, brokerAvailable, createTopic, produce, testKafka, uniqueTopic } from './broker.js';

const up = await brokerAvailable();

describe.skipIf(!up)('a Kafka topic deleted under a split reader', () => {
  it('makes fetch reject after the unavailability timeout, naming the partitions', async () => {
    const kafka = testKafka();
    const topic = uniqueTopic('deleted');
    await createTopic(kafka, topic, 2);
    await produce(kafka, topic, 0, ['a', 'b']);
    const s = toKafkaClientSettings({ 'bootstrap.servers': BOOTSTRAP, 'fetch.max.wait.ms': '100' });
    const reader = new KafkaPartitionSplitReader(kafka, { fetch: s.fetch, isolationLevel: s.isolationLevel, autoOffsetReset: s.autoOffsetReset, unavailableTimeoutMs: 3_000 });
    try {
      reader.addSplits([
        { topic, partition: 0, startingOffset: 0n, stoppingOffset: undefined },
        { topic, partition: 1, startingOffset: 0n, stoppingOffset: undefined },
      ]);
      let read = 0;
      for (let i = 0; i < 50 && read < 2; i++) for (const sp of (await reader.fetch()).splits) read += sp.records.length;
      expect(read).toBe(2);

      const admin = kafka.admin();
      await admin.connect();
      await admin.deleteTopics({ topics: [topic], timeout: 10_000 });
      await admin.disconnect();

      const t0 = Date.now();
      let error: Error | undefined;
      while (error === undefined && Date.now() - t0 < 30_000) {
        await reader.fetch().catch((e: unknown) => (error = e as Error));
      }
      expect(error?.message).toMatch(
        new RegExp(`^Kafka partitions ${topic}-[01], ${topic}-[01] could not be read for \\d+ s \\(.+\\): the topic was deleted, or its brokers are unreachable\\.$`),
      );
      expect(Date.now() - t0).toBeGreaterThanOrEqual(3_000);
      expect(Date.now() - t0).toBeLessThan(20_000);
    } finally {
      await reader.close();
    }
  }, 60_000);
});
