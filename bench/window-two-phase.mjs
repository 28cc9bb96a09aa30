// Two-phase window aggregation (issues #13 and #20): a TUMBLE COUNT/SUM over datagen rows into blackhole, through
// the built CLI as a user runs it, at parallelism 2 on worker threads, planned in one phase
// ('table.optimizer.agg-phase-strategy' = 'ONE_PHASE': every row crosses the exchange) and in two phases (AUTO:
// one partial row per key and slice per subtask crosses it). Wall time of the whole `sluice -f` process, median of
// interleaved rounds, with the load average while it ran.
//
// Run after `npm run build`: node bench/window-two-phase.mjs [rows=2000000] [rounds=3] [keys=100]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROWS = Number(process.argv[2] ?? 2_000_000);
const ROUNDS = Number(process.argv[3] ?? 3);
const KEYS = Number(process.argv[4] ?? 100);
const BIN = fileURLToPath(new URL('../dist/bundle/bin.js', import.meta.url));

// Not rate-limited (datagen's default is 10,000 rows/s). One row per ms of event time: 10 s windows hold 10,000 rows, KEYS groups each.
const job = (strategy) => `SET 'parallelism.default' = '2';
SET 'execution.worker-threads' = '2';
SET 'table.optimizer.agg-phase-strategy' = '${strategy}';
CREATE TEMPORARY TABLE events (id BIGINT, ts AS TO_TIMESTAMP_LTZ(id, 3), WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen',
  'rows-per-second' = '1000000000', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '${ROWS}');
CREATE TEMPORARY TABLE win_out (k BIGINT, ws TIMESTAMP(3), c BIGINT, s BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO win_out SELECT id % ${KEYS}, window_start, COUNT(*), SUM(id)
FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY id % ${KEYS}, window_start, window_end;
`;

const dir = mkdtempSync(join(tmpdir(), 'sluice-window-bench-'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = { ONE_PHASE: [], AUTO: [] };
const loads = [];
for (let round = 0; round < ROUNDS; round++) {
  for (const strategy of Object.keys(results)) {
    const file = join(dir, `${strategy}.sql`);
    writeFileSync(file, job(strategy));
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [BIN, '-f', file], { encoding: 'utf8' });
    const ms = performance.now() - t0;
    if (r.status !== 0) throw new Error(`${strategy} failed:\n${r.stdout}\n${r.stderr}`);
    results[strategy].push(ms);
    loads.push(loadavg()[0]);
  }
}
rmSync(dir, { recursive: true, force: true });
console.log(`TUMBLE 10 s COUNT/SUM by id % ${KEYS}, ${ROWS} datagen rows, parallelism 2 on worker threads, ${ROUNDS} rounds, ${availableParallelism()} cores`);
for (const [s, xs] of Object.entries(results)) {
  console.log(`${s.padEnd(10)} median ${(median(xs) / 1000).toFixed(2)} s (${xs.map((x) => (x / 1000).toFixed(2)).join(', ')}), ${((ROWS / median(xs)) * 1000 / 1e6).toFixed(2)} M rows/s`);
}
console.log(`two-phase / one-phase wall: ${(median(results.AUTO) / median(results.ONE_PHASE)).toFixed(2)}; 1-min load average during the runs: ${Math.min(...loads).toFixed(1)}..${Math.max(...loads).toFixed(1)}`);
