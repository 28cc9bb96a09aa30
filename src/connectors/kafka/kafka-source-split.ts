/**
 * The FLIP-27 split of the Kafka source: the client layer's partition split plus the runtime's
 * `splitId` (`topic-partition`, Flink's format), and the serializers for reader and enumerator state.
 */
import type { SourceSplit } from '../../runtime/source/source-split.js';
import type { VersionedSerializer } from '../../runtime/serializer.js';
import { ConnectorError } from '../../errors/sluice-error.js';
import { deserializeSplit, serializeSplit, splitId, type KafkaPartitionSplit } from './client/kafka-split.js';

export interface KafkaSourceSplit extends KafkaPartitionSplit, SourceSplit {}

export function toSourceSplit(s: KafkaPartitionSplit): KafkaSourceSplit {
  return s.stoppingOffset === undefined
    ? { splitId: splitId(s), topic: s.topic, partition: s.partition, startingOffset: s.startingOffset }
    : { splitId: splitId(s), topic: s.topic, partition: s.partition, startingOffset: s.startingOffset, stoppingOffset: s.stoppingOffset };
}

const enc = new TextEncoder();
const dec = new TextDecoder();

export const kafkaSplitSerializer: VersionedSerializer<KafkaSourceSplit> = {
  version: 1,
  serialize: (s) => enc.encode(serializeSplit(s)),
  deserialize(version, data) {
    if (version !== 1) throw new ConnectorError(`Unknown Kafka split state version ${version}.`);
    return toSourceSplit(deserializeSplit(dec.decode(data)));
  },
};

/**
 * The enumerator's checkpoint: partitions already turned into splits (so discovery does not create them
 * again) and splits resolved but not yet handed to a reader.
 */
export interface KafkaEnumeratorState {
  readonly assignedPartitions: readonly string[];
  readonly unassigned: readonly KafkaSourceSplit[];
  /** True once the first discovery ran: later partitions start at the earliest offset, as Flink. */
  readonly initialDiscoveryFinished: boolean;
}

export const kafkaEnumeratorStateSerializer: VersionedSerializer<KafkaEnumeratorState> = {
  version: 1,
  serialize: (s) =>
    enc.encode(
      JSON.stringify({
        a: s.assignedPartitions,
        u: s.unassigned.map(serializeSplit),
        i: s.initialDiscoveryFinished,
      }),
    ),
  deserialize(version, data) {
    if (version !== 1) throw new ConnectorError(`Unknown Kafka enumerator state version ${version}.`);
    const o = JSON.parse(dec.decode(data)) as { a: string[]; u: string[]; i: boolean };
    return { assignedPartitions: o.a, unassigned: o.u.map((t) => toSourceSplit(deserializeSplit(t))), initialDiscoveryFinished: o.i };
  },
};
