import type { FastRandom } from './random.js';

/** ASCII codes of '0'..'9', 'a'..'f'. */
const HEX_CODES = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

/**
 * Two hex digits per byte value, as the two bytes of a uint16 in memory order: one store writes two
 * characters. 512 bytes, so the lookups stay in the first-level cache.
 */
const TWO_HEX = (() => {
  const t = new Uint16Array(256);
  const bytes = new Uint8Array(t.buffer);
  for (let i = 0; i < 256; i++) {
    bytes[2 * i] = HEX_CODES[i >>> 4]!;
    bytes[2 * i + 1] = HEX_CODES[i & 15]!;
  }
  return t;
})();

/** Characters decoded at once: several strings' worth, so the cost of making a JS string is shared. */
const CHUNK_TARGET = 4096;

/**
 * Random hex strings, each character uniform over 0-9a-f and independent of the others, as Flink's
 * datagen (`nextHexString(length)`): strings of length n take 16^n values, so a few million of length 10
 * are practically all distinct. Fast because the digits of many strings are written as bytes, two per
 * store, decoded into one chunk string, and handed out as slices of it.
 *
 * One instance per generated column. It draws from the `FastRandom` it is given and starts a new chunk
 * when that changes, so parallel readers on one thread each keep their own sequence. A string of 13 or
 * more characters is a V8 slice of its chunk and keeps that chunk (4 KiB, or the string's own length if
 * longer) alive while it lives.
 */
export class RandomHexStrings {
  private chunk = '';
  private at = 0;
  private owner: FastRandom | undefined;
  private bytes = Buffer.alloc(CHUNK_TARGET + 8);
  private halves = halvesOf(this.bytes);

  next(rng: FastRandom, length: number): string {
    if (length <= 0) return '';
    if (rng !== this.owner || this.at + length > this.chunk.length) this.refill(rng, length);
    const s = this.chunk.slice(this.at, this.at + length);
    this.at += length;
    return s;
  }

  /** Draws a fresh chunk of at least `length` characters (8 per 32-bit draw). */
  private refill(rng: FastRandom, length: number): void {
    const chars = Math.max(CHUNK_TARGET, length);
    if (this.bytes.length < chars + 8) {
      this.bytes = Buffer.alloc(chars + 8);
      this.halves = halvesOf(this.bytes);
    }
    const halves = this.halves;
    const draws = (chars + 7) >>> 3;
    for (let i = 0, j = 0; i < draws; i++, j += 4) {
      const x = rng.nextUint32();
      halves[j] = TWO_HEX[x >>> 24]!;
      halves[j + 1] = TWO_HEX[(x >>> 16) & 255]!;
      halves[j + 2] = TWO_HEX[(x >>> 8) & 255]!;
      halves[j + 3] = TWO_HEX[x & 255]!;
    }
    this.chunk = this.bytes.toString('latin1', 0, chars);
    this.at = 0;
    this.owner = rng;
  }
}

function halvesOf(bytes: Buffer): Uint16Array {
  return new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 1);
}
