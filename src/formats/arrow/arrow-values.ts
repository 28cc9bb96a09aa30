import type * as A from 'apache-arrow';
import { Decimal } from '../../types/decimal.js';
import type { LogicalType } from '../../types/logical-type.js';
import { MS_PER_DAY } from '../common/temporal-text.js';

/** A Sluice value to what apache-arrow's builders take; undefined when the value passes as it is. */
export function toArrowConverter(t: LogicalType): ((v: unknown) => unknown) | undefined {
  switch (t.kind) {
    case 'DECIMAL': {
      const scale = t.scale;
      return (v) => decimalToWords((v as Decimal).rescale(scale).unscaled);
    }
    case 'DATE':
      // Arrow JS builders take (and getters return) epoch ms for DateDay.
      return (v) => (v as number) * MS_PER_DAY;
    case 'INTERVAL_DAY_TIME':
      return (v) => BigInt(v as number);
    case 'ARRAY': {
      const e = toArrowConverter(t.element);
      return e === undefined ? undefined : (v) => (v as unknown[]).map((x) => (x === null ? null : e(x)));
    }
    case 'MAP': {
      const k = toArrowConverter(t.key);
      const x = toArrowConverter(t.value);
      if (k === undefined && x === undefined) return undefined;
      return (v) => new Map([...(v as Map<unknown, unknown>)].map(([a, b]) => [k === undefined ? a : k(a), x === undefined || b === null ? b : x(b)]));
    }
    case 'MULTISET': {
      const k = toArrowConverter(t.element);
      return k === undefined ? undefined : (v) => new Map([...(v as Map<unknown, number>)].map(([a, n]) => [k(a), n]));
    }
    case 'ROW': {
      const cs = t.fields.map((f) => toArrowConverter(f.type));
      if (cs.every((c) => c === undefined)) return undefined;
      return (v) => (v as unknown[]).map((x, i) => (x === null || cs[i] === undefined ? x : cs[i]!(x)));
    }
    default:
      return undefined;
  }
}

const MASK32 = 0xffffffffn;

/** A 128-bit two's complement integer as four little-endian 32-bit words (Arrow's Decimal128 layout). */
export function decimalToWords(unscaled: bigint): Uint32Array {
  let v = BigInt.asUintN(128, unscaled);
  const w = new Uint32Array(4);
  for (let k = 0; k < 4; k++) {
    w[k] = Number(v & MASK32);
    v >>= 32n;
  }
  return w;
}

/** The signed 128-bit integer at position `i` of a Decimal128 words buffer. */
export function wordsToBigInt(words: Uint32Array, i: number): bigint {
  const o = i * 4;
  const lo = BigInt(words[o]!) | (BigInt(words[o + 1]!) << 32n);
  const hi = BigInt(words[o + 2]!) | (BigInt(words[o + 3]!) << 32n);
  return BigInt.asIntN(128, (hi << 64n) | lo);
}

/**
 * A value from apache-arrow's `Vector.get` (the slow, generic path used for nested values and for
 * columns whose Arrow type differs from what Sluice writes) into the Sluice representation.
 */
export function fromArrowValue(v: unknown, t: LogicalType, at: A.DataType | undefined): unknown {
  if (v === null || v === undefined) return null;
  switch (t.kind) {
    case 'NULL':
      return null;
    case 'BOOLEAN':
      return Boolean(v);
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT':
      return Number(v);
    case 'BIGINT':
      return typeof v === 'bigint' ? v : BigInt(Math.trunc(Number(v)));
    case 'FLOAT':
      return Math.fround(Number(v));
    case 'DOUBLE':
      return Number(v);
    case 'DECIMAL': {
      let d: Decimal;
      if (v instanceof Uint32Array) d = Decimal.of(wordsToBigInt(v, 0), (at as A.Decimal | undefined)?.scale ?? 0);
      else if (typeof v === 'bigint') d = Decimal.fromBigInt(v);
      else d = Decimal.fromNumber(Number(v));
      return d.toPrecision(t.precision, t.scale);
    }
    case 'CHAR':
    case 'VARCHAR':
      return String(v);
    case 'BINARY':
    case 'VARBINARY':
      return (v as Uint8Array).slice();
    case 'DATE':
      return Math.floor(Number(v) / MS_PER_DAY);
    case 'TIME':
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ':
    case 'INTERVAL_DAY_TIME':
      return Number(v);
    case 'INTERVAL_YEAR_MONTH':
      return v instanceof Int32Array ? v[0]! * 12 + v[1]! : Number(v);
    case 'ARRAY':
      return Array.from(v as Iterable<unknown>, (x) => fromArrowValue(x, t.element, child(at, 0)));
    case 'MAP':
    case 'MULTISET': {
      const kt = t.kind === 'MAP' ? t.key : t.element;
      const entries = child(at, 0);
      const out = new Map<unknown, unknown>();
      for (const [k, x] of v as Iterable<[unknown, unknown]>) {
        out.set(fromArrowValue(k, kt, child(entries, 0)), t.kind === 'MAP' ? fromArrowValue(x, t.value, child(entries, 1)) : Number(x));
      }
      return out;
    }
    case 'ROW': {
      const o = v as { toJSON(): Record<string, unknown> };
      const obj = o.toJSON();
      const children = at?.children ?? [];
      return t.fields.map((f) => fromArrowValue(obj[f.name], f.type, children.find((c) => c.name === f.name)?.type));
    }
  }
}

function child(at: A.DataType | undefined, i: number): A.DataType | undefined {
  return at?.children?.[i]?.type;
}
