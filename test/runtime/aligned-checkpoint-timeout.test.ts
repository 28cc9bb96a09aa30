// `execution.checkpointing.aligned-checkpoint-timeout` (issue #19 item 3): with unaligned checkpoints on, a timeout
// above 0 starts each checkpoint aligned and switches a task still aligning when the checkpoint has run that long
// (counted from its barriers leaving the sources, as Flink's barrier timestamp). What the task's snapshot and the
// rows it keeps in flight hold together must be what an aligned checkpoint would have held: every row before the
// barrier on each channel, and none after it.
import { describe, expect, it } from 'vitest';
import { Channel, type StreamElement } from '../../src/runtime/channel.js';
import { decodeInFlight } from '../../src/runtime/checkpoint/in-flight-rows.js';
import { InputStreamTask } from '../../src/runtime/input-stream-task.js';
import { defaultRuntimeConfig } from '../../src/runtime/index.js';
import { Row } from '../../src/types/row.js';
import { FakeHost, operatorVertex } from './fakes/fake-host.js';
import { recorder } from './fakes/recorder.js';

const batch = (v: string): StreamElement => ({ kind: 'batch', rows: [Row.insert(v)] });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function twoInputTask(timeoutMs: number) {
  const log: string[] = [];
  const host = new FakeHost(defaultRuntimeConfig({ unalignedCheckpoints: true, alignedCheckpointTimeoutMs: timeoutMs }));
  const task = new InputStreamTask(host, operatorVertex('two', [recorder(log, { watermarks: false })]), 0, [], undefined, { recordsIn: 0, recordsOut: 0 });
  const a = new Channel(100, task.onData);
  const b = new Channel(100, task.onData);
  task.setInputs([{ channel: a, inputIndex: 0 }, { channel: b, inputIndex: 1 }]);
  return { log, host, a, b, done: task.run() };
}

/** The rows a checkpoint kept in flight, as `input:value`. */
const inFlight = (data: Uint8Array | undefined): string[] =>
  data === undefined ? [] : decodeInFlight(data).flatMap((x) => x.rows.map((r) => `${x.inputIndex}:${String(r.fields[0])}`));

describe('aligned-checkpoint timeout', () => {
  it('a checkpoint whose barriers all arrive within the timeout stays aligned: the channel that delivered its barrier waits', async () => {
    const { log, host, a, b, done } = twoInputTask(10_000);
    a.push(batch('a1'));
    a.push({ kind: 'barrier', checkpointId: 1, startedAt: Date.now() });
    a.push(batch('a2'));
    b.push(batch('b1'));
    await sleep(30);
    b.push({ kind: 'barrier', checkpointId: 1, startedAt: Date.now() });
    b.push(batch('b2'));
    a.push({ kind: 'end' });
    b.push({ kind: 'end' });
    await done;
    const snap = log.indexOf('snap1');
    expect(log.slice(0, snap).sort()).toEqual(['0:a1', '1:b1']);
    expect(log.slice(snap + 1).sort()).toEqual(['0:a2', '1:b2']);
    expect(host.acks.map((x) => [x.checkpointId, x.snapshot.inFlight])).toEqual([[1, undefined]]);
  });

  it('a task still aligning when the timeout passes snapshots then and keeps the rows in flight until the late barrier', async () => {
    const { log, host, a, b, done } = twoInputTask(40);
    a.push(batch('a1'));
    a.push({ kind: 'barrier', checkpointId: 1, startedAt: Date.now() });
    a.push(batch('a2'));
    b.push(batch('b1'));
    await sleep(10);
    // Still aligned: a's rows after its barrier wait.
    expect(log).toEqual(['0:a1', '1:b1']);
    await sleep(80);
    // Switched: the snapshot holds a1 and b1; a2, blocked until now, is after it.
    expect(log.slice(0, 3)).toEqual(['0:a1', '1:b1', 'snap1']);
    expect(log).toContain('0:a2');
    expect(host.acks).toEqual([]);
    b.push(batch('b2'));
    b.push(batch('b3'));
    b.push({ kind: 'barrier', checkpointId: 1, startedAt: 0 });
    b.push(batch('b4'));
    a.push({ kind: 'end' });
    b.push({ kind: 'end' });
    await done;
    // Acknowledged once b delivered its barrier, with b's rows before that barrier and after the snapshot kept.
    expect(host.acks.map((x) => x.checkpointId)).toEqual([1]);
    expect(inFlight(host.acks[0]!.snapshot.inFlight)).toEqual(['1:b2', '1:b3']);
    expect(log.filter((l) => l !== 'snap1').sort()).toEqual(['0:a1', '0:a2', '1:b1', '1:b2', '1:b3', '1:b4']);
  });

  it('a barrier that reaches the task after the timeout already passed switches at once', async () => {
    const { log, host, a, b, done } = twoInputTask(50);
    a.push(batch('a1'));
    a.push({ kind: 'barrier', checkpointId: 3, startedAt: Date.now() - 1000 });
    a.push(batch('a2'));
    await sleep(20);
    expect(log).toEqual(['0:a1', 'snap3', '0:a2']);
    b.push(batch('b1'));
    b.push({ kind: 'barrier', checkpointId: 3 });
    a.push({ kind: 'end' });
    b.push({ kind: 'end' });
    await done;
    expect(host.acks.map((x) => x.checkpointId)).toEqual([3]);
    expect(inFlight(host.acks[0]!.snapshot.inFlight)).toEqual(['1:b1']);
  });

  it('a savepoint stays aligned however long its alignment takes', async () => {
    const { log, host, a, b, done } = twoInputTask(20);
    a.push(batch('a1'));
    a.push({ kind: 'barrier', checkpointId: 2, savepoint: true, startedAt: Date.now() - 1000 });
    a.push(batch('a2'));
    b.push(batch('b1'));
    await sleep(60);
    expect(log).toEqual(['0:a1', '1:b1']);
    b.push({ kind: 'barrier', checkpointId: 2, savepoint: true });
    a.push({ kind: 'end' });
    b.push({ kind: 'end' });
    await done;
    expect(log).toEqual(['0:a1', '1:b1', 'snap2', '0:a2']);
    expect(host.acks.map((x) => [x.checkpointId, x.snapshot.inFlight])).toEqual([[2, undefined]]);
  });

  it('a timeout of 0 (the default) starts every checkpoint unaligned, at its first barrier, which overtakes the batches queued ahead of it', async () => {
    const { log, host, a, b, done } = twoInputTask(0);
    a.push(batch('a1'));
    a.push({ kind: 'barrier', checkpointId: 1, startedAt: Date.now() });
    a.push(batch('a2'));
    await sleep(20);
    // a1 was still queued when the barrier came: the snapshot is before it, and a1 is in flight.
    expect(log).toEqual(['snap1', '0:a1', '0:a2']);
    b.push(batch('b1'));
    b.push({ kind: 'barrier', checkpointId: 1 });
    a.push({ kind: 'end' });
    b.push({ kind: 'end' });
    await done;
    expect(inFlight(host.acks[0]!.snapshot.inFlight)).toEqual(['0:a1', '1:b1']);
  });
});
