import { ExecutionError } from '../../errors/sluice-error.js';
import { Decimal } from '../../types/decimal.js';
import { valuesEqual } from '../../types/values/equality.js';
import { compareTimestamps, PreciseTimestamp } from '../../types/values/precise-timestamp.js';
import type { TimestampValue } from '../../types/values/precise-timestamp.js';

/**
 * Helpers generated code calls, passed to it as the `rt` parameter (no global lookups). Everything here
 * is per-row hot-path code: no allocation beyond the result, no await.
 */

function divisionByZero(): never {
  throw new ExecutionError('Division by zero');
}

/** INT / INT with Java semantics: truncating, wrapping, ExecutionError on zero. */
function divInt(a: number, b: number): number {
  if (b === 0) divisionByZero();
  return (a / b) | 0;
}

function modInt(a: number, b: number): number {
  if (b === 0) divisionByZero();
  return a % b;
}

function divLong(a: bigint, b: bigint): bigint {
  if (b === 0n) divisionByZero();
  return BigInt.asIntN(64, a / b);
}

function modLong(a: bigint, b: bigint): bigint {
  if (b === 0n) divisionByZero();
  return a % b;
}

function decAdd(a: Decimal, b: Decimal, p: number, s: number): Decimal | null {
  return a.add(b).toPrecision(p, s);
}

function decSub(a: Decimal, b: Decimal, p: number, s: number): Decimal | null {
  return a.subtract(b).toPrecision(p, s);
}

function decMul(a: Decimal, b: Decimal, p: number, s: number): Decimal | null {
  return a.multiply(b).toPrecision(p, s);
}

function decDiv(a: Decimal, b: Decimal, p: number, s: number): Decimal | null {
  if (b.isZero()) divisionByZero();
  return a.divide(b, s).toPrecision(p, s);
}

function decMod(a: Decimal, b: Decimal, p: number, s: number): Decimal | null {
  if (b.isZero()) divisionByZero();
  return a.remainder(b).toPrecision(p, s);
}

/** Byte-wise unsigned comparison, as Flink compares BINARY values. */
function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** Ordering of any two non-null values of the same comparable type. */
function compare(a: unknown, b: unknown): number {
  if (a instanceof Decimal) return a.compareTo(b as Decimal);
  if (a instanceof Uint8Array) return compareBytes(a, b as Uint8Array);
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    const n = Math.min(a.length, bb.length);
    for (let i = 0; i < n; i++) {
      const x = a[i];
      const y = bb[i];
      if (x === null || y === null) {
        if (x !== y) return x === null ? -1 : 1;
        continue;
      }
      const c = compare(x, y);
      if (c !== 0) return c;
    }
    return a.length - bb.length;
  }
  // TIMESTAMP(4..9): whole milliseconds are numbers, finer values PreciseTimestamps; either side may be either.
  if (a instanceof PreciseTimestamp || b instanceof PreciseTimestamp) return compareTimestamps(a as TimestampValue, b as TimestampValue);
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
}

/** SQL `=` of non-null values (NaN is not equal to itself, unlike key equality). */
function eq(a: unknown, b: unknown): boolean {
  if (typeof a === 'number') return a === b;
  return valuesEqual(a, b);
}

/** `arr[i]`, 1-based; null outside the array as Flink. */
function arrayItem(a: readonly unknown[], i: number): unknown {
  const v = a[i - 1];
  return v === undefined ? null : v;
}

/** `map[k]`; keys compared by value so bigint/Decimal/array keys work. */
function mapGet(m: Map<unknown, unknown>, k: unknown): unknown {
  const direct = m.get(k);
  if (direct !== undefined) return direct;
  if (typeof k === 'object' || typeof k === 'number') {
    for (const [key, v] of m) if (valuesEqual(key, k)) return v;
  }
  return null;
}

function raise(message: string): never {
  throw new ExecutionError(message);
}

export const runtime = {
  divInt,
  modInt,
  divLong,
  modLong,
  decAdd,
  decSub,
  decMul,
  decDiv,
  decMod,
  compare,
  compareBytes,
  eq,
  valuesEqual,
  arrayItem,
  mapGet,
  raise,
  Decimal,
  Math,
  BigInt,
} as const;

export type Runtime = typeof runtime;
