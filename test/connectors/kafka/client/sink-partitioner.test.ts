import { describe, expect, it } from 'vitest';
import type { Admin } from 'kafkajs';
import { SinkPartitioner } from '../../../../src/connectors/kafka/client/sink-partitioner.js';

/** An admin whose topics have the partition counts in `counts`; records every metadata request. */
function fakeAdmin(counts: Map<string, number>): { admin: Admin; requests: string[][] } {
  const requests: string[][] = [];
  const admin = {
    fetchTopicMetadata: async ({ topics }: { topics: string[] }) => {
      requests.push([...topics]);
      return {
        topics: topics.map((name) => ({
          name,
          partitions: Array.from({ length: counts.get(name) ?? 0 }, (_, i) => ({ partitionId: i })),
        })),
      };
    },
  } as unknown as Admin;
  return { admin, requests };
}

describe('SinkPartitioner', () => {
  it('re-reads partition counts older than metadata.max.age.ms, so fixed follows added partitions', async () => {
    const counts = new Map([['out', 2]]);
    const { admin, requests } = fakeAdmin(counts);
    let now = 1000;
    const p = new SinkPartitioner('fixed', 3, admin, 500, () => now);
    await p.prepare(['out', 'out']);
    expect(p.partitionFor('out')).toBe(1); // 3 % 2
    counts.set('out', 4);
    now += 499;
    await p.prepare(['out']);
    expect(p.partitionFor('out')).toBe(1); // still the cached count: no request within the age
    expect(requests).toEqual([['out']]);
    now += 1;
    await p.prepare(['out']);
    expect(p.partitionFor('out')).toBe(3); // 3 % 4
    expect(requests).toEqual([['out'], ['out']]);
  });

  it('round-robin cycles over the new partitions after a refresh; only stale or new topics are requested', async () => {
    const counts = new Map([
      ['a', 1],
      ['b', 2],
    ]);
    const { admin, requests } = fakeAdmin(counts);
    let now = 0;
    const p = new SinkPartitioner('round-robin', 0, admin, 100, () => now);
    await p.prepare(['a']);
    expect([p.partitionFor('a'), p.partitionFor('a')]).toEqual([0, 0]);
    counts.set('a', 3);
    now = 100;
    await p.prepare(['a', 'b']);
    expect(requests).toEqual([['a'], ['a', 'b']]);
    const seen = new Set(Array.from({ length: 6 }, () => p.partitionFor('a')));
    expect([...seen].sort()).toEqual([0, 1, 2]);
  });

  it('the default partitioner leaves the choice (and its metadata) to kafkajs', async () => {
    const { admin, requests } = fakeAdmin(new Map([['out', 2]]));
    const p = new SinkPartitioner('default', 0, admin, 0);
    await p.prepare(['out']);
    expect(p.partitionFor('out')).toBeUndefined();
    expect(requests).toEqual([]);
  });
});
