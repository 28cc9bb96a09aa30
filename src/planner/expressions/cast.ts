import { ExecutionError, PlanningError } from '../../errors/sluice-error.js';
import { Decimal } from '../../types/decimal.js';
import type { LogicalType } from '../../types/logical-type.js';
import { MAX_LENGTH, typesEqualIgnoringNullability } from '../../types/logical-type.js';
import { typeToString } from '../../types/type-to-string.js';
import { formatValue } from '../../types/values/format-value.js';
import {
  MS_PER_DAY,
  castStringToDate,
  instantToWallClock,
  parseTime,
  parseTimestampLtzValue,
  parseTimestampValue,
  timestampToDate,
  timestampToTime,
  wallClockToEpochMs,
  wallClockToInstant,
  zoneOffsetMs,
} from '../../types/values/temporal.js';
import { millisOf, truncateTimestamp } from '../../types/values/precise-timestamp.js';
import type { TimestampValue } from '../../types/values/precise-timestamp.js';
import { isCharacterString, isDatetime, isIntegral, isInterval, isNumeric, sqlTypeName } from './type-rules.js';

/**
 * CAST between types with Flink's rules (1.15+ semantics, not the legacy ones): the planning-time check
 * and a caster specialised once per cast site, so the per-row work is one closure call.
 */

/** A converter of a non-null value of one type to another; throws ExecutionError when the value does not convert. */
export type Caster = (value: unknown) => unknown;

/** True when CAST(from AS to) is supported. */
export function canCast(from: LogicalType, to: LogicalType): boolean {
  if (from.kind === 'NULL') return true;
  if (typesEqualIgnoringNullability(from, to)) return true;
  // A real Flink 2.3 casts a VARIANT to nothing else and nothing to a VARIANT ("Cast function cannot convert value of
  // type VARIANT to type VARCHAR(2147483647)").
  if (from.kind === 'VARIANT' || to.kind === 'VARIANT') return false;
  if (isCharacterString(to)) return true;
  if (isCharacterString(from)) return to.kind !== 'ARRAY' && to.kind !== 'MAP' && to.kind !== 'MULTISET' && to.kind !== 'ROW' && !isInterval(to);
  if (isNumeric(from) && (isNumeric(to) || to.kind === 'BOOLEAN')) return true;
  if (from.kind === 'BOOLEAN' && isNumeric(to)) return true;
  if (isDatetime(from) && isDatetime(to)) return !(from.kind === 'TIME' && to.kind !== 'TIME') && !(from.kind === 'DATE' && to.kind === 'TIME');
  if ((from.kind === 'BINARY' || from.kind === 'VARBINARY') && (to.kind === 'BINARY' || to.kind === 'VARBINARY')) return true;
  // Only a single-field interval casts to an integer (Calcite): a real Flink 2.3 refuses CAST(INTERVAL '10-4' YEAR TO
  // MONTH AS INT). Intervals of one class cast to each other, the months or milliseconds unchanged (it answers
  // CAST(CAST(INTERVAL '10-3' YEAR TO MONTH AS INTERVAL MONTH) AS STRING) with +10-03; CastFunctionITCase).
  if ((from.kind === 'INTERVAL_YEAR_MONTH' || from.kind === 'INTERVAL_DAY_TIME') && isIntegral(to)) return !from.resolution.includes('_TO_');
  if (isIntegral(from) && isInterval(to)) return true;
  if (isInterval(from) && from.kind === to.kind) return true;
  if ((from.kind === 'ARRAY' && to.kind === 'ARRAY') || (from.kind === 'MULTISET' && to.kind === 'MULTISET')) return canCast(from.element, (to as typeof from).element);
  if (from.kind === 'MAP' && to.kind === 'MAP') return canCast(from.key, to.key) && canCast(from.value, to.value);
  if (from.kind === 'ROW' && to.kind === 'ROW') {
    return from.fields.length === to.fields.length && from.fields.every((f, i) => canCast(f.type, to.fields[i]!.type));
  }
  return false;
}

/** @throws PlanningError in Flink's words when the cast is not supported. */
export function checkCast(from: LogicalType, to: LogicalType): void {
  if (!canCast(from, to)) {
    throw new PlanningError(`Cast function cannot convert value of type ${sqlTypeName(from)} to type ${sqlTypeName(to)}`);
  }
}

function fail(value: unknown, from: LogicalType, to: LogicalType, timeZone: string): never {
  let shown: string;
  try {
    shown = formatValue(value, from, { timeZone });
  } catch {
    shown = String(value);
  }
  throw new ExecutionError(`Cannot cast '${shown}' of type ${typeToString(from)} to type ${typeToString(to)}.`);
}

const INT_BITS: Record<string, number> = { TINYINT: 8, SMALLINT: 16, INT: 32 };

/** Java's narrowing of an integer (number or bigint) to `bits` bits. */
function wrapInt(v: number | bigint, bits: number): number {
  if (typeof v === 'bigint') return Number(BigInt.asIntN(bits, v));
  return bits === 32 ? v | 0 : (v << (32 - bits)) >> (32 - bits);
}

/** Java's (int) / (long) of a double: NaN -> 0, saturate, truncate toward zero. */
function doubleToLong(d: number): bigint {
  if (Number.isNaN(d)) return 0n;
  if (d >= 9223372036854775807) return 9223372036854775807n;
  if (d <= -9223372036854775808) return -9223372036854775808n;
  return BigInt(Math.trunc(d));
}

function doubleToInt(d: number): number {
  if (Number.isNaN(d)) return 0;
  if (d >= 2147483647) return 2147483647;
  if (d <= -2147483648) return -2147483648;
  return Math.trunc(d);
}

// Flink's BinaryStringDataUtil.toLong: digits up to a '.', whose fraction must be digits; no digit before the '.' is 0
// (a real Flink 2.3.0 casts '.5' to 0, found by the differential harness).
const INTEGER_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d*)$/;
const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[dDfF]?$/;
const TRUE_TEXT = new Set(['true', 't', 'yes', 'y', '1']);
const FALSE_TEXT = new Set(['false', 'f', 'no', 'n', '0']);
const INT_RANGE: Record<string, readonly [bigint, bigint]> = {
  TINYINT: [-128n, 127n],
  SMALLINT: [-32768n, 32767n],
  INT: [-2147483648n, 2147483647n],
  BIGINT: [-9223372036854775808n, 9223372036854775807n],
};

function parseNumberText(s: string): number | undefined {
  const t = s.trim();
  if (NUMBER_TEXT.test(t)) return Number(t.replace(/[dDfF]$/, ''));
  if (/^[+-]?(NaN|Infinity)$/.test(t)) return Number(t);
  return undefined;
}

/** A string truncated or space-padded to a CHAR(n) / VARCHAR(n) length, as Flink 1.15+ casts. */
function fitLength(s: string, to: LogicalType): string {
  if (to.kind === 'CHAR') return s.length > to.length ? s.slice(0, to.length) : s.padEnd(to.length, ' ');
  if (to.kind === 'VARCHAR' && to.length < MAX_LENGTH && s.length > to.length) return s.slice(0, to.length);
  return s;
}

const utf8Decoder = new TextDecoder();
const utf8Encoder = new TextEncoder();

/** Truncate epoch ms to a TIMESTAMP / TIME precision below milliseconds' 3 digits. */
function truncateToPrecision(ms: number, precision: number): number {
  if (precision >= 3) return ms;
  const unit = 10 ** (3 - precision);
  return Math.floor(ms / unit) * unit;
}

/**
 * A caster from `from` to `to` (assumed `canCast`) for non-null values. `timeZone` is
 * `table.local-time-zone`, used for TIMESTAMP_LTZ conversions.
 */
export function makeCaster(from: LogicalType, to: LogicalType, timeZone = 'UTC'): Caster {
  if (from.kind === 'NULL') return () => null;
  const bad = (v: unknown): never => fail(v, from, to, timeZone);
  if (isCharacterString(to)) {
    if (isCharacterString(from)) return (v) => fitLength(v as string, to);
    if (from.kind === 'BINARY' || from.kind === 'VARBINARY') return (v) => fitLength(utf8Decoder.decode(v as Uint8Array), to);
    return (v) => fitLength(formatValue(v, from, { timeZone }), to);
  }
  if (typesEqualIgnoringNullability(from, to)) return (v) => v;
  switch (to.kind) {
    case 'BOOLEAN':
      if (isCharacterString(from)) {
        return (v) => {
          const t = (v as string).trim().toLowerCase();
          if (TRUE_TEXT.has(t)) return true;
          if (FALSE_TEXT.has(t)) return false;
          return bad(v);
        };
      }
      if (from.kind === 'DECIMAL') return (v) => !(v as Decimal).isZero();
      return (v) => v !== 0 && v !== 0n;
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT': {
      const bits = INT_BITS[to.kind]!;
      if (isIntegral(from)) return (v) => wrapInt(v as number | bigint, bits);
      if (from.kind === 'DECIMAL') return (v) => wrapInt(BigInt.asIntN(64, (v as Decimal).toBigInt()), bits);
      if (from.kind === 'FLOAT' || from.kind === 'DOUBLE') return (v) => wrapInt(doubleToInt(v as number), bits);
      if (from.kind === 'BOOLEAN') return (v) => (v ? 1 : 0);
      if (isInterval(from)) return (v) => wrapInt(v as number, bits);
      if (isCharacterString(from)) return (v) => Number(parseIntegerText(v as string, to.kind, bad));
      break;
    }
    case 'BIGINT':
      if (isIntegral(from) || isInterval(from)) return (v) => BigInt(v as number);
      if (from.kind === 'DECIMAL') return (v) => BigInt.asIntN(64, (v as Decimal).toBigInt());
      if (from.kind === 'FLOAT' || from.kind === 'DOUBLE') return (v) => doubleToLong(v as number);
      if (from.kind === 'BOOLEAN') return (v) => (v ? 1n : 0n);
      if (isCharacterString(from)) return (v) => parseIntegerText(v as string, 'BIGINT', bad);
      break;
    case 'FLOAT':
    case 'DOUBLE': {
      const round = to.kind === 'FLOAT' ? Math.fround : (x: number) => x;
      if (isIntegral(from) || from.kind === 'FLOAT' || from.kind === 'DOUBLE') return (v) => round(Number(v));
      if (from.kind === 'DECIMAL') return (v) => round((v as Decimal).toNumber());
      if (from.kind === 'BOOLEAN') return (v) => (v ? 1 : 0);
      if (isCharacterString(from)) {
        return (v) => {
          const n = parseNumberText(v as string);
          return n === undefined ? bad(v) : round(n);
        };
      }
      break;
    }
    case 'DECIMAL': {
      const { precision, scale } = to;
      const fit = (d: Decimal): Decimal | null => d.toPrecision(precision, scale);
      if (isIntegral(from)) return (v) => fit(Decimal.fromBigInt(BigInt(v as number)));
      if (from.kind === 'DECIMAL') return (v) => fit(v as Decimal);
      if (from.kind === 'FLOAT' || from.kind === 'DOUBLE') {
        return (v) => (Number.isFinite(v as number) ? fit(Decimal.fromNumber(v as number)) : bad(v));
      }
      if (from.kind === 'BOOLEAN') return (v) => fit(v ? Decimal.ONE : Decimal.ZERO);
      if (isCharacterString(from)) {
        return (v) => {
          const d = Decimal.tryParse((v as string).trim());
          return d === null ? bad(v) : fit(d);
        };
      }
      break;
    }
    case 'DATE':
      if (isCharacterString(from)) return (v) => parseOr(() => castStringToDate(v as string), v, bad);
      if (from.kind === 'TIMESTAMP') return (v) => timestampToDate(millisOf(v as TimestampValue));
      if (from.kind === 'TIMESTAMP_LTZ') return (v) => timestampToDate(ltzWallMs(v as TimestampValue, timeZone));
      break;
    case 'TIME':
      if (isCharacterString(from)) return (v) => truncateToPrecision(parseOr(() => parseTime(v as string), v, bad), to.precision);
      if (from.kind === 'TIMESTAMP') return (v) => truncateToPrecision(timestampToTime(millisOf(v as TimestampValue)), to.precision);
      if (from.kind === 'TIMESTAMP_LTZ') return (v) => truncateToPrecision(timestampToTime(ltzWallMs(v as TimestampValue, timeZone)), to.precision);
      if (from.kind === 'TIME') return (v) => truncateToPrecision(v as number, to.precision);
      break;
    case 'TIMESTAMP': {
      const p = to.precision;
      if (isCharacterString(from)) return (v) => parseOr(() => parseTimestampValue(v as string, p), v, bad);
      if (from.kind === 'DATE') return (v) => (v as number) * MS_PER_DAY;
      if (from.kind === 'TIMESTAMP') return (v) => truncateTimestamp(v as TimestampValue, p);
      if (from.kind === 'TIMESTAMP_LTZ') return (v) => truncateTimestamp(instantToWallClock(v as TimestampValue, timeZone), p);
      break;
    }
    case 'TIMESTAMP_LTZ': {
      const p = to.precision;
      if (isCharacterString(from)) return (v) => parseOr(() => parseTimestampLtzValue(v as string, timeZone, p), v, bad);
      if (from.kind === 'DATE') return (v) => wallClockToEpochMs((v as number) * MS_PER_DAY, timeZone);
      if (from.kind === 'TIMESTAMP') return (v) => truncateTimestamp(wallClockToInstant(v as TimestampValue, timeZone), p);
      if (from.kind === 'TIMESTAMP_LTZ') return (v) => truncateTimestamp(v as TimestampValue, p);
      break;
    }
    case 'BINARY':
    case 'VARBINARY': {
      const len = to.length;
      const fitBytes = (b: Uint8Array): Uint8Array => {
        if (b.length > len) return b.slice(0, len);
        if (to.kind === 'BINARY' && b.length < len) {
          const out = new Uint8Array(len);
          out.set(b);
          return out;
        }
        return b;
      };
      if (isCharacterString(from)) return (v) => fitBytes(utf8Encoder.encode(v as string));
      if (from.kind === 'BINARY' || from.kind === 'VARBINARY') return (v) => fitBytes(v as Uint8Array);
      break;
    }
    case 'INTERVAL_YEAR_MONTH':
    case 'INTERVAL_DAY_TIME':
      if (isIntegral(from)) return (v) => Number(v);
      if (from.kind === to.kind) return (v) => v;
      break;
    case 'ARRAY': {
      if (from.kind !== 'ARRAY') break;
      const el = nullSafe(makeCaster(from.element, to.element, timeZone));
      return (v) => (v as unknown[]).map(el);
    }
    case 'MULTISET': {
      if (from.kind !== 'MULTISET') break;
      const el = nullSafe(makeCaster(from.element, to.element, timeZone));
      return (v) => new Map([...(v as Map<unknown, number>)].map(([k, n]) => [el(k), n]));
    }
    case 'MAP': {
      if (from.kind !== 'MAP') break;
      const k = nullSafe(makeCaster(from.key, to.key, timeZone));
      const val = nullSafe(makeCaster(from.value, to.value, timeZone));
      return (v) => new Map([...(v as Map<unknown, unknown>)].map(([a, b]) => [k(a), val(b)]));
    }
    case 'ROW': {
      if (from.kind !== 'ROW') break;
      const fs = to.fields.map((f, i) => nullSafe(makeCaster(from.fields[i]!.type, f.type, timeZone)));
      return (v) => fs.map((c, i) => c((v as unknown[])[i]));
    }
    case 'NULL':
    case 'CHAR':
    case 'VARCHAR':
      break;
    default:
      break;
  }
  throw new PlanningError(`Cast function cannot convert value of type ${sqlTypeName(from)} to type ${sqlTypeName(to)}`);
}

function nullSafe(c: Caster): Caster {
  return (v) => (v === null || v === undefined ? null : c(v));
}

/** Wall-clock epoch ms in `timeZone` of a TIMESTAMP_LTZ instant. */
function ltzWallMs(v: TimestampValue, timeZone: string): number {
  const ms = millisOf(v);
  return ms + zoneOffsetMs(ms, timeZone);
}

function parseOr<T>(parse: () => T, v: unknown, bad: (v: unknown) => never): T {
  try {
    return parse();
  } catch {
    return bad(v);
  }
}

/** Java's Integer.parseInt-like parse, lenient about a fraction (dropped) as Flink's string-to-integer cast. */
function parseIntegerText(s: string, kind: string, bad: (v: unknown) => never): bigint {
  const t = s.trim();
  if (!INTEGER_TEXT.test(t)) return bad(s);
  const dot = t.indexOf('.');
  const v = BigInt(dot < 0 ? t : t.slice(0, dot) || '0');
  const [min, max] = INT_RANGE[kind]!;
  if (v < min || v > max) return bad(s);
  return v;
}

/** A TRY_CAST variant: null instead of an error. */
export function makeTryCaster(from: LogicalType, to: LogicalType, timeZone = 'UTC'): Caster {
  const c = makeCaster(from, to, timeZone);
  return (v) => {
    try {
      return c(v);
    } catch (e) {
      if (e instanceof ExecutionError) return null;
      throw e;
    }
  };
}
