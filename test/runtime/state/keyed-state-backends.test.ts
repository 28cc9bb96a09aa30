import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ExecutionError } from '../../../src/errors/sluice-error.js';
import { HeapKeyedStateBackend, type KeyedStateSnapshot } from '../../../src/runtime/state/heap-state-backend.js';
import type { KeyedStateBackend } from '../../../src/runtime/state/keyed-state-backend.js';
import { LmdbKeyedStateBackend } from '../../../src/runtime/state/lmdb-state-backend.js';
import { decodeState, encodeState, registerStateClass } from '../../../src/runtime/state/state-codec.js';
import type { StateKey } from '../../../src/runtime/state/state.js';
import { Decimal } from '../../../src/types/decimal.js';
import { Row } from '../../../src/types/row.js';

class Label {
  constructor(readonly text: string) {}
}
registerStateClass('test.backends.Label', Label, (l) => l.text, (p) => new Label(p as string));

const made: KeyedStateBackend[] = [];
afterEach(() => {
  for (const b of made.splice(0)) b.dispose?.();
});

/**
 * Every backend behind one factory. The on-disk ones get the smallest cache (1,024 slots), so tests with
 * more keys than that read and write through the store, not only the cache.
 */
const backends: Array<[string, (clock?: () => number) => KeyedStateBackend]> = [
  ['hashmap', (clock) => new HeapKeyedStateBackend(clock)],
  ['lmdb', (clock) => new LmdbKeyedStateBackend({ cacheBytes: 0, localDir: undefined }, clock)],
  ['rocksdb', (clock) => new LmdbKeyedStateBackend({ engine: 'rocksdb', cacheBytes: 0, localDir: undefined }, clock)],
];

/** A backend made and opened (the RocksDB store opens asynchronously). */
async function make(f: (clock?: () => number) => KeyedStateBackend, clock?: () => number): Promise<KeyedStateBackend> {
  const b = f(clock);
  made.push(b);
  await b.open?.();
  return b;
}

/** A snapshot as a checkpoint holds it (encoded and decoded), entries sorted: the backends order them differently. */
function checkpointed(b: KeyedStateBackend): KeyedStateSnapshot {
  const s = decodeState(encodeState(b.snapshot())) as KeyedStateSnapshot;
  const order = (x: StateKey): string => `${typeof x}:${String(x)}`;
  return { states: s.states.map((st) => ({ ...st, entries: [...st.entries].sort((p, q) => order(p[0]).localeCompare(order(q[0]))) })) };
}

describe.each(backends)('keyed state backend %s', (_name, factory) => {
  it('scopes every state kind by the current key', async () => {
    const b = await make(factory);
    const v = b.getState<number>('v');
    const l = b.getListState<string>('l');
    const m = b.getMapState<bigint, string>('m');
    b.setCurrentKey('a');
    v.update(1);
    l.addAll(['x', 'y']);
    m.put(1n, 'one');
    b.setCurrentKey(7n);
    expect(v.value()).toBeUndefined();
    expect(l.get()).toEqual([]);
    expect(m.isEmpty()).toBe(true);
    v.update(2);
    b.setCurrentKey('a');
    expect(v.value()).toBe(1);
    expect(l.get()).toEqual(['x', 'y']);
    expect(m.get(1n)).toBe('one');
    expect([...b.keys('v')].sort()).toEqual([7n, 'a']);
    expect(() => b.getListState('v')).toThrow(/value state/);
  });

  it('tells apart keys of every type, -0 and 0 alike as in a Map', async () => {
    const b = await make(factory);
    const v = b.getState<string>('v');
    const keys: StateKey[] = [0, 1, -1, 2 ** 40, 0.5, Number.NaN, 1n, '1', '', true, false, null, 'ü€'];
    for (const k of keys) {
      b.setCurrentKey(k);
      v.update(`v${String(k)}`);
    }
    b.setCurrentKey(-0);
    expect(v.value()).toBe('v0');
    for (const k of keys) {
      b.setCurrentKey(k);
      expect(v.value()).toBe(`v${String(k)}`);
    }
    expect(new Set(b.keys('v'))).toEqual(new Set(keys));
  });

  it('keeps values changed in place without update, also past the cache', async () => {
    const b = await make(factory);
    const acc = b.getState<{ n: number; rows: Row[] }>('acc');
    const l = b.getListState<number>('l');
    const m = b.getMapState<string, number>('m');
    for (let round = 0; round < 3; round++) {
      for (let k = 0; k < 5_000; k++) {
        b.setCurrentKey(k);
        let a = acc.value();
        if (a === undefined) acc.update((a = { n: 0, rows: [] }));
        a.n += k;
        a.rows.push(Row.insert(k, round));
        l.add(round);
        m.put(`r${round}`, k);
      }
    }
    for (const k of [0, 1, 2_500, 4_999]) {
      b.setCurrentKey(k);
      expect(acc.value()!.n).toBe(3 * k);
      expect(acc.value()!.rows.map((r) => r.fields)).toEqual([[k, 0], [k, 1], [k, 2]]);
      expect(acc.value()!.rows[0]).toBeInstanceOf(Row);
      expect(l.get()).toEqual([0, 1, 2]);
      expect([...m.entries()]).toEqual([['r0', k], ['r1', k], ['r2', k]]);
    }
    expect([...b.keys('acc')]).toHaveLength(5_000);
  });

  it('clears keys, also ones only in the store', async () => {
    const b = await make(factory);
    const v = b.getState<number>('v');
    for (let k = 0; k < 3_000; k++) {
      b.setCurrentKey(k);
      v.update(k);
    }
    for (let k = 0; k < 3_000; k += 2) {
      b.setCurrentKey(k);
      v.clear();
    }
    b.setCurrentKey(2);
    expect(v.value()).toBeUndefined();
    b.setCurrentKey(3);
    expect(v.value()).toBe(3);
    expect([...b.keys('v')]).toHaveLength(1_500);
    expect(checkpointed(b).states[0]!.entries).toHaveLength(1_500);
  });

  it('expires entries not written within the TTL, and writes refresh it', async () => {
    let now = 0;
    const b = await make(factory, () => now);
    const v = b.getState<number>({ name: 'v', ttlMs: 40 });
    const l = b.getListState<number>({ name: 'l', ttlMs: 40 });
    b.setCurrentKey('old');
    v.update(1);
    l.add(1);
    b.setCurrentKey('fresh');
    v.update(2);
    l.add(2);
    now = 25;
    l.add(3);
    v.update(3);
    now = 50;
    expect(v.value()).toBe(3);
    expect(l.get()).toEqual([2, 3]);
    b.setCurrentKey('old');
    expect(v.value()).toBeUndefined();
    expect(l.get()).toEqual([]);
    // A Map (the heap backend) or an array of pairs (lmdb): the same entries either way.
    expect([...checkpointed(b).states.find((s) => s.name === 'v')!.entries]).toEqual([['fresh', 3]]);
  });

  it('snapshots as of the call: later in-place changes do not reach an encoded snapshot', async () => {
    const b = await make(factory);
    const acc = b.getState<{ n: number }>('acc');
    b.setCurrentKey('k');
    acc.update({ n: 1 });
    const bytes = encodeState(b.snapshot());
    acc.value()!.n = 2;
    expect([...(decodeState(bytes) as KeyedStateSnapshot).states[0]!.entries]).toEqual([['k', { n: 1 }]]);
  });

  describe.each(backends)('restores a checkpoint of %s', (_from, fromFactory) => {
    it('whole, and by key group at another parallelism', async () => {
      const src = await make(fromFactory);
      const v = src.getState<bigint>('sum');
      const m = src.getMapState<string, number>('names');
      for (let k = 0; k < 4_000; k++) {
        src.setCurrentKey(k);
        v.update(BigInt(k) * 3n);
        if (k % 100 === 0) m.put(`n${k}`, k);
      }
      const snap = checkpointed(src);

      const whole = await make(factory);
      whole.restore(snap);
      const sum = whole.getState<bigint>('sum');
      whole.setCurrentKey(3_999);
      expect(sum.value()).toBe(11_997n);
      whole.setCurrentKey(200);
      expect([...whole.getMapState<string, number>('names').entries()]).toEqual([['n200', 200]]);
      expect(checkpointed(whole)).toEqual(snap);

      // Two new subtasks split the keys: even keys and odd keys, restored from the same parts.
      const even = await make(factory);
      const odd = await make(factory);
      even.restoreRescaled([snap], (k) => (k as number) % 2 === 0);
      odd.restoreRescaled([snap], (k) => (k as number) % 2 === 1);
      expect([...even.keys('sum')]).toHaveLength(2_000);
      const merged = [...checkpointed(even).states[0]!.entries, ...checkpointed(odd).states[0]!.entries];
      expect(merged.sort((p, q) => (p[0] as number) - (q[0] as number))).toEqual(
        [...snap.states.find((s) => s.name === 'sum')!.entries].sort((p, q) => (p[0] as number) - (q[0] as number)),
      );
    });
  });
});

describe.each(['lmdb', 'rocksdb'] as const)('LmdbKeyedStateBackend on %s', (engine) => {
  it('reports a local directory it cannot create a store in, naming the option, with no stray error text', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sluice-notadir-')), 'file');
    writeFileSync(file, 'x');
    const b = new LmdbKeyedStateBackend({ engine, cacheBytes: 0, localDir: file });
    const use = async (): Promise<void> => {
      await b.open?.();
      b.setCurrentKey(1);
      b.getState<number>({ name: 'v' }).update(1);
      // lmdb opens its store on first use of it: a checkpoint at the latest.
      b.snapshot();
    };
    await expect(use()).rejects.toThrow(ExecutionError);
    await expect(use()).rejects.toThrow(/state backend could not open a store in '.*file\/sluice-[a-z]+\/[^']+' \(state\.backend\.lmdb\.localdir\)/);
    b.dispose();
  });

  it('removes expired entries from the store as other keys are written, without reads or checkpoints', async () => {
    let now = 0;
    const b = await make((clock) => new LmdbKeyedStateBackend({ engine, cacheBytes: 0, localDir: undefined }, clock), () => now);
    const v = b.getState<number>({ name: 'v', ttlMs: 30 });
    const stored = (): number => [...(b as unknown as { range(t: unknown): Iterable<unknown> }).range((b as unknown as { byId: unknown[] }).byId[0])].length;
    for (let k = 0; k < 20_000; k++) {
      b.setCurrentKey(k);
      v.update(k);
    }
    const before = stored();
    expect(before).toBeGreaterThan(15_000);
    now = 40;
    for (let k = 20_000; k < 40_000; k++) {
      b.setCurrentKey(k);
      v.update(k);
    }
    // The first 20,000 expired, and the writes of 20,000 others scanned and removed them.
    expect(stored()).toBeLessThan(21_000);
    expect([...b.keys('v')]).toHaveLength(20_000);
  });

  it('drops expired slots from a cache that never fills, a few per insert, and nothing live', async () => {
    let now = 0;
    const b = await make((clock) => new LmdbKeyedStateBackend({ engine, cacheBytes: 256 << 20, localDir: undefined }, clock), () => now);
    const v = b.getState<number>({ name: 'v', ttlMs: 30 });
    const cached = (): number => (b as unknown as { cached: number }).cached;
    for (let k = 0; k < 10_000; k++) {
      b.setCurrentKey(k);
      v.update(k);
    }
    expect(cached()).toBe(10_000);
    now = 40;
    // Keys 0..9,999 are never read again; the inserts of 10,000 new keys sweep them out of the cache.
    for (let k = 10_000; k < 20_000; k++) {
      b.setCurrentKey(k);
      v.update(k);
    }
    expect(cached()).toBeLessThanOrEqual(10_001);
    expect(cached()).toBeGreaterThanOrEqual(10_000);
    now = 60;
    expect([...b.keys('v')]).toHaveLength(10_000);
    b.setCurrentKey(19_999);
    expect(v.value()).toBe(19_999);
  });

  it('sweeps stored copies of expired keys, keeps cleared keys cleared, and checkpoints hold only live keys', async () => {
    let now = 0;
    // The smallest cache: most keys are written back, so swept slots have store copies.
    const b = await make((clock) => new LmdbKeyedStateBackend({ engine, cacheBytes: 0, localDir: undefined }, clock), () => now);
    const v = b.getState<number>({ name: 'v', ttlMs: 30 });
    for (let k = 0; k < 5_000; k++) {
      b.setCurrentKey(k);
      v.update(k);
    }
    // Cleared while stored: the tombstone must hide the store copy whatever the sweep does.
    for (let k = 0; k < 5_000; k += 10) {
      b.setCurrentKey(k);
      v.clear();
    }
    now = 20;
    for (let k = 5_000; k < 8_000; k++) {
      b.setCurrentKey(k);
      v.update(k);
    }
    now = 40;
    for (let k = 0; k < 5_000; k += 10) {
      b.setCurrentKey(k);
      expect(v.value()).toBeUndefined();
    }
    for (let k = 8_000; k < 9_000; k++) {
      b.setCurrentKey(k);
      v.update(k);
    }
    const keys = new Set([...checkpointed(b).states[0]!.entries].map(([k]) => k as number));
    expect(keys.size).toBe(4_000);
    for (let k = 5_000; k < 9_000; k++) expect(keys.has(k)).toBe(true);
    const back = await make((clock) => new LmdbKeyedStateBackend({ engine, cacheBytes: 0, localDir: undefined }, clock), () => now);
    back.restore(checkpointed(b));
    const w = back.getState<number>({ name: 'v', ttlMs: 30 });
    back.setCurrentKey(7_000);
    expect(w.value()).toBe(7_000);
    back.setCurrentKey(100);
    expect(w.value()).toBeUndefined();
  });

  it('checkpoints stream from the store in Maps of at most shardEntries stored entries, skipping expired ones', async () => {
    let now = 0;
    const b = await make((clock) => new LmdbKeyedStateBackend({ engine, cacheBytes: 0, localDir: undefined, shardEntries: 1_000 }, clock), () => now);
    const v = b.getState<bigint[]>({ name: 'v', ttlMs: 30 });
    const plain = b.getState<string>('plain');
    for (let k = 0; k < 3_500; k++) {
      b.setCurrentKey(k);
      v.update([BigInt(k), 2n ** 70n + BigInt(k)]);
      if (k < 10) plain.update(`p${k}`);
    }
    now = 20;
    // Keys 3,000.. are written again later, so they outlive the TTL; the others expire by now = 40.
    for (let k = 3_000; k < 3_500; k++) {
      b.setCurrentKey(k);
      v.update([BigInt(k)]);
    }
    now = 40;
    const snap = b.snapshot();
    // The records are cut as the encoder reads the store (no counting pass): known once encoded.
    const back = decodeState(encodeState(snap)) as KeyedStateSnapshot;
    // The store holds 3,500 entries of v (expired ones are still stored): four Maps, the last the rest.
    expect(back.states.map((s) => s.name)).toEqual(['v', 'v', 'v', 'v', 'plain']);
    expect(back.states.every((s) => s.entries instanceof Map)).toBe(true);
    const live = back.states.filter((s) => s.name === 'v').flatMap((s) => [...s.entries]);
    expect(live.map(([k]) => k).sort((x, y) => (x as number) - (y as number))).toEqual(Array.from({ length: 500 }, (_, i) => 3_000 + i));
    expect(live.find(([k]) => k === 3_210)![1]).toEqual([3_210n]);
    expect([...back.states[4]!.entries].length).toBe(10);
    // Restored into the heap backend, the Maps become its shards.
    const heap = await make(() => new HeapKeyedStateBackend());
    heap.restore(back);
    heap.setCurrentKey(3_499);
    expect(heap.getState<bigint[]>('v').value()).toEqual([3_499n]);
    heap.setCurrentKey(7);
    expect(heap.getState<string>('plain').value()).toBe('p7');
  });

  it('checkpoints values holding registered classes in any order (class ids are per encoding, not per store)', async () => {
    const b = await make(() => new LmdbKeyedStateBackend({ engine, cacheBytes: 0, localDir: undefined }));
    const v = b.getState<unknown>('v');
    // Classes in both orders: each stored value numbers its classes from 0, so its bytes copied into a
    // checkpoint as they are would read one class as the other.
    const value = (k: number): unknown =>
      k % 4 === 1
        ? [Decimal.of(BigInt(k), 2), new Label(`l${k}`), Decimal.of(-1n, 0)]
        : k % 4 === 0
          ? [new Label('x'), Decimal.of(BigInt(k), 0)]
          : k % 4 === 2
            ? { n: k, r: new Row(0, [BigInt(k), 'x', null]) }
            : [k, 2n ** 80n];
    for (let k = 0; k < 3_000; k++) {
      b.setCurrentKey(k);
      v.update(value(k));
    }
    const back = checkpointed(b).states[0]!.entries as Array<[number, unknown]>;
    expect(back).toHaveLength(3_000);
    for (const [k, x] of back) expect(x).toEqual(value(k));
    expect((back.find(([k]) => k === 301)![1] as unknown[])[1]).toBeInstanceOf(Label);
  });

  it('writes a slot back only if it was used since last written, and keeps changes made in place after a checkpoint', async () => {
    const b = await make(() => new LmdbKeyedStateBackend({ engine, cacheBytes: 256 << 20, localDir: undefined }));
    const acc = b.getState<{ n: number }>('acc');
    for (let k = 0; k < 3_000; k++) {
      b.setCurrentKey(k);
      acc.update({ n: k });
    }
    b.snapshot();
    const db = (b as unknown as { db: { putSync: (k: Uint8Array, v: Uint8Array) => void } }).db;
    let puts = 0;
    const put = db.putSync.bind(db);
    db.putSync = (k, v) => {
      puts++;
      put(k, v);
    };
    // Nothing used since the last checkpoint: the next one writes nothing back.
    b.snapshot();
    expect(puts).toBe(0);
    // Read and changed in place, without update: those (and only those) are written back.
    for (let k = 0; k < 3_000; k += 3) {
      b.setCurrentKey(k);
      acc.value()!.n += 1_000_000;
    }
    const s = checkpointed(b);
    expect(puts).toBe(1_000);
    const n = new Map(s.states[0]!.entries.map(([k, v]) => [k, (v as { n: number }).n]));
    expect(n.get(0)).toBe(1_000_000);
    expect(n.get(1)).toBe(1);
    expect(n.get(2_997)).toBe(1_002_997);
    expect(n.get(2_999)).toBe(2_999);
  });

  it('grows its filter of stored keys as the store grows, and finds every stored key', async () => {
    const b = await make(() => new LmdbKeyedStateBackend({ engine, cacheBytes: 0, localDir: undefined, filterBits: 256 }));
    const v = b.getState<number>('v');
    for (let k = 0; k < 20_000; k++) {
      b.setCurrentKey(k * 7919);
      v.update(k);
    }
    const f = b as unknown as { filterBits: number; filterSet: number };
    expect(f.filterBits).toBeGreaterThanOrEqual(32_768);
    expect(f.filterSet).toBeLessThanOrEqual(f.filterBits / 2);
    for (let k = 0; k < 20_000; k += 37) {
      b.setCurrentKey(k * 7919);
      expect(v.value()).toBe(k);
      b.setCurrentKey(-1 - k);
      expect(v.value()).toBeUndefined();
    }
    expect([...b.keys('v')]).toHaveLength(20_000);
  });

  it('keeps to its memory budget in cached slots', async () => {
    const b = await make(() => new LmdbKeyedStateBackend({ engine, cacheBytes: 4 << 20, localDir: undefined }));
    const v = b.getState<number[]>('v');
    for (let k = 0; k < 100_000; k++) {
      b.setCurrentKey(k);
      v.update([k, k + 1]);
    }
    const cached = (b as unknown as { cached: number }).cached;
    expect(cached).toBeGreaterThan(1_000);
    expect(cached).toBeLessThan(20_000);
    b.setCurrentKey(17);
    expect(v.value()).toEqual([17, 18]);
  });
});
