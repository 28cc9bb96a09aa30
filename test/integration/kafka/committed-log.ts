// Reads a topic's committed records (read_committed) incrementally, for exactly-once assertions.
import type { Kafka } from 'kafkajs';
import { toKafkaClientSettings } from '../../../src/connectors/kafka/client/kafka-properties.js';
import { KafkaPartitionSplitReader } from '../../../src/connectors/kafka/client/partition-split-reader.js';
import { BOOTSTRAP } from './broker.js';

/** Counts how often each key (taken from a record by `keyOf`) was committed to the topic. */
export class CommittedLog {
  readonly counts = new Map<string, number>();
  private readonly reader: KafkaPartitionSplitReader;
  records = 0;

  constructor(
    kafka: Kafka,
    topic: string,
    partitions: number,
    private readonly keyOf: (value: Buffer) => string,
  ) {
    const s = toKafkaClientSettings({ 'bootstrap.servers': BOOTSTRAP, 'fetch.max.wait.ms': '100', 'isolation.level': 'read_committed' });
    this.reader = new KafkaPartitionSplitReader(kafka, { fetch: s.fetch, isolationLevel: 'read_committed', autoOffsetReset: 'none' });
    this.reader.addSplits(Array.from({ length: partitions }, (_, partition) => ({ topic, partition, startingOffset: 0n })));
  }

  /** Keys committed more than once so far. */
  duplicates(): string[] {
    return [...this.counts].filter(([, n]) => n > 1).map(([k]) => k);
  }

  /** Fetches until a fetch returns nothing (everything committed so far is read). */
  async catchUp(): Promise<void> {
    for (let empty = 0; empty < 2; ) {
      const r = await this.reader.fetch();
      let n = 0;
      for (const s of r.splits) {
        for (const m of s.records) {
          if (m.value === null) continue;
          const k = this.keyOf(m.value);
          this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
          n++;
        }
      }
      this.records += n;
      empty = n === 0 ? empty + 1 : 0;
    }
  }

  /** Catches up repeatedly until `done` holds or `ms` pass. */
  async waitFor(done: () => boolean, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    for (;;) {
      await this.catchUp();
      if (done()) return true;
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async close(): Promise<void> {
    await this.reader.close();
  }
}
