// Long records in the filesystem source: one json file holding a single 100 MB record next to a json file
// of 100 MB of short records (~100 bytes each), each read by `SELECT SUM(CHAR_LENGTH(s))` through the
// filesystem connector. The line reader used to be quadratic in the line length (a 16 MB line took 4-5 s,
// a 50 MB line did not finish); now the long file should take about as long as the short one, or less
// (one record to decode instead of a million). Interleaved rounds, medians, the ratio long / short.
// Run after `npm run build`: node bench/filesystem-long-records.mjs [megabytes] [rounds]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { TableEnvironment } from '../dist/index.js';

const MB = Number(process.argv[2] ?? 100);
const ROUNDS = Number(process.argv[3] ?? 3);
const BYTES = MB * 1024 * 1024;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dir = mkdtempSync(join(tmpdir(), 'sluice-bench-long-'));
const longDir = join(dir, 'long');
const shortDir = join(dir, 'short');
mkdirSync(longDir);
mkdirSync(shortDir);
writeFileSync(join(longDir, 'a.json'), `{"id":1,"s":"${'x'.repeat(BYTES)}"}\n`);
{
  const line = (i) => `{"id":${i},"s":"${'y'.repeat(80)}"}\n`;
  const per = line(0).length;
  writeFileSync(join(shortDir, 'a.json'), Array.from({ length: Math.floor(BYTES / per) }, (_, i) => line(i % 10)).join(''));
}

async function run(path) {
  const env = TableEnvironment.create({ mode: 'batch' });
  try {
    // One thread, as every earlier figure of this bench: an unset parallelism.default would mean every core.
    await env.executeSql("SET 'parallelism.default' = '1'");
    await env.executeSql(
      `CREATE TABLE t (id INT, s STRING) WITH ('connector' = 'filesystem', 'path' = '${path}', 'format' = 'json', 'source.max-record-size' = '${MB + 16} mb')`,
    );
    const t0 = performance.now();
    const r = await env.executeSql('SELECT SUM(CHAR_LENGTH(s)) FROM t');
    let total = 0;
    for await (const row of r.collect()) total = Number(row.fields[0]);
    return { ms: performance.now() - t0, total };
  } finally {
    await env.close();
  }
}

const longMs = [];
const shortMs = [];
const ratios = [];
try {
  for (let i = 0; i < ROUNDS; i++) {
    const l = await run(longDir);
    const s = await run(shortDir);
    if (l.total !== BYTES) throw new Error(`long record read as ${l.total} characters, expected ${BYTES}`);
    longMs.push(l.ms);
    shortMs.push(s.ms);
    ratios.push(l.ms / s.ms);
    console.log(`round ${i + 1}: one ${MB} MB record ${l.ms.toFixed(0)} ms, ${MB} MB of short records ${s.ms.toFixed(0)} ms`);
  }
  console.log(
    `median: one ${MB} MB record ${median(longMs).toFixed(0)} ms, ${MB} MB of short records ${median(shortMs).toFixed(0)} ms, ` +
      `ratio long/short ${median(ratios).toFixed(2)} (load average ${loadavg()[0].toFixed(1)})`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
