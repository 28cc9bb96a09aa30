// Operator snapshots of an on-disk state backend are encoded straight into a file at the barrier, one buffer
// at a time (encodeStateToFile), and copied from there into the checkpoint's file (ExternalBytes pieces).
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isSpilled, removeSpilled, snapshotBytes, spillSnapshot } from '../../../src/runtime/checkpoint/spilled-snapshot.js';
import { ExecutionError } from '../../../src/errors/sluice-error.js';
import { decodeState, encodeState, encodeStateInPieces, encodeStateToFile, ExternalBytes } from '../../../src/runtime/state/state-codec.js';
import { encodeStateToFile as encodeWithBuffer, StreamedArray, StreamedMap } from '../../../src/runtime/state/state-encoder.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'sluice-spill-'));
  dirs.push(d);
  return d;
};

/** Encodes `value` into a fresh file with a buffer of `bufferBytes`; the file's bytes. */
function toFile(value: unknown, bufferBytes?: number): Buffer {
  const path = join(tmp(), 'snap');
  const fd = openSync(path, 'w');
  try {
    const n = bufferBytes === undefined ? encodeStateToFile(value, fd) : encodeWithBuffer(value, fd, bufferBytes);
    expect(statSync(path).size).toBe(n);
  } finally {
    closeSync(fd);
  }
  return readFileSync(path);
}

const entries = (from: number, n: number): [unknown, unknown][] =>
  Array.from({ length: n }, (_, i): [unknown, unknown] => [`key-${from + i}`, [BigInt(from + i), 'v'.repeat(i % 30)]]);

/** Records as an on-disk backend's snapshot gives them: streamed, nested, with counts of one and several varint bytes. */
function snapshotLike(): { streamed: unknown; plain: unknown } {
  const a = entries(0, 3000);
  const b = entries(3000, 5);
  const c = entries(4000, 200);
  const streamed = {
    base: 3,
    raw: { n: 1 },
    keyed: {
      states: new StreamedArray([
        { name: 'acc', kind: 'value', entries: new StreamedMap(a) },
        { name: 'small', kind: 'value', entries: new StreamedMap(b), removed: ['gone'] },
        { name: 'nested', kind: 'map', entries: new StreamedMap([['in', new StreamedMap(c)], ['after', 1]]) },
        { name: 'empty', kind: 'value', entries: new StreamedMap([]) },
      ]),
    },
    timers: { eventTime: [], processingTime: [] },
  };
  const plain = {
    base: 3,
    raw: { n: 1 },
    keyed: {
      states: [
        { name: 'acc', kind: 'value', entries: new Map(a) },
        { name: 'small', kind: 'value', entries: new Map(b), removed: ['gone'] },
        { name: 'nested', kind: 'map', entries: new Map<unknown, unknown>([['in', new Map(c)], ['after', 1]]) },
        { name: 'empty', kind: 'value', entries: new Map() },
      ],
    },
    timers: { eventTime: [], processingTime: [] },
  };
  return { streamed, plain };
}

describe('encodeStateToFile', () => {
  it('writes what decodes as encodeState gives, whatever the buffer size: streamed counts written out before they were known, values across buffer ends', () => {
    const expected = decodeState(encodeState(snapshotLike().plain));
    // 16 bytes: nearly every value crosses a buffer end; 4 KB: counts both still in the buffer and written out.
    for (const size of [16, 100, 4096, 1 << 20, undefined]) {
      const bytes = toFile(snapshotLike().streamed, size);
      expect(decodeState(bytes)).toEqual(expected);
      // Counts written out early take their whole room: the file is longer than encodeState's bytes.
      if (size === 16) expect(bytes.length).toBeGreaterThan(encodeState(snapshotLike().plain).length);
    }
    // With one buffer for everything the bytes are encodeState's exactly (no count was written out early).
    expect(toFile(snapshotLike().streamed).equals(Buffer.from(encodeState(snapshotLike().plain)))).toBe(true);
  });

  it('takes a value larger than its buffer (a long string, a large byte array)', () => {
    const value = { s: 'x'.repeat(10_000), b: new Uint8Array(5000).fill(3), m: new StreamedMap([['k', 'y'.repeat(3000)]]) };
    expect(decodeState(toFile(value, 64))).toEqual({ s: value.s, b: value.b, m: new Map([['k', 'y'.repeat(3000)]]) });
  });

  it('refuses what the format cannot store, as encodeState does', () => {
    const fd = openSync(join(tmp(), 'f'), 'w');
    try {
      expect(() => encodeStateToFile({ f: () => 1 }, fd)).toThrow(ExecutionError);
    } finally {
      closeSync(fd);
    }
  });
});

describe('ExternalBytes pieces', () => {
  it('are the tag and length, then the bytes a writer copies from the file: the same bytes as the array in memory', () => {
    const inner = toFile(snapshotLike().streamed, 256);
    const path = join(tmp(), 'op');
    writeFileSync(path, inner);
    const pieces = encodeStateInPieces({ operators: [new Uint8Array([1, 2]), new ExternalBytes(inner.length, path)], after: 'x' }, 1 << 20);
    const external = pieces.filter((p) => p instanceof ExternalBytes);
    expect(external).toHaveLength(1);
    const joined = Buffer.concat(pieces.map((p) => (p instanceof ExternalBytes ? readFileSync(p.source) : p)));
    expect(joined.equals(Buffer.from(encodeState({ operators: [new Uint8Array([1, 2]), inner], after: 'x' })))).toBe(true);
  });
});

describe('spilled operator snapshots', () => {
  it('are written under the local directory, read back whole and removed', () => {
    const dir = tmp();
    const s = spillSnapshot(snapshotLike().streamed as { base?: number }, dir);
    expect(isSpilled(s)).toBe(true);
    expect(s.base).toBe(3);
    expect(s.spilledTo.startsWith(join(dir, 'sluice-snapshot'))).toBe(true);
    expect(decodeState(snapshotBytes(s))).toEqual(decodeState(encodeState(snapshotLike().plain)));
    removeSpilled(s);
    expect(existsSync(s.spilledTo)).toBe(false);
  });

  it('a dead process\'s spilled snapshots (a crash while one was written) are removed by the next spill, a live one\'s kept', () => {
    const dir = tmp();
    mkdirSync(join(dir, 'sluice-snapshot'), { recursive: true });
    // No process has this id (above the kernel's pid limit); this process is alive.
    const dead = join(dir, 'sluice-snapshot', '4194305-0-0');
    const live = join(dir, 'sluice-snapshot', `${process.pid}-9-9`);
    writeFileSync(dead, 'half a snapshot');
    writeFileSync(live, 'in use');
    const s = spillSnapshot({}, dir);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
    removeSpilled(s);
  });

  it('a directory that cannot be written is an error naming it and the setting, without the system\'s message', () => {
    const file = join(tmp(), 'not-a-dir');
    writeFileSync(file, '');
    expect(() => spillSnapshot({}, file)).toThrow(ExecutionError);
    expect(() => spillSnapshot({}, file)).toThrow(/state\.backend\.lmdb\.localdir/);
  });
});
