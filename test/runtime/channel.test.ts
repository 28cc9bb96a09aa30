// A channel between two subtasks of one thread: bounded, in order, and, for an unaligned checkpoint, a barrier
// that can be taken out from behind the batches queued ahead of it (issue #19 item 3).
import { describe, expect, it } from 'vitest';
import { Channel } from '../../src/runtime/channel.js';
import { Row } from '../../src/types/row.js';

describe('a channel between subtasks of one thread', () => {
  it('shows the first barrier queued, takes it out from behind the batches ahead of it, which stay queued, and frees its place', async () => {
    let wakes = 0;
    const c = new Channel(4, () => wakes++);
    const b1 = [Row.insert(1)];
    const b2 = [Row.insert(2)];
    c.push({ kind: 'batch', rows: b1 });
    c.push({ kind: 'watermark', watermark: 4 });
    c.push({ kind: 'batch', rows: b2 });
    expect(wakes).toBe(1);
    expect(c.queuedBarrier()).toBeUndefined();
    expect(c.removeQueuedBarrier()).toEqual([]);
    c.push({ kind: 'barrier', checkpointId: 8 });
    c.push({ kind: 'barrier', checkpointId: 9 });
    // Each barrier wakes the consumer, however much is queued.
    expect(wakes).toBe(3);
    expect(c.hasSpace()).toBe(false);
    let space = false;
    void c.space().then(() => (space = true));
    expect(c.queuedBarrier()).toEqual({ kind: 'barrier', checkpointId: 8 });
    const ahead = c.removeQueuedBarrier();
    expect(ahead).toEqual([b1, b2]);
    expect(ahead[0]).toBe(b1);
    await Promise.resolve();
    expect(space).toBe(false);
    expect(c.removeQueuedBarrier()).toEqual([b1, b2]);
    await Promise.resolve();
    // Both barriers out: three elements of four, room again.
    expect(space).toBe(true);
    expect(c.queuedBarrier()).toBeUndefined();
    expect([c.poll(), c.poll(), c.poll(), c.poll()].map((e) => e?.kind)).toEqual(['batch', 'watermark', 'batch', undefined]);
  });
});
