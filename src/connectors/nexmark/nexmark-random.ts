/**
 * The Nexmark generator's PRNG: the mulberry32 sequence of datagen's `FastRandom` (so events do not
 * change), with the state kept as a signed 32-bit integer. An unsigned state above 2^31 is not a small
 * integer to V8, so every `reseed` and draw stored a boxed double; that made one draw cost about as much
 * as building a bid's arrays, and a bid makes about seven. (FastRandom would gain the same from an int32
 * state; until it has one, the generator keeps this copy of the two operations it needs.)
 */
export class NexmarkRandom {
  private state: number;

  constructor(seed = 0) {
    this.state = seed | 0;
  }

  /** Re-seeds in place; the generator seeds once per event from (seed, event number). */
  reseed(seed: number): void {
    this.state = seed | 0;
  }

  /** Uniform 32-bit unsigned integer. */
  nextUint32(): number {
    const s = (this.state = (this.state + 0x6d2b79f5) | 0);
    const t = Math.imul(s ^ (s >>> 15), s | 1);
    const u = t ^ (t + Math.imul(t ^ (t >>> 7), t | 61));
    return (u ^ (u >>> 14)) >>> 0;
  }

  /**
   * Uniform integer in [0, bound): FastRandom's `nextInt` for bound <= 2^32 and its `nextIntBetween(0,
   * bound - 1)` (two draws for 53 bits) beyond.
   */
  nextInt(bound: number): number {
    if (bound <= 4294967296) return Math.floor((this.nextUint32() / 4294967296) * bound);
    return Math.floor(((this.nextUint32() * 2097152 + (this.nextUint32() >>> 11)) / 9007199254740992) * bound);
  }
}
