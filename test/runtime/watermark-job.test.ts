import { describe, expect, it } from 'vitest';
import type { Row } from '../../src/types/row.js';
import { defaultRuntimeConfig, executeJob, WatermarkStrategy, type FiredTimer, type OperatorContext, type OperatorFactory } from '../../src/runtime/index.js';
import { SequenceSource } from './fakes/sequence-source.js';
import { CollectSink } from './fakes/collect.js';

const ts = (r: Row): number => (r.fields[0] as number) * 10;

describe('event time in a job', () => {
  it('forwards non-decreasing watermarks that end at +Infinity and fire event-time timers', async () => {
    const fired: FiredTimer[] = [];
    const timers: OperatorFactory = {
      name: 'timers',
      create() {
        let ctx!: OperatorContext;
        return {
          open(c) {
            ctx = c;
          },
          processBatch(rows) {
            for (const r of rows) {
              ctx.keyedState.setCurrentKey((r.fields[0] as number) % 3);
              // A timer for a time the watermark already passed would fire at the next watermark.
              if (ctx.timerService.currentWatermark() < 1000) ctx.timerService.registerEventTimeTimer(1000);
            }
            ctx.output.collect(rows);
          },
          onTimer(t) {
            expect(ctx.timerService.currentWatermark()).toBeGreaterThanOrEqual(1000);
            fired.push(t);
          },
        };
      },
    };
    const sink = new CollectSink();
    const client = executeJob(
      {
        jobName: 'wm',
        vertices: [
          {
            kind: 'source', id: 'src', name: 'numbers', parallelism: 2,
            source: new SequenceSource({ from: 1, to: 2000, splits: 4, batchSize: 50 }),
            watermarkStrategy: WatermarkStrategy.forBoundedOutOfOrderness(100, ts),
          },
          { kind: 'operator', id: 'op', name: 'timers', parallelism: 1, operators: [timers] },
          { kind: 'sink', id: 'snk', name: 'collect', parallelism: 1, sink },
        ],
        edges: [
          { from: 'src', to: 'op', partitioner: { kind: 'rebalance' } },
          { from: 'op', to: 'snk', partitioner: { kind: 'forward' } },
        ],
      },
      defaultRuntimeConfig(),
    );
    await client.waitForCompletion();
    expect(sink.rows).toHaveLength(2000);
    const wms = sink.watermarks;
    expect(wms.at(-1)).toBe(Infinity);
    for (let i = 1; i < wms.length; i++) expect(wms[i]!).toBeGreaterThan(wms[i - 1]!);
    expect(fired.map((t) => t.key).sort()).toEqual([0, 1, 2]);
  });

  it('watermark alignment pauses the split that runs ahead and resumes it later', async () => {
    const paused: string[] = [];
    const resumed: string[] = [];
    const strategy = WatermarkStrategy.withWatermarkAlignment(WatermarkStrategy.forMonotonousTimestamps(ts), 'g', 200);
    const sink = new CollectSink();
    const client = executeJob(
      {
        jobName: 'align',
        vertices: [
          {
            kind: 'source', id: 'src', name: 'numbers', parallelism: 2,
            // range-0 is 1..1000 (ts 10..10000), range-1 is 1001..2000 (ts 10010..): range-1 is far ahead.
            source: new SequenceSource({
              from: 1, to: 2000, splits: 2, batchSize: 20, fetchDelayMs: 1,
              onPauseOrResume: (p, r) => { paused.push(...p); resumed.push(...r); },
            }),
            watermarkStrategy: strategy,
          },
          { kind: 'sink', id: 'snk', name: 'collect', parallelism: 1, sink },
        ],
        edges: [{ from: 'src', to: 'snk', partitioner: { kind: 'rebalance' } }],
      },
      defaultRuntimeConfig(),
    );
    await client.waitForCompletion();
    expect(sink.rows).toHaveLength(2000);
    expect(paused).toContain('range-1');
    expect(paused).not.toContain('range-0');
    expect(resumed).toContain('range-1');
  });
});
