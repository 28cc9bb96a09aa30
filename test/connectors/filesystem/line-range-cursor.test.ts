import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rangeSizeFor, toRanges } from '../../../src/connectors/filesystem/file-ranges.js';
import { LineRangeCursor } from '../../../src/connectors/filesystem/line-range-cursor.js';

const dir = mkdtempSync(join(tmpdir(), 'sluice-lrc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

/** Reads `[start, end)` (from `offset`) with tiny chunks; the lines it owns, and each chunk's restore offset. */
async function readRange(path: string, start: number, end: number, chunk: number, offset = start, stopAfter = Infinity) {
  const h = await open(path, 'r');
  const c = new LineRangeCursor(h, start, offset, end);
  const lines: string[] = [];
  let last = offset;
  try {
    for (let i = 0; i < stopAfter; i++) {
      const r = await c.next(chunk);
      // Owned data always is whole lines: split like the file source does (\n, then a trailing \r dropped).
      const text = r.data.toString('utf8');
      const parts = text.split('\n');
      if (parts[parts.length - 1] === '') parts.pop();
      lines.push(...parts.map((l) => l.replace(/\r$/, '')));
      last = r.offset;
      if (r.done) return { lines, offset: last, done: true };
    }
  } finally {
    await c.close();
  }
  return { lines, offset: last, done: false };
}

const whole = (text: string): string[] => {
  const parts = text.split('\n');
  if (parts[parts.length - 1] === '') parts.pop();
  return parts.map((l) => l.replace(/\r$/, ''));
};

// CRLF, empty lines, multi-byte UTF-8 (2, 3 and 4 bytes), a long line, and no final newline.
const TEXT = 'a1\r\n\nbé2\r\n€€€ 3\n\n\r\nlong line ' + 'x'.repeat(40) + ' 🎉\nz\r\nlast🎉';

describe('LineRangeCursor', () => {
  it('two ranges cut at any byte read every line exactly once', async () => {
    const p = file('cut2.txt', TEXT);
    const size = Buffer.byteLength(TEXT);
    for (let cut = 0; cut <= size; cut++) {
      for (const chunk of [1, 3, 64]) {
        const a = await readRange(p, 0, cut, chunk);
        const b = await readRange(p, cut, Infinity, chunk);
        expect([...a.lines, ...b.lines], `cut at ${cut}, chunk ${chunk}`).toEqual(whole(TEXT));
      }
    }
  });

  it('three ranges from toRanges, with and without a final newline', async () => {
    for (const text of [TEXT, TEXT + '\n', TEXT + '\r\n']) {
      const p = file('cut3.txt', text);
      const size = Buffer.byteLength(text);
      for (let rs = 1; rs <= size; rs += 3) {
        const got: string[] = [];
        for (const r of toRanges({ splitId: p, path: p, size, offset: 0 }, rs)) {
          got.push(...(await readRange(p, r.start, r.end ?? Infinity, 5)).lines);
        }
        expect(got, `range size ${rs}`).toEqual(whole(text));
      }
    }
  });

  it('a range restored from any checkpointed offset continues after the last line it emitted', async () => {
    const p = file('restore.txt', TEXT);
    const size = Buffer.byteLength(TEXT);
    const [start, end] = [7, size - 9];
    const expected = (await readRange(p, start, end, 1000)).lines;
    expect(expected.length).toBeGreaterThan(3);
    for (let steps = 1; steps < 40; steps++) {
      const first = await readRange(p, start, end, 4, start, steps);
      const rest = first.done ? [] : (await readRange(p, start, end, 4, first.offset)).lines;
      expect([...first.lines, ...rest], `stopped after ${steps} chunks`).toEqual(expected);
    }
  });

  it('a range that holds no line start owns nothing, even when the straddling line runs to the end of the file', async () => {
    const p = file('one.txt', 'header\n' + 'y'.repeat(50));
    expect((await readRange(p, 10, 20, 4)).lines).toEqual([]);
    expect((await readRange(p, 10, Infinity, 4)).lines).toEqual([]);
    expect((await readRange(p, 0, 10, 4)).lines).toEqual(['header', 'y'.repeat(50)]);
  });
});

describe('range sizing', () => {
  it('uses the bytes per subtask, clamped to the minimum and maximum', () => {
    const sizing = { maxBytes: 100, minBytes: 10 };
    expect(rangeSizeFor([120], 4, sizing)).toBe(30);
    expect(rangeSizeFor([20, 10], 8, sizing)).toBe(10);
    expect(rangeSizeFor([1000], 2, sizing)).toBe(100);
  });

  it('cuts a file into equal ranges covering every byte; a file that fits stays one split named by its path', () => {
    const f = { splitId: '/d/a.json', path: '/d/a.json', size: 100, offset: 0 };
    const rs = toRanges(f, 30);
    expect(rs.map((r) => [r.start, r.end, r.offset])).toEqual([
      [0, 25, 0],
      [25, 50, 25],
      [50, 75, 50],
      [75, undefined, 75],
    ]);
    expect(new Set(rs.map((r) => r.splitId)).size).toBe(4);
    expect(toRanges(f, 100).map((r) => r.splitId)).toEqual(['/d/a.json']);
  });
});
