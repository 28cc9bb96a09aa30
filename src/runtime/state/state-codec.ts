import { ExecutionError } from '../../errors/sluice-error.js';
import { Decimal } from '../../types/decimal.js';
import { PreciseTimestamp } from '../../types/values/precise-timestamp.js';
import { decodeLegacyV8State } from './legacy-v8-state.js';
import { registerStateClass } from './state-classes.js';
import { StateDecoder } from './state-decoder.js';
import { type ExternalBytes, encodeStatePieces, encodeStateToFile as encodeToFile, encodeStateV1, UnsupportedStateValue } from './state-encoder.js';
import { FORMAT_VERSION, MAGIC, V8_HEADER } from './state-format.js';
import { describeStateValue, findStatePath } from './state-path.js';

export { registerStateClass } from './state-classes.js';
export { ExternalBytes } from './state-encoder.js';

/**
 * Encodes checkpointed state (Rows, bigint, Map, Decimal, ... kept exact) into Sluice's versioned binary
 * state format (docs/state-format.md), which later releases keep reading.
 *
 * @throws ExecutionError when the value holds something the format cannot store (an instance of a class
 *   not registered with `registerStateClass`, a function, a symbol, a cycle), naming it and where it is.
 */
export function encodeState(value: unknown): Uint8Array {
  return explained(value, () => encodeStateV1(value));
}

/**
 * `encodeState`'s bytes as pieces to write one after the other, byte arrays of `gatherBytes` or more
 * not copied but pieces of their own (see `encodeStatePieces`).
 */
export function encodeStateInPieces(value: unknown, gatherBytes: number): Array<Uint8Array | ExternalBytes> {
  return explained(value, () => encodeStatePieces(value, gatherBytes));
}

/**
 * `encodeState`'s bytes (as `decodeState` reads them) written to the file open as `fd`, from its start, as
 * they are encoded: a state larger than memory is never held whole. Returns the number of bytes written.
 *
 * @throws ExecutionError as `encodeState`; the file system's error when the file cannot be written
 */
export function encodeStateToFile(value: unknown, fd: number): number {
  return explained(value, () => encodeToFile(value, fd));
}

/** Runs an encode of `value`, turning what the format cannot store into an ExecutionError saying where it is. */
function explained<T>(value: unknown, encode: () => T): T {
  try {
    return encode();
  } catch (e) {
    if (e instanceof UnsupportedStateValue) {
      const path = findStatePath(value, e.value);
      const at = path === undefined ? '' : ` at ${path}`;
      if (e.reason === 'cycle') {
        throw new ExecutionError(`Cannot checkpoint state: it contains a cycle${at} (an object that holds itself); state values must be trees.`);
      }
      throw new ExecutionError(
        `Cannot checkpoint state: it holds ${describeStateValue(e.value)}${at}, which the state format cannot store. State may hold ` +
          'primitives, bigint, arrays, plain objects, Map, Set, Uint8Array, Date, Row and classes registered with registerStateClass.',
      );
    }
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      throw new ExecutionError('Cannot checkpoint state: it is nested too deeply (thousands of levels) to encode.', { cause: e });
    }
    throw e;
  }
}

/**
 * Decodes bytes of any format version this release knows: version 1, and the node:v8 form earlier
 * releases wrote. Bytes of a newer format version are refused, not misread.
 *
 * @throws ExecutionError on a newer format version, truncated or corrupt bytes, or a class that is not registered.
 */
export function decodeState(data: Uint8Array): unknown {
  if (data.length > 0 && data[0] === V8_HEADER) return decodeLegacyV8State(data);
  for (let i = 0; i < MAGIC.length; i++) {
    if (i >= data.length) {
      throw new ExecutionError(`Cannot read checkpointed state: it is ${data.length} bytes long, shorter than the state header; the state file is truncated.`);
    }
    if (data[i] !== MAGIC[i]) {
      throw new ExecutionError('Cannot read checkpointed state: it starts with neither the Sluice state header (SLST) nor a node:v8 header; it is not a Sluice state file.');
    }
  }
  const d = new StateDecoder(data, MAGIC.length);
  const version = d.uvarint();
  if (version > FORMAT_VERSION) {
    throw new ExecutionError(`Cannot read checkpointed state: state written by a newer Sluice (format version ${version}); this version reads up to ${FORMAT_VERSION}.`);
  }
  if (version < 1) throw d.corrupt(`format version ${version}`, MAGIC.length);
  let value: unknown;
  try {
    value = d.value();
  } catch (e) {
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      throw new ExecutionError('Cannot read checkpointed state: it is nested too deeply (thousands of levels) to decode.', { cause: e });
    }
    throw e;
  }
  if (d.pos !== d.end) throw d.corrupt(`${d.end - d.pos} bytes after the end of the value`);
  return value;
}

// DECIMAL is a value type of every table (docs/values.md): state holding it must come back as a Decimal.
// The name 'Decimal' is in checkpoints already written: never rename it.
registerStateClass('Decimal', Decimal, (d) => [d.unscaled, d.scale], (p) => {
  if (!Array.isArray(p) || typeof p[0] !== 'bigint' || !Number.isInteger(p[1])) throw new Error('expected [unscaled bigint, scale]');
  return Decimal.of(p[0], p[1] as number);
});
// TIMESTAMP(4..9) / TIMESTAMP_LTZ(4..9) values finer than a millisecond (docs/values.md); whole milliseconds stay
// numbers. The name is written into checkpoints: never rename it. Worker batches carry it through this codec too.
registerStateClass('PreciseTimestamp', PreciseTimestamp, (t) => [t.millis, t.nanoOfMilli], (p) => {
  if (!Array.isArray(p) || !Number.isInteger(p[0]) || !Number.isInteger(p[1])) throw new Error('expected [millis, nanoOfMilli]');
  return new PreciseTimestamp(p[0] as number, p[1] as number);
});
