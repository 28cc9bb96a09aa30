// Pravega throughput against a running scripts/pravega.sh server, after `npm run build`:
//   node bench/pravega-client.mjs [events]
// 1 KB events: write with the Sluice client (events/s, MB/s), read with the bare client loop (SegmentReader over the
// segments), and read through the pravega source -> discarding sink job. Medians of 3 runs; ratio source/bare
// (target >= 0.8).
import { performance } from 'node:perf_hooks';

const distRoot = process.env.SLUICE_DIST ?? new URL('../dist/', import.meta.url).href;
const dist = (p) => new URL(p, distRoot.endsWith('/') ? distRoot : `${distRoot}/`).href;
const client = await import(dist('connectors/pravega/client/index.js'));
const { PravegaSource, readPravegaSourceConfig } = await import(dist('connectors/pravega/index.js'));
const { Configuration } = await import(dist('config/configuration.js'));
const rt = await import(dist('runtime/index.js'));
const { Row } = await import(dist('types/row.js'));

const URI = process.env.PRAVEGA_CONTROLLER_URI ?? 'tcp://127.0.0.1:9090';
const N = Number(process.argv[2] ?? 100_000);
const SIZE = 1024;
const RUNS = Number(process.env.RUNS ?? 3);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const controller = new client.ControllerClient(URI);
const pool = new client.SegmentStoreConnectionPool();
const scope = `bench${Date.now().toString(36)}`;
await controller.createScope(scope);
const payload = Buffer.alloc(SIZE, 120);

async function writeRun(stream) {
  await controller.createStream(scope, stream, { scaling: { kind: 'fixed', segments: 2 } });
  const w = await client.EventStreamWriter.open(controller, pool, scope, stream);
  const t0 = performance.now();
  const BATCH = 1000;
  for (let i = 0; i < N; i += BATCH) {
    const evs = [];
    for (let j = i; j < Math.min(N, i + BATCH); j++) evs.push({ routingKey: `k${j % 64}`, payload });
    void w.writeEvents(evs);
  }
  await w.flush();
  const ms = performance.now() - t0;
  await w.close();
  return ms;
}

async function bareRead(stream) {
  const tail = await client.tailStreamCut(controller, pool, scope, stream);
  const t0 = performance.now();
  let n = 0;
  await Promise.all(
    [...tail.positions].map(async ([segmentId, end]) => {
      const r = new client.SegmentReader(controller, pool, { scope, stream, segmentId }, 0, end);
      while (!r.isFinished) {
        const got = (await r.read(1024 * 1024)).events.length;
        n += got;
      }
    }),
  );
  if (n !== N) throw new Error(`bare read got ${n} of ${N}`);
  return performance.now() - t0;
}

async function sourceRead(stream) {
  let n = 0;
  let first = 0;
  const sink = {
    createWriter: () => ({
      write: (b) => {
        if (n === 0) first = performance.now();
        n += b.length;
      },
      flush: async () => {},
      close: async () => {},
    }),
  };
  const cfg = readPravegaSourceConfig(new Configuration({ 'controller-uri': URI, scope, 'scan.streams': stream, 'scan.execution.type': 'batch' }));
  const decoder = () => ({ skippedRecords: 0, deserialize: (m, out) => void out.push(Row.insert(m)) });
  const graph = {
    jobName: 'bench',
    vertices: [
      { kind: 'source', id: 's', name: 'pravega', parallelism: 1, source: new PravegaSource(cfg, { createDeserializer: decoder }) },
      { kind: 'sink', id: 'o', name: 'discard', parallelism: 1, sink },
    ],
    edges: [{ from: 's', to: 'o', partitioner: { kind: 'forward' } }],
  };
  const t0 = performance.now();
  await rt.executeJob(graph, rt.defaultRuntimeConfig({ runtimeMode: 'batch' })).waitForCompletion();
  if (n !== N) throw new Error(`source read got ${n} of ${N}`);
  startups.push(first - t0);
  return performance.now() - t0;
}

const w = [], b = [], s = [], startups = [];
for (let run = 0; run < RUNS; run++) {
  const stream = `s${run}`;
  w.push(await writeRun(stream));
  b.push(await bareRead(stream));
  s.push(await sourceRead(stream));
  // The bundled Pravega keeps segments in its heap (in-memory storage): drop each run's data or a few runs fill it.
  await controller.sealStream(scope, stream);
  await controller.deleteStream(scope, stream);
}
await controller.deleteScope(scope);
const rate = (ms) => `${Math.round((N / ms) * 1000).toLocaleString()} events/s, ${((N * SIZE) / 1e6 / (ms / 1000)).toFixed(1)} MB/s`;
console.log(`events: ${N} x ${SIZE} B, median of ${RUNS}`);
console.log(`write (Sluice client):        ${rate(median(w))}`);
console.log(`read  (bare client loop):     ${rate(median(b))}`);
console.log(`read  (pravega source job):   ${rate(median(s))}`);
console.log(`source job start to first row: ${median(startups).toFixed(0)} ms (included above)`);
console.log(`ratio source / bare: ${(median(b) / median(s)).toFixed(2)} (target >= 0.8)`);
controller.close();
await pool.close();
