import { describe, expect, it } from 'vitest';
import { encodeStateKey, keyOrder } from '../../../src/runtime/state/lmdb-key-codec.js';
import type { StateKey } from '../../../src/runtime/state/state.js';

/** The order lmdb keeps keys in: bytewise. */
function bytewise(keys: Buffer[]): number[] {
  return keys.map((_, i) => i).sort((a, b) => Buffer.compare(keys[a]!, keys[b]!) || a - b);
}

describe('keyOrder', () => {
  it('orders 32-bit integer keys as lmdb does (bytewise), negatives after positives', () => {
    const ints = [0, -1, 1, 2 ** 31 - 1, -(2 ** 31), 255, 256, -256, 65_536, 7, 7, -7];
    for (let i = 0; i < 2_000; i++) ints.push(Math.imul(i, 0x9e3779b1));
    const keys = ints.map((k) => encodeStateKey(3, k));
    const order = [...keyOrder(keys)];
    expect(order.map((i) => keys[i]!.toString('hex'))).toEqual(bytewise(keys).map((i) => keys[i]!.toString('hex')));
    expect(new Set(order).size).toBe(keys.length);
  });

  it('orders keys of mixed types bytewise', () => {
    const mixed: StateKey[] = ['b', 'a', 1.5, 3, 10n, -2n, true, false, null, '', 2 ** 40];
    const keys = mixed.map((k) => encodeStateKey(0, k));
    expect([...keyOrder(keys)]).toEqual(bytewise(keys));
  });
});
