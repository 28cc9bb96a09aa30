import { describe, expect, it } from 'vitest';
import { Row } from '../../src/types/row.js';
import { Channel } from '../../src/runtime/channel.js';
import { InputStreamTask } from '../../src/runtime/input-stream-task.js';
import { defaultRuntimeConfig, jsonSerializer, type OperatorFactory, type Sink } from '../../src/runtime/index.js';
import { FakeHost, operatorVertex } from './fakes/fake-host.js';
import { recorder } from './fakes/recorder.js';

async function runTwoInputs(mode: 'EXACTLY_ONCE' | 'AT_LEAST_ONCE'): Promise<string[]> {
  const log: string[] = [];
  const host = new FakeHost(defaultRuntimeConfig({ checkpointingMode: mode }));
  const task = new InputStreamTask(host, operatorVertex('two', [recorder(log)]), 0, [], undefined, { recordsIn: 0, recordsOut: 0 });
  const a = new Channel(10, task.onData);
  const b = new Channel(10, task.onData);
  task.setInputs([{ channel: a, inputIndex: 0 }, { channel: b, inputIndex: 1 }]);
  const done = task.run();
  a.push({ kind: 'batch', rows: [Row.insert('a1')] });
  a.push({ kind: 'barrier', checkpointId: 1 });
  a.push({ kind: 'batch', rows: [Row.insert('a2')] });
  b.push({ kind: 'batch', rows: [Row.insert('b1')] });
  await new Promise((r) => setTimeout(r, 20));
  b.push({ kind: 'barrier', checkpointId: 1 });
  b.push({ kind: 'batch', rows: [Row.insert('b2')] });
  a.push({ kind: 'end' });
  b.push({ kind: 'end' });
  await done;
  expect(host.acks.map((x) => x.checkpointId)).toEqual([1]);
  return log;
}

describe('InputStreamTask barrier handling with two inputs', () => {
  it('exactly-once blocks the input that delivered the barrier until the other one does', async () => {
    const log = await runTwoInputs('EXACTLY_ONCE');
    const snap = log.indexOf('snap1');
    expect(log.slice(0, snap).sort()).toEqual(['0:a1', '1:b1']);
    expect(log.slice(snap + 1).filter((l) => !l.startsWith('wm')).sort()).toEqual(['0:a2', '1:b2']);
  });

  it('at-least-once keeps reading the input that delivered the barrier', async () => {
    const log = await runTwoInputs('AT_LEAST_ONCE');
    expect(log.indexOf('0:a2')).toBeLessThan(log.indexOf('snap1'));
  });

  it('forwards the minimum watermark over inputs and ignores idle inputs', async () => {
    const log: string[] = [];
    const host = new FakeHost();
    const task = new InputStreamTask(host, operatorVertex('wm', [recorder(log)]), 0, [], undefined, { recordsIn: 0, recordsOut: 0 });
    const a = new Channel(10, task.onData);
    const b = new Channel(10, task.onData);
    task.setInputs([{ channel: a, inputIndex: 0 }, { channel: b, inputIndex: 1 }]);
    const done = task.run();
    a.push({ kind: 'watermark', watermark: 100 });
    b.push({ kind: 'watermark', watermark: 50 });
    await new Promise((r) => setTimeout(r, 5));
    b.push({ kind: 'watermark', watermark: 120 });
    await new Promise((r) => setTimeout(r, 5));
    a.push({ kind: 'watermark', watermark: 200 });
    b.push({ kind: 'idle', idle: true });
    await new Promise((r) => setTimeout(r, 5));
    a.push({ kind: 'end' });
    b.push({ kind: 'end' });
    await done;
    expect(log.filter((l) => l.startsWith('wm'))).toEqual(['wm:50', 'wm:100', 'wm:120', 'wm:200', 'wm:Infinity']);
  });

  it('a row a watermark fired into a sink whose write is still in flight belongs to the next barrier\'s pre-commit', async () => {
    // A window that fires on the watermark, as window aggregates do; its state is gone from the snapshot.
    const fireOnWatermark: OperatorFactory = {
      name: 'window',
      create: () => {
        let out: { collect(rows: Row[]): void } | undefined;
        return {
          open(ctx) {
            out = ctx.output;
          },
          processBatch() {},
          processWatermark(wm) {
            out!.collect([Row.insert(`fired at ${wm}`)]);
          },
        };
      },
    };
    // A writer that takes the rows only after an await (as a restored file writer removing stale files first).
    const buffered: string[] = [];
    const sink: Sink<Row, string[]> = {
      createWriter: () => ({
        async write(batch) {
          await new Promise((r) => setTimeout(r, 20));
          for (const r of batch) buffered.push(String(r.fields[0]));
        },
        async flush() {},
        async prepareCommit() {
          return [buffered.splice(0)];
        },
        async close() {},
      }),
      createCommitter: () => ({ async commit() {}, async close() {} }),
      getCommittableSerializer: () => jsonSerializer<string[]>(),
    };
    const host = new FakeHost();
    const vertex = { ...operatorVertex('window-sink', [fireOnWatermark]), sink: sink as Sink<Row, unknown, unknown> };
    const task = new InputStreamTask(host, vertex, 0, [], undefined, { recordsIn: 0, recordsOut: 0 });
    const a = new Channel(10, task.onData);
    task.setInputs([{ channel: a, inputIndex: 0 }]);
    const done = task.run();
    a.push({ kind: 'watermark', watermark: 1000 });
    a.push({ kind: 'barrier', checkpointId: 1 });
    a.push({ kind: 'end' });
    await done;
    const ack = host.acks.find((x) => x.checkpointId === 1)!;
    const pre = ack.committables.map((c) => JSON.parse(new TextDecoder().decode(c.data)) as string[]);
    expect(pre).toEqual([['fired at 1000']]);
  });
});
