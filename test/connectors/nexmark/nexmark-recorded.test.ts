import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_NEXMARK_CONFIG, NexmarkGenerator, type NexmarkConfig } from '../../../src/connectors/nexmark/index.js';
import { ValidationError } from '../../../src/errors/sluice-error.js';

describe('NexmarkGenerator recorded events', () => {
  it('generates the recorded events (digest), early and at event numbers past 2^32 people and auctions', () => {
    // Recorded before the generator moved from its own PRNG copy to datagen's FastRandom: events must not change.
    const g = new NexmarkGenerator({ ...DEFAULT_NEXMARK_CONFIG, baseTime: 0 });
    const h = createHash('sha256');
    const ns = [...Array.from({ length: 3000 }, (_, i) => i), ...Array.from({ length: 200 }, (_, i) => 1e12 + i * 7919), 2 ** 52 + 1];
    for (const n of ns) h.update(JSON.stringify(g.event(n), (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)));
    expect(h.digest('hex')).toBe('70ddb06d2c4bceb599de627830c634b80b72dbdc9847663fc67c8b3a81715257');
  });

  it('generates the recorded events for non-default proportions, rates, sizes, hot ratios and windows', () => {
    // Recorded before bids drew from a local mulberry32 state: covers no bid extra (delta 0), a SQUARE rate,
    // hotBiddersRatio 1 (never hot), small and large active-people and in-flight-auction windows.
    const configs: Partial<NexmarkConfig>[] = [
      { personProportion: 2, auctionProportion: 5, bidProportion: 13, seed: 42, hotAuctionRatio: 3, hotBiddersRatio: 1, hotSellersRatio: 2, avgBidByteSize: 20, firstEventRate: 1000, nextEventRate: 3000, ratePeriodMs: 10_000, baseTime: 1_700_000_000_000, numActivePeople: 50, numInFlightAuctions: 7 },
      { seed: 7, avgBidByteSize: 300, avgPersonByteSize: 20, avgAuctionByteSize: 1000, bidProportion: 96, numInFlightAuctions: 1000, numActivePeople: 100_000, baseTime: 1_000 },
    ];
    const digests = configs.map((over) => {
      const g = new NexmarkGenerator({ ...DEFAULT_NEXMARK_CONFIG, ...over });
      const h = createHash('sha256');
      const ns = [...Array.from({ length: 5000 }, (_, i) => i), ...Array.from({ length: 300 }, (_, i) => 3e11 + i * 104729)];
      for (const n of ns) h.update(JSON.stringify(g.event(n), (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)));
      return h.digest('hex');
    });
    expect(digests).toEqual([
      '25ff7f5254f59747e9b2273ca0e882180934830c956f79862f79ca617736717b',
      'b6cde58337095d1412244c25f6690130affaeafc7efd1ca07f6efe1c648713a5',
    ]);
  });

  it('refuses windows a single 32-bit draw cannot cover', () => {
    expect(() => new NexmarkGenerator({ ...DEFAULT_NEXMARK_CONFIG, numActivePeople: 2 ** 31 })).toThrow(ValidationError);
  });
});
