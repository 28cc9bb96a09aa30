import { ValidationError } from '../../errors/sluice-error.js';
import { Decimal } from '../decimal.js';
import { PreciseTimestamp } from './precise-timestamp.js';
import { Row } from '../row.js';
import type { RowKind } from '../row-kind.js';
import type { JsonValue } from './json-value.js';

/**
 * Lossless, type-free encoding of values for checkpointed state: every representation of docs/values.md
 * (bigint, Decimal, PreciseTimestamp, Uint8Array, Map, nested arrays, null, NaN, -0) plus plain objects, to JSON and back.
 *
 * Tagged forms are one-key objects (`{"$n": "9007199254740993"}`); plain objects are wrapped in `$o` so a
 * user object can never be mistaken for a tag. Strings, booleans, finite numbers and arrays stay as they
 * are, so state files remain readable.
 */
export function encodeValue(v: unknown): JsonValue {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'boolean':
    case 'string':
      return v;
    case 'number':
      if (Number.isFinite(v) && !Object.is(v, -0)) return v;
      return { $f: Object.is(v, -0) ? '-0' : String(v) };
    case 'bigint':
      return { $n: v.toString() };
    case 'object': {
      if (Array.isArray(v)) return v.map(encodeValue);
      if (v instanceof Decimal) return { $d: v.toString() };
      if (v instanceof PreciseTimestamp) return { $t: [v.millis, v.nanoOfMilli] };
      if (v instanceof Uint8Array) return { $b: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') };
      if (v instanceof Map) return { $m: [...v].map(([k, x]) => [encodeValue(k), encodeValue(x)]) };
      if (v instanceof Row) return { $r: [v.kind, v.fields.map(encodeValue)] };
      const out: { [key: string]: JsonValue } = {};
      for (const [k, x] of Object.entries(v)) out[k] = encodeValue(x);
      return { $o: out };
    }
    default:
      throw new ValidationError(`Cannot encode a value of type ${typeof v} into state.`);
  }
}

/** Inverse of `encodeValue`. @throws ValidationError on input `encodeValue` cannot have produced. */
export function decodeValue(json: JsonValue): unknown {
  if (json === null || typeof json !== 'object') return json;
  if (Array.isArray(json)) return json.map(decodeValue);
  const keys = Object.keys(json);
  if (keys.length !== 1) throw new ValidationError(`Corrupt state value: ${JSON.stringify(json).slice(0, 100)}`);
  const tag = keys[0]!;
  const body = json[tag]!;
  switch (tag) {
    case '$n':
      return BigInt(body as string);
    case '$d':
      return Decimal.parse(body as string);
    case '$t': {
      const [millis, nanoOfMilli] = body as [number, number];
      return new PreciseTimestamp(millis, nanoOfMilli);
    }
    case '$f':
      return body === '-0' ? -0 : Number(body);
    case '$b': {
      const buf = Buffer.from(body as string, 'base64');
      return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength).slice();
    }
    case '$m':
      return new Map((body as JsonValue[][]).map(([k, x]) => [decodeValue(k!), decodeValue(x!)]));
    case '$r': {
      const [kind, fields] = body as [number, JsonValue[]];
      return new Row(kind as RowKind, fields.map(decodeValue));
    }
    case '$o': {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(body as { [key: string]: JsonValue })) out[k] = decodeValue(x);
      return out;
    }
    default:
      throw new ValidationError(`Corrupt state value: unknown tag '${tag}'.`);
  }
}

/** `encodeValue` serialized to UTF-8 JSON bytes. */
export function encodeValueToBuffer(v: unknown): Buffer {
  return Buffer.from(JSON.stringify(encodeValue(v)), 'utf8');
}

/** Inverse of `encodeValueToBuffer`. */
export function decodeValueFromBuffer(buf: Uint8Array): unknown {
  return decodeValue(JSON.parse(Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString('utf8')) as JsonValue);
}
