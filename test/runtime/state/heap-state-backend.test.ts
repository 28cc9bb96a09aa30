import { describe, expect, it } from 'vitest';
import { HeapKeyedStateBackend } from '../../../src/runtime/state/heap-state-backend.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

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

  it('expires entries not written within the TTL, and writes refresh it', async () => {
    const b = new HeapKeyedStateBackend();
    const v = b.getState<number>({ name: 'v', ttlMs: 40 });
    const l = b.getListState<number>({ name: 'l', ttlMs: 40 });
    b.setCurrentKey('old');
    v.update(1);
    l.add(1);
    b.setCurrentKey('fresh');
    v.update(2);
    l.add(2);
    await sleep(25);
    l.add(3); // refreshes 'fresh' only
    v.update(3);
    await sleep(25);
    expect(v.value()).toBe(3);
    expect(l.get()).toEqual([2, 3]);
    b.setCurrentKey('old');
    expect(v.value()).toBeUndefined();
    expect(l.get()).toEqual([]);
    expect(b.snapshot().states.find((s) => s.name === 'v')!.entries).toEqual([['fresh', 3]]);
  });
});
