import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Kafka } from 'kafkajs';
import { KafkaPartitionSplitReader, type KafkaFetchResult } from '../../../src/connectors/kafka/client/partition-split-reader.js';
import type { KafkaPartitionSplit } from '../../../src/connectors/kafka/client/kafka-split.js';
import { toKafkaClientSettings } from '../../../src/connectors/kafka/client/kafka-properties.js';
import { brokerAvailable, BOOTSTRAP, createTopic, produce, testKafka, uniqueTopic } from './broker.js';

const up = await brokerAvailable();

function newReader(kafka: Kafka, extra: Record<string, string> = {}): KafkaPartitionSplitReader {
  const s = toKafkaClientSettings({ 'bootstrap.servers': BOOTSTRAP, 'fetch.max.wait.ms': '100', ...extra });
  return new KafkaPartitionSplitReader(kafka, { fetch: s.fetch, isolationLevel: s.isolationLevel, autoOffsetReset: s.autoOffsetReset });
}

/** Pulls until `until` says stop or the deadline passes; collects values per split. */
async function drain(
  reader: KafkaPartitionSplitReader,
  until: (seen: Map<string, string[]>, finished: Set<string>) => boolean,
  ms = 15_000,
): Promise<{ seen: Map<string, string[]>; finished: Set<string>; fetches: KafkaFetchResult[] }> {
  const seen = new Map<string, string[]>();
  const finished = new Set<string>();
  const fetches: KafkaFetchResult[] = [];
  const deadline = Date.now() + ms;
  while (!until(seen, finished) && Date.now() < deadline) {
    const r = await reader.fetch();
    fetches.push(r);
    for (const s of r.splits) {
      const list = seen.get(s.splitId) ?? [];
      for (const m of s.records) list.push(m.value?.toString() ?? '<null>');
      seen.set(s.splitId, list);
    }
    for (const f of r.finishedSplits) finished.add(f);
  }
  return { seen, finished, fetches };
}

describe.skipIf(!up)('KafkaPartitionSplitReader against a real broker', () => {
  let kafka: Kafka;
  const topic = uniqueTopic('reader');
  const values = (p: number, n: number): string[] => Array.from({ length: n }, (_, i) => `p${p}-${i}`);

  beforeAll(async () => {
    kafka = testKafka();
    await createTopic(kafka, topic, 3);
    await Promise.all([produce(kafka, topic, 0, values(0, 50)), produce(kafka, topic, 1, values(1, 30)), produce(kafka, topic, 2, values(2, 10))]);
  });

  it('reads exactly the assigned partitions between start and stop offsets, then reports them finished', async () => {
    const reader = newReader(kafka);
    try {
      reader.addSplits([
        { topic, partition: 0, startingOffset: 10n, stoppingOffset: 20n },
        { topic, partition: 1, startingOffset: 25n, stoppingOffset: 30n },
      ]);
      const { seen, finished } = await drain(reader, (_, f) => f.size === 2);
      expect(seen.get(`${topic}-0`)).toEqual(values(0, 50).slice(10, 20));
      expect(seen.get(`${topic}-1`)).toEqual(values(1, 30).slice(25, 30));
      expect(seen.has(`${topic}-2`)).toBe(false);
      expect([...finished].sort()).toEqual([`${topic}-0`, `${topic}-1`]);
      expect(reader.currentSplits()).toEqual([]);
    } finally {
      await reader.close();
    }
  });

  it('accepts splits added at runtime and keeps reading unbounded splits as records arrive', async () => {
    const reader = newReader(kafka);
    try {
      reader.addSplits([{ topic, partition: 2, startingOffset: 0n }]);
      const first = await drain(reader, (s) => (s.get(`${topic}-2`)?.length ?? 0) >= 10);
      expect(first.seen.get(`${topic}-2`)).toEqual(values(2, 10));
      reader.addSplits([{ topic, partition: 0, startingOffset: 48n }]);
      await produce(kafka, topic, 2, ['late-1', 'late-2']);
      const second = await drain(reader, (s) => (s.get(`${topic}-2`)?.length ?? 0) >= 2 && (s.get(`${topic}-0`)?.length ?? 0) >= 2);
      expect(second.seen.get(`${topic}-2`)).toEqual(['late-1', 'late-2']);
      expect(second.seen.get(`${topic}-0`)).toEqual(['p0-48', 'p0-49']);
      const positions = new Map(reader.currentSplits().map((s) => [`${s.topic}-${s.partition}`, s.startingOffset]));
      expect(positions.get(`${topic}-2`)).toBe(12n);
      expect(positions.get(`${topic}-0`)).toBe(50n);
    } finally {
      await reader.close();
    }
  });

  it('caps one fetch at max.poll.records and resumes exactly after the last record handed out', async () => {
    const reader = newReader(kafka, { 'max.poll.records': '7' });
    try {
      reader.addSplits([{ topic, partition: 0, startingOffset: 0n, stoppingOffset: 50n }]);
      const { seen, fetches } = await drain(reader, (_, f) => f.size === 1);
      expect(seen.get(`${topic}-0`)).toEqual(values(0, 50));
      for (const f of fetches) expect(f.splits.reduce((n, s) => n + s.records.length, 0)).toBeLessThanOrEqual(7);
    } finally {
      await reader.close();
    }
  });

  it('hands out the records beyond max.poll.records from the same response, without fetching them again', async () => {
    const reader = newReader(kafka, { 'max.poll.records': '7' });
    const requests = vi.spyOn(reader as unknown as { fetchFromLeaders: () => Promise<KafkaFetchResult> }, 'fetchFromLeaders');
    try {
      // The 50 records of partition 0 were produced in one send: one record batch, one response.
      reader.addSplits([{ topic, partition: 0, startingOffset: 0n, stoppingOffset: 50n }]);
      const first = await drain(reader, (s) => (s.get(`${topic}-0`)?.length ?? 0) >= 7);
      expect(first.seen.get(`${topic}-0`)).toEqual(values(0, 7));
      // A checkpoint now must resume at the first record not handed out, not after the buffered ones.
      expect(reader.currentSplits()).toEqual([{ topic, partition: 0, startingOffset: 7n, stoppingOffset: 50n }]);
      const requestsBefore = requests.mock.calls.length;
      const rest = await drain(reader, (_, f) => f.size === 1);
      expect(rest.seen.get(`${topic}-0`)).toEqual(values(0, 50).slice(7));
      expect(requests.mock.calls.length).toBe(requestsBefore);
      expect(rest.fetches.map((f) => f.splits.reduce((n, x) => n + x.records.length, 0))).toEqual([7, 7, 7, 7, 7, 7, 1]);
    } finally {
      await reader.close();
    }
  });

  it('reports the partition\'s end with each batch, capped at the stopping offset, so the lag is end - nextOffset', async () => {
    const reader = newReader(kafka, { 'max.poll.records': '5' });
    try {
      // Partition 0 holds 50 records (and partition 1 thirty); the first batches come from one response.
      reader.addSplits([{ topic, partition: 0, startingOffset: 0n }, { topic, partition: 1, startingOffset: 20n, stoppingOffset: 25n }]);
      const { fetches } = await drain(reader, (s, f) => (s.get(`${topic}-0`)?.length ?? 0) >= 5 && f.has(`${topic}-1`));
      const batches = fetches.flatMap((f) => f.splits);
      const batch = batches.find((b) => b.splitId === `${topic}-0`)!;
      expect(batch.nextOffset).toBe(5n);
      expect(batch.endOffset).toBe(50n);
      const last = batches.filter((b) => b.splitId === `${topic}-1`).at(-1)!;
      expect(last.endOffset).toBe(25n);
      expect(last.nextOffset).toBe(25n);
    } finally {
      await reader.close();
    }
  });

  it('forgets buffered records of a split that is re-added at another position', async () => {
    const reader = newReader(kafka, { 'max.poll.records': '5' });
    try {
      reader.addSplits([{ topic, partition: 0, startingOffset: 0n, stoppingOffset: 50n }]);
      await drain(reader, (s) => (s.get(`${topic}-0`)?.length ?? 0) >= 5);
      reader.addSplits([{ topic, partition: 0, startingOffset: 40n, stoppingOffset: 45n }]);
      const { seen } = await drain(reader, (_, f) => f.size === 1);
      expect(seen.get(`${topic}-0`)).toEqual(values(0, 50).slice(40, 45));
    } finally {
      await reader.close();
    }
  });

  it('reports a split whose start equals its stop as finished without reading it', async () => {
    const reader = newReader(kafka);
    try {
      const empty: KafkaPartitionSplit = { topic, partition: 1, startingOffset: 5n, stoppingOffset: 5n };
      reader.addSplits([empty]);
      const r = await reader.fetch();
      expect(r.finishedSplits).toEqual([`${topic}-1`]);
      expect(r.splits).toEqual([]);
    } finally {
      await reader.close();
    }
  });

  it('wakeUp makes a fetch blocked in the broker long poll return early, losing nothing', async () => {
    const reader = newReader(kafka, { 'fetch.max.wait.ms': '5000' });
    try {
      reader.addSplits([{ topic, partition: 1, startingOffset: 30n }]);
      await reader.fetch(); // connects and finds the partition empty at 30
      const t0 = Date.now();
      const pending = reader.fetch();
      setTimeout(() => reader.wakeUp(), 200);
      const r = await pending;
      expect(Date.now() - t0).toBeLessThan(3000);
      expect(r.splits).toEqual([]);
      await produce(kafka, topic, 1, ['after-wake']);
      const { seen } = await drain(reader, (s) => (s.get(`${topic}-1`)?.length ?? 0) >= 1);
      expect(seen.get(`${topic}-1`)).toEqual(['after-wake']);
    } finally {
      await reader.close();
    }
  });

  it('resets an offset beyond the log end to the earliest offset when auto.offset.reset=earliest', async () => {
    const reader = newReader(kafka, { 'auto.offset.reset': 'earliest' });
    try {
      reader.addSplits([{ topic, partition: 2, startingOffset: 10_000n }]);
      const { seen } = await drain(reader, (s) => (s.get(`${topic}-2`)?.length ?? 0) >= 10);
      expect(seen.get(`${topic}-2`)?.slice(0, 10)).toEqual(values(2, 10));
    } finally {
      await reader.close();
    }
  });

  it('fails with a ConnectorError on an out-of-range offset when auto.offset.reset is none (the default)', async () => {
    const reader = newReader(kafka);
    try {
      reader.addSplits([{ topic, partition: 2, startingOffset: 10_000n }]);
      await expect(drain(reader, () => false, 3000)).rejects.toThrow(/auto\.offset\.reset/);
    } finally {
      await reader.close();
    }
  });
});
