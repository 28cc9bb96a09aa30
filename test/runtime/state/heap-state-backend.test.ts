import { describe, expect, it } from 'vitest';
import { HeapKeyedStateBackend } from '../../../src/runtime/state/heap-state-backend.js';

describe('HeapKeyedStateBackend', () => {
  it('scopes every state kind by the current key', () => {
    const b = new HeapKeyedStateBackend();
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

  it('expires entries not written within the TTL, and writes refresh it', () => {
    let now = 0;
    const b = new HeapKeyedStateBackend(() => now);
    const v = b.getState<number>({ name: 'v', ttlMs: 40 });
    const l = b.getListState<number>({ name: 'l', ttlMs: 40 });
    b.setCurrentKey('old');
    v.update(1);
    l.add(1);
    b.setCurrentKey('fresh');
    v.update(2);
    l.add(2);
    now = 25;
    l.add(3); // refreshes 'fresh' only
    v.update(3);
    now = 50;
    expect(v.value()).toBe(3);
    expect(l.get()).toEqual([2, 3]);
    b.setCurrentKey('old');
    expect(v.value()).toBeUndefined();
    expect(l.get()).toEqual([]);
    expect([...b.snapshot().states.find((s) => s.name === 'v')!.entries]).toEqual([['fresh', 3]]);
  });

  it('removes expired entries incrementally as other keys are written, so a TTL bounds memory without reads or checkpoints', () => {
    let now = 0;
    const b = new HeapKeyedStateBackend(() => now);
    const v = b.getState<number>({ name: 'v', ttlMs: 30 });
    for (let k = 0; k < 10_000; k++) {
      b.setCurrentKey(k);
      v.update(k);
    }
    expect([...b.keys('v')]).toHaveLength(10_000);
    now = 40;
    // Keys never read again: only the writes of new keys clean them up, a few per write.
    for (let k = 10_000; k < 11_000; k++) {
      b.setCurrentKey(k);
      v.update(k);
    }
    const left = [...b.keys('v')];
    expect(left).toHaveLength(1_000);
    expect(Math.min(...(left as number[]))).toBe(10_000);
    // A rewrite refreshes a key and moves it behind younger ones: it outlives keys written before it.
    now = 50;
    b.setCurrentKey(10_000);
    v.update(-1);
    now = 75;
    b.setCurrentKey('new');
    v.update(0);
    // The write expired the 16 oldest (10,001..10,016), not the rewritten 10,000.
    const after = [...b.keys('v')];
    expect(after).toHaveLength(1_000 - 16 + 1);
    expect(after).toContain(10_000);
    expect(after).not.toContain(10_016);
    expect(after).toContain(10_017);
    now = 90;
    b.setCurrentKey(10_000);
    expect(v.value()).toBeUndefined();
  });

  it('frees expired entries as other keys are only read, a few per read', () => {
    // A wall-clock epoch: write times are kept relative to the backend's start.
    let now = 1_764_000_000_000;
    const b = new HeapKeyedStateBackend(() => now);
    const v = b.getState<number>({ name: 'v', ttlMs: 30 });
    for (let k = 0; k < 100; k++) {
      b.setCurrentKey(k);
      v.update(k);
    }
    now += 20;
    b.setCurrentKey('late');
    v.update(0);
    now += 20;
    // Reads of the one live key, never a write: keys 0..99 expired and go, 4 per read, oldest first.
    for (let i = 0; i < 10; i++) expect(v.value()).toBe(0);
    expect([...b.keys('v')]).toHaveLength(100 - 40 + 1);
    expect([...b.keys('v')]).not.toContain(39);
    expect([...b.keys('v')]).toContain(40);
    for (let i = 0; i < 15; i++) expect(v.value()).toBe(0);
    expect([...b.keys('v')]).toEqual(['late']);
  });
});
