/**
 * `sink.partitioner`: which partition a record goes to.
 * - default: Kafka's partitioner (murmur2 of the key, as the Java client; keyless records spread).
 * - fixed: every record of a writer subtask goes to partition `subtask % partitions` (Flink's FlinkFixedPartitioner).
 * - round-robin: records cycle over all partitions (only without key fields; the table factory checks that).
 */
import type { Admin } from 'kafkajs';
import { ConnectorError } from '../../../errors/index.js';
import { DEFAULT_METADATA_MAX_AGE_MS } from './kafka-properties.js';

export type SinkPartitionerKind = 'default' | 'fixed' | 'round-robin';

export function parseSinkPartitioner(text: string): SinkPartitionerKind {
  const v = text.trim().toLowerCase();
  if (v === 'default' || v === 'fixed' || v === 'round-robin') return v;
  throw new ConnectorError(`Could not find and instantiate partitioner class '${text}'; Sluice supports 'default', 'fixed' and 'round-robin'.`);
}

/**
 * Chooses partitions for a batch. Partition counts come from topic metadata and, as in Kafka's producer,
 * are re-read once they are older than `metadata.max.age.ms`: partitions added to an output topic while
 * a job writes are used from the next refresh on (fixed: `subtask % newCount`; round-robin: all of them).
 */
export class SinkPartitioner {
  private readonly partitionCounts = new Map<string, { count: number; readAt: number }>();
  private next = 0;

  /**
   * @param metadataMaxAgeMs how old a cached partition count may get (Kafka's `metadata.max.age.ms`)
   * @param now the clock, replaceable in tests
   */
  constructor(
    readonly kind: SinkPartitionerKind,
    private readonly subtaskId: number,
    private readonly admin: Admin,
    private readonly metadataMaxAgeMs = DEFAULT_METADATA_MAX_AGE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Resolves partition counts of topics not seen yet or last read more than `metadataMaxAgeMs` ago.
   * Called by the writer once per batch; awaits one metadata request only when some count is missing
   * or stale (per new topic, then about once per `metadata.max.age.ms`), never per record.
   */
  async prepare(topics: Iterable<string>): Promise<void> {
    if (this.kind === 'default') return; // kafkajs's own partitioner reads its (equally aged) metadata
    const now = this.now();
    const due: string[] = [];
    for (const t of new Set(topics)) {
      const known = this.partitionCounts.get(t);
      if (known === undefined || now - known.readAt >= this.metadataMaxAgeMs) due.push(t);
    }
    if (due.length === 0) return;
    const { topics: meta } = await this.admin.fetchTopicMetadata({ topics: due });
    for (const t of meta) this.partitionCounts.set(t.name, { count: t.partitions.length, readAt: now });
  }

  /** The partition for one record, or undefined to let Kafka's partitioner decide. Call `prepare` first. */
  partitionFor(topic: string): number | undefined {
    switch (this.kind) {
      case 'default':
        return undefined;
      case 'fixed':
        return this.subtaskId % this.count(topic);
      case 'round-robin':
        return this.next++ % this.count(topic);
      default: {
        const never: never = this.kind;
        return never;
      }
    }
  }

  private count(topic: string): number {
    const n = this.partitionCounts.get(topic)?.count;
    if (n === undefined || n === 0) throw new ConnectorError(`No partitions known for Kafka topic '${topic}'.`);
    return n;
  }
}
