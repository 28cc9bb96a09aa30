import { describe, expect, it } from 'vitest';
import type { ControllerClient } from '../../../src/connectors/pravega/client/controller-client.js';
import { SegmentReader } from '../../../src/connectors/pravega/client/segment-reader.js';
import { readLane, type SegmentStoreConnectionPool } from '../../../src/connectors/pravega/client/segment-store-connection.js';
import type { OutgoingCommand } from '../../../src/connectors/pravega/client/wire-commands.js';

/** A segment's bytes as writers lay them out: per event int32 type 0, int32 length, payload. */
function segmentBytes(payloads: readonly Buffer[]): Buffer {
  return Buffer.concat(
    payloads.flatMap((p) => {
      const h = Buffer.alloc(8);
      h.writeInt32BE(p.length, 4);
      return [h, p];
    }),
  );
}

/**
 * A store that answers every ReadSegment with at most `chunk` bytes (as a real store answers with what it has
 * contiguously), so events split across replies anywhere, inside their header too. Records the pool lane of each read.
 */
function fakeStore(bytes: Buffer, chunk: number, sealed: boolean) {
  const lanes: number[] = [];
  const conn = {
    request: (cmd: OutgoingCommand) => {
      if (cmd.kind !== 'ReadSegment') throw new Error(`unexpected ${cmd.kind}`);
      const data = bytes.subarray(cmd.offset, Math.min(bytes.length, cmd.offset + Math.min(chunk, cmd.suggestedLength)));
      const end = cmd.offset + data.length >= bytes.length;
      return Promise.resolve({ kind: 'SegmentRead', segment: cmd.segment, offset: cmd.offset, atTail: end && !sealed, endOfSegment: end && sealed, data, requestId: cmd.requestId });
    },
  };
  const pool = { get: async (_e: unknown, lane = 0) => (lanes.push(lane), conn) } as unknown as SegmentStoreConnectionPool;
  const controller = {
    getEndpoint: async () => ({ host: 'fake', port: 1 }),
    delegationToken: async () => '',
    invalidateEndpoint: () => undefined,
    invalidateDelegationToken: () => undefined,
  } as unknown as ControllerClient;
  return { pool, controller, lanes };
}

const payloads = [3, 0, 17, 1, 40, 9, 2].map((n, i) => Buffer.alloc(n, 65 + i));
const bytes = segmentBytes(payloads);
const offsets = payloads.reduce<number[]>((acc, p, i) => [...acc, i === 0 ? 0 : acc[i - 1]! + 8 + payloads[i - 1]!.length], []);

describe('SegmentReader', () => {
  for (const chunk of [1, 3, 5, 8, 9, 13, 31, 1000]) {
    for (const readAhead of [false, true]) {
      it(`reassembles events split every ${chunk} bytes (read-ahead ${readAhead})`, async () => {
        const { pool, controller } = fakeStore(bytes, chunk, true);
        const r = new SegmentReader(controller, pool, { scope: 'sc', stream: 'st', segmentId: 0 }, 0, undefined, readAhead);
        const got: { payload: string; offset: number }[] = [];
        let position = 0;
        for (let i = 0; i < 1000 && !r.isFinished; i++) {
          const b = await r.read(chunk);
          for (const e of b.events) got.push({ payload: e.payload.toString(), offset: e.offset });
          // Between events only: a stream-cut position never lands inside one.
          expect([...offsets, bytes.length]).toContain(b.position);
          position = b.position;
        }
        expect(got).toEqual(payloads.map((p, i) => ({ payload: p.toString(), offset: offsets[i] })));
        expect(position).toBe(bytes.length);
        expect(r.isFinished).toBe(true);
      });
    }
  }

  it('stops at the end offset, even inside a reply', async () => {
    const { pool, controller } = fakeStore(bytes, 1000, false);
    const r = new SegmentReader(controller, pool, { scope: 'sc', stream: 'st', segmentId: 0 }, offsets[1]!, offsets[4], true);
    const b = await r.read();
    expect(b.events.map((e) => e.payload.toString())).toEqual(payloads.slice(1, 4).map((p) => p.toString()));
    expect(b.reachedEnd).toBe(true);
  });

  it('payloads do not share memory with the reply', async () => {
    const copy = Buffer.from(bytes);
    const { pool, controller } = fakeStore(copy, 1000, true);
    const r = new SegmentReader(controller, pool, { scope: 'sc', stream: 'st', segmentId: 0 }, 0);
    const b = await r.read();
    copy.fill(0);
    expect(b.events[4]!.payload.toString()).toBe(payloads[4]!.toString());
  });

  it('copies payloads in runs of at most 64 KB, an event larger than that alone', async () => {
    const big = Array.from({ length: 300 }, (_, i) => Buffer.alloc(i === 150 ? 100_000 : 1000 + (i % 7), i % 251));
    const { pool, controller } = fakeStore(segmentBytes(big), 4 << 20, true);
    const b = await new SegmentReader(controller, pool, { scope: 'sc', stream: 'st', segmentId: 0 }, 0).read(4 << 20);
    expect(b.events.map((e) => e.payload)).toEqual(big);
    for (const [i, e] of b.events.entries()) expect(e.payload.buffer.byteLength).toBeLessThanOrEqual(i === 150 ? 100_008 : 64 * 1024);
    expect(new Set(b.events.map((e) => e.payload.buffer)).size).toBeLessThan(20);
  });

  it("reads on the segment's own pool lane, not the shared lane 0", async () => {
    const { pool, controller, lanes } = fakeStore(bytes, 1000, true);
    for (const segmentId of [0, 1, 2 ** 32 + 1]) await new SegmentReader(controller, pool, { scope: 'sc', stream: 'st', segmentId }, 0).read();
    expect(lanes).toEqual([readLane(0), readLane(1), readLane(1)]);
    expect(readLane(0)).not.toBe(0);
    expect(readLane(0)).not.toBe(readLane(1));
  });
});
