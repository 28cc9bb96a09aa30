/**
 * `BigInt(n)` allocates a new bigint each call: a streaming GROUP BY calls it for every COUNT twice per input row
 * (the -U and the +U row), about a tenth of the operator's time. Small non-negative integers, which counts
 * nearly always are, are made once each and shared (bigints are immutable, so sharing is invisible).
 */
const CACHED = 1 << 16;
const cache: (bigint | undefined)[] = new Array(CACHED);

/** `BigInt(n)` for an integer `n`, shared for 0 <= n < 65536. */
export function bigintOf(n: number): bigint {
  if (n >= 0 && n < CACHED) {
    const b = cache[n];
    if (b !== undefined) return b;
    return (cache[n] = BigInt(n));
  }
  return BigInt(n);
}
