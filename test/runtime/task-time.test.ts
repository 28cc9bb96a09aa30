import { describe, expect, it } from 'vitest';
import { Row } from '../../src/types/row.js';
import { Channel } from '../../src/runtime/channel.js';
import { InputStreamTask } from '../../src/runtime/input-stream-task.js';
import { RecordWriter } from '../../src/runtime/record-writer.js';
import type { OperatorFactory } from '../../src/runtime/index.js';
import type { TaskMetrics } from '../../src/runtime/task-host.js';
import { FakeHost, operatorVertex } from './fakes/fake-host.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Passes batches on after spinning `ms` per batch (synchronous work, as a costly expression is). */
function spinning(ms: number): OperatorFactory {
  return {
    name: 'spin',
    create: () => {
      let out: (rows: Row[]) => void = () => {};
      return {
        open(ctx) {
          out = (rows) => ctx.output.collect(rows);
        },
        processBatch(rows) {
          const end = performance.now() + ms;
          while (performance.now() < end) {
            // busy on purpose
          }
          out(rows);
        },
      };
    },
  };
}

describe("a task's busy, back-pressured and idle time (Flink's busyTimeMsPerSecond and friends)", () => {
  it('counts processing as busy, waiting for a full output channel as back-pressured, and waiting for input as neither', async () => {
    const metrics: TaskMetrics = { recordsIn: 0, recordsOut: 0 };
    const out = new Channel(1, () => {});
    const task = new InputStreamTask(new FakeHost(), operatorVertex('spin', [spinning(30)]), 0, [new RecordWriter([out], { kind: 'forward' }, 128)], undefined, metrics);
    const input = new Channel(10, task.onData);
    task.setInputs([{ channel: input, inputIndex: 0 }]);
    const started = performance.now();
    const done = task.run();
    // Idle before any input: measured (0), not unknown.
    expect(metrics.busyMs).toBe(0);
    input.push({ kind: 'batch', rows: [Row.insert(1)] });
    input.push({ kind: 'batch', rows: [Row.insert(2)] });
    await sleep(150);
    // The first batch was processed (30 ms of spinning) and filled the output channel: the task waits for space.
    expect(metrics.recordsIn).toBe(1);
    expect(metrics.busyMs).toBeGreaterThanOrEqual(30);
    expect(metrics.backPressuredSince).toBeDefined();
    out.poll();
    await sleep(100);
    expect(metrics.recordsIn).toBe(2);
    expect(metrics.busyMs).toBeGreaterThanOrEqual(60);
    expect(metrics.backPressuredMs).toBeGreaterThanOrEqual(100);
    out.poll();
    await sleep(50);
    // Waiting for input now: neither busy nor back-pressured, and nothing more is counted.
    expect(metrics.backPressuredSince).toBeUndefined();
    expect(metrics.busySince).toBeUndefined();
    const counted = [metrics.busyMs, metrics.backPressuredMs];
    await sleep(50);
    expect([metrics.busyMs, metrics.backPressuredMs]).toEqual(counted);
    // The end of input sends a watermark and the end downstream: keep the channel drained.
    const drain = setInterval(() => {
      while (out.poll() !== undefined);
    }, 5);
    input.push({ kind: 'end' });
    await done;
    clearInterval(drain);
    expect(metrics.busyMs! + metrics.backPressuredMs!).toBeLessThanOrEqual(performance.now() - started);
  });

  it('reports how long a checkpoint barrier waited for the barrier of the other input (alignment)', async () => {
    const host = new FakeHost();
    const task = new InputStreamTask(host, operatorVertex('two', []), 0, [], undefined, { recordsIn: 0, recordsOut: 0 });
    const a = new Channel(10, task.onData);
    const b = new Channel(10, task.onData);
    task.setInputs([{ channel: a, inputIndex: 0 }, { channel: b, inputIndex: 1 }]);
    const done = task.run();
    a.push({ kind: 'barrier', checkpointId: 1 });
    await sleep(60);
    b.push({ kind: 'barrier', checkpointId: 1 });
    await sleep(10);
    // Both barriers at once: no wait.
    a.push({ kind: 'barrier', checkpointId: 2 });
    b.push({ kind: 'barrier', checkpointId: 2 });
    a.push({ kind: 'end' });
    b.push({ kind: 'end' });
    await done;
    expect(host.acks.map((x) => x.checkpointId)).toEqual([1, 2]);
    expect(host.acks[0]!.alignmentMs).toBeGreaterThanOrEqual(55);
    expect(host.acks[1]!.alignmentMs).toBeLessThan(20);
  });
});
