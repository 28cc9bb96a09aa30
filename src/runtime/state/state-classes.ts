/**
 * Value classes that checkpointed state may hold besides the built-in kinds (registered by name, so the
 * name, not the JavaScript class, is what the bytes carry and what a later release must still know).
 */
export interface StateClass {
  readonly name: string;
  readonly ctor: abstract new (...args: never[]) => unknown;
  toPlain(v: unknown): unknown;
  fromPlain(v: unknown): unknown;
}

const byName = new Map<string, StateClass>();
/** Exact prototype to class: the encoder's fast path (one map lookup instead of an instanceof scan). */
const byProto = new Map<object, StateClass>();

/**
 * Registers a value class (e.g. `Decimal`) so state holding it survives checkpoints; `toPlain` must return
 * something the codec handles (primitives, bigint, arrays, plain objects, Map, Set, Uint8Array, Row, or
 * another registered class). The name is written into checkpoints: keep it stable across releases.
 */
export function registerStateClass<C>(
  name: string,
  ctor: abstract new (...args: never[]) => C,
  toPlain: (v: C) => unknown,
  fromPlain: (v: unknown) => C,
): void {
  const c: StateClass = { name, ctor, toPlain: toPlain as (v: unknown) => unknown, fromPlain };
  const old = byName.get(name);
  if (old) byProto.delete(old.ctor.prototype as object);
  byName.set(name, c);
  byProto.set(ctor.prototype as object, c);
}

export function stateClassByName(name: string): StateClass | undefined {
  return byName.get(name);
}

/** The registered class of `v` (its exact class, else the first registered superclass), if any. */
export function stateClassOf(v: object, proto: object | null): StateClass | undefined {
  if (proto !== null) {
    const exact = byProto.get(proto);
    if (exact) return exact;
  }
  for (const c of byName.values()) if (v instanceof c.ctor) return c;
  return undefined;
}
