// A fetcher's failure reaches the source task however the two interleave. The failure wakes a task that waits for
// data; a task that polled just before it and waits only after it must not wait for ever (CI once hung 60 s on
// bounded-job.test.ts's failing fetcher, the task having yielded between its poll and its wait).
import { describe, expect, it } from 'vitest';
import { ConnectorError } from '../../../src/errors/sluice-error.js';
import { SingleThreadFetcherManager, type SplitReader } from '../../../src/runtime/index.js';

interface Split {
  readonly splitId: string;
}

/** A split reader whose first fetch fails. */
function failing(): SplitReader<number, Split> {
  return {
    fetch: async () => {
      await new Promise((r) => setImmediate(r));
      throw new Error('broker unreachable');
    },
    handleSplitsChanges: () => {},
    wakeUp: () => {},
    close: async () => {},
  };
}

const settled = (p: Promise<void>, ms: number): Promise<boolean> =>
  Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

describe('a failing fetcher', () => {
  it('wakes a task that asks for data only after the failure, and the task then gets the connector message', async () => {
    const m = new SingleThreadFetcherManager(failing, 2);
    // The task polls: nothing yet, no error.
    expect(m.queue.poll()).toBeUndefined();
    m.checkErrors();
    m.addSplits([{ splitId: 's' }]);
    // The fetcher fails while the task is elsewhere (not waiting).
    await new Promise((r) => setTimeout(r, 20));
    expect(await settled(m.availability(), 500)).toBe(true);
    expect(() => m.checkErrors()).toThrow(ConnectorError);
    expect(() => m.checkErrors()).toThrow('Source fetcher failed: broker unreachable');
  });

  it('wakes a task already waiting', async () => {
    const m = new SingleThreadFetcherManager(failing, 2);
    const waiting = m.availability();
    m.addSplits([{ splitId: 's' }]);
    expect(await settled(waiting, 500)).toBe(true);
    expect(() => m.checkErrors()).toThrow('broker unreachable');
  });

  it('waits while nothing came and nothing failed', async () => {
    const m = new SingleThreadFetcherManager<number, Split>(
      () => ({ fetch: () => new Promise(() => {}), handleSplitsChanges: () => {}, wakeUp: () => {}, close: async () => {} }),
      2,
    );
    m.addSplits([{ splitId: 's' }]);
    expect(await settled(m.availability(), 50)).toBe(false);
  });
});
