import { Decimal } from '../decimal.js';
import { PreciseTimestamp } from './precise-timestamp.js';

/**
 * Equality and hashing of values for keys (GROUP BY, joins, hash exchanges, MAP keys, state keys).
 * Works on the runtime representation alone, no type needed. `hashValue(a) === hashValue(b)` whenever
 * `valuesEqual(a, b)`. Both are hot-path safe: no string building, no allocation for primitives.
 *
 * Semantics for keys (not SQL three-valued logic): null equals null, NaN equals NaN, DECIMAL compares by
 * value (1.5 = 1.50), a PreciseTimestamp by its instant, Uint8Array by bytes, arrays element-wise, Maps by entries regardless of order.
 */
export function valuesEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return false;
  const ta = typeof a;
  if (ta !== typeof b) return false;
  if (ta === 'number') return Number.isNaN(a) && Number.isNaN(b);
  if (ta !== 'object') return false;
  if (a instanceof Decimal) return b instanceof Decimal && a.equals(b);
  // Canonical form (precise-timestamp.ts): a whole millisecond is never a PreciseTimestamp, so a number never equals one.
  if (a instanceof PreciseTimestamp) return b instanceof PreciseTimestamp && a.millis === b.millis && a.nanoOfMilli === b.nanoOfMilli;
  if (a instanceof Uint8Array) {
    if (!(b instanceof Uint8Array) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!valuesEqual(a[i], b[i])) return false;
    return true;
  }
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    for (const [k, v] of a) {
      if (b.has(k)) {
        if (!valuesEqual(v, b.get(k))) return false;
        continue;
      }
      let found = false;
      for (const [k2, v2] of b) {
        if (valuesEqual(k, k2)) {
          if (!valuesEqual(v, v2)) return false;
          found = true;
          break;
        }
      }
      if (!found) return false;
    }
    return true;
  }
  return false;
}

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

/** Murmur3-style finalizer: spreads bits so sequential keys land in different buckets. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

/** Combine two hashes in order (for composite keys and sequences). */
export function combineHash(h: number, next: number): number {
  return (Math.imul(h, 31) + next) | 0;
}

function hashNumber(n: number): number {
  if (Number.isInteger(n) && n >= -0x80000000 && n <= 0x7fffffff) return mix(n | 0);
  if (Number.isNaN(n)) return 0x7ff80000;
  f64[0] = n === 0 ? 0 : n; // -0 and 0 are equal as keys
  return mix(u32[0]! ^ Math.imul(u32[1]!, 0x9e3779b1));
}

function hashBigInt(v: bigint): number {
  // Range test on the number, not on the bigint: bigint comparisons are calls in optimized code, and this runs once
  // per row for every BIGINT key. Number(v) is exact below 2^53, so the test accepts exactly the int32 bigints.
  const n = Number(v);
  if (n >= -0x80000000 && n <= 0x7fffffff) return mix(n ^ 0x5bd1e995);
  let h = v < 0n ? 1 : 0;
  let x = v < 0n ? -v : v;
  while (x > 0n) {
    h = combineHash(h, Number(x & 0xffffffffn));
    x >>= 32n;
  }
  return mix(h);
}

function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix(h);
}

/** A 32-bit hash of a value, consistent with `valuesEqual`. */
export function hashValue(v: unknown): number {
  if (v === null || v === undefined) return 0;
  switch (typeof v) {
    case 'number':
      return hashNumber(v);
    case 'bigint':
      return hashBigInt(v);
    case 'string':
      return hashString(v);
    case 'boolean':
      return v ? 1231 : 1237;
    case 'object': {
      if (v instanceof Decimal) {
        const s = v.stripTrailingZeros();
        return combineHash(hashBigInt(s.unscaled), s.scale);
      }
      if (v instanceof PreciseTimestamp) return mix(combineHash(hashNumber(v.millis), v.nanoOfMilli));
      if (v instanceof Uint8Array) {
        let h = 0x811c9dc5;
        for (let i = 0; i < v.length; i++) {
          h ^= v[i]!;
          h = Math.imul(h, 0x01000193);
        }
        return mix(h ^ 0x2f);
      }
      if (Array.isArray(v)) {
        let h = 1;
        for (let i = 0; i < v.length; i++) h = combineHash(h, hashValue(v[i]));
        return mix(h);
      }
      if (v instanceof Map) {
        // Order-independent so equal maps built in different orders hash alike.
        let h = 0;
        for (const [k, x] of v) h = (h + (hashValue(k) ^ Math.imul(hashValue(x), 0x27d4eb2d))) | 0;
        return mix(h ^ v.size);
      }
      return 0;
    }
    default:
      return 0;
  }
}

/** Whether two rows' fields (or two keys) are equal value by value, as `valuesEqual` says. */
export function fieldsEqual(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !valuesEqual(a[i], b[i])) return false;
  return true;
}

/**
 * Whether the key fields `ak` of the row at offset `ao` in `a` equal the key fields `bk` of the row at `bo` in
 * `b` under SQL equality, as a join compares its keys: a NULL key never equals anything.
 */
export function keyFieldsEqual(a: readonly unknown[], ao: number, ak: readonly number[], b: readonly unknown[], bo: number, bk: readonly number[]): boolean {
  for (let i = 0; i < ak.length; i++) {
    const x = a[ao + ak[i]!];
    if (x === null || !valuesEqual(x, b[bo + bk[i]!])) return false;
  }
  return true;
}

/** Hash of the fields at `indexes` of `fields` (a key of a row), without building a key array. */
export function hashFields(fields: readonly unknown[], indexes: readonly number[]): number {
  let h = 1;
  for (let i = 0; i < indexes.length; i++) h = combineHash(h, hashValue(fields[indexes[i]!]));
  return h;
}
