import { murmur3x64First64 } from './murmur3.js';

/** Java `"EventRouter".hashCode()`: the seed Pravega's `StreamSegments` hashes routing keys with. */
const EVENT_ROUTER_SEED = 1741865571;
const TWO_POW_52 = 2 ** 52;
const CACHE_LIMIT = 65_536;

const cache = new Map<string, number>();

/**
 * Maps a routing key to its position in the key space [0, 1), bit-for-bit as the Java client
 * (`HashHelper.seededWith("EventRouter").hashToRange(key)`): murmur3_128 over the key's UTF-16 code units as
 * little-endian bytes, then the top 52 bits of h1 as a fraction. Cached because the BigInt hash is slow and
 * streams usually reuse a bounded set of keys.
 */
export function hashRoutingKey(key: string): number {
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const bytes = new Uint8Array(key.length * 2);
  for (let i = 0; i < key.length; i++) {
    const unit = key.charCodeAt(i);
    bytes[i * 2] = unit & 0xff;
    bytes[i * 2 + 1] = unit >>> 8;
  }
  const h1 = murmur3x64First64(bytes, EVENT_ROUTER_SEED);
  const value = Number(h1 >> 12n) / TWO_POW_52;
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, value);
  return value;
}
