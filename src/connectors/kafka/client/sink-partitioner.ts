/**
 * `sink.partitioner`: which partition a record goes to.
 * - default: Kafka's partitioner (murmur2 of the key, as the Java client; keyless records spread).
 * - fixed: every record of a writer subtask goes to partition `subtask % partitions` (Flink's FlinkFixedPartitioner).
 * - round-robin: records cycle over all partitions (only without key fields; the table factory checks that).
 */
import type { Admin } from 'kafkajs';
import { ConnectorError } from '../../../errors/index.js';

export type SinkPartitionerKind = 'default' | 'fixed' | 'round-robin';

export function parseSinkPartitioner(text: string): SinkPartitionerKind {
  const v = text.trim().toLowerCase();
  if (v === 'default' || v === 'fixed' || v === 'round-robin') return v;
  throw new ConnectorError(`Could not find and instantiate partitioner class '${text}'; Sluice supports 'default', 'fixed' and 'round-robin'.`);
}

/** Chooses partitions for a batch; partition counts are looked up once per topic and cached. */
export class SinkPartitioner {
  private readonly partitionCounts = new Map<string, number>();
  private next = 0;

  constructor(
    readonly kind: SinkPartitionerKind,
    private readonly subtaskId: number,
    private readonly admin: Admin,
  ) {}

  /** Resolves partition counts of topics not seen yet. Awaited once per new topic, not per record. */
  async prepare(topics: Iterable<string>): Promise<void> {
    if (this.kind === 'default') return;
    const unknown = [...new Set(topics)].filter((t) => !this.partitionCounts.has(t));
    if (unknown.length === 0) return;
    const { topics: meta } = await this.admin.fetchTopicMetadata({ topics: unknown });
    for (const t of meta) this.partitionCounts.set(t.name, t.partitions.length);
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
    const n = this.partitionCounts.get(topic);
    if (n === undefined || n === 0) throw new ConnectorError(`No partitions known for Kafka topic '${topic}'.`);
    return n;
  }
}
