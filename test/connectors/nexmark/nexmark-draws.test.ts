import { describe, expect, it } from 'vitest';
import { FastRandom, MULBERRY32_STEP, mulberry32, uint32ToInt } from '../../../src/connectors/datagen/random.js';

// Nexmark bids draw with a local mulberry32 state instead of a FastRandom: both must give the same numbers.
describe('stateless mulberry32 draws', () => {
  it('the k-th draw after a seed is mulberry32(seed + k * step), as FastRandom draws it', () => {
    for (const seed of [0, 1, 0x5eed, 0x7fffffff, 0x80000000, 0xffffffff, -12345]) {
      const r = new FastRandom(seed);
      let s = seed | 0;
      for (let k = 1; k <= 50; k++) {
        s = (s + MULBERRY32_STEP) | 0;
        expect(mulberry32(s)).toBe(r.nextUint32());
        expect(mulberry32(((seed | 0) + k * MULBERRY32_STEP) | 0)).toBe(mulberry32(s));
      }
    }
  });

  it('uint32ToInt of a draw is nextInt of that draw, for bounds up to 2^32', () => {
    for (const bound of [1, 2, 4, 13, 26, 10_000, 65_536, 2 ** 31, 2 ** 32]) {
      const a = new FastRandom(bound);
      const b = new FastRandom(bound);
      for (let k = 0; k < 200; k++) expect(uint32ToInt(a.nextUint32(), bound)).toBe(b.nextInt(bound));
    }
    expect(uint32ToInt(0xffffffff, 10)).toBe(9);
    expect(uint32ToInt(0, 10)).toBe(0);
  });
});
