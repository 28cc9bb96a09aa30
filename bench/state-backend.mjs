// State larger than memory (issue #18 item 4): a streaming GROUP BY over many distinct keys (COUNT and
// SUM into blackhole) through the built CLI, with keyed state on the heap ('hashmap') and in the lmdb
// store ('lmdb', default cache), in the same run. Row i has key i % keys: with passes = 2 every key gets
// two rows, and the second pass reads every group back (from the cache, or from the store once it left it).
// Reports rows/s of the whole `sluice -f` process (startup included), peak RSS (GNU time; lmdb's
// mapped file pages the process touched count in it, the kernel can drop them), and the load average.
// A heap run that fails (out of heap) is reported, not fatal.
//
// Run after `npm run build`: node bench/state-backend.mjs [keys=5000000] [passes=2] [backends=hashmap,lmdb] [heapMb]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../dist/bundle/bin.js', import.meta.url));
const KEYS = Number(process.argv[2] ?? 5_000_000);
const PASSES = Number(process.argv[3] ?? 2);
const BACKENDS = (process.argv[4] ?? 'hashmap,lmdb').split(',');
const HEAP_MB = process.argv[5];
const ROWS = Math.round(PASSES * KEYS);

const dir = mkdtempSync(join(tmpdir(), 'sluice-state-bench-'));
const fmt = (xs) => xs.map((x) => x.toFixed(2)).join(' ');

function script(backend) {
  return [
    // One thread, as every earlier figure of this bench: an unset parallelism.default would mean every core.
    "SET 'parallelism.default' = '1';",
    `SET 'state.backend.type' = '${backend}';`,
    `SET 'state.backend.lmdb.localdir' = '${dir}';`,
    `CREATE TEMPORARY TABLE nums (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '1000000000',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '0', 'fields.id.end' = '${ROWS - 1}');`,
    `CREATE TEMPORARY TABLE out1 (k BIGINT, c BIGINT, s BIGINT) WITH ('connector' = 'blackhole');`,
    `INSERT INTO out1 SELECT id % ${KEYS}, COUNT(*), SUM(id) FROM nums GROUP BY id % ${KEYS};`,
    '',
  ].join('\n');
}

/** One CLI run: wall seconds, CPU seconds and peak RSS in MB (GNU time), or the failure. */
function run(backend) {
  const file = join(dir, `${backend}.sql`);
  writeFileSync(file, script(backend));
  const node = HEAP_MB ? [`--max-old-space-size=${HEAP_MB}`] : [];
  const load0 = loadavg()[0];
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%M %U %S', process.execPath, ...node, CLI, '-f', file], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const s = (performance.now() - t0) / 1000;
  const [rssKb, user, sys] = r.stderr.trim().split('\n').at(-1).split(' ').map(Number);
  const failed = r.status !== 0 || /\[ERROR\]/.test(r.stdout + r.stderr);
  return { backend, s, cpu: user + sys, rssMb: rssKb / 1024, load: [load0, loadavg()[0]], failed, err: failed ? (r.stdout + r.stderr).slice(-600) : '' };
}

console.log(`GROUP BY over ${KEYS} keys, ${ROWS} rows, ${availableParallelism()} cores, load average before: ${fmt(loadavg())}${HEAP_MB ? `, --max-old-space-size=${HEAP_MB}` : ''}`);
const results = [];
try {
  for (const b of BACKENDS) {
    const r = run(b);
    results.push(r);
    const rate = r.failed ? 'FAILED' : `${Math.round(ROWS / r.s).toLocaleString('en')} rows/s`;
    console.log(`  ${b.padEnd(8)} ${r.s.toFixed(1)} s  ${rate}  CPU ${r.cpu.toFixed(1)} s  peak RSS ${r.rssMb.toFixed(0)} MB  1-min load ${fmt(r.load)}`);
    if (r.failed) console.log(`    ${r.err.replace(/\n/g, '\n    ')}`);
  }
  const [h, l] = [results.find((r) => r.backend === 'hashmap'), results.find((r) => r.backend === 'lmdb')];
  if (h && l && !h.failed && !l.failed) console.log(`  lmdb/hashmap throughput ${(h.s / l.s).toFixed(2)}x, peak RSS ${(l.rssMb / h.rssMb).toFixed(2)}x`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
