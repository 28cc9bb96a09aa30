import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/types/decimal.js';
import { valueKey } from '../../../src/types/values/value-key.js';
import { valuesEqual } from '../../../src/types/values/equality.js';

const d = (s: string): Decimal => Decimal.parse(s);

describe('valueKey: one Map key per value, equal as valuesEqual says', () => {
  it('keeps the forms checkpoints already hold for primitives, DECIMAL and arrays of primitives', () => {
    expect(valueKey(1)).toBe(1);
    expect(valueKey('a')).toBe('a');
    expect(valueKey(5n)).toBe(5n);
    expect(valueKey(null)).toBe(null);
    expect(valueKey(d('1.50'))).toBe('D1.5');
    expect(valueKey([1, 'a', 5n])).toBe('J[1,"a","5n"]');
    expect(valueKey(new Uint8Array([1, 2]))).toBe('J{"0":1,"1":2}');
  });

  it('gives equal values one key and different values different keys', () => {
    const equal: [unknown, unknown][] = [
      [d('1.5'), d('1.500')],
      [[d('1.5'), 1], [d('1.50'), 1]],
      [new Map([['a', 1], ['b', 2]]), new Map([['b', 2], ['a', 1]])],
      [[new Map([[1, [d('2.0')]]])], [new Map([[1, [d('2')]]])]],
      [new Uint8Array([7, 8]), new Uint8Array([7, 8])],
    ];
    for (const [a, b] of equal) {
      expect(valuesEqual(a, b)).toBe(true);
      expect(valueKey(a)).toBe(valueKey(b));
    }
    const different: [unknown, unknown][] = [
      [new Map([['a', 1]]), new Map([['a', 2]])],
      [new Map([['a', 1]]), new Map()],
      [[d('1.5')], ['1.5']],
      [[5n], ['5']],
      [[1, 2], [2, 1]],
      // JSON writes all three as null.
      [[Number.NaN], [null]],
      [[Number.POSITIVE_INFINITY], [Number.NaN]],
      [[Number.NEGATIVE_INFINITY], [Number.POSITIVE_INFINITY]],
    ];
    for (const [a, b] of different) {
      expect(valuesEqual(a, b)).toBe(false);
      expect(valueKey(a)).not.toBe(valueKey(b));
    }
  });
});
