import { describe, expect, it } from 'vitest';
import { Channel } from '../../src/runtime/channel.js';
import { InputStreamTask } from '../../src/runtime/input-stream-task.js';
import type { FiredTimer, OperatorFactory } from '../../src/runtime/index.js';
import { FakeHost, operatorVertex } from './fakes/fake-host.js';

describe('processing-time timers', () => {
  it('fire while the task has no input, with the key they were registered under', async () => {
    const fired: Array<FiredTimer & { at: number }> = [];
    let registeredAt = 0;
    const op: OperatorFactory = {
      name: 'proc',
      create: () => ({
        open(ctx) {
          registeredAt = Date.now();
          ctx.keyedState.setCurrentKey('k');
          ctx.timerService.registerProcessingTimeTimer(registeredAt + 30);
        },
        processBatch() {},
        onTimer(t) {
          fired.push({ ...t, at: Date.now() });
        },
      }),
    };
    const task = new InputStreamTask(new FakeHost(), operatorVertex('p', [op]), 0, [], undefined, { recordsIn: 0, recordsOut: 0 });
    const ch = new Channel(4, task.onData);
    task.setInputs([{ channel: ch, inputIndex: 0 }]);
    const done = task.run();
    await new Promise((r) => setTimeout(r, 80));
    expect(fired).toHaveLength(1);
    expect(fired[0]!.key).toBe('k');
    expect(fired[0]!.domain).toBe('PROCESSING_TIME');
    expect(fired[0]!.at).toBeGreaterThanOrEqual(registeredAt + 30);
    ch.push({ kind: 'end' });
    await done;
  });
});
