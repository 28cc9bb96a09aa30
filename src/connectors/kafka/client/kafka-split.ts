/**
 * A Kafka source split: one topic partition read from `startingOffset` up to, not including,
 * `stoppingOffset` (absent: unbounded). Offsets are concrete: the enumerator resolves startup and
 * bounded modes (see offsets-resolver.ts) before it assigns a split, as Flink's KafkaSourceEnumerator does.
 */
export interface KafkaPartitionSplit {
  readonly topic: string;
  readonly partition: number;
  /** The next offset to read. */
  readonly startingOffset: bigint;
  /** Exclusive end; `undefined` for an unbounded split. */
  readonly stoppingOffset?: bigint;
}

export interface TopicPartition {
  readonly topic: string;
  readonly partition: number;
}

/** Flink's split id format, `topic-partition`; stable across restarts so state can be matched. */
export function splitId(tp: TopicPartition): string {
  return `${tp.topic}-${tp.partition}`;
}

/** The state of a split after reading up to `nextOffset` (what a checkpoint stores). */
export function splitAt(split: KafkaPartitionSplit, nextOffset: bigint): KafkaPartitionSplit {
  return split.stoppingOffset === undefined
    ? { topic: split.topic, partition: split.partition, startingOffset: nextOffset }
    : { topic: split.topic, partition: split.partition, startingOffset: nextOffset, stoppingOffset: split.stoppingOffset };
}

/** Compact JSON for checkpoint state: offsets as decimal strings since JSON has no bigint. */
export function serializeSplit(split: KafkaPartitionSplit): string {
  return JSON.stringify({
    t: split.topic,
    p: split.partition,
    s: split.startingOffset.toString(),
    ...(split.stoppingOffset === undefined ? {} : { e: split.stoppingOffset.toString() }),
  });
}

export function deserializeSplit(text: string): KafkaPartitionSplit {
  const o = JSON.parse(text) as { t: string; p: number; s: string; e?: string };
  return o.e === undefined
    ? { topic: o.t, partition: o.p, startingOffset: BigInt(o.s) }
    : { topic: o.t, partition: o.p, startingOffset: BigInt(o.s), stoppingOffset: BigInt(o.e) };
}
