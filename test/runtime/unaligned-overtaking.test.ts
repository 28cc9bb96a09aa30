// An unaligned checkpoint's barrier overtakes the batches queued ahead of it (issue #19 item 3, Flink's priority
// barrier): a task snapshots as soon as the barrier is in one of its channels, even while it waits for space
// downstream, and forwards the barrier at once. What the snapshot and the rows kept in flight hold together must be
// what an aligned checkpoint would have held; the restore test of unaligned.test.ts and the crash trials of
// test/e2e/crash/unaligned.test.ts check that the rows in flight are processed again.
import { describe, expect, it } from 'vitest';
import { Channel, type StreamElement } from '../../src/runtime/channel.js';
import { decodeInFlight } from '../../src/runtime/checkpoint/in-flight-rows.js';
import { InputStreamTask } from '../../src/runtime/input-stream-task.js';
import { defaultRuntimeConfig, type OperatorFactory } from '../../src/runtime/index.js';
import { RecordWriter } from '../../src/runtime/record-writer.js';
import { Row } from '../../src/types/row.js';
import { FakeHost, operatorVertex } from './fakes/fake-host.js';

const batch = (v: string): StreamElement => ({ kind: 'batch', rows: [Row.insert(v)] });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Logs each row as `input:value` and each snapshot as `snap<id>`, and passes the rows on. */
function forwardingRecorder(log: string[]): OperatorFactory {
  return {
    name: 'fwd',
    create: () => {
      let out: (rows: Row[]) => void = () => {};
      return {
        open(ctx) {
          out = (rows) => ctx.output.collect(rows);
        },
        processBatch(rows, input) {
          for (const r of rows) log.push(`${input}:${String(r.fields[0])}`);
          out(rows);
        },
        snapshotState(id) {
          log.push(`snap${id}`);
          return undefined;
        },
      };
    },
  };
}

/** A task reading one channel into an output channel of one element that nobody drains until `drain()`. */
function backpressuredTask(unaligned: boolean) {
  const log: string[] = [];
  const host = new FakeHost(defaultRuntimeConfig({ unalignedCheckpoints: unaligned }));
  const out = new Channel(1, () => {});
  const task = new InputStreamTask(host, operatorVertex('fwd', [forwardingRecorder(log)]), 0, [new RecordWriter([out], { kind: 'forward' }, 128)], undefined, {
    recordsIn: 0,
    recordsOut: 0,
  });
  const input = new Channel(100, task.onData);
  task.setInputs([{ channel: input, inputIndex: 0 }]);
  const done = task.run();
  /** What reached the output channel so far, as values and `barrier<id>`, taken out of it. */
  const taken = (): string[] => {
    const seen: string[] = [];
    for (let e = out.poll(); e !== undefined; e = out.poll()) {
      if (e.kind === 'batch') seen.push(...e.rows.map((r) => String(r.fields[0])));
      else if (e.kind === 'barrier') seen.push(`barrier${e.checkpointId}`);
    }
    return seen;
  };
  const drain = (): (() => void) => {
    const t = setInterval(() => void taken(), 2);
    return () => clearInterval(t);
  };
  return { log, host, input, out, taken, drain, done };
}

const inFlight = (data: Uint8Array | undefined): string[] =>
  data === undefined ? [] : decodeInFlight(data).flatMap((x) => x.rows.map((r) => `${x.inputIndex}:${String(r.fields[0])}`));

describe('an unaligned barrier overtakes queued batches', () => {
  it('a task blocked on a full output channel snapshots when the barrier arrives and forwards it ahead of its unprocessed input', async () => {
    const { log, host, input, out, taken, drain, done } = backpressuredTask(true);
    input.push(batch('x1'));
    input.push(batch('x2'));
    await sleep(20);
    // x1 filled the output channel: the task waits for space with x2 unprocessed.
    expect(log).toEqual(['0:x1']);
    input.push(batch('x3'));
    input.push({ kind: 'barrier', checkpointId: 1, startedAt: Date.now() });
    input.push(batch('x4'));
    await sleep(20);
    // Still blocked, it snapshotted, sent the barrier on (downstream has it behind x1 only) and acknowledged the
    // checkpoint with the rows the barrier overtook, before processing them.
    expect(log).toEqual(['0:x1', 'snap1']);
    expect(out.size).toBe(2);
    expect(taken()).toEqual(['x1', 'barrier1']);
    expect(host.acks.map((a) => a.checkpointId)).toEqual([1]);
    expect(inFlight(host.acks[0]!.snapshot.inFlight)).toEqual(['0:x2', '0:x3']);
    const stop = drain();
    input.push({ kind: 'end' });
    await done;
    stop();
    expect(log).toEqual(['0:x1', 'snap1', '0:x2', '0:x3', '0:x4']);
    expect(host.acks.map((a) => a.checkpointId)).toEqual([1]);
  });

  it('an aligned checkpoint waits behind the queued batches, so the backpressured task sends no barrier', async () => {
    const { log, host, input, taken, drain, done } = backpressuredTask(false);
    input.push(batch('x1'));
    input.push(batch('x2'));
    input.push({ kind: 'barrier', checkpointId: 1, startedAt: Date.now() });
    await sleep(30);
    expect(log).toEqual(['0:x1']);
    expect(taken()).toEqual(['x1']);
    const stop = drain();
    input.push({ kind: 'end' });
    await done;
    stop();
    expect(log).toEqual(['0:x1', '0:x2', 'snap1']);
    expect(host.acks.map((a) => [a.checkpointId, a.snapshot.inFlight])).toEqual([[1, undefined]]);
  });

  it('a savepoint barrier is never overtaken, nor is a checkpoint barrier queued behind it', async () => {
    const { log, host, input, drain, done } = backpressuredTask(true);
    input.push(batch('x1'));
    input.push(batch('x2'));
    input.push({ kind: 'barrier', checkpointId: 1, savepoint: true });
    input.push(batch('x3'));
    input.push({ kind: 'barrier', checkpointId: 2 });
    await sleep(30);
    expect(log).toEqual(['0:x1']);
    const stop = drain();
    input.push({ kind: 'end' });
    await done;
    stop();
    expect(log).toEqual(['0:x1', '0:x2', 'snap1', 'snap2', '0:x3']);
    expect(host.acks.map((a) => [a.checkpointId, inFlight(a.snapshot.inFlight)])).toEqual([
      [1, []],
      [2, ['0:x3']],
    ]);
  });

  it('of two channels, the overtaken batches of one and the rows of the other before its barrier are in flight, and nothing after', async () => {
    const log: string[] = [];
    const host = new FakeHost(defaultRuntimeConfig({ unalignedCheckpoints: true }));
    const task = new InputStreamTask(host, operatorVertex('two', [forwardingRecorder(log)]), 0, [], undefined, { recordsIn: 0, recordsOut: 0 });
    const a = new Channel(100, task.onData);
    const b = new Channel(100, task.onData);
    task.setInputs([{ channel: a, inputIndex: 0 }, { channel: b, inputIndex: 1 }]);
    a.push(batch('a1'));
    a.push(batch('a2'));
    a.push({ kind: 'barrier', checkpointId: 7 });
    a.push(batch('a3'));
    b.push(batch('b1'));
    const done = task.run();
    await sleep(20);
    b.push(batch('b2'));
    b.push({ kind: 'barrier', checkpointId: 7 });
    b.push(batch('b3'));
    a.push({ kind: 'end' });
    b.push({ kind: 'end' });
    await done;
    expect(log[0]).toBe('snap7');
    expect(log.slice(1).sort()).toEqual(['0:a1', '0:a2', '0:a3', '1:b1', '1:b2', '1:b3']);
    expect(inFlight(host.acks[0]!.snapshot.inFlight).sort()).toEqual(['0:a1', '0:a2', '1:b1', '1:b2']);
  });
});
