import { Decimal } from '../../types/decimal.js';
import { encodeValue } from '../../types/values/state-codec.js';

/**
 * A Map key for a value such that equal SQL values (1.5 and 1.50, equal byte arrays) share one key.
 * New code uses types/values/value-key.ts; this older form stays only because COLLECT keeps these keys in
 * its accumulator, which checkpoints hold: switching would split a restored multiset's DECIMAL, BYTES and
 * ARRAY entries in two.
 * Primitives (number, string, boolean, bigint) are their own key; Maps compare those by value already.
 */
export function keyOf(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (v instanceof Decimal) return `d:${v.stripTrailingZeros().toString()}`;
  if (v instanceof Uint8Array) return `b:${Buffer.from(v).toString('hex')}`;
  return `j:${JSON.stringify(encodeValue(v))}`;
}
