/**
 * `sink.partitioner`: which partition a record goes to.
 * - default: Kafka's partitioner (murmur2 of the key, as the Java client; keyless records spread).
 * - fixed: every record of a writer subtask goes to partition `subtask % partitions` (Flink's FlinkFixedPartitioner).
 * - round-robin: records cycle over all partitions (only without key fields; the table factory checks that).
 */
import { kafkajs } from './kafkajs-module.js';
import { ConnectorError } from '../../../errors/index.js';

export type SinkPartitionerKind = 'default' | 'fixed' | 'round-robin';

export function parseSinkPartitioner(text: string): SinkPartitionerKind {
  const v = text.trim().toLowerCase();
  if (v === 'default' || v === 'fixed' || v === 'round-robin') return v;
  throw new ConnectorError(`Could not find and instantiate partitioner class '${text}'; Sluice supports 'default', 'fixed' and 'round-robin'.`);
}

/** What kafkajs hands a partitioner for each record: the partitions of the topic as the send itself knows them. */
export interface PartitionerArgs {
  readonly topic: string;
  readonly partitionMetadata: readonly { readonly partitionId: number; readonly leader: number }[];
  readonly message: { readonly key?: Buffer | string | null; readonly partition?: number };
}

export type KafkaPartitionerFn = (args: PartitionerArgs) => number;

/**
 * The partitioner a writer hands to kafkajs, so a partition is always chosen from the metadata the send
 * uses: kafkajs refreshes it once it is older than `metadata.max.age.ms` (so partitions added to an output
 * topic while a job writes are used from then on: fixed moves to `subtask % newCount`, round-robin cycles
 * over all of them), and a partition chosen from any other, fresher source is one kafkajs does not know
 * yet and drops without an error. One instance serves every send and transaction of a writer, so the
 * round-robin cycle carries on across checkpoints.
 */
export function createSinkPartitioner(kind: SinkPartitionerKind, subtaskId: number): KafkaPartitionerFn {
  switch (kind) {
    case 'default':
      return kafkajs().Partitioners.DefaultPartitioner() as unknown as KafkaPartitionerFn;
    case 'fixed':
      return ({ partitionMetadata }) => subtaskId % partitionCount(partitionMetadata);
    case 'round-robin': {
      const next = new Map<string, number>();
      return ({ topic, partitionMetadata }) => {
        const n = next.get(topic) ?? 0;
        next.set(topic, n + 1);
        return n % partitionCount(partitionMetadata);
      };
    }
    default: {
      const never: never = kind;
      return never;
    }
  }
}

function partitionCount(partitions: PartitionerArgs['partitionMetadata']): number {
  // kafkajs refuses to produce to a topic without metadata before it asks a partitioner, so this is a guard only.
  if (partitions.length === 0) throw new ConnectorError('No partitions known for the Kafka topic being written.');
  return partitions.length;
}
