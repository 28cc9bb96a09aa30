import { describe, expect, it } from 'vitest';
import { bigintOf } from '../../../src/types/values/small-bigint.js';

describe('bigintOf', () => {
  it('equals BigInt(n) in and out of the shared range, past 2^53 and below 0', () => {
    for (const n of [0, 1, 65535, 65536, -1, -65536, 2 ** 40, Number.MAX_SAFE_INTEGER, 2 ** 53, 2 ** 60, -(2 ** 60)]) {
      expect(bigintOf(n)).toBe(BigInt(n));
      expect(bigintOf(n)).toBe(BigInt(n)); // the second call reads the shared one
    }
  });

  it('refuses a non-integer as BigInt does', () => {
    expect(() => bigintOf(1.5)).toThrow(RangeError);
    expect(() => bigintOf(70000.5)).toThrow(RangeError);
  });
});
