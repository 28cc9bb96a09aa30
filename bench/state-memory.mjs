// Bytes of state per key in the in-memory backend: GROUP BY one BIGINT key with COUNT(*) and SUM(x), a regular
// join's state (one side, one row per BIGINT key) and a window aggregate's state (one window, N keys), each
// measured in a fresh `node --expose-gc` process as heapUsed and RSS after GC, minus the same process before
// the keys went in. Optionally also this build against a baseline build (before/after ratio), and a whole
// streaming job's peak RSS with and without `table.exec.state.ttl` (TTL must bound memory).
//
//   node bench/state-memory.mjs [keys=1000000] [--baseline DIR] [--kinds group,group-ttl,join,window] [--job] [--job-keys N] [--job-ttls '2 s']
//
// `--baseline DIR` is another build's dist/ (e.g. of main; a copy elsewhere needs a node_modules beside it for
// --job); SLUICE_DIST picks the build under test.
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
const here = new URL('../dist/', import.meta.url).pathname;

if (process.argv[2] === '--child') {
  await child(process.argv[3], process.argv[4], Number(process.argv[5]), process.argv[6]);
  process.exit(0);
}

const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const N = Number(args.find((a) => /^\d+$/.test(a)) ?? 1_000_000);
const baseline = opt('--baseline');
const dist = process.env.SLUICE_DIST ?? here;

const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
console.log(`keys: ${N.toLocaleString('en')}, load average before: ${load()}`);

function run(distDir, kind, keys, extra = '') {
  const r = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=16000', self, '--child', distDir, kind, String(keys), extra], {
    encoding: 'utf8',
  });
  if (r.status !== 0) return { error: (r.stderr || r.stdout).trim().split('\n').slice(-3).join(' | ') };
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

const fmt = (x) => (x === undefined ? '   n/a' : x.toFixed(0).padStart(6));
const kinds = (opt('--kinds') ?? 'group,group-ttl,join,window').split(',').filter((k) => k !== '');
for (const kind of kinds) {
  const now = run(dist, kind, N);
  const before = baseline ? run(baseline, kind, N) : undefined;
  if (now.error) {
    console.log(`${kind.padEnd(10)} failed: ${now.error}`);
    continue;
  }
  let line = `${kind.padEnd(10)} heap ${fmt(now.heap)} B/key  rss ${fmt(now.rss)} B/key  (${now.ms} ms)`;
  if (before && !before.error) {
    line += `   | baseline heap ${fmt(before.heap)} rss ${fmt(before.rss)}  ratio after/before heap ${(now.heap / before.heap).toFixed(2)} rss ${(now.rss / before.rss).toFixed(2)}`;
  } else if (before) line += `   | baseline failed: ${before.error}`;
  console.log(line);
}

if (args.includes('--job')) {
  const jobKeys = Number(opt('--job-keys') ?? 5_000_000);
  // `--job-ttls '2 s'` measures only the TTL run (one heavy run instead of two); '' stands for no TTL.
  const ttls = opt('--job-ttls')?.split(',').map((t) => t.trim()) ?? ['', '2 s'];
  for (const ttl of ttls) {
    const r = run(dist, 'job', jobKeys, ttl);
    const b = baseline ? run(baseline, 'job', jobKeys, ttl) : undefined;
    const show = (x) => (x.error ? `failed: ${x.error}` : `peak RSS ${(x.maxRss / 2 ** 20).toFixed(0)} MB in ${(x.ms / 1000).toFixed(1)} s`);
    console.log(`job ${jobKeys.toLocaleString('en')} keys, ttl ${ttl || 'none'}: ${show(r)}${b ? `   | baseline ${show(b)}` : ''}`);
  }
}
console.log(`load average after: ${load()}`);

/** Measures one kind of state in this (fresh) process and prints one JSON line. */
async function child(distDir, kind, n, extra) {
  const base = new URL(`file://${distDir.replace(/\/?$/, '/')}`);
  const imp = (p) => import(new URL(p, base).href);
  const t0 = performance.now();
  if (kind === 'job') {
    const maxRss = await job(imp, n, extra);
    console.log(JSON.stringify({ maxRss, ms: Math.round(performance.now() - t0) }));
    return;
  }
  const { HeapKeyedStateBackend, HeapOperatorStateStore } = await imp('runtime/state/heap-state-backend.js');
  const { HeapTimerService } = await imp('runtime/heap-timer-service.js');
  const { Row } = await imp('types/row.js');
  const { DataTypes } = await imp('types/data-types.js');
  const keyed = new HeapKeyedStateBackend();
  const ctx = {
    operatorName: 'bench',
    subtaskIndex: 0,
    parallelism: 1,
    attemptNumber: 0,
    config: new Map(),
    output: { collect: () => {}, collectColumns: () => {}, emitWatermark: () => {} },
    keyedState: keyed,
    operatorState: new HeapOperatorStateStore(),
    timerService: new HeapTimerService(() => keyed.getCurrentKey()),
    awaitBeforeNextBatch: () => {},
  };
  let op;
  const input = 0;
  let row;
  const BIGINT = DataTypes.BIGINT();
  if (kind === 'group' || kind === 'group-ttl') {
    const { builtinAggregate } = await imp('table-runtime/aggregates/builtin-aggregates.js');
    const { GroupAggregateOperator } = await imp('table-runtime/group-aggregate-operator.js');
    const aggs = [
      { fn: builtinAggregate('COUNT', [], BIGINT), args: [], distinct: false, filterArg: -1, countStar: true },
      { fn: builtinAggregate('SUM', [BIGINT], BIGINT), args: [1], distinct: false, filterArg: -1 },
    ];
    // A TTL far longer than the run: measures what keeping the write times costs.
    op = new GroupAggregateOperator([0], aggs, 'streaming', kind === 'group-ttl' ? 3_600_000 : 0);
    row = (i) => new Row(0, [BigInt(i), BigInt(i % 1000)]);
  } else if (kind === 'join') {
    const { JoinOperator } = await imp('table-runtime/join-operator.js');
    op = new JoinOperator({ joinType: 'INNER', leftKeys: [0], rightKeys: [0], leftArity: 2, rightArity: 2, condition: null, mode: 'streaming' });
    row = (i) => new Row(0, [BigInt(i), BigInt(i % 1000)]);
  } else if (kind === 'window') {
    const { WindowAggregateOperator } = await imp('table-runtime/window-aggregate-operator.js');
    const { builtinAggregate } = await imp('table-runtime/aggregates/builtin-aggregates.js');
    const aggs = [
      { fn: builtinAggregate('COUNT', [], BIGINT), args: [], distinct: false, filterArg: -1, countStar: true },
      { fn: builtinAggregate('SUM', [BIGINT], BIGINT), args: [1], distinct: false, filterArg: -1 },
    ];
    op = new WindowAggregateOperator(
      { input: { kind: 'assign', timeIndex: 2, window: { kind: 'TUMBLE', size: 3_600_000, offset: 0 } }, keys: [{ kind: 'start' }, { kind: 'end' }, { kind: 'field', index: 0 }], output: null },
      aggs,
    );
    row = (i) => new Row(0, [BigInt(i), BigInt(i % 1000), 1000]);
  } else throw new Error(`unknown kind ${kind}`);
  op.initializeState?.(undefined);
  await op.open(ctx);
  const settle = () => {
    for (let i = 0; i < 4; i++) globalThis.gc();
    return { heap: process.memoryUsage().heapUsed, rss: process.memoryUsage().rss };
  };
  const m0 = settle();
  const B = 1024;
  for (let i = 0; i < n; i += B) {
    const batch = [];
    for (let j = i; j < Math.min(n, i + B); j++) batch.push(row(j));
    op.processBatch(batch, input);
  }
  const ms = Math.round(performance.now() - t0);
  const m1 = settle();
  console.log(JSON.stringify({ heap: (m1.heap - m0.heap) / n, rss: (m1.rss - m0.rss) / n, ms }));
  // Keeps the operator and its state reachable up to the measurement.
  if (op === undefined) console.log(input);
}

/** A streaming GROUP BY job over n distinct keys (datagen sequence, keys written once each); returns peak RSS. */
async function job(imp, n, ttl) {
  const { TableEnvironment } = await imp('index.js');
  const env = TableEnvironment.create({ mode: 'streaming' });
  // One thread, as every earlier figure of this bench: an unset parallelism.default would mean every core.
  await env.executeSql("SET 'parallelism.default' = '1'");
  if (ttl) await env.executeSql(`SET 'table.exec.state.ttl' = '${ttl}'`);
  await env.executeSql(
    `CREATE TABLE gen (k BIGINT, x BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '1500000', 'fields.k.kind' = 'sequence', 'fields.k.start' = '1', 'fields.k.end' = '${n}', 'fields.x.min' = '0', 'fields.x.max' = '1000')`,
  );
  await env.executeSql(`CREATE TABLE sink_out (k BIGINT, c BIGINT, s BIGINT) WITH ('connector' = 'blackhole')`);
  const r = await env.executeSql('INSERT INTO sink_out SELECT k, COUNT(*), SUM(x) FROM gen GROUP BY k');
  await r.await();
  return process.resourceUsage().maxRSS * 1024;
}
