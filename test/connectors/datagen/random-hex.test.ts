import { describe, expect, it } from 'vitest';
import { RandomHexStrings } from '../../../src/connectors/datagen/random-hex.js';
import { FastRandom } from '../../../src/connectors/datagen/random.js';

describe('RandomHexStrings', () => {
  it('makes practically all of 200,000 strings of length 10 distinct (the old pool gave about 16 K)', () => {
    const g = new RandomHexStrings();
    const rng = new FastRandom(7);
    const seen = new Set<string>();
    for (let i = 0; i < 200_000; i++) seen.add(g.next(rng, 10));
    // 16^10 values: the expected number of collisions among 200,000 draws is about 0.02.
    expect(seen.size).toBeGreaterThanOrEqual(199_999);
  });

  it('draws each character uniformly from 0-9a-f, at every position', () => {
    const g = new RandomHexStrings();
    const rng = new FastRandom(11);
    const n = 40_000;
    const counts = Array.from({ length: 5 }, () => new Map<string, number>());
    for (let i = 0; i < n; i++) {
      const s = g.next(rng, 5);
      expect(s).toMatch(/^[0-9a-f]{5}$/);
      for (let p = 0; p < 5; p++) counts[p]!.set(s[p]!, (counts[p]!.get(s[p]!) ?? 0) + 1);
    }
    for (const byChar of counts) {
      expect(byChar.size).toBe(16);
      // Expected 2,500 each; a uniform draw stays within 10% with overwhelming probability.
      for (const c of byChar.values()) expect(Math.abs(c - n / 16)).toBeLessThan(250);
    }
  });

  it('gives exactly the asked length, longer than a chunk too, and the same sequence for the same seed', () => {
    const a = new RandomHexStrings();
    const b = new RandomHexStrings();
    const ra = new FastRandom(3);
    const rb = new FastRandom(3);
    for (const len of [0, 1, 7, 8, 9, 13, 100, 5000, 10_000, 3]) {
      const s = a.next(ra, len);
      expect(s.length).toBe(len);
      expect(b.next(rb, len)).toBe(s);
    }
  });

  it('keeps one sequence per random source when readers on one thread alternate', () => {
    const shared = new RandomHexStrings();
    const alone = new RandomHexStrings();
    const r1 = new FastRandom(5);
    const r2 = new FastRandom(6);
    const r1Alone = new FastRandom(5);
    const first = shared.next(r1, 10);
    shared.next(r2, 10);
    expect(first).toBe(alone.next(r1Alone, 10));
    // After another reader drew, r1's next string comes from r1's own stream again.
    expect(shared.next(r1, 10)).toMatch(/^[0-9a-f]{10}$/);
  });
});
