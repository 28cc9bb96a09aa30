// One notion of value identity (issue #19 item 7): keys, DISTINCT, joins and exchanges all decide "the same value"
// by `valuesEqual`; `hashValue` (hash exchanges, join and group buckets) and `valueKey` (Map / Set keys of
// accumulators, DISTINCT) must agree with it on every pair of values of one type. Random values of random types,
// drawn from small domains so equal pairs are frequent.
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/types/decimal.js';
import { hashValue, valuesEqual } from '../../../src/types/values/equality.js';
import { timestampOf } from '../../../src/types/values/precise-timestamp.js';
import { valueKey } from '../../../src/types/values/value-key.js';

/** A small deterministic PRNG (mulberry32), so a failure replays. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Shape = 'double' | 'int' | 'bigint' | 'string' | 'boolean' | 'decimal' | 'timestamp' | 'bytes' | { array: Shape } | { row: Shape[] } | { map: [Shape, Shape] };

const DOUBLES = [0, -0, 1, -1, 1.5, 0.1 + 0.2, 0.3, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 2 ** 53, 1e300];

function shape(r: () => number, depth: number): Shape {
  const leaves: Shape[] = ['double', 'int', 'bigint', 'string', 'boolean', 'decimal', 'timestamp', 'bytes'];
  if (depth >= 2 || r() < 0.6) return leaves[Math.floor(r() * leaves.length)]!;
  const k = r();
  if (k < 0.4) return { array: shape(r, depth + 1) };
  if (k < 0.8) return { row: Array.from({ length: 1 + Math.floor(r() * 3) }, () => shape(r, depth + 1)) };
  return { map: [shape(r, depth + 1), shape(r, depth + 1)] };
}

function value(s: Shape, r: () => number): unknown {
  if (r() < 0.1) return null;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  if (typeof s === 'string') {
    switch (s) {
      case 'double':
        return pick(DOUBLES);
      case 'int':
        return pick([0, 1, -1, 7, 2147483647, -2147483648]);
      case 'bigint':
        return pick([0n, 1n, -1n, 2n ** 40n, -(2n ** 63n), 2n ** 63n - 1n]);
      case 'string':
        return pick(['', 'a', 'b', 'null', 'NaN', 'D1.5', '1.5', 'J[1]', 'é']);
      case 'boolean':
        return r() < 0.5;
      case 'decimal':
        return Decimal.parse(pick(['1.5', '1.50', '1.500', '0', '0.00', '-2', '-2.0', '123456789012345678901234.5']));
      case 'timestamp':
        return timestampOf(pick([0, 1000, -1000]), pick([0, 1, 999_999, 1_000_000]));
      case 'bytes':
        return new Uint8Array(pick([[], [1], [1, 2], [2, 1]]));
    }
  }
  if ('array' in s) return Array.from({ length: Math.floor(r() * 3) }, () => value(s.array, r));
  if ('row' in s) return s.row.map((f) => value(f, r));
  const m = new Map<unknown, unknown>();
  const n = Math.floor(r() * 3);
  for (let i = 0; i < n; i++) {
    const k = value(s.map[0], r);
    // A MAP's keys are distinct values: skip one equal to a key already there.
    if (![...m.keys()].some((x) => valuesEqual(x, k))) m.set(k, value(s.map[1], r));
  }
  return m;
}

/** Whether two Map keys find the same entry (SameValueZero, as Map and Set compare them). */
function sameMapKey(a: unknown, b: unknown): boolean {
  return new Set([a]).has(b);
}

describe('valuesEqual, hashValue and valueKey agree on every pair of values of one type', () => {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`seed ${seed}`, () => {
      const r = rng(seed);
      let equalPairs = 0;
      for (let t = 0; t < 150; t++) {
        const s = shape(r, 0);
        const values = Array.from({ length: 12 }, () => value(s, r));
        for (const a of values) {
          for (const b of values) {
            const equal = valuesEqual(a, b);
            const where = `type ${JSON.stringify(s)}, values ${String(valueKey(a))} and ${String(valueKey(b))}`;
            expect(valuesEqual(b, a), `symmetric: ${where}`).toBe(equal);
            expect(sameMapKey(valueKey(a), valueKey(b)), `valueKey: ${where}`).toBe(equal);
            if (equal) {
              equalPairs++;
              expect(hashValue(a), `hashValue: ${where}`).toBe(hashValue(b));
            }
          }
        }
      }
      // The domains are small on purpose: the property must have been exercised on equal values that differ in form.
      expect(equalPairs).toBeGreaterThan(1000);
    });
  }
});
