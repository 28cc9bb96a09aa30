import { describe, expect, it } from 'vitest';
import type { Row } from '../../src/types/row.js';
import { defaultRuntimeConfig, executeJob, type Sink, type SinkWriter } from '../../src/runtime/index.js';
import { SequenceSource } from './fakes/sequence-source.js';

/** A sink whose writes take a while: the task must await them. */
class SlowSink implements Sink<Row> {
  count = 0;
  inFlight = 0;
  maxInFlight = 0;
  createWriter(): SinkWriter<Row> {
    return {
      write: async (b) => {
        this.inFlight++;
        this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
        await new Promise((r) => setTimeout(r, 1));
        this.count += b.length;
        this.inFlight--;
      },
      flush: async () => {},
      close: async () => {},
    };
  }
}

describe('backpressure', () => {
  it('the element queue never exceeds its capacity and channels stay bounded when the sink is slow', async () => {
    let maxQueue = 0;
    let cap = 0;
    const source = new SequenceSource({
      from: 1, to: 3000, splits: 3, batchSize: 50, queueCapacity: 2,
      onQueueSize: (s, c) => { maxQueue = Math.max(maxQueue, s); cap = c; },
    });
    const sink = new SlowSink();
    const client = executeJob(
      {
        jobName: 'bp',
        vertices: [
          { kind: 'source', id: 'src', name: 'numbers', parallelism: 1, source },
          { kind: 'sink', id: 'snk', name: 'slow', parallelism: 1, sink },
        ],
        edges: [{ from: 'src', to: 'snk', partitioner: { kind: 'rebalance' } }],
      },
      defaultRuntimeConfig({ channelCapacity: 2 }),
    );
    const res = await client.waitForCompletion();
    expect(res.status).toBe('FINISHED');
    expect(sink.count).toBe(3000);
    expect(cap).toBe(2);
    expect(maxQueue).toBeLessThanOrEqual(2);
    expect(maxQueue).toBeGreaterThan(0);
    expect(sink.maxInFlight).toBe(1);
  });
});
