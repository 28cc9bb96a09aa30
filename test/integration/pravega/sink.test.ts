import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControllerClient, SegmentStoreConnectionPool, getSegmentInfo } from '../../../src/connectors/pravega/client/index.js';
import { createPravegaSink } from '../../../src/connectors/pravega/sink/pravega-sink.js';
import { PravegaSource } from '../../../src/connectors/pravega/source/pravega-source.js';
import { defaultRuntimeConfig, executeJob, type AnySink, type JobGraph } from '../../../src/runtime/index.js';
import { Row } from '../../../src/types/row.js';
import { CollectSink, mapOp } from '../../runtime/fakes/collect.js';
import { SequenceSource } from '../../runtime/fakes/sequence-source.js';
import { keySeqDecoder, keySeqEncoder, sinkConfig, sourceConfig } from './connector-helpers.js';
import { CONTROLLER_URI, pravegaAvailable, uniqueName } from './pravega-env.js';

const available = await pravegaAvailable();

/** Turns the sequence source's (n, n) rows into (key, n) rows. */
const toKeyed = (rows: Row[]): Row[] => rows.map((r) => Row.insert(`key-${Number(r.fields[0]) % 7}`, r.fields[0]));

function writeGraph(source: SequenceSource, sink: AnySink<Row>, fail?: { at: number; remaining: number }): JobGraph {
  return {
    jobName: 'pravega-sink',
    vertices: [
      {
        kind: 'source',
        id: 'src',
        name: 'numbers',
        parallelism: 2,
        source,
        operators: [
          mapOp('keyed', (rows) => {
            if (fail !== undefined && fail.remaining > 0 && rows.some((r) => Number(r.fields[0]) >= fail.at)) {
              fail.remaining--;
              throw new Error('injected failure');
            }
            return toKeyed(rows);
          }),
        ],
      },
      { kind: 'sink', id: 'out', name: 'pravega', parallelism: 2, sink },
    ],
    edges: [{ from: 'src', to: 'out', partitioner: { kind: 'hash', key: (r) => String(r.fields[0]) } }],
  };
}

describe.skipIf(!available)('Pravega sink against a real Pravega 0.13', () => {
  let controller: ControllerClient;
  let pool: SegmentStoreConnectionPool;
  const scope = uniqueName('sluicesnk');

  beforeAll(() => {
    controller = new ControllerClient(CONTROLLER_URI);
    pool = new SegmentStoreConnectionPool();
  });
  afterAll(async () => {
    controller?.close();
    await pool?.close();
  });

  async function readBack(stream: string): Promise<Row[]> {
    const sink = new CollectSink();
    const cfg = sourceConfig(scope, { 'scan.streams': stream, 'scan.execution.type': 'batch' });
    const job = executeJob(
      { jobName: 'read-back', vertices: [{ kind: 'source', id: 's', name: 'p', parallelism: 1, source: new PravegaSource(cfg, { createDeserializer: keySeqDecoder }) }, { kind: 'sink', id: 'o', name: 'c', parallelism: 1, sink }], edges: [{ from: 's', to: 'o', partitioner: { kind: 'forward' } }] },
      defaultRuntimeConfig({ runtimeMode: 'batch' }),
    );
    await job.waitForCompletion();
    return sink.rows;
  }

  it('at-least-once creates the missing scope and stream and routes by the key column', async () => {
    const stream = uniqueName('alo');
    const cfg = sinkConfig(scope, { 'sink.stream': stream, 'sink.routing-key.field.name': 'key' });
    const sink = createPravegaSink({ config: cfg, createSerializer: keySeqEncoder, routingKeyIndex: 0 });
    const job = executeJob(writeGraph(new SequenceSource({ from: 1, to: 500, splits: 2, batchSize: 50 }), sink as AnySink<Row>), defaultRuntimeConfig());
    await job.waitForCompletion();
    expect(await controller.streamExists(scope, stream)).toBe(true);
    const segs = await controller.getCurrentSegments(scope, stream);
    expect(segs.length).toBe(1);
    const rows = await readBack(stream);
    expect(rows.map((r) => r.fields[1]).sort((a, b) => (a as number) - (b as number))).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
  }, 60_000);

  it('exactly-once writes every event once across an in-process failure and restart', async () => {
    const stream = uniqueName('eos');
    const cfg = sinkConfig(scope, { 'sink.stream': stream, 'sink.semantic': 'exactly-once', 'sink.routing-key.field.name': 'key' });
    const sink = createPravegaSink({ config: cfg, createSerializer: keySeqEncoder, routingKeyIndex: 0 });
    const N = 3000;
    const fail = { at: 1800, remaining: 1 };
    const job = executeJob(
      writeGraph(new SequenceSource({ from: 1, to: N, splits: 2, batchSize: 20, fetchDelayMs: 2 }), sink as AnySink<Row>, fail),
      defaultRuntimeConfig({ checkpointIntervalMs: 30, restartStrategy: { kind: 'fixed-delay', attempts: 3, delayMs: 10 } }),
    );
    await job.waitForCompletion();
    expect(fail.remaining).toBe(0);
    expect(job.metrics().completedCheckpoints).toBeGreaterThan(1);
    const rows = await readBack(stream);
    const nums = rows.map((r) => r.fields[1] as number).sort((a, b) => a - b);
    expect(nums.length).toBe(N);
    expect(nums).toEqual(Array.from({ length: N }, (_, i) => i + 1));
  }, 60_000);

  it('uncommitted transaction events stay invisible to readers', async () => {
    const stream = uniqueName('txnvis');
    const cfg = sinkConfig(scope, { 'sink.stream': stream, 'sink.semantic': 'exactly-once' });
    const sink = createPravegaSink({ config: cfg, createSerializer: keySeqEncoder });
    const writer = sink.createWriter({ subtaskIndex: 0, parallelism: 1, attemptNumber: 0, restoredCheckpointId: undefined, jobId: 'a'.repeat(32), config: new Map() });
    await writer.write([Row.insert('k', 1), Row.insert('k', 2)]);
    await writer.flush(false);
    const prepared = await (writer as { prepareCommit(): Promise<unknown[]> }).prepareCommit();
    expect(prepared.length).toBe(1);
    const seg = (await controller.getCurrentSegments(scope, stream))[0]!.segment;
    // Durable but invisible: the parent segment stays empty until the committer merges the transaction.
    expect((await getSegmentInfo(controller, pool, seg)).writeOffset).toBe(0);
    await writer.close();
  }, 30_000);
});
