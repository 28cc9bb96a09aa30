import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_NEXMARK_CONFIG, NexmarkGenerator } from '../../../src/connectors/nexmark/index.js';

describe('NexmarkGenerator recorded events', () => {
  it('generates the recorded events (digest), early and at event numbers past 2^32 people and auctions', () => {
    // Recorded before the generator moved from its own PRNG copy to datagen's FastRandom: events must not change.
    const g = new NexmarkGenerator({ ...DEFAULT_NEXMARK_CONFIG, baseTime: 0 });
    const h = createHash('sha256');
    const ns = [...Array.from({ length: 3000 }, (_, i) => i), ...Array.from({ length: 200 }, (_, i) => 1e12 + i * 7919), 2 ** 52 + 1];
    for (const n of ns) h.update(JSON.stringify(g.event(n), (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)));
    expect(h.digest('hex')).toBe('70ddb06d2c4bceb599de627830c634b80b72dbdc9847663fc67c8b3a81715257');
  });
});
