import { describe, expect, it } from 'vitest';
import { FastRandom } from '../../../src/connectors/datagen/random.js';
import { NexmarkRandom } from '../../../src/connectors/nexmark/nexmark-random.js';

describe('NexmarkRandom', () => {
  it('draws exactly the sequence of datagen FastRandom, for seeds on both sides of 2^31', () => {
    for (const seed of [0, 1, 0x7fffffff, 0x80000000, 0xdeadbeef, 4294967295]) {
      const a = new FastRandom(seed);
      const b = new NexmarkRandom(seed);
      const c = new NexmarkRandom();
      c.reseed(seed);
      for (let i = 0; i < 200; i++) {
        const x = a.nextUint32();
        expect(b.nextUint32()).toBe(x);
        expect(c.nextUint32()).toBe(x);
        expect(x).toBeGreaterThanOrEqual(0);
        expect(x).toBeLessThan(4294967296);
      }
      expect([b.nextInt(1000), b.nextInt(4294967296), b.nextInt(2 ** 40)]).toEqual([a.nextInt(1000), a.nextInt(4294967296), a.nextIntBetween(0, 2 ** 40 - 1)]);
    }
  });
});
