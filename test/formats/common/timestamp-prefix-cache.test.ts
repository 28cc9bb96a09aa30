import { describe, expect, it } from 'vitest';
import { parseFlinkTimestampAt } from '../../../src/formats/common/temporal-text.js';
import { TimestampPrefixCache } from '../../../src/formats/common/timestamp-prefix-cache.js';

/** A deterministic pseudo-random generator (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n: number, w: number): string => String(n).padStart(w, '0');

/**
 * Fields of 23 chars as a CSV column holds them: runs sharing a second (the cache's hits), seconds that move on,
 * and damaged ones (a char replaced anywhere, impossible dates and times, another separator) whose prefix may
 * equal a remembered one.
 */
function fields(next: () => number, count: number): string[] {
  const out: string[] = [];
  let ms = Date.UTC(2024, 1, 28, 23, 59, 58);
  for (let i = 0; i < count; i++) {
    ms += Math.floor(next() * 300);
    const d = new Date(ms);
    let f = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)} ${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}.${pad(d.getUTCMilliseconds(), 3)}`;
    const r = next();
    if (r < 0.15) {
      const at = Math.floor(next() * 23);
      f = f.slice(0, at) + '0123456789-: .xT+'[Math.floor(next() * 17)]! + f.slice(at + 1);
    } else if (r < 0.18) {
      f = ['2023-02-29 10:00:00.000', '2024-13-01 10:00:00.000', '2024-01-01 24:00:00.000', '2024-01-01 10:60:00.000', '2024-01-01T10:00:00.000'][Math.floor(next() * 5)]!;
    }
    out.push(f);
  }
  return out;
}

describe('TimestampPrefixCache', () => {
  it('reads every field as parseFlinkTimestampAt does, hits and misses alike', () => {
    const next = random(20);
    const list = fields(next, 20_000);
    // One text of comma-separated fields, as a CSV chunk, and its bytes.
    const text = list.join(',');
    const bytes = Buffer.from(text, 'latin1');
    const cache = new TimestampPrefixCache();
    let o = 0;
    let valid = 0;
    for (const f of list) {
      const want = parseFlinkTimestampAt(text, o, o + 23, 'SQL', false);
      expect(cache.read(text, bytes, o), `${f} at ${o}`).toBe(want);
      if (want === want) valid++;
      o += f.length + 1;
    }
    // Most fields are valid and share a second with the one before: the cache's hit path is what ran.
    expect(valid).toBeGreaterThan(15_000);
  });

  it('does not take a field for a remembered second when only the prefix matches', () => {
    const cache = new TimestampPrefixCache();
    const text = '2024-01-01 10:00:00.123,2024-01-01 10:00:00x123,2024-01-01 10:00:00.1x3,2024-01-01 10:00:00.999';
    const bytes = Buffer.from(text, 'latin1');
    const at = (i: number): number => cache.read(text, bytes, i * 24);
    expect(at(0)).toBe(Date.UTC(2024, 0, 1, 10, 0, 0, 123));
    expect(at(1)).toBeNaN();
    expect(at(2)).toBeNaN();
    expect(at(3)).toBe(Date.UTC(2024, 0, 1, 10, 0, 0, 999));
  });

  it('follows a new chunk: the same offset in other bytes is read from those bytes', () => {
    const cache = new TimestampPrefixCache();
    const a = '2024-01-01 10:00:00.123';
    const b = '2024-01-01 10:00:01.123';
    expect(cache.read(a, Buffer.from(a, 'latin1'), 0)).toBe(Date.UTC(2024, 0, 1, 10, 0, 0, 123));
    expect(cache.read(b, Buffer.from(b, 'latin1'), 0)).toBe(Date.UTC(2024, 0, 1, 10, 0, 1, 123));
  });
});
