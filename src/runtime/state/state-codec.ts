import { serialize, deserialize } from 'node:v8';
import { Decimal } from '../../types/decimal.js';
import { Row } from '../../types/row.js';

interface ClassCodec {
  readonly ctor: abstract new (...args: never[]) => unknown;
  toPlain(v: unknown): unknown;
  fromPlain(v: unknown): unknown;
}

const classes = new Map<string, ClassCodec>();

/**
 * Registers a value class (e.g. `Decimal`) so state holding it survives checkpoints; `toPlain` must return
 * something the codec handles (primitives, bigint, arrays, plain objects, Map, Set, Uint8Array, Row).
 */
export function registerStateClass<C>(
  name: string,
  ctor: abstract new (...args: never[]) => C,
  toPlain: (v: C) => unknown,
  fromPlain: (v: unknown) => C,
): void {
  classes.set(name, { ctor, toPlain: toPlain as (v: unknown) => unknown, fromPlain });
}

function toPlain(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(toPlain);
  if (v instanceof Row) return { $row: v.kind, f: v.fields.map(toPlain) };
  if (v instanceof Uint8Array) return v;
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [toPlain(k), toPlain(x)]));
  if (v instanceof Set) return new Set([...v].map(toPlain));
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null) {
    for (const [name, c] of classes) {
      if (v instanceof c.ctor) return { $cls: name, v: toPlain(c.toPlain(v)) };
    }
  }
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = toPlain(x);
  return out;
}

function fromPlain(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(fromPlain);
  if (v instanceof Uint8Array) return v;
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [fromPlain(k), fromPlain(x)]));
  if (v instanceof Set) return new Set([...v].map(fromPlain));
  const o = v as Record<string, unknown>;
  if ('$row' in o) return new Row(o.$row as Row['kind'], (o.f as unknown[]).map(fromPlain));
  if (typeof o.$cls === 'string') {
    const c = classes.get(o.$cls);
    if (!c) throw new Error(`state holds a value of class '${o.$cls}' that is not registered with registerStateClass`);
    return c.fromPlain(fromPlain(o.v));
  }
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(o)) out[k] = fromPlain(x);
  return out;
}

/** Encodes checkpointed state (Rows, bigint, Map, ... kept exact) into bytes. */
export function encodeState(value: unknown): Uint8Array {
  return serialize(toPlain(value));
}

export function decodeState(data: Uint8Array): unknown {
  return fromPlain(deserialize(data));
}

// DECIMAL is a value type of every table (docs/values.md): state holding it must come back as a Decimal,
// not as the plain {unscaled, scale} object the default path would restore.
registerStateClass('Decimal', Decimal, (d) => [d.unscaled, d.scale], (p) => {
  const [unscaled, scale] = p as [bigint, number];
  return Decimal.of(unscaled, scale);
});
