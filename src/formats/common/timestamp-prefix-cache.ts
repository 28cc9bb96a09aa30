import { parseFlinkTimestampAt } from './temporal-text.js';

/**
 * Reads `yyyy-MM-dd HH:mm:ss.SSS` (a TIMESTAMP(3) as Sluice and Flink write it) from ASCII bytes, remembering the
 * last `yyyy-MM-dd HH:mm:ss` it parsed: a field with that very prefix is the remembered second plus its
 * milliseconds. Event-time data comes mostly in order, many rows to a second, so most fields are a hit, which
 * compares the prefix as five words of a DataView instead of reading 22 chars (a full parse costs about 44 ns, a
 * hit about 19 ns: measured on the nexmark bids for #20, where every row's timestamp feeds the watermark).
 *
 * The result is always parseFlinkTimestampAt's for the 23 chars at `o` (NaN for anything it rejects): a prefix is
 * remembered only once it parsed, and a hit still checks the '.' and the three digits. One instance per column
 * of one decoder; `bytes` must be ASCII with `text` its chars (so char and byte offsets agree), and `o + 23` at most
 * their length.
 */
export class TimestampPrefixCache {
  private bytes: Uint8Array | undefined;
  private view: DataView | undefined;
  private known = false;
  private w0 = 0;
  private w1 = 0;
  private w2 = 0;
  private w3 = 0;
  private h4 = 0;
  private b18 = 0;
  /** Epoch milliseconds of the remembered prefix (its second). */
  private base = 0;

  read(text: string, bytes: Uint8Array, o: number): number {
    if (bytes !== this.bytes) {
      this.bytes = bytes;
      this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    const v = this.view!;
    if (
      this.known &&
      v.getInt32(o, true) === this.w0 &&
      v.getInt32(o + 4, true) === this.w1 &&
      v.getInt32(o + 8, true) === this.w2 &&
      v.getInt32(o + 12, true) === this.w3 &&
      v.getUint16(o + 16, true) === this.h4 &&
      bytes[o + 18] === this.b18 &&
      bytes[o + 19] === 46
    ) {
      const f0 = bytes[o + 20]! - 48;
      const f1 = bytes[o + 21]! - 48;
      const f2 = bytes[o + 22]! - 48;
      // `x >>> 0 <= 9` holds for a digit only (a char below '0' wraps to a large unsigned number).
      if (f0 >>> 0 <= 9 && f1 >>> 0 <= 9 && f2 >>> 0 <= 9) return this.base + f0 * 100 + f1 * 10 + f2;
    }
    const ms = parseFlinkTimestampAt(text, o, o + 23, 'SQL', false);
    // Only a prefix of the canonical shape is remembered: then any field sharing it, with '.' and three digits
    // after it, is one parseFlinkTimestampAt reads as that second plus the digits.
    if (ms === ms && canonical(bytes, o)) {
      this.known = true;
      this.w0 = v.getInt32(o, true);
      this.w1 = v.getInt32(o + 4, true);
      this.w2 = v.getInt32(o + 8, true);
      this.w3 = v.getInt32(o + 12, true);
      this.h4 = v.getUint16(o + 16, true);
      this.b18 = bytes[o + 18]!;
      this.base = ms - ((bytes[o + 20]! - 48) * 100 + (bytes[o + 21]! - 48) * 10 + (bytes[o + 22]! - 48));
    }
    return ms;
  }
}

/** Whether the 23 bytes at `o` are digits and separators exactly at `yyyy-MM-dd HH:mm:ss.SSS`'s places. */
function canonical(bytes: Uint8Array, o: number): boolean {
  for (let i = 0; i < 23; i++) {
    const c = bytes[o + i]!;
    const want = SEPARATORS[i]!;
    if (want === 0 ? (c - 48) >>> 0 > 9 : c !== want) return false;
  }
  return true;
}

/** The separator char code at each place of `yyyy-MM-dd HH:mm:ss.SSS`, 0 where a digit goes. */
const SEPARATORS = Array.from('0000-00-00 00:00:00.000', (ch) => (ch === '0' ? 0 : ch.charCodeAt(0)));
