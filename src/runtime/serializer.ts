/**
 * How splits, enumerator checkpoints, writer states and committables are turned into bytes for a
 * checkpoint. Sluice chose bytes (not "any JSON-able value") so a connector controls its own format and
 * its evolution; `jsonSerializer` covers the common case.
 *
 * `serialize` and `deserialize` are called by the runtime on the task's turn of the event loop, once per
 * split / state object per checkpoint or restore; they must be synchronous and must not keep references
 * to the input.
 */
export interface VersionedSerializer<T> {
  /** The format version written with every serialized value; `deserialize` receives the writer's version. */
  readonly version: number;
  serialize(value: T): Uint8Array;
  /** Reads a value written by a serializer of `version` (possibly older than this one). */
  deserialize(version: number, data: Uint8Array): T;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A JSON serializer that also round-trips `bigint` (as `{"$bigint":"123"}`) and `Uint8Array`
 * (as `{"$bytes":"<base64>"}`), so split offsets may be BIGINT values.
 */
export function jsonSerializer<T>(version = 1): VersionedSerializer<T> {
  return {
    version,
    serialize(value: T): Uint8Array {
      return encoder.encode(JSON.stringify(value, jsonReplacer));
    },
    deserialize(_version: number, data: Uint8Array): T {
      return JSON.parse(decoder.decode(data), jsonReviver) as T;
    },
  };
}

/** `JSON.stringify` replacer used by `jsonSerializer` and checkpoint metadata. */
export function jsonReplacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return { $bigint: value.toString() };
  if (value instanceof Uint8Array) return { $bytes: Buffer.from(value).toString('base64') };
  return value;
}

/** `JSON.parse` reviver matching `jsonReplacer`. */
export function jsonReviver(_key: string, value: unknown): unknown {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    if (typeof o.$bigint === 'string' && Object.keys(o).length === 1) return BigInt(o.$bigint);
    if (typeof o.$bytes === 'string' && Object.keys(o).length === 1) {
      return new Uint8Array(Buffer.from(o.$bytes, 'base64'));
    }
  }
  return value;
}
