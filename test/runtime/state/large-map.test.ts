import { describe, expect, it } from 'vitest';
import { HeapKeyedStateBackend, type KeyedStateSnapshot } from '../../../src/runtime/state/heap-state-backend.js';
import { LargeMap } from '../../../src/runtime/state/large-map.js';
import { decodeState, encodeState } from '../../../src/runtime/state/state-codec.js';

describe('LargeMap', () => {
  it('behaves as one Map across shards: lookups, overwrites, deletes, and insertion order', () => {
    const m = new LargeMap<number, string>([], 4);
    const ref = new Map<number, string>();
    let seed = 3;
    const rnd = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    for (let i = 0; i < 2_000; i++) {
      const k = rnd(40);
      const op = rnd(3);
      if (op === 0) {
        expect(m.delete(k)).toBe(ref.delete(k));
      } else if (op === 1) {
        // Delete then set moves a key to the end, as the TTL bookkeeping does.
        m.delete(k);
        ref.delete(k);
        m.set(k, `v${i}`);
        ref.set(k, `v${i}`);
      } else {
        m.set(k, `w${i}`);
        ref.set(k, `w${i}`);
      }
      expect(m.get(k)).toBe(ref.get(k));
      expect(m.has(k)).toBe(ref.has(k));
      expect(m.size).toBe(ref.size);
    }
    expect([...m.entries()]).toEqual([...ref.entries()]);
    expect([...m.keys()]).toEqual([...ref.keys()]);
    expect(m.maps.every((s) => s.size <= 4)).toBe(true);
    expect(m.maps.length).toBeGreaterThan(1);
  });
});

describe('HeapKeyedStateBackend beyond one Map', () => {
  it('keeps a state larger than one Map holds, snapshots it as several Maps and restores all of it', () => {
    const b = new HeapKeyedStateBackend(Date.now, 100);
    const v = b.getState<number>('v');
    for (let k = 0; k < 1_000; k++) {
      b.setCurrentKey(k);
      v.update(k * 2);
    }
    const snap = b.snapshot();
    expect(snap.states.length).toBe(10);
    const back = new HeapKeyedStateBackend(Date.now, 100);
    back.restore(decodeState(encodeState(snap)) as KeyedStateSnapshot);
    const w = back.getState<number>('v');
    for (let k = 0; k < 1_000; k++) {
      back.setCurrentKey(k);
      expect(w.value()).toBe(k * 2);
    }
    expect([...back.keys('v')]).toHaveLength(1_000);
    // Restored at another shard size (another release): every key still there.
    const other = new HeapKeyedStateBackend(Date.now, 300);
    other.restore(decodeState(encodeState(snap)) as KeyedStateSnapshot);
    expect(new Set(other.keys('v'))).toEqual(new Set(Array.from({ length: 1_000 }, (_, k) => k)));
  });

  it('expires the oldest entries first across Maps', () => {
    let now = 0;
    const b = new HeapKeyedStateBackend(() => now, 8);
    const v = b.getState<number>({ name: 'v', ttlMs: 10 });
    for (let k = 0; k < 50; k++) {
      b.setCurrentKey(k);
      v.update(k);
    }
    now = 5;
    b.setCurrentKey(3);
    v.update(3); // refreshed: now the youngest
    now = 12;
    b.setCurrentKey('x');
    v.update(0);
    b.setCurrentKey('x');
    for (let i = 0; i < 20; i++) v.value();
    expect([...b.keys('v')].sort()).toEqual([3, 'x']);
  });
});
