import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ControllerClient,
  EventStreamWriter,
  getSegmentInfo,
  SegmentMap,
  SegmentReader,
  SegmentStoreConnectionPool,
  type SegmentRef,
} from '../../../src/connectors/pravega/client/index.js';
import { eventPointerBytes } from '../../../src/connectors/pravega/source/event-pointer.js';
import { keysOutOfOrder } from './connector-helpers.js';
import { CONTROLLER_URI, PRAVEGA_LIB, pravegaAvailable, uniqueName } from './pravega-env.js';

/**
 * Sluice's client against the official Java client (pravega-client 0.13.0, test/java/pravega-interop): the same
 * segment for every routing key, per-key order both ways, and event pointers Java can read byte for byte. Interop.java
 * is compiled with javac against the jars scripts/pravega.sh fetched (they include pravega-client), so nothing more
 * is downloaded.
 */
const root = join(import.meta.dirname, '..', '..', '..');
const harness = join(root, 'test', 'java', 'pravega-interop');
const lib = PRAVEGA_LIB;
const run = promisify(execFile);

const available = await pravegaAvailable();
const javaReady = existsSync(join(lib, 'pravega-client-0.13.0.jar'));
if (available && !javaReady) {
  if (process.env.CI) throw new Error(`${lib} has no pravega-client jar; scripts/pravega.sh start fetches it`);
  console.warn(`no Pravega jars in ${lib}: skipping the Java interop test`);
}

interface Event {
  payload: string;
  segment: SegmentRef;
  offset: number;
}

describe.skipIf(!available || !javaReady)('Pravega interop with the Java client 0.13.0', () => {
  const scope = uniqueName('sluicejava');
  const classes = mkdtempSync(join(tmpdir(), 'sluice-interop-'));
  const controller = new ControllerClient(CONTROLLER_URI);
  const pool = new SegmentStoreConnectionPool();

  async function java(...args: string[]): Promise<string> {
    const { stdout } = await run(
      'java',
      ['-Dlogback.configurationFile=' + join(harness, 'logback.xml'), '-cp', `${classes}:${lib}/*`, 'dev.sluice.interop.Interop', ...args],
      { timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
    );
    return stdout;
  }

  /** Every event of the stream's current segments, in offset order per segment. */
  async function readAll(stream: string): Promise<Event[]> {
    const out: Event[] = [];
    for (const { segment } of await controller.getCurrentSegments(scope, stream)) {
      const end = (await getSegmentInfo(controller, pool, segment)).writeOffset;
      const r = new SegmentReader(controller, pool, segment, 0, end);
      while (!r.isFinished) for (const e of (await r.read()).events) out.push({ payload: e.payload.toString('utf8'), segment, offset: e.offset });
    }
    return out;
  }

  beforeAll(async () => {
    const t0 = Date.now();
    const src = join(harness, 'src', 'main', 'java', 'dev', 'sluice', 'interop');
    await run('javac', ['-d', classes, '-cp', `${lib}/*`, ...['Interop.java', 'BenchRounds.java'].map((f) => join(src, f))], { timeout: 120_000 });
    console.log(`javac Interop.java BenchRounds.java: ${Date.now() - t0} ms`);
    await controller.createScope(scope);
  }, 150_000);
  afterAll(async () => {
    controller.close();
    await pool.close();
    rmSync(classes, { recursive: true, force: true });
  });

  it('reads what Java wrote: each key in the segment Sluice routes it to, in order', { timeout: 120_000 }, async () => {
    await controller.createStream(scope, 'fromjava', { scaling: { kind: 'fixed', segments: 4 } });
    await java('write', CONTROLLER_URI, scope, 'fromjava', '2000', '37');
    const events = await readAll('fromjava');
    expect(events).toHaveLength(2000);
    const map = new SegmentMap(await controller.getCurrentSegments(scope, 'fromjava'));
    const wrongSegment = events.filter((e) => map.route(e.payload.split(':')[0]!).segment.segmentId !== e.segment.segmentId);
    expect(wrongSegment.map((e) => e.payload).slice(0, 5)).toEqual([]);
    expect(new Set(events.map((e) => e.segment.segmentId)).size).toBe(4);
    expect(keysOutOfOrder(events.map((e) => ({ key: e.payload.split(':')[0]!, seq: Number(e.payload.split(':')[1]) })))).toEqual([]);
  });

  it('Java reads what Sluice wrote, in key order, with the event pointers Sluice computes', { timeout: 120_000 }, async () => {
    await controller.createStream(scope, 'fromsluice', { scaling: { kind: 'fixed', segments: 3 } });
    const w = await EventStreamWriter.open(controller, pool, scope, 'fromsluice');
    await w.writeEvents(Array.from({ length: 1500 }, (_, i) => ({ routingKey: `k${i % 23}`, payload: Buffer.from(`k${i % 23}:${i}`) })));
    await w.close();
    const sluiceView = new Map((await readAll('fromsluice')).map((e) => [e.payload, e]));
    const lines = (await java('read', CONTROLLER_URI, scope, 'fromsluice', '1500')).split('\n').filter((l) => l.includes('\t'));
    expect(lines).toHaveLength(1500);
    const read = lines.map((l) => {
      const [payload, pointer] = l.split('\t') as [string, string];
      return { payload, pointer };
    });
    expect(new Set(read.map((r) => r.payload)).size).toBe(1500);
    expect(keysOutOfOrder(read.map((r) => ({ key: r.payload.split(':')[0]!, seq: Number(r.payload.split(':')[1]) })))).toEqual([]);
    // Java's EventPointer.toBytes() equals the `event_pointer` metadata Sluice attaches to the same event.
    const mismatched = read.filter((r) => {
      const e = sluiceView.get(r.payload)!;
      return Buffer.from(eventPointerBytes(e.segment, e.offset, Buffer.byteLength(r.payload))).toString('base64') !== r.pointer;
    });
    expect(mismatched.slice(0, 3)).toEqual([]);
  });

  it('measures the Java client on 1 KB events for the bench comparison', { timeout: 180_000 }, async () => {
    await controller.createStream(scope, 'javabench', { scaling: { kind: 'fixed', segments: 2 } });
    const out = await java('bench', CONTROLLER_URI, scope, 'javabench', process.env.PRAVEGA_JAVA_BENCH_EVENTS ?? '20000');
    const m = /write=(\d+) read=(\d+)/.exec(out);
    expect(m).not.toBeNull();
    console.log(`Java client, 1 KB events: write ${m![1]} events/s, read ${m![2]} events/s`);
    await controller.sealStream(scope, 'javabench');
    await controller.deleteStream(scope, 'javabench');
  });
});
