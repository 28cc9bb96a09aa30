import type { StateKey } from '../runtime/state/state.js';
import { hashFields } from '../types/values/equality.js';

/**
 * The state / hash-table key of a row's join key. A single INT, BIGINT, DOUBLE, STRING, DATE or TIMESTAMP
 * column (a number, bigint or string at runtime) is its own key: no hashing per row, and `Map`'s
 * SameValueZero agrees with `valuesEqual` on those (NaN = NaN, 0 = -0). Any other key (composite, DECIMAL,
 * BYTES, NULL, ...) is keyed by its hash, which may collide with another key's hash or with a plain number,
 * so callers still confirm candidates with `keysEqual`.
 */
export function joinKeyOf(fields: readonly unknown[], keys: readonly number[]): StateKey {
  if (keys.length === 1) {
    const v = fields[keys[0]!];
    const t = typeof v;
    if (t === 'number' || t === 'string' || t === 'bigint') return v as number | string | bigint;
  }
  return hashFields(fields, keys);
}

/**
 * A fresh joined row's fields: the left side's `leftArity` fields then the right side's `rightArity`,
 * a missing side (null) padded with NULLs. Called per output row, so no closures or spread.
 */
export function concatFields(l: readonly unknown[] | null, leftArity: number, r: readonly unknown[] | null, rightArity: number): unknown[] {
  const out = new Array<unknown>(leftArity + rightArity);
  if (l === null) for (let i = 0; i < leftArity; i++) out[i] = null;
  else for (let i = 0; i < leftArity; i++) out[i] = l[i];
  if (r === null) for (let i = 0; i < rightArity; i++) out[leftArity + i] = null;
  else for (let i = 0; i < rightArity; i++) out[leftArity + i] = r[i];
  return out;
}
