// Channels between threads (issue #19): batches cross as transferred binary buffers with their values
// exact, control elements keep their place among batches, and credits hold a producer back until the
// consumer polls.
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { StreamElement } from '../../../src/runtime/channel.js';
import { BATCH_ROWS, RemoteInputChannel, RemoteOutputChannel } from '../../../src/runtime/workers/remote-channel.js';
import { Decimal } from '../../../src/types/decimal.js';
import { Row } from '../../../src/types/row.js';
import { RowKind } from '../../../src/types/row-kind.js';

const turn = (): Promise<void> => new Promise((r) => setTimeout(r, 5));

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !cond(); i++) await turn();
  expect(cond()).toBe(true);
}

function pair(capacity: number): { out: RemoteOutputChannel; inp: RemoteInputChannel; arrivals: () => number; close(): void } {
  const mc = new MessageChannel();
  let arrivals = 0;
  const out = new RemoteOutputChannel(mc.port1, capacity);
  const inp = new RemoteInputChannel(mc.port2, capacity, () => arrivals++);
  return {
    out,
    inp,
    arrivals: () => arrivals,
    close: () => {
      out.close();
      inp.close();
    },
  };
}

describe('channels between threads', () => {
  it('carries a batch with its values exact: bigint, Decimal, Date, bytes, nested rows and row kinds', async () => {
    const { out, inp, close } = pair(4);
    const rows = [
      new Row(RowKind.INSERT, [1n, 'a', Decimal.parse('12.345'), new Date(5), new Uint8Array([1, 2]), null, [1, 2], new Row(RowKind.INSERT, [true, 2.5])]),
      new Row(RowKind.UPDATE_BEFORE, [-(2n ** 70n), '', null, null, null, undefined, [], null]),
    ];
    out.push({ kind: 'batch', rows });
    await until(() => inp.size === 1);
    const e = inp.poll();
    expect(e?.kind).toBe('batch');
    const got = (e as Extract<StreamElement, { kind: 'batch' }>).rows;
    expect(got.map((r) => r.kind)).toEqual([RowKind.INSERT, RowKind.UPDATE_BEFORE]);
    expect(got[0]!).toBeInstanceOf(Row);
    expect(got[0]!.fields[2]).toBeInstanceOf(Decimal);
    expect(String(got[0]!.fields[2])).toBe('12.345');
    expect(got[0]!.fields[7]).toBeInstanceOf(Row);
    expect(got).toEqual(rows);
    close();
  });

  it('keeps watermarks, barriers and end-of-partition in their place among the batches', async () => {
    const { out, inp, close } = pair(16);
    const sent: StreamElement[] = [
      { kind: 'batch', rows: [Row.insert(1)] },
      { kind: 'watermark', watermark: 10 },
      { kind: 'barrier', checkpointId: 3 },
      { kind: 'batch', rows: [Row.insert(2)] },
      { kind: 'idle', idle: true },
      { kind: 'end' },
    ];
    for (const e of sent) out.push(e);
    await until(() => inp.size === sent.length);
    const got: StreamElement[] = [];
    for (let e = inp.poll(); e !== undefined; e = inp.poll()) got.push(e);
    expect(got.map((e) => e.kind)).toEqual(sent.map((e) => e.kind));
    expect(got[1]).toEqual({ kind: 'watermark', watermark: 10 });
    expect(got[2]).toEqual({ kind: 'barrier', checkpointId: 3 });
    close();
  });

  it('shows the consumer the first barrier queued behind batches, and wakes it when one arrives even with batches queued', async () => {
    const { out, inp, arrivals, close } = pair(16);
    out.push({ kind: 'batch', rows: [Row.insert(1)] });
    out.push({ kind: 'watermark', watermark: 5 });
    await until(() => inp.size === 2);
    expect(inp.queuedBarrier()).toBeUndefined();
    const woken = arrivals();
    out.push({ kind: 'barrier', checkpointId: 4, startedAt: 9 });
    out.push({ kind: 'batch', rows: [Row.insert(2)] });
    out.push({ kind: 'barrier', checkpointId: 5 });
    out.flush();
    await until(() => inp.size === 5);
    // The queue was not empty, yet each barrier woke the consumer (the batch did not): it may overtake what is queued.
    expect(arrivals()).toBe(woken + 2);
    expect(inp.queuedBarrier()).toEqual({ kind: 'barrier', checkpointId: 4, startedAt: 9 });
    inp.poll();
    inp.poll();
    expect(inp.poll()).toEqual({ kind: 'barrier', checkpointId: 4, startedAt: 9 });
    expect(inp.queuedBarrier()).toEqual({ kind: 'barrier', checkpointId: 5 });
    inp.poll();
    inp.poll();
    expect(inp.queuedBarrier()).toBeUndefined();
    close();
  });

  it('takes a queued barrier out from behind the batches, which stay queued, and credits its message back', async () => {
    const { out, inp, close } = pair(4);
    const full = (n: number): StreamElement => ({ kind: 'batch', rows: Array.from({ length: BATCH_ROWS }, (_, i) => Row.insert(n * BATCH_ROWS + i)) });
    out.push(full(0));
    out.push(full(1));
    out.push({ kind: 'barrier', checkpointId: 2 });
    out.push({ kind: 'watermark', watermark: 1 });
    // Every credit is spent: the producer waits for its consumer.
    expect(out.hasSpace()).toBe(false);
    await until(() => inp.size === 4);
    const ahead = inp.removeQueuedBarrier();
    expect(ahead.map((rows) => [rows.length, rows[0]!.fields[0]])).toEqual([
      [BATCH_ROWS, 0],
      [BATCH_ROWS, BATCH_ROWS],
    ]);
    expect(inp.queuedBarrier()).toBeUndefined();
    expect(inp.removeQueuedBarrier()).toEqual([]);
    const rest: StreamElement[] = [];
    for (let e = inp.poll(); e !== undefined; e = inp.poll()) rest.push(e);
    expect(rest.map((e) => e.kind)).toEqual(['batch', 'batch', 'watermark']);
    // The same rows reach the operators as the checkpoint, decoded once.
    expect((rest[0] as Extract<StreamElement, { kind: 'batch' }>).rows).toBe(ahead[0]);
    await until(() => out.hasSpace() && out.size === 0);
    close();
  });

  it('holds the producer back once its credits are spent, until the consumer polls (backpressure)', async () => {
    const { out, inp, close } = pair(2);
    // Full batches go out one message each.
    const full = (n: number): StreamElement => ({ kind: 'batch', rows: Array.from({ length: BATCH_ROWS }, (_, i) => Row.insert(n * BATCH_ROWS + i)) });
    out.push(full(0));
    expect(out.hasSpace()).toBe(true);
    out.push(full(1));
    expect(out.hasSpace()).toBe(false);
    // A push never waits: the producer finishes its batch, then awaits space.
    out.push(full(2));
    let space = false;
    void out.space().then(() => (space = true));
    await until(() => inp.size === 3);
    await turn();
    expect(space).toBe(false);
    inp.poll();
    await turn();
    // One credit back: still one element over capacity.
    expect(space).toBe(false);
    inp.poll();
    await until(() => space);
    expect(out.hasSpace()).toBe(true);
    close();
  });

  it('gathers small batches into one message, sent before the next control element, or once the thread turns to other work (at once to an idle consumer, else within the buffer timeout)', async () => {
    const { out, inp, close } = pair(16);
    out.push({ kind: 'batch', rows: [Row.insert(1)] });
    out.push({ kind: 'batch', rows: [Row.insert(2), Row.insert(3)] });
    out.push({ kind: 'watermark', watermark: 7 });
    out.push({ kind: 'batch', rows: [Row.insert(4)] });
    await until(() => inp.size === 3);
    const got: StreamElement[] = [];
    for (let e = inp.poll(); e !== undefined; e = inp.poll()) got.push(e);
    expect(got).toEqual([
      { kind: 'batch', rows: [Row.insert(1), Row.insert(2), Row.insert(3)] },
      { kind: 'watermark', watermark: 7 },
      { kind: 'batch', rows: [Row.insert(4)] },
    ]);
    // Gathering stops at BATCH_ROWS rows per message.
    for (let i = 0; i < BATCH_ROWS + 1; i++) out.push({ kind: 'batch', rows: [Row.insert(i)] });
    await until(() => inp.size === 2);
    expect((inp.poll() as Extract<StreamElement, { kind: 'batch' }>).rows.length).toBe(BATCH_ROWS);
    expect((inp.poll() as Extract<StreamElement, { kind: 'batch' }>).rows).toEqual([Row.insert(BATCH_ROWS)]);
    close();
  });

  it('fails the producer, not the thread, when gathered rows hold a value that cannot cross threads', async () => {
    const { out, close } = pair(16);
    out.push({ kind: 'batch', rows: [Row.insert(() => 1)] });
    // Flushed on a later turn, outside the producer: the error waits for its next push.
    await turn();
    expect(out.hasSpace()).toBe(true);
    expect(() => out.push({ kind: 'batch', rows: [Row.insert(2)] })).toThrow(/cannot cross threads/);
    const direct = pair(16);
    direct.out.push({ kind: 'batch', rows: [Row.insert(() => 1)] });
    // Flushed by a control element inside the producer's push: thrown there.
    expect(() => direct.out.push({ kind: 'watermark', watermark: 1 })).toThrow(/cannot cross threads/);
    direct.close();
    close();
  });
});
