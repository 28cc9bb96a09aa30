// State larger than memory, measured on a whole streaming job (issue #18 item 4): datagen sequence rows i =
// 0..rows-1 with key i % keys -> GROUP BY key with COUNT(*) and SUM(i) -> blackhole, periodic checkpoints
// written to a checkpoint directory, keyed state in the given backends, one run after the other in fresh
// processes (same machine load, as far as a shared machine allows).
//
// Per run: rows/s (whole job, startup included), CPU seconds, peak RSS (VmHWM of the job process: the most
// of its memory ever resident, lmdb's mapped file pages included, polled from /proc/<pid>/status until it
// exits; its anonymous and file-backed parts' largest samples, every 200 ms, beside it), the lmdb store's disk use (blocks actually allocated, largest seen), every checkpoint's size and
// duration (from the job client's metrics), and the load average before and after.
//
// `--check` instead aggregates the GROUP BY's changelog once more (COUNT of groups, SUM of COUNT, SUM of SUM,
// MIN and MAX of COUNT) and compares the final row with what the formula gives: a retraction lost or doubled
// by the backend shows there.
//
//   node bench/state-scale.mjs [keys=5000000] [--passes 1] [--backends hashmap,lmdb,rocksdb] [--interval '10 s' | off]
//        [--ttl '2 s'] [--heap MB] [--cache-size '128 mb'] [--check] [--timeout seconds] [--incremental]
//
// Run after `npm run build` (it imports dist/).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};

if (args[0] === '--child') {
  await child(JSON.parse(args[1]));
  process.exit(0);
}

const KEYS = Number(args.find((a) => /^\d+$/.test(a)) ?? 5_000_000);
const PASSES = Number(opt('--passes', '1'));
const BACKENDS = opt('--backends', 'hashmap,lmdb').split(',');
const INTERVAL = opt('--interval', '10 s');
const TTL = opt('--ttl', '');
const HEAP = opt('--heap', undefined);
const CACHE = opt('--cache-size', undefined);
const CHECK = args.includes('--check');
/** `state.backend.incremental` = true: checkpoints after the first completed one are deltas (lmdb, rocksdb). */
const INCREMENTAL = args.includes('--incremental');
/** Seconds after which a run is stopped and reported as far as it got (rows in, RSS and checkpoints so far). */
const TIMEOUT = Number(opt('--timeout', '0'));
const ROWS = KEYS * PASSES;
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
const mb = (b) => `${(b / 2 ** 20).toFixed(0)} MB`;

/** Bytes the files under `dir` take on disk (allocated blocks, not the sparse lmdb map size). */
function diskUse(dir) {
  let n = 0;
  let names;
  try {
    names = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of names) {
    const p = join(dir, e.name);
    try {
      n += e.isDirectory() ? diskUse(p) : statSync(p).blocks * 512;
    } catch {
      // Removed while walking (a store closed, a checkpoint pruned).
    }
  }
  return n;
}

function statusKb(pid, field) {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** One job in a fresh process; polls its memory and the store's disk use until it exits. */
function run(backend) {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-state-scale-'));
  const spec = { backend, keys: KEYS, passes: PASSES, interval: INTERVAL, ttl: TTL, cache: CACHE, check: CHECK, incremental: INCREMENTAL, dir };
  const node = ['--expose-gc', ...(HEAP ? [`--max-old-space-size=${HEAP}`] : [])];
  const load0 = load();
  const t0 = performance.now();
  const p = spawn(process.execPath, [...node, self, '--child', JSON.stringify(spec)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  p.stdout.on('data', (d) => (out += d));
  p.stderr.on('data', (d) => (err += d));
  let hwmKb = 0;
  let anonKb = 0;
  let fileKb = 0;
  let storeMax = 0;
  let cpMax = 0;
  let polls = 0;
  const poll = setInterval(() => {
    hwmKb = Math.max(hwmKb, statusKb(p.pid, 'VmHWM') ?? 0);
    anonKb = Math.max(anonKb, statusKb(p.pid, 'RssAnon') ?? 0);
    fileKb = Math.max(fileKb, statusKb(p.pid, 'RssFile') ?? 0);
    // The disk walk costs a little: every 5th poll.
    if (polls++ % 5 === 0) {
      storeMax = Math.max(storeMax, diskUse(join(dir, 'store')));
      cpMax = Math.max(cpMax, diskUse(join(dir, 'checkpoints')));
    }
  }, 200);
  const killer = TIMEOUT > 0 ? setTimeout(() => p.kill('SIGKILL'), TIMEOUT * 1000) : undefined;
  return new Promise((resolve) => {
    p.on('exit', (code, signal) => {
      clearInterval(poll);
      clearTimeout(killer);
      const s = (performance.now() - t0) / 1000;
      rmSync(dir, { recursive: true, force: true });
      const last = out.trim().split('\n').pop() ?? '';
      let r;
      try {
        r = JSON.parse(last);
        if (r.progress) throw new Error('not finished');
      } catch {
        // The last progress line the job printed (every 5 s): how far it got.
        const progress = out.trim().split('\n').filter((l) => l.startsWith('{"progress"')).map((l) => JSON.parse(l)).at(-1);
        const why = signal === 'SIGKILL' && TIMEOUT > 0 ? `stopped after the ${TIMEOUT} s timeout` : `exit ${code ?? signal}: ${(err || out).trim().split('\n').slice(-6).join(' | ')}`;
        r = { error: why, progress };
      }
      resolve({ backend, s, hwmKb, anonKb, fileKb, storeMax, cpMax, load: [load0, load()], ...r });
    });
  });
}

console.log(
  `GROUP BY over ${KEYS.toLocaleString('en')} keys, ${ROWS.toLocaleString('en')} rows (${PASSES} per key), ${INTERVAL === 'off' ? 'no checkpoints' : `checkpoints every ${INTERVAL}`}` +
    `${TTL ? `, table.exec.state.ttl ${TTL}` : ''}${INCREMENTAL ? ', incremental checkpoints' : ''}${HEAP ? `, --max-old-space-size=${HEAP}` : ''}${CACHE ? `, lmdb cache ${CACHE}` : ''}` +
    `, ${availableParallelism()} cores, node ${process.version}`,
);
const results = [];
for (const b of BACKENDS) {
  const r = await run(b);
  results.push(r);
  console.log(`${b}: load average before ${r.load[0]}, after ${r.load[1]}`);
  if (r.error) {
    console.log(
      `  FAILED after ${r.s.toFixed(1)} s, peak RSS ${mb(r.hwmKb * 1024)} (anonymous up to ${mb(r.anonKb * 1024)}, file-backed up to ${mb(r.fileKb * 1024)}), ` +
        `store on disk up to ${mb(r.storeMax)}, checkpoint dir up to ${mb(r.cpMax)}: ${r.error}`,
    );
    if (r.progress) {
      const { rowsIn, cpu, checkpoints } = r.progress.progress;
      console.log(`  by then: ${rowsIn.toLocaleString('en')} rows into the GROUP BY, CPU ${cpu.toFixed(1)} s`);
      for (const c of checkpoints) console.log(`  checkpoint ${c.id}: ${mb(c.sizeBytes ?? 0)} in ${c.durationMs} ms`);
    }
    continue;
  }
  console.log(
    `  ${r.s.toFixed(1)} s  ${Math.round(ROWS / r.s).toLocaleString('en')} rows/s  CPU ${r.cpu.toFixed(1)} s  peak RSS ${mb(r.hwmKb * 1024)}` +
      ` (anonymous up to ${mb(r.anonKb * 1024)}, file-backed up to ${mb(r.fileKb * 1024)}; heap at end ${mb(r.heapUsed)})  store on disk up to ${mb(r.storeMax)}  checkpoint dir up to ${mb(r.cpMax)}`,
  );
  const cps = r.checkpoints;
  if (cps.length > 0) {
    const sizes = cps.map((c) => c.sizeBytes ?? 0);
    const durs = cps.map((c) => c.durationMs);
    console.log(
      `  ${cps.length} checkpoints (${r.failedCheckpoints} failed): size ${mb(Math.min(...sizes))}..${mb(Math.max(...sizes))}, ` +
        `duration ${Math.min(...durs)}..${Math.max(...durs)} ms; last: ${mb(sizes.at(-1))} in ${durs.at(-1)} ms`,
    );
    // Each one: incremental checkpoints differ from one to the next.
    console.log(`  ${cps.map((c) => `#${c.id} ${mb(c.sizeBytes ?? 0)} ${(c.durationMs / 1000).toFixed(1)} s`).join(', ')}`);
  }
  if (r.check) console.log(`  check: ${r.check.ok ? 'OK' : 'WRONG'} got ${JSON.stringify(r.check.got)} expected ${JSON.stringify(r.check.expected)}`);
}
const h = results.find((r) => r.backend === 'hashmap');
for (const l of results.filter((r) => r.backend !== 'hashmap')) {
  if (h && !h.error && !l.error) {
    console.log(`${l.backend}/hashmap: throughput ${(h.s / l.s).toFixed(2)}x, peak RSS ${(l.hwmKb / h.hwmKb).toFixed(2)}x`);
  }
}
if (results.some((r) => r.error || (r.check && !r.check.ok))) process.exitCode = 1;

/** The job, in this fresh process: prints one JSON line. */
async function child(spec) {
  const { TableEnvironment } = await import(new URL('../dist/index.js', import.meta.url).href);
  const env = TableEnvironment.create({ mode: 'streaming' });
  const set = (k, v) => env.executeSql(`SET '${k}' = '${v}'`);
  // One thread, as every earlier figure of this bench: an unset parallelism.default would mean every core.
  await set('parallelism.default', '1');
  await set('state.backend.type', spec.backend);
  await set('state.backend.lmdb.localdir', join(spec.dir, 'store'));
  if (spec.cache) await set('state.backend.lmdb.memory.cache-size', spec.cache);
  if (spec.interval !== 'off') {
    await set('execution.checkpointing.interval', spec.interval);
    await set('execution.checkpointing.dir', join(spec.dir, 'checkpoints'));
  }
  if (spec.ttl) await set('table.exec.state.ttl', spec.ttl);
  if (spec.incremental) await set('state.backend.incremental', 'true');
  const rows = spec.keys * spec.passes;
  await env.executeSql(
    `CREATE TABLE gen (i BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '1000000000',
      'fields.i.kind' = 'sequence', 'fields.i.start' = '0', 'fields.i.end' = '${rows - 1}')`,
  );
  const groups = `SELECT i % ${spec.keys} AS k, COUNT(*) AS c, SUM(i) AS s FROM gen GROUP BY i % ${spec.keys}`;
  const cpu0 = process.cpuUsage();
  const checkpoints = new Map();
  let failedCheckpoints = 0;
  let client;
  let ticks = 0;
  const sample = () => {
    const m = client?.metrics();
    if (!m) return;
    failedCheckpoints = m.failedCheckpoints;
    for (const c of m.checkpointHistory) if (c.status === 'COMPLETED' && !c.isSavepoint) checkpoints.set(c.id, { id: c.id, sizeBytes: c.sizeBytes, durationMs: c.durationMs });
    if (++ticks % 5 === 0) {
      // How far the job got, for a run stopped by --timeout: rows into the aggregate (the vertex that takes the most).
      const rowsIn = Math.max(0, ...m.vertices.filter((v) => /group|agg/i.test(v.name)).map((v) => v.recordsIn));
      const c = process.cpuUsage(cpu0);
      // Where the memory is (MB): V8's heap, Buffers and ArrayBuffers outside it, and the rest of RSS (native
      // stores, code, allocator slack), so a run shows which part grows with the keys.
      const u = process.memoryUsage();
      const mbOf = (b) => Math.round(b / 2 ** 20);
      const memory = { rss: mbOf(u.rss), heapUsed: mbOf(u.heapUsed), heapTotal: mbOf(u.heapTotal), external: mbOf(u.external), arrayBuffers: mbOf(u.arrayBuffers) };
      console.log(JSON.stringify({ progress: { rowsIn, cpu: (c.user + c.system) / 1e6, memory, checkpoints: [...checkpoints.values()] } }));
    }
  };
  const timer = setInterval(sample, 1000);
  let check;
  if (spec.check) {
    const r = await env.executeSql(`SELECT COUNT(*), SUM(c), SUM(s), MIN(c), MAX(c) FROM (${groups})`);
    client = r.getJobClient();
    let last;
    // The final accumulate message (+I or +U) holds the result; -U rows retract earlier ones.
    for await (const row of r.collect()) if (row.kind === 0 || row.kind === 2) last = row.fields;
    const big = (x) => String(x);
    const got = last.map(big);
    const expected = [spec.keys, rows, (BigInt(rows) * BigInt(rows - 1)) / 2n, spec.passes, spec.passes].map(big);
    check = { ok: JSON.stringify(got) === JSON.stringify(expected), got, expected };
  } else {
    await env.executeSql(`CREATE TABLE sink_out (k BIGINT, c BIGINT, s BIGINT) WITH ('connector' = 'blackhole')`);
    const r = await env.executeSql(`INSERT INTO sink_out ${groups}`);
    client = r.getJobClient();
    await r.await();
  }
  sample();
  clearInterval(timer);
  const cpu = process.cpuUsage(cpu0);
  const cps = [...checkpoints.values()].sort((a, b) => a.id - b.id);
  console.log(
    JSON.stringify({ cpu: (cpu.user + cpu.system) / 1e6, heapUsed: process.memoryUsage().heapUsed, checkpoints: cps, failedCheckpoints, check }),
  );
}
