/**
 * MurmurHash3 x64_128, first 64-bit word only (what Guava's `HashCode.asLong()` returns). Pravega routes events with
 * it, so the bits must match the Java client exactly; BigInt keeps the 64-bit arithmetic exact at the cost of speed,
 * which is why callers cache per key (see routing-key.ts).
 */
const MASK = 0xffffffffffffffffn;
const C1 = 0x87c37b91114253d5n;
const C2 = 0x4cf5ad432745937fn;

function rotl(x: bigint, r: bigint): bigint {
  return ((x << r) | (x >> (64n - r))) & MASK;
}

function fmix(k: bigint): bigint {
  k ^= k >> 33n;
  k = (k * 0xff51afd7ed558ccdn) & MASK;
  k ^= k >> 33n;
  k = (k * 0xc4ceb9fe1a85ec53n) & MASK;
  k ^= k >> 33n;
  return k;
}

function readLong(bytes: Uint8Array, at: number, len: number): bigint {
  let v = 0n;
  for (let i = len - 1; i >= 0; i--) v = (v << 8n) | BigInt(bytes[at + i]!);
  return v;
}

/** Returns h1 of murmur3_x64_128(seed) over `bytes`, as an unsigned 64-bit BigInt. */
export function murmur3x64First64(bytes: Uint8Array, seed: number): bigint {
  let h1 = BigInt(seed >>> 0);
  let h2 = h1;
  const n = bytes.length;
  const blocks = n >> 4;
  for (let b = 0; b < blocks; b++) {
    let k1 = readLong(bytes, b * 16, 8);
    let k2 = readLong(bytes, b * 16 + 8, 8);
    k1 = (k1 * C1) & MASK;
    k1 = rotl(k1, 31n);
    k1 = (k1 * C2) & MASK;
    h1 ^= k1;
    h1 = rotl(h1, 27n);
    h1 = (h1 + h2) & MASK;
    h1 = (h1 * 5n + 0x52dce729n) & MASK;
    k2 = (k2 * C2) & MASK;
    k2 = rotl(k2, 33n);
    k2 = (k2 * C1) & MASK;
    h2 ^= k2;
    h2 = rotl(h2, 31n);
    h2 = (h2 + h1) & MASK;
    h2 = (h2 * 5n + 0x38495ab5n) & MASK;
  }
  const tail = blocks * 16;
  const rest = n - tail;
  if (rest > 8) {
    let k2 = readLong(bytes, tail + 8, rest - 8);
    k2 = (k2 * C2) & MASK;
    k2 = rotl(k2, 33n);
    k2 = (k2 * C1) & MASK;
    h2 ^= k2;
  }
  if (rest > 0) {
    let k1 = readLong(bytes, tail, Math.min(rest, 8));
    k1 = (k1 * C1) & MASK;
    k1 = rotl(k1, 31n);
    k1 = (k1 * C2) & MASK;
    h1 ^= k1;
  }
  const len = BigInt(n);
  h1 ^= len;
  h2 ^= len;
  h1 = (h1 + h2) & MASK;
  h2 = (h2 + h1) & MASK;
  h1 = fmix(h1);
  h2 = fmix(h2);
  h1 = (h1 + h2) & MASK;
  return h1;
}
