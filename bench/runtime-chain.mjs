// Runtime throughput: synthetic source -> project -> filter -> discarding sink at parallelism 1,
// next to a plain JS loop doing the same work over the same batches. Run after `npm run build`:
//   node bench/runtime-chain.mjs [rowsPerRun]
// Reports the median of 5 runs, the ratio to the plain loop, and the cost of checkpoints every second.
import { performance } from 'node:perf_hooks';

const dist = process.env.SLUICE_DIST ?? new URL('../dist/', import.meta.url).href;
const { Row } = await import(new URL('types/row.js', dist.endsWith('/') ? dist : `${dist}/`).href);
const rt = await import(new URL('runtime/index.js', dist.endsWith('/') ? dist : `${dist}/`).href);

const BATCH = 1024;
const ROWS = Number(process.argv[2] ?? 32_000_000);
const RUNS = 5;
const POOL = 64;
const batches = [];
for (let b = 0; b < POOL; b++) {
  const rows = new Array(BATCH);
  for (let i = 0; i < BATCH; i++) rows[i] = Row.insert(b * BATCH + i, (b * BATCH + i) * 3, 'payload');
  batches.push(rows);
}

// The work under test, shared by the plain loop and the operators.
function project(rows) {
  const out = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const f = rows[i].fields;
    out[i] = new Row(rows[i].kind, [f[0], f[1] * 2]);
  }
  return out;
}
function filter(rows) {
  const out = [];
  for (let i = 0; i < rows.length; i++) if ((rows[i].fields[0] & 1) === 0) out.push(rows[i]);
  return out;
}

function plainLoop() {
  let count = 0;
  const n = ROWS / BATCH;
  for (let b = 0; b < n; b++) count += filter(project(batches[b % POOL].slice())).length;
  return count;
}

class SynthReader {
  constructor(total) { this.total = total; this.next = 0; this.split = undefined; this.noMore = false; }
  start() {}
  pollNext(output) {
    if (this.split === undefined) return this.noMore ? 'END_OF_INPUT' : 'NOTHING_AVAILABLE';
    if (this.split.next >= this.split.end) return 'END_OF_INPUT';
    output.collectBatch(batches[this.split.next % POOL]);
    this.split.next++;
    return 'MORE_AVAILABLE';
  }
  isAvailable() { return new Promise((r) => (this.wake = r)); }
  snapshotState() { return this.split ? [{ ...this.split }] : []; }
  addSplits(s) { this.split = { ...s[0] }; this.wake?.(); }
  notifyNoMoreSplits() { this.noMore = true; this.wake?.(); }
  async close() {}
}
const json = rt.jsonSerializer();
const synthSource = (batchesTotal) => ({
  boundedness: () => 'BOUNDED',
  createReader: () => new SynthReader(batchesTotal),
  createEnumerator: (ctx) => ({
    start() {}, handleSplitRequest() {}, addSplitsBack() {},
    addReader(i) { ctx.assignSplit({ splitId: 'all', next: 0, end: batchesTotal }, i); ctx.signalNoMoreSplits(i); },
    snapshotState: () => ({}), async close() {},
  }),
  restoreEnumerator: (ctx) => synthSource(batchesTotal).createEnumerator(ctx),
  getSplitSerializer: () => json,
  getEnumeratorCheckpointSerializer: () => json,
});
const op = (name, f) => ({ name, create: () => { let out; return { open(ctx) { out = ctx.output; }, processBatch(rows) { out.collect(f(rows)); } }; } });

async function runJob(checkpointMs) {
  let count = 0;
  const sink = { createWriter: () => ({ write(b) { count += b.length; }, async flush() {}, async close() {} }) };
  const client = rt.executeJob({
    jobName: 'bench',
    vertices: [
      { kind: 'source', id: 'src', name: 'synthetic', parallelism: 1, source: synthSource(ROWS / BATCH), operators: [op('project', project), op('filter', filter)] },
      { kind: 'sink', id: 'sink', name: 'blackhole', parallelism: 1, sink },
    ],
    edges: [{ from: 'src', to: 'sink', partitioner: { kind: 'forward' } }],
  }, rt.defaultRuntimeConfig({ checkpointIntervalMs: checkpointMs }));
  await client.waitForCompletion();
  return { count, checkpoints: client.metrics().completedCheckpoints };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const variants = [
  ['plain JS loop', async () => ({ count: plainLoop() })],
  ['job, no checkpoints', () => runJob(undefined)],
  [`job, checkpoint every ${process.env.CP_MS ?? 1000} ms`, () => runJob(Number(process.env.CP_MS ?? 1000))],
];
console.log(`runtime-chain: ${ROWS / 1e6} M rows per run, batches of ${BATCH}; variants interleaved to share machine noise`);
await runJob(undefined); // warm-up
plainLoop();
const rates = variants.map(() => []);
const last = [];
for (let i = 0; i < RUNS; i++) {
  for (let v = 0; v < variants.length; v++) {
    const t0 = performance.now();
    last[v] = await variants[v][1]();
    rates[v].push(ROWS / ((performance.now() - t0) / 1000));
  }
  if (process.env.BENCH_VERBOSE) console.log(`  run ${i}: ${rates.map((r) => (r[i] / 1e6).toFixed(2)).join(' / ')}`);
}
const [plain, job, cp] = rates.map(median);
variants.forEach(([label], v) => {
  const m = median(rates[v]);
  const extra = last[v].checkpoints !== undefined ? `, ${last[v].checkpoints} checkpoint(s) in the last run` : '';
  console.log(`${label.padEnd(28)} ${(m / 1e6).toFixed(2).padStart(7)} M rows/s (median of ${RUNS})${extra}`);
});
console.log(`ratio plain/job: ${(plain / job).toFixed(2)}x (target <= 2x); checkpoint cost: ${((1 - cp / job) * 100).toFixed(1)}% (target <= 10%)`);
console.log(`target >= 10 M rows/s: ${job >= 10e6 ? 'met' : 'NOT met'}`);
