// Speed-up from worker threads (issue #19): CPU-bound nexmark jobs (2 M events, rate-limited false, into
// blackhole) run through the built CLI as a user runs them, at parallelism 1 on the main thread and at
// parallelism 2 on two worker threads (`execution.worker-threads`). Wall time of the whole `sluice -f`
// process (startup included), median of interleaved rounds, peak RSS of the process (workers included),
// and the load average while it ran: on a shared machine the ratio is only as good as the load allows.
//
// Run after `npm run build`: node bench/parallel-speedup.mjs [events=2000000] [rounds=3]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../dist/bundle/bin.js', import.meta.url));
const EVENTS = Number(process.argv[2] ?? 2_000_000);
const ROUNDS = Number(process.argv[3] ?? 3);

const nexmark = `CREATE TEMPORARY TABLE nexmark (
  event_type INT,
  person ROW<id BIGINT, name STRING, emailAddress STRING, creditCard STRING, city STRING, state STRING, dateTime TIMESTAMP(3), extra STRING>,
  auction ROW<id BIGINT, itemName STRING, description STRING, initialBid BIGINT, reserve BIGINT, dateTime TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT, extra STRING>,
  bid ROW<auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING, dateTime TIMESTAMP(3), extra STRING>
) WITH ('connector' = 'nexmark', 'events.num' = '${EVENTS}', 'rate-limited' = 'false');`;

const JOBS = {
  'q1 projection': `CREATE TEMPORARY TABLE out1 (auction BIGINT, bidder BIGINT, price DECIMAL(23, 3), dateTime TIMESTAMP(3), extra STRING) WITH ('connector' = 'blackhole');
INSERT INTO out1 SELECT bid.auction, bid.bidder, 0.908 * bid.price, bid.dateTime, bid.extra FROM nexmark WHERE event_type = 2;`,
  'GROUP BY bid.auction COUNT/MAX/SUM': `CREATE TEMPORARY TABLE out2 (auction BIGINT, c BIGINT, m BIGINT, s BIGINT) WITH ('connector' = 'blackhole');
INSERT INTO out2 SELECT bid.auction, COUNT(*), MAX(bid.price), SUM(bid.price) FROM nexmark WHERE event_type = 2 GROUP BY bid.auction;`,
};

const SETUPS = {
  'p1 main thread': ["SET 'parallelism.default' = '1';", "SET 'execution.worker-threads' = 'off';"],
  'p2 two workers': ["SET 'parallelism.default' = '2';", "SET 'execution.worker-threads' = '2';"],
};

const dir = mkdtempSync(join(tmpdir(), 'sluice-speedup-'));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * One CLI run: wall seconds, CPU seconds (user + system, all threads) and peak RSS in MB, from GNU time,
 * whose figures cover every thread of the process. CPU time shows the cost of threads and exchanges
 * even when a loaded machine hides the wall-time gain.
 */
function run(file) {
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%M %U %S', process.execPath, CLI, '-f', file], { encoding: 'utf8' });
  const s = (performance.now() - t0) / 1000;
  if (r.status !== 0 || /\[ERROR\]|\[WARNING\]/.test(r.stdout + r.stderr)) throw new Error(`${file} failed:\n${r.stdout}\n${r.stderr}`);
  const [rssKb, user, sys] = r.stderr.trim().split('\n').at(-1).split(' ').map(Number);
  return { s, cpu: user + sys, rssMb: rssKb / 1024 };
}

console.log(`${EVENTS} nexmark events, ${ROUNDS} rounds, ${availableParallelism()} cores, load average before: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
try {
  for (const [job, sql] of Object.entries(JOBS)) {
    const results = {};
    const files = {};
    for (const [setup, sets] of Object.entries(SETUPS)) {
      files[setup] = join(dir, `${job.replace(/\W+/g, '-')}-${setup.replace(/\W+/g, '-')}.sql`);
      writeFileSync(files[setup], [...sets, nexmark, sql, ''].join('\n'));
      results[setup] = [];
    }
    const loads = [];
    for (let i = 0; i < ROUNDS; i++) {
      for (const setup of Object.keys(SETUPS)) {
        results[setup].push(run(files[setup]));
        loads.push(loadavg()[0]);
      }
    }
    console.log(`\n${job}  (1-min load average during: ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)})`);
    const med = {};
    for (const [setup, rs] of Object.entries(results)) {
      med[setup] = median(rs.map((r) => r.s));
      console.log(
        `  ${setup.padEnd(16)} median ${med[setup].toFixed(2)} s  (runs ${rs.map((r) => r.s.toFixed(2)).join(', ')})  CPU median ${median(rs.map((r) => r.cpu)).toFixed(2)} s  peak RSS ${Math.max(...rs.map((r) => r.rssMb)).toFixed(0)} MB`,
      );
    }
    console.log(`  speed-up ${(med['p1 main thread'] / med['p2 two workers']).toFixed(2)}x`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
