// Pravega throughput against a running scripts/pravega.sh server, after `npm run build`:
//   node bench/pravega-client.mjs [events]
// 1 KB events: write with the Sluice client (events/s, MB/s), read with the bare client loop (a SegmentReader with
// read-ahead per segment, concurrently), and read through the pravega source -> discarding sink job. Then, in the same run and on the same
// Pravega, the official Java client (test/java/pravega-interop BenchRounds) does the same in one warm JVM: write with
// one writer, same keys, same segment count; read with the batch client (segments directly, like the bare loop) and
// with a reader group (like the source job). Each side: WARMUP rounds discarded, medians of RUNS rounds; prints the
// Sluice/Java ratios (goal >= 0.8). JAVA=0 skips the Java side (no JDK, or no jars in .cache/pravega/lib).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
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
const WARMUP = Number(process.env.WARMUP ?? 1);
const SEGMENTS = 2;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const controller = new client.ControllerClient(URI);
const pool = new client.SegmentStoreConnectionPool();
const scope = `bench${Date.now().toString(36)}`;
await controller.createScope(scope);
const payload = Buffer.alloc(SIZE, 120);

async function writeRun(stream) {
  await controller.createStream(scope, stream, { scaling: { kind: 'fixed', segments: SEGMENTS } });
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
      const r = new client.SegmentReader(controller, pool, { scope, stream, segmentId }, 0, end, true);
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

/** Wall ms of a phase and this process's CPU ms in it (user + system, all threads: GC and libuv included). */
async function withCpu(phase) {
  const c0 = process.cpuUsage();
  const ms = await phase();
  const c = process.cpuUsage(c0);
  return { ms, cpu: (c.user + c.system) / 1000 };
}

const w = [], b = [], s = [], startups = [];
const cpu = { w: [], b: [], s: [] };
for (let run = 0; run < WARMUP + RUNS; run++) {
  const stream = `s${run}`;
  const phases = [await withCpu(() => writeRun(stream)), await withCpu(() => bareRead(stream)), await withCpu(() => sourceRead(stream))];
  // sourceRead recorded its start-up; keep it only for measured rounds, aligned with `s`.
  if (run < WARMUP) startups.pop();
  else {
    [w, b, s].forEach((list, i) => list.push(phases[i].ms));
    [cpu.w, cpu.b, cpu.s].forEach((list, i) => list.push(phases[i].cpu));
  }
  // The bundled Pravega keeps segments in its heap (in-memory storage): drop each run's data or a few runs fill it.
  await controller.sealStream(scope, stream);
  await controller.deleteStream(scope, stream);
}

/** Runs BenchRounds in one JVM on the same Pravega; resolves with events/s per figure, or undefined when skipped. */
async function javaRounds() {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const lib = join(root, '.cache', 'pravega', 'lib');
  if (process.env.JAVA === '0' || !existsSync(join(lib, 'pravega-client-0.13.0.jar'))) return undefined;
  const run = promisify(execFile);
  const classes = mkdtempSync(join(tmpdir(), 'sluice-bench-java-'));
  try {
    const src = join(root, 'test', 'java', 'pravega-interop', 'src', 'main', 'java', 'dev', 'sluice', 'interop');
    await run('javac', ['-d', classes, '-cp', `${lib}/*`, join(src, 'Interop.java'), join(src, 'BenchRounds.java')]);
    const args = ['rounds', URI, scope, 'j', String(N), String(RUNS), String(WARMUP), String(SEGMENTS)];
    const { stdout } = await run('java', ['-cp', `${classes}:${lib}/*`, 'dev.sluice.interop.Interop', ...args], { maxBuffer: 256 * 1024 * 1024 });
    for (const line of stdout.split('\n')) if (line.startsWith('round ')) console.log(`  java ${line}`);
    const m = /^write=(\d+) read=(\d+) group=(\d+) write_cpu_ms=(\d+) read_cpu_ms=(\d+) group_cpu_ms=(\d+)$/m.exec(stdout);
    if (m === null) throw new Error(`Java bench printed no result:\n${stdout.slice(-2000)}`);
    const [write, read, group, writeCpu, readCpu, groupCpu] = m.slice(1).map(Number);
    return { write, read, group, cpu: { write: writeCpu, read: readCpu, group: groupCpu } };
  } finally {
    rmSync(classes, { recursive: true, force: true });
  }
}

const java = await javaRounds();
await controller.deleteScope(scope);
const eps = (ms) => (N / ms) * 1000;
const rate = (perSec) => `${Math.round(perSec).toLocaleString()} events/s, ${((perSec * SIZE) / 1e6).toFixed(1)} MB/s`;
console.log(`events: ${N} x ${SIZE} B, ${SEGMENTS} segments, median of ${RUNS} after ${WARMUP} warm-up`);
console.log(`write (Sluice client):        ${rate(eps(median(w)))}`);
console.log(`read  (bare client loop):     ${rate(eps(median(b)))}`);
console.log(`read  (pravega source job):   ${rate(eps(median(s)))}`);
console.log(`source job start to first row: ${median(startups).toFixed(0)} ms (included above)`);
// The bare loop's clock starts at its first read, the job's at submission: compare from the first row as well, so
// job start-up (slow under load) is not mistaken for read throughput.
const steady = s.map((ms, i) => ms - startups[i]);
console.log(`read  (source job, first row to end): ${rate(eps(median(steady)))}`);
console.log(`ratio source / bare: ${(median(b) / median(s)).toFixed(2)}, from the first row ${(median(b) / median(steady)).toFixed(2)} (target >= 0.8)`);
if (java === undefined) {
  console.log('Java client: skipped (JAVA=0 or no jars in .cache/pravega/lib; run scripts/pravega.sh start)');
} else {
  console.log(`write (Java client):          ${rate(java.write)}`);
  console.log(`read  (Java batch client):    ${rate(java.read)}`);
  console.log(`read  (Java reader group):    ${rate(java.group)}`);
  const ratio = (a, b) => `${(a / b).toFixed(2)}x`;
  console.log(`Sluice / Java: write ${ratio(eps(median(w)), java.write)}, bare read / batch read ${ratio(eps(median(b)), java.read)}, source job / reader group ${ratio(eps(median(s)), java.group)} (goal >= 0.8)`);
  // On a busy shared machine wall time mostly measures the neighbours; CPU time per event is steadier.
  const ms = (x) => `${Math.round(x)} ms`;
  console.log(`CPU (median): Sluice write ${ms(median(cpu.w))}, bare read ${ms(median(cpu.b))}, source job ${ms(median(cpu.s))}; Java write ${ms(java.cpu.write)}, batch read ${ms(java.cpu.read)}, reader group ${ms(java.cpu.group)}`);
  console.log(`Sluice / Java events per CPU second: write ${ratio(java.cpu.write, median(cpu.w))}, bare read / batch read ${ratio(java.cpu.read, median(cpu.b))}, source job / reader group ${ratio(java.cpu.group, median(cpu.s))}`);
}
controller.close();
await pool.close();
