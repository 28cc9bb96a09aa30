import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControllerClient, EventStreamWriter, SegmentReader, SegmentStoreConnectionPool, type SegmentRef } from '../../../src/connectors/pravega/client/index.js';
import { CONTROLLER_URI, pravegaAvailable, uniqueName } from './pravega-env.js';

const available = await pravegaAvailable();

/**
 * Merging three segments into one. The controller checks that the new range covers exactly the sealed ones, and also
 * that the stream keeps at least its scaling policy's minimum of segments: a `fixed 3` stream can never merge 3 -> 1
 * (PRECONDITION_FAILED, whatever the ranges), a rate policy with minSegments 1 can.
 */
describe.skipIf(!available)('Pravega 3 -> 1 merge', () => {
  const scope = uniqueName('sluicemerge');
  const controller = new ControllerClient(CONTROLLER_URI);
  const pool = new SegmentStoreConnectionPool();

  beforeAll(async () => {
    await controller.createScope(scope);
  });
  afterAll(async () => {
    controller.close();
    await pool.close();
  });

  async function readAll(segment: SegmentRef): Promise<string[]> {
    const r = new SegmentReader(controller, pool, segment, 0);
    const out: string[] = [];
    while (!r.isFinished) for (const e of (await r.read()).events) out.push(e.payload.toString());
    return out;
  }

  it('explains why a fixed 3-segment stream refuses to merge into one', async () => {
    await controller.createStream(scope, 'fixed3', { scaling: { kind: 'fixed', segments: 3 } });
    const segs = await controller.getCurrentSegments(scope, 'fixed3');
    expect(segs.map((s) => [s.minKey, s.maxKey])).toEqual([
      [0, 1 / 3],
      [1 / 3, 2 / 3],
      [2 / 3, 1],
    ]);
    await expect(controller.scale(scope, 'fixed3', segs.map((s) => s.segment.segmentId), [[0, 1]])).rejects.toThrow(
      /would have 1 segment\(s\) and the controller refuses fewer than the scaling policy's minimum/,
    );
    await expect(controller.scale(scope, 'fixed3', [segs[0]!.segment.segmentId, 77], [[0, 1 / 3]])).rejects.toThrow(/segments 77 are not active/);
  });

  it('merges 3 -> 1 when the policy allows one segment; the successor has all three predecessors and writes follow', async () => {
    const stream = 'rate';
    await controller.createStream(scope, stream, { scaling: { kind: 'byEventRate', targetEventsPerSec: 1_000_000, scaleFactor: 2, minSegments: 1 } });
    const thirds = await controller.scale(scope, stream, [0], [
      [0, 1 / 3],
      [1 / 3, 2 / 3],
      [2 / 3, 1],
    ]);
    const writer = await EventStreamWriter.open(controller, pool, scope, stream);
    const keys = Array.from({ length: 12 }, (_, i) => `k${i}`);
    await writer.writeEvents(keys.map((k) => ({ routingKey: k, payload: Buffer.from(`${k}:0`) })));
    // The ranges exactly as the controller reported them (1/3 as a double), merged into [0, 1).
    const [merged] = await controller.scale(scope, stream, thirds.map((s) => s.segment.segmentId), [[thirds[0]!.minKey, thirds[2]!.maxKey]]);
    expect([merged!.minKey, merged!.maxKey]).toEqual([0, 1]);
    for (const t of thirds) {
      const succ = await controller.getSuccessors(t.segment);
      expect(succ.map((s) => s.segment.segmentId)).toEqual([merged!.segment.segmentId]);
      expect([...succ[0]!.predecessors].sort()).toEqual(thirds.map((s) => s.segment.segmentId).sort());
    }
    // The writer still routes to the sealed thirds: every key moves to the merged segment.
    await writer.writeEvents(keys.map((k) => ({ routingKey: k, payload: Buffer.from(`${k}:1`) })));
    await writer.close();
    await controller.sealStream(scope, stream);
    const before = (await Promise.all(thirds.map((t) => readAll(t.segment)))).flat();
    expect(before.sort()).toEqual(keys.map((k) => `${k}:0`).sort());
    expect((await readAll(merged!.segment)).sort()).toEqual(keys.map((k) => `${k}:1`).sort());
  });
});
