import { ExecutionError } from '../../errors/sluice-error.js';
import { Decimal } from '../../types/decimal.js';
import type { LogicalType } from '../../types/logical-type.js';
import { formatValue } from '../../types/values/format-value.js';
import { parseDate, parseTime, parseTimestamp } from '../../types/values/temporal.js';

/**
 * Runtime helpers behind compiled expressions: numeric coercion to a result type, comparison across
 * the numeric representations (number, bigint, Decimal) and CAST. Inputs are never null here; the
 * compiler handles NULL before calling.
 */

export function toDecimal(v: unknown): Decimal {
  if (v instanceof Decimal) return v;
  if (typeof v === 'bigint') return Decimal.fromBigInt(v);
  if (typeof v === 'number') return Number.isInteger(v) ? Decimal.fromBigInt(BigInt(v)) : Decimal.fromNumber(v);
  return Decimal.parse(String(v));
}

export function toBigInt(v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return BigInt(Math.trunc(v));
  if (v instanceof Decimal) return v.toBigInt();
  return BigInt(String(v));
}

export function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Decimal) return v.toNumber();
  return Number(v);
}

/** Wraps an integer to the width of `kind` as Java does on overflow. */
export function wrapInt(n: number, kind: string): number {
  switch (kind) {
    case 'TINYINT':
      return (n << 24) >> 24;
    case 'SMALLINT':
      return (n << 16) >> 16;
    default:
      return n | 0;
  }
}

/** Brings a numeric value to the representation of numeric type `t`. */
export function coerceNumeric(v: unknown, t: LogicalType): unknown {
  switch (t.kind) {
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT':
      return wrapInt(Math.trunc(toNumber(v)), t.kind);
    case 'BIGINT':
      return BigInt.asIntN(64, toBigInt(v));
    case 'FLOAT':
      return Math.fround(toNumber(v));
    case 'DOUBLE':
      return toNumber(v);
    case 'DECIMAL': {
      const d = toDecimal(v).toPrecision(t.precision, t.scale);
      return d;
    }
    default:
      return v;
  }
}

/** Total order for comparisons of two non-null values of comparable types. */
export function compareValues(a: unknown, b: unknown): number {
  const ta = typeof a;
  const tb = typeof b;
  if (ta === 'number' && tb === 'number') return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
  if (ta === 'string' && tb === 'string') return (a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0;
  if (ta === 'bigint' && tb === 'bigint') return (a as bigint) < (b as bigint) ? -1 : (a as bigint) > (b as bigint) ? 1 : 0;
  if (ta === 'boolean' && tb === 'boolean') return Number(a) - Number(b);
  if (a instanceof Decimal || b instanceof Decimal) {
    if ((ta === 'number' && !Number.isFinite(a)) || (tb === 'number' && !Number.isFinite(b))) {
      return Math.sign(toNumber(a) - toNumber(b));
    }
    return toDecimal(a).compareTo(toDecimal(b));
  }
  if ((ta === 'bigint' || ta === 'number') && (tb === 'bigint' || tb === 'number')) {
    if (ta === 'number' && !Number.isInteger(a)) return Math.sign((a as number) - Number(b));
    if (tb === 'number' && !Number.isInteger(b)) return Math.sign(Number(a) - (b as number));
    const x = toBigInt(a);
    const y = toBigInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
    return a.length - b.length;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
      const c = compareNullable(a[i], b[i]);
      if (c !== 0) return c;
    }
    return a.length - b.length;
  }
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

/** As compareValues with NULL first (the default of ORDER BY ASC in Flink). */
export function compareNullable(a: unknown, b: unknown): number {
  if (a === null || a === undefined) return b === null || b === undefined ? 0 : -1;
  if (b === null || b === undefined) return 1;
  return compareValues(a, b);
}

function castError(v: unknown, from: LogicalType, to: LogicalType): ExecutionError {
  return new ExecutionError(`Cannot cast '${formatValue(v, from)}' of type ${from.kind} to ${to.kind}.`);
}

/**
 * CAST of a non-null value from `from` to `to`. Returns undefined when the text does not parse (the
 * caller raises for CAST or yields NULL for TRY_CAST).
 */
export function castValue(v: unknown, from: LogicalType, to: LogicalType, timeZone: string): unknown {
  switch (to.kind) {
    case 'CHAR':
    case 'VARCHAR': {
      const s = typeof v === 'string' ? v : formatValue(v, from, { timeZone });
      if (to.kind === 'CHAR' && s.length < to.length && from.kind !== 'VARCHAR') return s.padEnd(to.length, ' ');
      return s.length > to.length ? s.slice(0, to.length) : s;
    }
    case 'BOOLEAN':
      if (typeof v === 'string') {
        const t = v.trim().toLowerCase();
        if (t === 'true') return true;
        if (t === 'false') return false;
        return undefined;
      }
      if (typeof v === 'boolean') return v;
      return toNumber(v) !== 0;
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT':
    case 'BIGINT':
    case 'FLOAT':
    case 'DOUBLE':
    case 'DECIMAL': {
      if (typeof v === 'string') {
        const t = v.trim();
        if (t === '' || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) {
          if (to.kind === 'DOUBLE' || to.kind === 'FLOAT') {
            if (t === 'NaN') return NaN;
            if (t === 'Infinity' || t === '+Infinity') return Infinity;
            if (t === '-Infinity') return -Infinity;
          }
          return undefined;
        }
        if (to.kind === 'DOUBLE' || to.kind === 'FLOAT') return coerceNumeric(Number(t), to);
        if (to.kind !== 'DECIMAL' && /^[+-]?\d+$/.test(t)) {
          const b = BigInt(t);
          const limit = to.kind === 'BIGINT' ? 64 : to.kind === 'INT' ? 32 : to.kind === 'SMALLINT' ? 16 : 8;
          if (BigInt.asIntN(limit, b) !== b) return undefined;
          return to.kind === 'BIGINT' ? b : Number(b);
        }
        const d = Decimal.tryParse(t);
        if (d === null) return undefined;
        if (to.kind === 'DECIMAL') return d.toPrecision(to.precision, to.scale);
        return coerceNumeric(d, to);
      }
      if (typeof v === 'boolean') return coerceNumeric(v ? 1 : 0, to);
      if (to.kind === 'DECIMAL') {
        const d = toDecimal(v).toPrecision(to.precision, to.scale);
        return d;
      }
      return coerceNumeric(v, to);
    }
    case 'DATE':
      if (typeof v === 'string') return tryOrUndefined(() => parseDate(v));
      if (from.kind === 'TIMESTAMP' || from.kind === 'TIMESTAMP_LTZ') return Math.floor((v as number) / 86_400_000);
      throw castError(v, from, to);
    case 'TIME':
      if (typeof v === 'string') return tryOrUndefined(() => parseTime(v));
      if (from.kind === 'TIMESTAMP' || from.kind === 'TIMESTAMP_LTZ') return (((v as number) % 86_400_000) + 86_400_000) % 86_400_000;
      throw castError(v, from, to);
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ':
      if (typeof v === 'string') return tryOrUndefined(() => parseTimestamp(v));
      if (from.kind === 'DATE') return (v as number) * 86_400_000;
      if (typeof v === 'number' || typeof v === 'bigint') {
        return from.kind === 'TIMESTAMP' || from.kind === 'TIMESTAMP_LTZ' ? v : toNumber(v) * 1000;
      }
      throw castError(v, from, to);
    default:
      return v;
  }
}

function tryOrUndefined<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}
