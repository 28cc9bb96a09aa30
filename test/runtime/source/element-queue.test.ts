import { describe, expect, it } from 'vitest';
import { ElementQueue } from '../../../src/runtime/source/element-queue.js';

describe('ElementQueue', () => {
  it('makes a putter wait while full and lets it in after a poll', async () => {
    const q = new ElementQueue<number>(2);
    expect(await q.put(0, 1)).toBe(true);
    expect(await q.put(0, 2)).toBe(true);
    let done = false;
    const third = q.put(0, 3).then((ok) => ((done = true), ok));
    await new Promise((r) => setImmediate(r));
    expect(done).toBe(false);
    expect(q.size).toBe(2);
    expect(q.poll()).toBe(1);
    expect(await third).toBe(true);
    expect(q.size).toBe(2);
  });

  it('a woken putter returns false without adding', async () => {
    const q = new ElementQueue<number>(1);
    await q.put(3, 1);
    const p = q.put(3, 2);
    q.wakeUpPutter(3);
    expect(await p).toBe(false);
    expect(q.size).toBe(1);
  });
});
