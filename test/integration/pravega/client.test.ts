import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ControllerClient,
  EventStreamWriter,
  SegmentReader,
  SegmentStoreConnectionPool,
  Transaction,
  hashRoutingKey,
  headStreamCut,
  streamCutFromText,
  streamCutToText,
  tailStreamCut,
  type SegmentRef,
} from '../../../src/connectors/pravega/client/index.js';
import { CONTROLLER_URI, pravegaAvailable, uniqueName } from './pravega-env.js';

const available = await pravegaAvailable();

/** Reads every event of a segment from `from` until `to` (or until sealed and drained). */
async function readSegment(controller: ControllerClient, pool: SegmentStoreConnectionPool, seg: SegmentRef, from = 0, to?: number): Promise<string[]> {
  const r = new SegmentReader(controller, pool, seg, from, to);
  const out: string[] = [];
  while (!r.isFinished) {
    const b = await r.read();
    for (const e of b.events) out.push(e.payload.toString());
  }
  return out;
}

/** Reads a whole stream in successor order: a segment's successors are read only after all predecessors. */
async function readStream(controller: ControllerClient, pool: SegmentStoreConnectionPool, scope: string, stream: string): Promise<string[]> {
  const head = await controller.getSegmentsAt(scope, stream, 0);
  const pending = [...head.keys()].map((id) => ({ scope, stream, segmentId: id }));
  const done = new Set<number>();
  const out: string[] = [];
  while (pending.length > 0) {
    const seg = pending.shift()!;
    if (done.has(seg.segmentId)) continue;
    out.push(...(await readSegment(controller, pool, seg, head.get(seg.segmentId) ?? 0)));
    done.add(seg.segmentId);
    for (const s of await controller.getSuccessors(seg)) {
      if (s.predecessors.every((p) => done.has(p)) && !done.has(s.segment.segmentId)) pending.push(s.segment);
    }
  }
  return out;
}

function sealSegments(controller: ControllerClient, scope: string, stream: string): Promise<void> {
  return controller.sealStream(scope, stream);
}

describe.skipIf(!available)('Pravega client against a real Pravega 0.13', () => {
  let controller: ControllerClient;
  let pool: SegmentStoreConnectionPool;
  const scope = uniqueName('sluice');

  beforeAll(async () => {
    controller = new ControllerClient(CONTROLLER_URI);
    pool = new SegmentStoreConnectionPool();
    expect(await controller.createScope(scope)).toBe(true);
    expect(await controller.createScope(scope)).toBe(false);
  });

  afterAll(async () => {
    await pool?.close();
    controller?.close();
  });

  it('creates streams with each scaling policy and retention', async () => {
    expect(await controller.createStream(scope, 'fixed', { scaling: { kind: 'fixed', segments: 3 }, retention: { kind: 'time', retentionMs: 3_600_000 } })).toBe(true);
    expect(await controller.createStream(scope, 'fixed', { scaling: { kind: 'fixed', segments: 3 } })).toBe(false);
    expect(await controller.createStream(scope, 'byevents', { scaling: { kind: 'byEventRate', targetEventsPerSec: 100, scaleFactor: 2, minSegments: 2 } })).toBe(true);
    expect(await controller.createStream(scope, 'bybytes', { scaling: { kind: 'byDataRate', targetKiloBytesPerSec: 1024, scaleFactor: 2, minSegments: 1 }, retention: { kind: 'size', retentionBytes: 1 << 30 } })).toBe(true);
    const segs = await controller.getCurrentSegments(scope, 'fixed');
    expect(segs.map((s) => [s.minKey, s.maxKey])).toEqual([
      [0, 1 / 3],
      [1 / 3, 2 / 3],
      [2 / 3, 1],
    ]);
    expect((await controller.getCurrentSegments(scope, 'byevents')).length).toBe(2);
    expect(await controller.streamExists(scope, 'bybytes')).toBe(true);
    await controller.sealStream(scope, 'bybytes');
    expect(await controller.deleteStream(scope, 'bybytes')).toBe(true);
    expect(await controller.streamExists(scope, 'bybytes')).toBe(false);
  });

  it('writes events by routing key and reads them back in per-key order', async () => {
    await controller.createStream(scope, 'orders', { scaling: { kind: 'fixed', segments: 2 } });
    const writer = await EventStreamWriter.open(controller, pool, scope, 'orders');
    const keys = ['alpha', 'beta', 'gamma', 'delta', 'key-1'];
    const batch = [];
    for (let i = 0; i < 200; i++) {
      const k = keys[i % keys.length]!;
      batch.push({ routingKey: k, payload: Buffer.from(`${k}:${i}`) });
    }
    await Promise.all([writer.writeEvents(batch.slice(0, 120)), writer.writeEvents(batch.slice(120))]);
    await writer.close();

    const segs = await controller.getCurrentSegments(scope, 'orders');
    // Bounded reads: read each segment up to the tail cut so an open segment does not wait for more data.
    const tail = await tailStreamCut(controller, pool, scope, 'orders');
    const all: string[] = [];
    for (const s of segs) {
      const events = await readSegment(controller, pool, s.segment, 0, tail.positions.get(s.segment.segmentId));
      for (const e of events) {
        const k = e.split(':')[0]!;
        // Every event sits in the segment its key hashes to.
        expect(hashRoutingKey(k) <= s.maxKey && hashRoutingKey(k) >= s.minKey).toBe(true);
      }
      all.push(...events);
    }
    expect(all.length).toBe(200);
    for (const k of keys) {
      const seq = all.filter((e) => e.startsWith(`${k}:`)).map((e) => Number(e.split(':')[1]));
      expect(seq).toEqual([...seq].sort((a, b) => a - b));
      expect(seq.length).toBe(40);
    }
  });

  it('follows a scale while writing and reads across successors in per-key order', async () => {
    const stream = 'scaled';
    await controller.createStream(scope, stream, { scaling: { kind: 'fixed', segments: 1 } });
    const writer = await EventStreamWriter.open(controller, pool, scope, stream);
    const late = await EventStreamWriter.open(controller, pool, scope, stream);
    const keys = ['k1', 'k2', 'k3', 'k4', 'k5', 'k6'];
    let n = 0;
    const writes: Promise<void>[] = [];
    const writeRound = (): void => {
      writes.push(writer.writeEvents(keys.map((k) => ({ routingKey: k, payload: Buffer.from(`${k}:${n++}`) }))));
    };
    for (let i = 0; i < 20; i++) writeRound();
    const scaling = controller.scale(scope, stream, [0], [
      [0, 0.5],
      [0.5, 1],
    ]);
    // Keep writing while the scale runs: some blocks hit the sealed segment and must move to the successors.
    for (let i = 0; i < 30; i++) {
      writeRound();
      await new Promise((r) => setTimeout(r, 5));
    }
    const newSegments = await scaling;
    expect(newSegments.length).toBe(2);
    for (let i = 0; i < 20; i++) writeRound();
    await Promise.all(writes);
    await writer.close();
    expect(writer.stats.sealedSegmentsFollowed).toBeLessThanOrEqual(1);
    // `late` was opened before the scale and still routes to segment 0: its first block must bounce off the seal
    // and go to the successors.
    const lateBatch = Array.from({ length: 10 }, () => keys.map((k) => ({ routingKey: k, payload: Buffer.from(`${k}:${n++}`) }))).flat();
    await late.writeEvents(lateBatch);
    await late.close();
    expect(late.stats.sealedSegmentsFollowed).toBe(1);
    expect(late.stats.eventsResent).toBe(60);
    expect(writer.currentSegments.segments.map((s) => s.segment.segmentId).sort()).toEqual(newSegments.map((s) => s.segment.segmentId).sort());

    await sealSegments(controller, scope, stream);
    const all = await readStream(controller, pool, scope, stream);
    expect(all.length).toBe(80 * keys.length);
    for (const k of keys) {
      const seq = all.filter((e) => e.startsWith(`${k}:`)).map((e) => Number(e.split(':')[1]));
      expect(seq.length).toBe(80);
      expect(seq).toEqual([...seq].sort((a, b) => a - b));
    }
    const successors = await controller.getSuccessors({ scope, stream, segmentId: 0 });
    expect(successors.map((s) => [s.minKey, s.maxKey])).toEqual([
      [0, 0.5],
      [0.5, 1],
    ]);
  });

  it('makes transaction events visible only on commit and drops them on abort', async () => {
    const stream = 'txns';
    await controller.createStream(scope, stream, { scaling: { kind: 'fixed', segments: 2 } });
    const committed = await Transaction.begin(controller, pool, scope, stream, 30_000);
    const aborted = await Transaction.begin(controller, pool, scope, stream, 30_000);
    await committed.writeEvents(['a', 'b', 'c', 'd'].map((k, i) => ({ routingKey: k, payload: Buffer.from(`c${i}`) })));
    await aborted.writeEvents(['a', 'b'].map((k, i) => ({ routingKey: k, payload: Buffer.from(`x${i}`) })));
    expect(await committed.checkState()).toBe('OPEN');
    expect(await committed.ping(30_000)).toBe('OK');

    const before = await tailStreamCut(controller, pool, scope, stream);
    expect([...before.positions.values()].every((o) => o === 0)).toBe(true);

    await committed.commit();
    await aborted.abort();
    expect(await committed.checkState()).toBe('COMMITTED');
    expect(['ABORTING', 'ABORTED']).toContain(await aborted.checkState());

    const tail = await tailStreamCut(controller, pool, scope, stream);
    const read: string[] = [];
    for (const [id, end] of tail.positions) read.push(...(await readSegment(controller, pool, { scope, stream, segmentId: id }, 0, end)));
    expect(read.sort()).toEqual(['c0', 'c1', 'c2', 'c3']);
  });

  it('reads between stream cuts and round-trips cuts through their text form', async () => {
    const stream = 'cuts';
    await controller.createStream(scope, stream, { scaling: { kind: 'fixed', segments: 2 } });
    const writer = await EventStreamWriter.open(controller, pool, scope, stream);
    await writer.writeEvents(Array.from({ length: 10 }, (_, i) => ({ routingKey: `r${i}`, payload: Buffer.from(`first-${i}`) })));
    const middle = await tailStreamCut(controller, pool, scope, stream);
    await writer.writeEvents(Array.from({ length: 10 }, (_, i) => ({ routingKey: `r${i}`, payload: Buffer.from(`second-${i}`) })));
    await writer.close();
    const end = await tailStreamCut(controller, pool, scope, stream);

    const text = streamCutToText(middle);
    const parsed = streamCutFromText(text);
    expect(parsed).toEqual(middle);
    expect(await controller.isStreamCutValid(scope, stream, middle.positions)).toBe(true);

    const head = await headStreamCut(controller, scope, stream);
    expect([...head.positions.values()]).toEqual([0, 0]);
    const between = await controller.getSegmentsBetween(scope, stream, middle.positions, end.positions);
    expect(between.length).toBe(2);
    const second: string[] = [];
    for (const seg of between) second.push(...(await readSegment(controller, pool, seg, middle.positions.get(seg.segmentId)!, end.positions.get(seg.segmentId))));
    expect(second.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `second-${i}`).sort());
  });
});
