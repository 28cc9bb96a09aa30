import { afterAll, describe, expect, it } from 'vitest';
import { ControllerClient, EventStreamWriter, getSegmentInfo, SegmentReader, SegmentStoreConnectionPool } from '../../../src/connectors/pravega/client/index.js';
import { CONTROLLER_URI, pravegaAvailable, uniqueName } from './pravega-env.js';

const available = await pravegaAvailable();

describe.skipIf(!available)('segment store endpoint cache', () => {
  const controller = new ControllerClient(CONTROLLER_URI);
  const pool = new SegmentStoreConnectionPool();
  const scope = uniqueName('sluiceep');
  afterAll(async () => {
    controller.close();
    await pool.close();
  });

  it('asks the controller once per segment until the endpoint is invalidated', async () => {
    await controller.createScope(scope);
    await controller.createStream(scope, 's', { scaling: { kind: 'fixed', segments: 2 } });
    const seg0 = { scope, stream: 's', segmentId: 0 };
    const seg1 = { scope, stream: 's', segmentId: 1 };
    const first = controller.getEndpoint(seg0);
    expect(controller.getEndpoint(seg0)).toBe(first);
    expect(controller.getEndpoint(seg1)).not.toBe(first);
    expect(await first).toEqual({ host: '127.0.0.1', port: expect.any(Number) });
    controller.invalidateEndpoint(seg0);
    const again = controller.getEndpoint(seg0);
    expect(again).not.toBe(first);
    expect(await again).toEqual(await first);
  });

  it('does not cache a failed lookup', async () => {
    const dead = new ControllerClient('tcp://127.0.0.1:1', { deadlineMs: 2_000 });
    try {
      const seg = { scope, stream: 's', segmentId: 0 };
      const failed = dead.getEndpoint(seg);
      await expect(failed).rejects.toThrow(/getURI/);
      expect(dead.getEndpoint(seg)).not.toBe(failed);
      await dead.getEndpoint(seg).catch(() => undefined);
    } finally {
      dead.close();
    }
  });

  it('reads a segment in many small reads with one controller lookup', async () => {
    const w = await EventStreamWriter.open(controller, pool, scope, 's');
    await w.writeEvents(Array.from({ length: 200 }, (_, i) => ({ routingKey: `k${i % 26}`, payload: Buffer.from(`e${i}`) })));
    await w.close();
    const segments = await controller.getCurrentSegments(scope, 's');
    const reader = new ControllerClient(CONTROLLER_URI);
    const calls: string[] = [];
    const spy = reader as unknown as { call: (method: string, req: object) => Promise<unknown> };
    const real = spy.call.bind(reader);
    spy.call = (method, req) => {
      calls.push(method);
      return real(method, req);
    };
    try {
      let events = 0;
      let reads = 0;
      for (const { segment } of segments) {
        const end = (await getSegmentInfo(controller, pool, segment)).writeOffset;
        expect(end).toBeGreaterThan(0);
        const r = new SegmentReader(reader, pool, segment, 0, end);
        for (; !r.isFinished; reads++) events += (await r.read(64)).events.length;
      }
      expect(events).toBe(200);
      expect(reads).toBeGreaterThan(20);
      // Many small reads over two segments: one getURI per segment.
      expect(calls).toEqual(['getURI', 'getURI']);
    } finally {
      reader.close();
    }
  });
});
