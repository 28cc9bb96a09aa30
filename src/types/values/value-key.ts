import { Decimal } from '../decimal.js';
import { PreciseTimestamp } from './precise-timestamp.js';

/**
 * A value's identity as a JavaScript Map or Set key: two values that are equal as keys (`valuesEqual`) get
 * the same key. Primitives are their own key; a DECIMAL is its normalized text (1.5 and 1.50 share one), a
 * timestamp finer than a millisecond `T<millis>.<nanoOfMilli>`; any
 * other object (BYTES, ARRAY, ROW, MAP, an argument list) is its JSON text, with bigint, DECIMAL, NaN, the
 * infinities and MAP spelled so that they neither collide with other values nor depend on a MAP's insertion order.
 * test/types/values/value-identity.test.ts checks the agreement with `valuesEqual` and `hashValue` on random values.
 *
 * Accumulators keep these keys (MIN/MAX and FIRST/LAST_VALUE with retraction, DISTINCT), so checkpoints hold
 * them: the forms of values that were already right (primitives, DECIMAL, arrays of primitives, BYTES) must
 * not change.
 */
export function valueKey(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (v instanceof Decimal) return 'D' + v.stripTrailingZeros().toString();
  if (v instanceof PreciseTimestamp) return `T${v.millis}.${v.nanoOfMilli}`;
  return 'J' + JSON.stringify(v, jsonKeyPart);
}

function jsonKeyPart(this: unknown, k: string, x: unknown): unknown {
  // JSON.stringify hands the replacer a Decimal already turned into its plain text; the holder has the value.
  const raw = (this as Record<string, unknown>)[k];
  if (raw instanceof Decimal) return `${raw.stripTrailingZeros().toString()}m`;
  if (raw instanceof PreciseTimestamp) return `${raw.millis}.${raw.nanoOfMilli}t`;
  if (typeof x === 'bigint') return `${x}n`;
  // JSON writes NaN and the infinities as null, which made them one key with NULL and with each other.
  if (typeof x === 'number' && !Number.isFinite(x)) return `${x}d`;
  if (x instanceof Map) {
    const entries = [...x].map(([mk, mv]) => [JSON.stringify(mk, jsonKeyPart), mv] as const);
    entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return { map: entries };
  }
  return x;
}
