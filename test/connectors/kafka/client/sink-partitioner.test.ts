import { describe, expect, it } from 'vitest';
import { createSinkPartitioner, type PartitionerArgs } from '../../../../src/connectors/kafka/client/sink-partitioner.js';

/** The arguments kafkajs passes for one record of `topic` whose metadata lists `count` partitions. */
function args(topic: string, count: number, key: string | null = null): PartitionerArgs {
  return {
    topic,
    partitionMetadata: Array.from({ length: count }, (_, partitionId) => ({ partitionId, leader: 1 })),
    message: { key },
  };
}

describe('createSinkPartitioner', () => {
  it('fixed: subtask % the partition count of the metadata the send uses, so it follows added partitions', () => {
    const p = createSinkPartitioner('fixed', 3);
    expect(p(args('out', 2))).toBe(1);
    expect(p(args('out', 4))).toBe(3);
    expect(p(args('out', 5, 'k'))).toBe(3); // keys do not matter
  });

  it('round-robin: cycles per topic over the partitions the metadata lists, new ones included', () => {
    const p = createSinkPartitioner('round-robin', 0);
    expect([p(args('a', 1)), p(args('a', 1))]).toEqual([0, 0]);
    const seen = Array.from({ length: 6 }, () => p(args('a', 3)));
    expect(new Set(seen)).toEqual(new Set([0, 1, 2]));
    expect(p(args('b', 2))).toBe(0); // a topic of its own starts its own cycle
  });

  it("default: Kafka's murmur2 of the key, and keyless records spread over the partitions", () => {
    const p = createSinkPartitioner('default', 0);
    // murmur2("a") & 0x7fffffff = 584102524, as the Java client computes it; 584102524 % 4 = 0, % 3 = 1.
    expect(p(args('out', 4, 'a'))).toBe(0);
    expect(p(args('out', 3, 'a'))).toBe(1);
    expect(new Set(Array.from({ length: 8 }, () => p(args('out', 4))))).toEqual(new Set([0, 1, 2, 3]));
  });
});
