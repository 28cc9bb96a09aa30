import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControllerClient, EventStreamWriter, getSegmentInfo, SegmentReader, SegmentStoreConnectionPool } from '../../../src/connectors/pravega/client/index.js';
import { CONTROLLER_URI, pravegaAvailable, uniqueName } from './pravega-env.js';

const available = await pravegaAvailable();

describe.skipIf(!available)('SegmentReader read-ahead', () => {
  const scope = uniqueName('sluiceahead');
  const controller = new ControllerClient(CONTROLLER_URI);
  const pool = new SegmentStoreConnectionPool();
  const segment = { scope, stream: 's', segmentId: 0 };

  beforeAll(async () => {
    await controller.createScope(scope);
    await controller.createStream(scope, 's', { scaling: { kind: 'fixed', segments: 1 } });
    const w = await EventStreamWriter.open(controller, pool, scope, 's');
    // Events of varying size so chunk borders cut through events.
    await w.writeEvents(Array.from({ length: 400 }, (_, i) => ({ payload: Buffer.from(`${i}:${'x'.repeat(i % 37)}`) })));
    await w.close();
  });
  afterAll(async () => {
    controller.close();
    await pool.close();
  });

  async function readAll(r: SegmentReader, chunk: number): Promise<{ payloads: string[]; reads: number }> {
    const payloads: string[] = [];
    let reads = 0;
    while (!r.isFinished) {
      reads++;
      for (const e of (await r.read(chunk)).events) payloads.push(e.payload.toString());
    }
    return { payloads, reads };
  }

  it('returns the same events in the same order as plain reads, up to an end offset and to the tail', async () => {
    const end = (await getSegmentInfo(controller, pool, segment)).writeOffset;
    const plain = await readAll(new SegmentReader(controller, pool, segment, 0, end), 700);
    expect(plain.payloads).toEqual(Array.from({ length: 400 }, (_, i) => `${i}:${'x'.repeat(i % 37)}`));
    const ahead = await readAll(new SegmentReader(controller, pool, segment, 0, end, true), 700);
    expect(ahead.payloads).toEqual(plain.payloads);
    // A bounded read that ends mid-segment stops exactly at the end offset.
    const half = new SegmentReader(controller, pool, segment, 0, undefined, true);
    const firstChunk = await half.read(700);
    const stop = new SegmentReader(controller, pool, segment, firstChunk.position, firstChunk.position + 2000, true);
    const rest = await readAll(stop, 300);
    expect(stop.currentPosition).toBeLessThanOrEqual(firstChunk.position + 2000);
    expect([...firstChunk.events.map((e) => e.payload.toString()), ...rest.payloads]).toEqual(plain.payloads.slice(0, firstChunk.events.length + rest.payloads.length));
  });
});
