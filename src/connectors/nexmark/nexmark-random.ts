/**
 * The Nexmark generator's PRNG: the same mulberry32 sequence as datagen's `FastRandom` (so events do not
 * change), with the state kept as a signed 32-bit integer. An unsigned state above 2^31 is not a small
 * integer to V8, so every `reseed` and draw stored a boxed double; that made one draw cost about as much
 * as building a bid's arrays, and a bid makes about seven.
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
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform integer in [0, bound) for bound <= 2^32. */
  nextInt(bound: number): number {
    return Math.floor(this.next() * bound);
  }

  /** Uniform integer in [min, max], both inclusive, for spans up to 2^53. */
  nextIntBetween(min: number, max: number): number {
    const span = max - min + 1;
    if (span <= 4294967296) return min + Math.floor(this.next() * span);
    return min + Math.floor(((this.nextUint32() * 2097152 + (this.nextUint32() >>> 11)) / 9007199254740992) * span);
  }
}
