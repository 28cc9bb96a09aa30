/** mulberry32's state increment: the k-th draw after seeding with `s` outputs `mulberry32((s + k * MULBERRY32_STEP) | 0)`. */
export const MULBERRY32_STEP = 0x6d2b79f5;

/**
 * mulberry32's output for an already advanced state. Exported so a generator on the hot path can keep the
 * state in a local variable (a register) instead of an object field, and draw exactly what FastRandom draws.
 */
export function mulberry32(state: number): number {
  const t = Math.imul(state ^ (state >>> 15), state | 1);
  const u = t ^ (t + Math.imul(t ^ (t >>> 7), t | 61));
  return (u ^ (u >>> 14)) >>> 0;
}

/** `FastRandom.nextInt(bound)` for the draw `x` (a uint32) and bound <= 2^32. */
export function uint32ToInt(x: number, bound: number): number {
  return Math.floor((x / 4294967296) * bound);
}

/**
 * A small, fast, seedable PRNG (mulberry32) for generators on the hot path. Not cryptographic. One
 * instance per reader or per event; `next()` costs a few integer ops and no allocation.
 *
 * The state is kept as a signed 32-bit integer (`| 0`): an unsigned state above 2^31 is not a small
 * integer to V8, so every reseed and draw stored a boxed double. Only the state's 32 bits matter to the
 * sequence, so the outputs are those of the unsigned form.
 */
export class FastRandom {
  private state: number;

  constructor(seed = 0) {
    this.state = seed | 0;
  }

  /** Re-seeds in place (the Nexmark generator seeds once per event, as Beam's `new Random(eventId)`). */
  reseed(seed: number): void {
    this.state = seed | 0;
  }

  /** Uniform 32-bit unsigned integer. */
  nextUint32(): number {
    return mulberry32((this.state = (this.state + MULBERRY32_STEP) | 0));
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /**
   * Uniform integer in [0, bound) (Java's `Random.nextInt(bound)` role): one draw for bound <= 2^32, two
   * (53 bits) beyond, the same values as `nextIntBetween(0, bound - 1)`.
   */
  nextInt(bound: number): number {
    // The wide case lives in its own method: a small nextInt is inlined into every hot caller.
    return bound <= 4294967296 ? uint32ToInt(this.nextUint32(), bound) : this.nextIntWide(bound);
  }

  private nextIntWide(bound: number): number {
    return Math.floor(((this.nextUint32() * 2097152 + (this.nextUint32() >>> 11)) / 9007199254740992) * bound);
  }

  /** Uniform integer in [min, max], both inclusive, for spans up to 2^53. */
  nextIntBetween(min: number, max: number): number {
    return min + this.nextInt(max - min + 1);
  }

  /** Uniform bigint in [min, max], both inclusive (64-bit spans; modulo bias is negligible for tests/benchmarks). */
  nextBigIntBetween(min: bigint, max: bigint): bigint {
    const span = max - min + 1n;
    const r = (BigInt(this.nextUint32()) << 32n) | BigInt(this.nextUint32());
    return min + (span > 0n ? r % span : r);
  }
}

/** Mixes a seed with a 53-bit counter into a 32-bit seed (splitmix-style avalanche). */
export function mixSeed(seed: number, counter: number): number {
  // The high word is 0 below 2^32 (every realistic counter): skip the float division then.
  const high = counter < 4294967296 ? 0 : Math.floor(counter / 4294967296);
  let h = (seed ^ Math.imul(counter >>> 0, 0x9e3779b1) ^ Math.imul(high, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A seed from the clock and Math.random, for generators that need not be reproducible. */
export function randomSeed(): number {
  return (Math.floor(Math.random() * 4294967296) ^ Date.now()) >>> 0;
}
