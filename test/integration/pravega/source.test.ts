import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ControllerClient,
  EventStreamWriter,
  SegmentStoreConnectionPool,
  streamCutToText,
  tailStreamCut,
  type EventToWrite,
} from '../../../src/connectors/pravega/client/index.js';
import { PravegaSource } from '../../../src/connectors/pravega/source/pravega-source.js';
import { defaultRuntimeConfig, executeJob, type JobGraph } from '../../../src/runtime/index.js';
import type { Row } from '../../../src/types/row.js';
import { CollectSink } from '../../runtime/fakes/collect.js';
import { keySeqDecoder, keysOutOfOrder, sourceConfig, waitFor } from './connector-helpers.js';
import { CONTROLLER_URI, pravegaAvailable, uniqueName } from './pravega-env.js';

const available = await pravegaAvailable();

const KEYS = Array.from({ length: 12 }, (_, i) => `key-${i}`);

function graph(source: PravegaSource, sink: CollectSink, parallelism = 2): JobGraph {
  return {
    jobName: 'pravega-source',
    vertices: [
      { kind: 'source', id: 'src', name: 'pravega', parallelism, source },
      { kind: 'sink', id: 'out', name: 'collect', parallelism: 1, sink },
    ],
    edges: [{ from: 'src', to: 'out', partitioner: { kind: 'rebalance' } }],
  };
}

const asKeySeq = (rows: readonly Row[]): { key: string; seq: number }[] => rows.map((r) => ({ key: r.fields[0] as string, seq: r.fields[1] as number }));

describe.skipIf(!available)('Pravega source against a real Pravega 0.13', () => {
  let controller: ControllerClient;
  let pool: SegmentStoreConnectionPool;
  const scope = uniqueName('sluicesrc');
  let seq = 0;

  /** `n` events round-robin over the keys, each `key:seq` with a global, increasing seq. */
  function events(n: number): EventToWrite[] {
    return Array.from({ length: n }, () => {
      const s = seq++;
      const key = KEYS[s % KEYS.length]!;
      return { routingKey: key, payload: Buffer.from(`${key}:${s}`) };
    });
  }

  beforeAll(async () => {
    controller = new ControllerClient(CONTROLLER_URI);
    pool = new SegmentStoreConnectionPool();
    await controller.createScope(scope);
  });

  afterAll(async () => {
    controller?.close();
    await pool?.close();
  });

  it('keeps every event and per-key order while the stream splits and merges under a streaming read', async () => {
    const stream = uniqueName('scale');
    await controller.createStream(scope, stream, { scaling: { kind: 'fixed', segments: 2 } });
    const writer = await EventStreamWriter.open(controller, pool, scope, stream);
    seq = 0;
    await writer.writeEvents(events(300));
    const sink = new CollectSink();
    const source = new PravegaSource(sourceConfig(scope, { 'scan.streams': stream, 'scan.event-read.timeout.interval': '50 ms' }), { createDeserializer: keySeqDecoder });
    const job = executeJob(graph(source, sink), defaultRuntimeConfig({ checkpointIntervalMs: 50 }));
    try {
      await waitFor(() => sink.rows.length >= 100, 20_000, 'the first events');
      // Split the lower half in two while the job reads.
      const before = await controller.getCurrentSegments(scope, stream);
      const lower = before.find((s) => s.minKey === 0)!;
      await controller.scale(scope, stream, [lower.segment.segmentId], [[0, 0.25], [0.25, 0.5]]);
      await writer.writeEvents(events(300));
      // Merge the two halves back: the successor has two predecessors and must wait for both.
      const mid = await controller.getCurrentSegments(scope, stream);
      const halves = mid.filter((s) => s.maxKey <= 0.5).map((s) => s.segment.segmentId);
      expect(halves.length).toBe(2);
      await controller.scale(scope, stream, halves, [[0, 0.5]]);
      await writer.writeEvents(events(300));
      await writer.flush();
      await waitFor(() => sink.rows.length >= 900, 30_000, 'all 900 events');
      await new Promise((r) => setTimeout(r, 200));
      const got = asKeySeq(sink.rows);
      expect(got.length).toBe(900);
      expect(new Set(got.map((g) => g.seq)).size).toBe(900);
      expect(keysOutOfOrder(got)).toEqual([]);
    } finally {
      await job.cancel();
      await writer.close();
    }
  }, 60_000);

  it('reads exactly the events between two stream cuts (bounded), across a scale', async () => {
    const stream = uniqueName('cuts');
    await controller.createStream(scope, stream, { scaling: { kind: 'fixed', segments: 3 } });
    const writer = await EventStreamWriter.open(controller, pool, scope, stream);
    seq = 0;
    await writer.writeEvents(events(100));
    const from = await tailStreamCut(controller, pool, scope, stream);
    const firstInside = seq;
    await writer.writeEvents(events(100));
    const segs = await controller.getCurrentSegments(scope, stream);
    await controller.scale(scope, stream, [segs[1]!.segment.segmentId], [[segs[1]!.minKey, (segs[1]!.minKey + segs[1]!.maxKey) / 2], [(segs[1]!.minKey + segs[1]!.maxKey) / 2, segs[1]!.maxKey]]);
    await writer.writeEvents(events(100));
    await writer.flush();
    const to = await tailStreamCut(controller, pool, scope, stream);
    const lastInside = seq - 1;
    await writer.writeEvents(events(100));
    await writer.close();

    const sink = new CollectSink();
    const cfg = sourceConfig(scope, { 'scan.streams': stream, 'scan.start-streamcuts': streamCutToText(from), 'scan.end-streamcuts': streamCutToText(to) });
    expect(cfg.bounded).toBe(true);
    const job = executeJob(graph(new PravegaSource(cfg, { createDeserializer: keySeqDecoder }), sink), defaultRuntimeConfig());
    await job.waitForCompletion();
    const got = asKeySeq(sink.rows);
    expect(got.map((g) => g.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: lastInside - firstInside + 1 }, (_, i) => firstInside + i));
    expect(keysOutOfOrder(got)).toEqual([]);

    // Batch execution without end cuts stops at the tail as of the start.
    const all = new CollectSink();
    const batch = sourceConfig(scope, { 'scan.streams': stream, 'scan.execution.type': 'batch' });
    const job2 = executeJob(graph(new PravegaSource(batch, { createDeserializer: keySeqDecoder }), all), defaultRuntimeConfig({ runtimeMode: 'batch' }));
    await job2.waitForCompletion();
    expect(all.rows.length).toBe(400);
  }, 60_000);

  it('fails naming the stream when a source reads a missing stream', async () => {
    const job = executeJob(graph(new PravegaSource(sourceConfig(scope, { 'scan.streams': 'nosuchstream' }), { createDeserializer: keySeqDecoder }), new CollectSink()), defaultRuntimeConfig());
    await expect(job.waitForCompletion()).rejects.toThrow(new RegExp(`Pravega stream '${scope}/nosuchstream'.*does not exist`));
  }, 30_000);
});
