import { describe, expect, it } from 'vitest';
import type { Row } from '../../src/types/row.js';
import { defaultRuntimeConfig, executeJob, type OperatorFactory, type Sink, type SinkWriter } from '../../src/runtime/index.js';
import { SequenceSource } from './fakes/sequence-source.js';

/** Logs each writer's calls; every write takes a while, so a failure elsewhere lands mid-write. */
class SlowLoggingSink implements Sink<Row> {
  readonly log: string[] = [];
  private writers = 0;
  createWriter(): SinkWriter<Row> {
    const id = this.writers++;
    return {
      write: async () => {
        this.log.push(`${id}:write-start`);
        await new Promise((r) => setTimeout(r, 40));
        this.log.push(`${id}:write-end`);
      },
      flush: async () => {},
      close: async () => {
        this.log.push(`${id}:close`);
      },
    };
  }
}

function failOnce(after: number): OperatorFactory {
  let seen = 0;
  return {
    name: 'chaos',
    create() {
      let emit: (r: Row[]) => void = () => {};
      return {
        open(ctx) {
          emit = (r) => ctx.output.collect(r);
        },
        processBatch(rows) {
          seen += rows.length;
          if (seen >= after && seen - rows.length < after) throw new Error('injected failure');
          emit(rows);
        },
      };
    },
  };
}

describe('closing a canceled sink task', () => {
  it('waits for the writer call still running before closing the writer', async () => {
    const sink = new SlowLoggingSink();
    const client = executeJob(
      {
        jobName: 'close-after-write',
        vertices: [
          { kind: 'source', id: 'src', name: 'numbers', parallelism: 1, source: new SequenceSource({ from: 1, to: 400, splits: 1, batchSize: 20, fetchDelayMs: 5 }), operators: [failOnce(200)] },
          { kind: 'sink', id: 'snk', name: 'slow', parallelism: 1, sink },
        ],
        edges: [{ from: 'src', to: 'snk', partitioner: { kind: 'rebalance' } }],
      },
      defaultRuntimeConfig({ restartStrategy: { kind: 'fixed-delay', attempts: 1, delayMs: 0 } }),
    );
    const res = await client.waitForCompletion();
    expect(res.restarts).toBe(1);
    // The first attempt's writer was canceled; a write had started and must have ended before its close.
    const first = sink.log.filter((e) => e.startsWith('0:'));
    expect(first).toContain('0:close');
    expect(first.filter((e) => e === '0:write-start').length).toBeGreaterThan(0);
    expect(first.at(-1)).toBe('0:close');
    expect(first.filter((e) => e === '0:write-start').length).toBe(first.filter((e) => e === '0:write-end').length);
    // And the restarted writer began only after the first one was closed.
    expect(sink.log.indexOf('0:close')).toBeLessThan(sink.log.indexOf('1:write-start'));
  });
});
