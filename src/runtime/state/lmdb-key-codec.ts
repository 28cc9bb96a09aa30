import { ExecutionError } from '../../errors/sluice-error.js';
import type { StateKey } from './state.js';

/**
 * The bytes of one state entry's key in the on-disk backend: one byte naming the state (its table id),
 * then the state key. Keys compare as `Map` keys do (SameValueZero), so -0 is written as 0 and every NaN
 * as one NaN. The store only needs equality, so the order of the bytes carries no meaning.
 */
const Tag = { NULL: 0, FALSE: 1, TRUE: 2, INT32: 3, FLOAT64: 4, BIGINT: 5, STRING: 6 } as const;

/** lmdb's largest key (its default build) less the table byte and the tag. */
export const MAX_KEY_BYTES = 1978 - 2;

export function encodeStateKey(table: number, key: StateKey): Buffer {
  switch (typeof key) {
    case 'number': {
      if ((key | 0) === key && !Object.is(key, -0)) {
        const b = Buffer.allocUnsafe(6);
        b[0] = table;
        b[1] = Tag.INT32;
        b.writeInt32BE(key, 2);
        return b;
      }
      const b = Buffer.allocUnsafe(10);
      b[0] = table;
      b[1] = Tag.FLOAT64;
      b.writeDoubleBE(Number.isNaN(key) ? Number.NaN : key === 0 ? 0 : key, 2);
      return b;
    }
    case 'string': {
      const n = Buffer.byteLength(key);
      if (n > MAX_KEY_BYTES) {
        throw new ExecutionError(
          `A state key of ${n} bytes is longer than the lmdb state backend takes (${MAX_KEY_BYTES} bytes); use SET 'state.backend.type' = 'hashmap' for this job.`,
        );
      }
      const b = Buffer.allocUnsafe(2 + n);
      b[0] = table;
      b[1] = Tag.STRING;
      b.write(key, 2);
      return b;
    }
    case 'bigint': {
      const s = key.toString();
      const b = Buffer.allocUnsafe(2 + s.length);
      b[0] = table;
      b[1] = Tag.BIGINT;
      b.write(s, 2, 'latin1');
      return b;
    }
    case 'boolean':
      return Buffer.from([table, key ? Tag.TRUE : Tag.FALSE]);
    default:
      return Buffer.from([table, Tag.NULL]);
  }
}

/** The state key of bytes written by `encodeStateKey` (the table byte is skipped). */
export function decodeStateKey(b: Uint8Array): StateKey {
  const buf = Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.length);
  switch (buf[1]) {
    case Tag.INT32:
      return buf.readInt32BE(2);
    case Tag.FLOAT64:
      return buf.readDoubleBE(2);
    case Tag.STRING:
      return buf.toString('utf8', 2);
    case Tag.BIGINT:
      return BigInt(buf.toString('latin1', 2));
    case Tag.TRUE:
      return true;
    case Tag.FALSE:
      return false;
    case Tag.NULL:
      return null;
    default:
      throw new ExecutionError(`The lmdb state backend read a key with unknown tag ${String(buf[1])}; its files are corrupt.`);
  }
}

/** A 32-bit FNV-1a hash of encoded key bytes (for the backend's filter of keys that may be stored). */
export function hashKeyBytes(b: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < b.length; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
  return h >>> 0;
}

/** 2^21: batch positions fit below it, so (32-bit key) * 2^21 + position is an exact double. */
const POSITIONS = 2 ** 21;

/**
 * The positions of `keys` (encoded keys of one table) in the store's key order (bytewise), so a batch is
 * written as lmdb's B-tree lays it out: consecutive puts land on the same or neighbouring leaves, and the
 * pages a write transaction copies are allocated in key order, so later batches and checkpoint reads walk
 * the file forwards. Keys that are all 32-bit integers (hashed group and join keys, the usual case) sort
 * as numbers in a Float64Array (the big-endian two's complement bytes order as the unsigned value);
 * others by Buffer.compare.
 */
export function keyOrder(keys: readonly Buffer[]): Uint32Array {
  const n = keys.length;
  const order = new Uint32Array(n);
  let ints = n < POSITIONS;
  for (let i = 0; i < n && ints; i++) ints = keys[i]!.length === 6 && keys[i]![1] === Tag.INT32;
  if (ints) {
    const packed = new Float64Array(n);
    for (let i = 0; i < n; i++) packed[i] = keys[i]!.readUInt32BE(2) * POSITIONS + i;
    packed.sort();
    for (let i = 0; i < n; i++) order[i] = packed[i]! % POSITIONS;
    return order;
  }
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => Buffer.compare(keys[a]!, keys[b]!));
  return order;
}
