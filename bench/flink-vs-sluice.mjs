// Steady-state speed per core: the same streaming SQL on Sluice and on a real Apache Flink (scripts/flink-reference.sh,
// a local MiniCluster), at parallelism 1 (or BENCH_PARALLELISM), over Nexmark-style bids in CSV files. Run after `npm run build`:
//   node bench/flink-vs-sluice.mjs [case-name-part...]
// Environment: BENCH_ROWS (N, default 2000000), BENCH_PARALLELISM (both engines', default 1; Sluice runs its subtasks on
// worker threads, Flink in task slots), BENCH_RUNS (runs per size and engine, default 3), FLINK_VERSION (the
// reference runner's Flink, default its own), BENCH_FLINK=0 (Sluice only), SLUICE_DIST (another build),
// BENCH_SLUICE_BASE (a second Sluice build, e.g. a copy of dist/ from before a change, run alongside: the table then
// adds its steady-state CPU rows/s and this build's ratio to it, measured in the same run under the same load),
// BENCH_FILES (default 1: the bids in one file, which both engines read as one split, so at a parallelism above 1 one
// source subtask reads and decodes every row; F deals row i into file i mod F, each file in event-time order, so F
// source subtasks read in parallel and the watermark, the minimum over them, advances as with one file).
//
// Each engine runs each job in a fresh process over N rows and over 2N rows (the second N continue the first in event
// time), and the bench reports the DIFFERENCE of the two: (2N - N) rows / (t(2N) - t(N)). Process start-up, planning,
// job deployment and JIT warm-up are paid by both runs and cancel, so what remains is steady-state cost per row.
// Wall time is the job's own (executeSql returned -> await() resolved: the runner's `(job ms)` for Flink, the same
// span measured in the child for Sluice); CPU time is the whole process's (user + system of all its threads: Flink's
// split fetcher, task thread, JIT and GC; Sluice's one thread and V8's helpers), read from the children's rusage.
// Figures are medians over BENCH_RUNS runs. The machine is shared: the load average is printed with each line.
// Skipped (exit 0) when the Flink runner cannot run (no java/javac/mvn and no jar cache); BENCH_FLINK=0 runs Sluice
// alone (for profiling with --cpu-prof: BENCH_PROF=dir writes one profile per Sluice run).
// BENCH_CHECK=1 times nothing: it runs each chosen job once over the N files on both engines into a 'print' sink, folds
// each changelog into its final rows and says whether the two engines agree (use a small BENCH_ROWS, e.g. 20000).
//
// The Nexmark-style jobs (q4, q5, q7, q8) follow the Nexmark suite's SQL (nexmark/queries/q*.sql, as Flink runs them)
// over CSV files: q4 joins the bids with 10,000 auctions (valid for a day), q5 and q7 read the bids alone, and q8 reads
// persons and auctions instead of bids (N/2 of each per N, so its rows/s count persons + auctions).
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { load } from './format-bench-util.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const self = fileURLToPath(import.meta.url);

// ---- child mode: run one SQL script on Sluice, print the job's wall ms -------------------------------------------
if (process.argv[2] === '--sluice-child') {
  const statements = JSON.parse(readFileSync(process.argv[3], 'utf8'));
  const { TableEnvironment } = await load('index.js');
  const env = TableEnvironment.create({ mode: 'streaming', discoverPackages: false });
  // Both engines run at BENCH_PARALLELISM (runFlink sets Flink's); an unset parallelism.default would mean every core here.
  await env.executeSql(`SET 'parallelism.default' = '${process.env.BENCH_PARALLELISM ?? '1'}'`);
  const insert = statements.pop();
  for (const s of statements) await env.executeSql(s);
  const result = await env.executeSql(insert);
  const t0 = performance.now();
  await result.await();
  console.log(`#### JOB ${(performance.now() - t0).toFixed(1)}`);
  await env.close();
  process.exit(0);
}

const N = Number(process.env.BENCH_ROWS ?? 2_000_000);
/** Both engines' parallelism (issue #19 compares them at the number of cores); 1 measures speed per core. */
const PARALLELISM = Number(process.env.BENCH_PARALLELISM ?? 1);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/** Files the bids are dealt into, row by row (row i in file i mod F): each is a split a source subtask reads alone. */
const FILES = Number(process.env.BENCH_FILES ?? 1);
const ONLY = process.argv.slice(2);
const WITH_FLINK = process.env.BENCH_FLINK !== '0';
const PROF = process.env.BENCH_PROF;
const BASE = process.env.BENCH_SLUICE_BASE;
const loads = () => loadavg().map((l) => l.toFixed(1)).join(' ');

/** Why the Flink runner cannot run here, or null when it can. */
function flinkUnavailable() {
  const has = (bin) => spawnSync(bin, ['-version'], { stdio: 'ignore' }).status === 0;
  if (!has(process.env.JAVA ?? 'java') || !has(process.env.JAVAC ?? 'javac')) return 'no java/javac on PATH';
  const cache = join(process.env.SLUICE_CACHE ?? join(repo, '.cache'), 'flink-reference', `libs-${process.env.FLINK_VERSION ?? '2.3.0'}`);
  if (existsSync(join(cache, '.complete'))) return null;
  return spawnSync('mvn', ['-v'], { stdio: 'ignore' }).status === 0 ? null : `no Flink jars in ${cache} and no mvn on PATH`;
}

// ---- data --------------------------------------------------------------------------------------------------------
// Bids: 10,000 auctions, 20,000 bidders (scrambled so neighbouring rows differ), event time advancing 1 ms every
// 10 rows (10,000 bids per event-time second), in order (the watermark allows 1 s of lateness, none happens).
// File `bids-2n.csv` starts with the very lines of `bids-n.csv`, so the 2N run continues the N run in event time.
const T0 = Date.UTC(2024, 0, 1);
const channels = ['Google', 'Facebook', 'Baidu', 'Apple'];
const pad = (n, w) => String(n).padStart(w, '0');
function timestamp(ms) {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)} ${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}.${pad(d.getUTCMilliseconds(), 3)}`;
}
function bidLine(i) {
  const auction = 1000 + ((i * 7919) % 10_000);
  const bidder = 100_000 + ((i * 104_729 + 7) % 20_000);
  const price = 100 + ((i * 2_654_435_761) % 1_000_000);
  const ch = i % 4;
  return `${auction},${bidder},${price},${channels[ch]},https://www.nexmark.com/item.htm?channel_id=${i % 1000},${timestamp(T0 + Math.floor(i / 10))},${'x'.repeat(8 + (i % 13))}\n`;
}
async function writeLines(path, from, to, line) {
  const out = createWriteStream(path);
  const CHUNK = 10_000;
  for (let i = from; i < to; i += CHUNK) {
    let s = '';
    for (let j = i; j < Math.min(to, i + CHUNK); j++) s += line(j);
    if (!out.write(s)) await new Promise((r) => out.once('drain', r));
  }
  await new Promise((r, e) => out.end((err) => (err ? e(err) : r())));
}
// Nexmark auctions (id, itemName, description, initialBid, reserve, date_time, expires, seller, category, extra) and
// persons (id, name, emailAddress, creditCard, city, state, date_time, extra). For q4: the bids' 10,000 auctions, open
// from T0 for a day. For q8: person i and auction i are created at T0 + i/5 ms (5,000 of each per event-time second),
// the seller of auction i being a person created shortly before (mostly in the same 10 s window).
const cities = ['Phoenix', 'Los Angeles', 'San Francisco', 'Boise', 'Portland', 'Bend', 'Redmond', 'Seattle', 'Kent', 'Cheyenne'];
const states = ['AZ', 'CA', 'ID', 'OR', 'WA', 'WY'];
function auctionLine(id, ms, seller) {
  return `${id},item-${id},description of item ${id},${100 + (id % 900)},${1000 + (id % 9000)},${timestamp(ms)},${timestamp(ms + 86_400_000)},${seller},${id % 50},${'y'.repeat(6 + (id % 11))}\n`;
}
function personLine(i) {
  return `${1000 + i},person ${i % 9973},p${i}@example.com,${pad((i * 7_919) % 10_000, 4)} ${pad(i % 10_000, 4)},${cities[i % 10]},${states[i % 6]},${timestamp(T0 + Math.floor(i / 5))},${'z'.repeat(4 + (i % 9))}\n`;
}
const newAuctionLine = (i) => auctionLine(1_000_000 + i, T0 + Math.floor(i / 5), 1000 + Math.max(0, i - ((i * 31) % 200)));
async function writeData(dir) {
  for (const d of ['n', '2n', 'auctions', 'nx-auctions', 'persons-n', 'persons-2n', 'new-auctions-n', 'new-auctions-2n']) mkdirSync(join(dir, d));
  for (const [d, count] of [['n', N], ['2n', 2 * N]]) {
    for (let f = 0; f < FILES; f++) {
      await writeLines(join(dir, d, FILES === 1 ? 'bids.csv' : `bids-${f}.csv`), 0, count, (j) => (j % FILES === f ? bidLine(j) : ''));
    }
  }
  await writeLines(join(dir, 'auctions', 'auctions.csv'), 1000, 11_000, (a) => `${a},${a % 50},item-${a}\n`);
  await writeLines(join(dir, 'nx-auctions', 'auctions.csv'), 1000, 11_000, (a) => auctionLine(a, T0, 100_000 + (a % 20_000)));
  if (ONLY.length === 0 || ONLY.some((o) => 'q8 new users'.includes(o))) {
    await writeLines(join(dir, 'persons-n', 'persons.csv'), 0, N / 2, personLine);
    await writeLines(join(dir, 'persons-2n', 'persons.csv'), 0, N, personLine);
    await writeLines(join(dir, 'new-auctions-n', 'auctions.csv'), 0, N / 2, newAuctionLine);
    await writeLines(join(dir, 'new-auctions-2n', 'auctions.csv'), 0, N, newAuctionLine);
  }
}

// ---- jobs --------------------------------------------------------------------------------------------------------
const bidTable = (name, path) => `CREATE TABLE ${name} (auction BIGINT, bidder BIGINT, price BIGINT, channel STRING,
  url STRING, date_time TIMESTAMP(3), extra STRING, WATERMARK FOR date_time AS date_time - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = '${path}', 'format' = 'csv')`;
const sink = (cols) => `CREATE TABLE out_t (${cols}) WITH ('connector' = 'blackhole')`;
const tvf = (kind) => `SELECT auction, window_start, window_end, COUNT(*) AS c, MAX(price) AS m FROM TABLE(${kind})
  GROUP BY auction, window_start, window_end`;
const winCols = 'auction BIGINT, ws TIMESTAMP(3), we TIMESTAMP(3), c BIGINT, m BIGINT';
const auctionTable = (name, path) => `CREATE TABLE ${name} (id BIGINT, itemName STRING, description STRING,
  initialBid BIGINT, reserve BIGINT, date_time TIMESTAMP(3), expires TIMESTAMP(3), seller BIGINT, category BIGINT,
  extra STRING, WATERMARK FOR date_time AS date_time - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = '${path}', 'format' = 'csv')`;
const personTable = (name, path) => `CREATE TABLE ${name} (id BIGINT, name STRING, emailAddress STRING,
  creditCard STRING, city STRING, state STRING, date_time TIMESTAMP(3), extra STRING,
  WATERMARK FOR date_time AS date_time - INTERVAL '1' SECOND)
  WITH ('connector' = 'filesystem', 'path' = '${path}', 'format' = 'csv')`;
/** Nexmark q5's windowed bid counts per auction (HOP 2 s / 10 s). */
const hopCounts = `SELECT auction, COUNT(*) AS num, window_start AS starttime, window_end AS endtime
    FROM TABLE(HOP(TABLE bid, DESCRIPTOR(date_time), INTERVAL '2' SECOND, INTERVAL '10' SECOND))
    GROUP BY auction, window_start, window_end`;

const cases = [
  { name: 'q0 projection', sink: 'auction BIGINT, bidder BIGINT, price BIGINT, date_time TIMESTAMP(3), extra STRING',
    query: 'SELECT auction, bidder, price, date_time, extra FROM bid' },
  { name: 'q1 currency', sink: 'auction BIGINT, bidder BIGINT, price DECIMAL(23, 3), date_time TIMESTAMP(3), extra STRING',
    query: 'SELECT auction, bidder, 0.908 * price AS price, date_time, extra FROM bid' },
  { name: 'q2 filter', sink: 'auction BIGINT, price BIGINT',
    query: 'SELECT auction, price FROM bid WHERE MOD(auction, 123) = 0' },
  { name: 'group by auction', sink: 'auction BIGINT, c BIGINT, m BIGINT, s BIGINT',
    query: 'SELECT auction, COUNT(*), MAX(price), SUM(price) FROM bid GROUP BY auction' },
  { name: 'tumble 10s', sink: winCols,
    query: tvf("TUMBLE(TABLE bid, DESCRIPTOR(date_time), INTERVAL '10' SECOND)") },
  { name: 'hop 2s/10s', sink: winCols,
    query: tvf("HOP(TABLE bid, DESCRIPTOR(date_time), INTERVAL '2' SECOND, INTERVAL '10' SECOND)") },
  { name: 'cumulate 2s/10s', sink: winCols,
    query: tvf("CUMULATE(TABLE bid, DESCRIPTOR(date_time), INTERVAL '2' SECOND, INTERVAL '10' SECOND)") },
  { name: 'session 2s by bidder', sink: 'bidder BIGINT, ws TIMESTAMP(3), we TIMESTAMP(3), c BIGINT, m BIGINT',
    query: `SELECT bidder, window_start, window_end, COUNT(*), MAX(price)
  FROM TABLE(SESSION(TABLE bid PARTITION BY bidder, DESCRIPTOR(date_time), INTERVAL '2' SECOND))
  GROUP BY bidder, window_start, window_end` },
  { name: 'join bids-auctions', sink: 'auction BIGINT, price BIGINT, category INT, name STRING',
    extra: (dir) => [`CREATE TABLE auctions (id BIGINT, category INT, name STRING, PRIMARY KEY (id) NOT ENFORCED)
  WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'auctions')}', 'format' = 'csv')`],
    query: 'SELECT b.auction, b.price, a.category, a.name FROM bid AS b JOIN auctions AS a ON b.auction = a.id' },
  { name: 'interval join 1s', sink: 'auction BIGINT, p1 BIGINT, p2 BIGINT',
    extra: (_dir, path) => [bidTable('bid2', path)],
    query: `SELECT b1.auction, b1.price, b2.price FROM bid AS b1, bid2 AS b2 WHERE b1.auction = b2.auction
  AND b2.date_time BETWEEN b1.date_time - INTERVAL '1' SECOND AND b1.date_time AND b1.bidder <> b2.bidder` },
  { name: 'q4 avg price/category', sink: 'category BIGINT, avg_price BIGINT',
    extra: (dir) => [auctionTable('auction', join(dir, 'nx-auctions'))],
    query: `SELECT Q.category, AVG(Q.final) FROM (
    SELECT MAX(B.price) AS final, A.category FROM auction A, bid B
    WHERE A.id = B.auction AND B.date_time BETWEEN A.date_time AND A.expires
    GROUP BY A.id, A.category) Q
  GROUP BY Q.category` },
  { name: 'q5 hot items', sink: 'auction BIGINT, num BIGINT',
    query: `SELECT AuctionBids.auction, AuctionBids.num FROM (${hopCounts}) AS AuctionBids
  JOIN (SELECT MAX(CountBids.num) AS maxn, CountBids.starttime, CountBids.endtime FROM (${hopCounts}) AS CountBids
    GROUP BY CountBids.starttime, CountBids.endtime) AS MaxBids
  ON AuctionBids.starttime = MaxBids.starttime AND AuctionBids.endtime = MaxBids.endtime AND AuctionBids.num >= MaxBids.maxn` },
  { name: 'q7 highest bid', sink: 'auction BIGINT, price BIGINT, bidder BIGINT, date_time TIMESTAMP(3), extra STRING',
    query: `SELECT B.auction, B.price, B.bidder, B.date_time, B.extra FROM bid B
  JOIN (SELECT MAX(price) AS maxprice, window_end AS date_time
    FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(date_time), INTERVAL '10' SECOND))
    GROUP BY window_start, window_end) B1
  ON B.price = B1.maxprice
  WHERE B.date_time BETWEEN B1.date_time - INTERVAL '10' SECOND AND B1.date_time` },
  { name: 'q8 new users', sink: 'id BIGINT, name STRING, starttime TIMESTAMP(3)',
    extra: (dir, _path, size) => [personTable('person', join(dir, `persons-${size}`)), auctionTable('auction', join(dir, `new-auctions-${size}`))],
    query: `SELECT P.id, P.name, P.starttime FROM (
    SELECT id, name, window_start AS starttime, window_end AS endtime
    FROM TABLE(TUMBLE(TABLE person, DESCRIPTOR(date_time), INTERVAL '10' SECOND))
    GROUP BY id, name, window_start, window_end) P
  JOIN (SELECT seller, window_start AS starttime, window_end AS endtime
    FROM TABLE(TUMBLE(TABLE auction, DESCRIPTOR(date_time), INTERVAL '10' SECOND))
    GROUP BY seller, window_start, window_end) A
  ON P.id = A.seller AND P.starttime = A.starttime AND P.endtime = A.endtime` },
  { name: 'top-3 per auction', sink: 'auction BIGINT, price BIGINT, bidder BIGINT, rn BIGINT',
    query: `SELECT auction, price, bidder, rn FROM (SELECT auction, price, bidder,
  ROW_NUMBER() OVER (PARTITION BY auction ORDER BY price DESC) AS rn FROM bid) WHERE rn <= 3` },
];

function statements(c, dir, size, sinkDdl = sink) {
  const path = join(dir, size);
  return [
    bidTable('bid', path),
    ...(c.extra ? c.extra(dir, path, size) : []),
    sinkDdl(c.sink),
    `INSERT INTO out_t ${c.query}`,
  ];
}

/** CPU seconds the reaped children of this process have used so far (utime + stime from /proc/self/stat). */
function childrenCpu() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command: state is field 3, so cutime (16) and cstime (17) are at 13 and 14 here; clock ticks of 1/100 s.
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

function timed(run) {
  const cpu0 = childrenCpu();
  const t0 = performance.now();
  const r = run();
  return { ...r, cpu: childrenCpu() - cpu0, whole: (performance.now() - t0) / 1000 };
}

function runFlink(c, dir, size) {
  const file = join(dir, `flink-${size}.sql`);
  const settings = ["SET 'execution.runtime-mode' = 'streaming'", `SET 'parallelism.default' = '${PARALLELISM}'`];
  writeFileSync(file, [...settings, ...statements(c, dir, size)].map((s) => `${s};\n`).join(''));
  return timed(() => {
    const r = spawnSync(join(repo, 'scripts/flink-reference.sh'), [file], { encoding: 'utf8', maxBuffer: 64 << 20 });
    const errors = [...r.stdout.matchAll(/^#### END \d+ (ERROR.*)$/gm)].map((m) => m[1]);
    if (r.status !== 0 || errors.length > 0) throw new Error(`Flink failed on ${c.name} (exit ${r.status}): ${errors.join('; ') || r.stderr.slice(-2000)}`);
    const job = [...r.stdout.matchAll(/^#### ELAPSED [\d.]+ \(job ([\d.]+)\)$/gm)].map((m) => Number(m[1]));
    if (job.length !== 1) throw new Error(`expected one timed INSERT from Flink on ${c.name}, got ${job.length}`);
    return { wall: job[0] / 1000 };
  });
}

let profiles = 0;
function runSluice(c, dir, size, dist) {
  const file = join(dir, `sluice-${size}.json`);
  writeFileSync(file, JSON.stringify(statements(c, dir, size)));
  const prof = PROF ? ['--cpu-prof', '--cpu-prof-dir', PROF, '--cpu-prof-name', `${c.name.replace(/\W+/g, '-')}-${size}-${profiles++}.cpuprofile`] : [];
  return timed(() => {
    const env = dist === undefined ? process.env : { ...process.env, SLUICE_DIST: dist };
    const r = spawnSync(process.execPath, [...prof, self, '--sluice-child', file], { encoding: 'utf8', maxBuffer: 64 << 20, env });
    const m = /^#### JOB ([\d.]+)$/m.exec(r.stdout);
    if (r.status !== 0 || m === null) throw new Error(`Sluice failed on ${c.name} (exit ${r.status}): ${r.stderr.slice(-2000)}`);
    return { wall: Number(m[1]) / 1000 };
  });
}

const printSink = (cols) => `CREATE TABLE out_t (${cols}) WITH ('connector' = 'print')`;

/** The rows a printed changelog ends with (+I/+U add a row, -U/-D take one away), sorted; a row taken away more often
 *  than added is kept as a "MISSING" line so it shows in the comparison. */
function foldChangelog(text) {
  const count = new Map();
  for (const m of text.matchAll(/^(?:\d+> )?([+-][IUD])\[(.*)\]$/gm)) {
    count.set(m[2], (count.get(m[2]) ?? 0) + (m[1] === '+I' || m[1] === '+U' ? 1 : -1));
  }
  const rows = [];
  for (const [row, n] of count) {
    if (n < 0) rows.push(`MISSING x${-n} ${row}`);
    for (let i = 0; i < n; i++) rows.push(row);
  }
  return rows.sort();
}

/** Runs case `c` over the N files on both engines into a print sink; true when their final rows are the same. */
function check(c, dir) {
  const stmts = statements(c, dir, 'n', printSink);
  const sf = join(dir, 'check-sluice.json');
  writeFileSync(sf, JSON.stringify(stmts));
  const s = spawnSync(process.execPath, [self, '--sluice-child', sf], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (s.status !== 0) throw new Error(`Sluice failed on ${c.name} (exit ${s.status}): ${s.stderr.slice(-2000)}`);
  const ff = join(dir, 'check-flink.sql');
  const settings = ["SET 'execution.runtime-mode' = 'streaming'", "SET 'parallelism.default' = '1'"];
  writeFileSync(ff, [...settings, ...stmts].map((x) => `${x};\n`).join(''));
  const f = spawnSync(join(repo, 'scripts/flink-reference.sh'), [ff], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const errors = [...f.stdout.matchAll(/^#### END \d+ (ERROR.*)$/gm)].map((m) => m[1]);
  if (f.status !== 0 || errors.length > 0) throw new Error(`Flink failed on ${c.name} (exit ${f.status}): ${errors.join('; ') || f.stderr.slice(-2000)}`);
  const a = foldChangelog(s.stdout);
  const b = foldChangelog(f.stdout);
  // Multiset differences by counting (a filter over includes was quadratic: minutes for a HOP job's 100,000 rows).
  const count = new Map();
  for (const x of a) count.set(x, (count.get(x) ?? 0) + 1);
  for (const x of b) count.set(x, (count.get(x) ?? 0) - 1);
  const onlyS = [...count].filter(([, n]) => n > 0).map(([x]) => x);
  const onlyF = [...count].filter(([, n]) => n < 0).map(([x]) => x);
  const same = onlyS.length === 0 && onlyF.length === 0;
  console.log(`${c.name.padEnd(22)} ${same ? 'same rows' : 'DIFFERENT'}: Sluice ${a.length}, Flink ${b.length} final rows`);
  if (!same) {
    for (const x of onlyS.slice(0, 5)) console.log(`  only Sluice: ${x}`);
    for (const x of onlyF.slice(0, 5)) console.log(`  only Flink:  ${x}`);
  }
  return same;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Steady-state rows/s of each of `runs` (engines or builds) on one case: medians over RUNS of the N run and the 2N
 * run, then the difference. The runners take turns run by run, so a change of load on the shared machine weighs on
 * each of them alike instead of on whichever ran during it (the before/after ratio of BENCH_SLUICE_BASE).
 */
function measure(runs, c, dir) {
  const n = runs.map(() => []);
  const n2 = runs.map(() => []);
  for (let i = 0; i < RUNS; i++) {
    runs.forEach((run, k) => n[k].push(run(c, dir, 'n')));
    runs.forEach((run, k) => n2[k].push(run(c, dir, '2n')));
  }
  return runs.map((_, k) => {
    const wallN = median(n[k].map((r) => r.wall));
    const wall2N = median(n2[k].map((r) => r.wall));
    const cpuN = median(n[k].map((r) => r.cpu));
    const cpu2N = median(n2[k].map((r) => r.cpu));
    return { wall: N / (wall2N - wallN), cpu: N / (cpu2N - cpuN), wholeN: median(n[k].map((r) => r.whole)) };
  });
}

const why = WITH_FLINK ? flinkUnavailable() : null;
if (why !== null) {
  console.log(`skipped: Apache Flink reference unavailable (${why})`);
  process.exit(0);
}
const dir = mkdtempSync(join(tmpdir(), 'sluice-vs-flink-'));
// The data files take N * ~300 bytes: remove them when interrupted too, not only at the end.
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(130);
  });
}
// n/a when a steady-state rate is not measurable (t(2N) <= t(N): N too small for the noise).
const ok = (x) => Number.isFinite(x) && x > 0;
const m = (x) => (ok(x) ? `${(x / 1e6).toFixed(2)} M` : 'n/a').padStart(8);
const r = (a, b) => (ok(a) && ok(b) ? `${(a / b).toFixed(2)}x` : 'n/a').padStart(6);
try {
  await writeData(dir);
  if (process.env.BENCH_CHECK === '1') {
    let bad = 0;
    console.log(`N = ${N}: final rows of each job on Sluice and on Flink ${process.env.FLINK_VERSION ?? '(runner default)'}`);
    for (const c of cases.filter((c) => ONLY.length === 0 || ONLY.some((o) => c.name.includes(o)))) if (!check(c, dir)) bad++;
    process.exitCode = bad > 0 ? 1 : 0;
  } else {
    console.log(`N = ${N} bids (and 2N); ${RUNS} runs per size and engine, medians; parallelism ${PARALLELISM}, ${FILES} bid file(s), streaming; node ${process.version}` +
      (WITH_FLINK ? `; Flink ${process.env.FLINK_VERSION ?? '(runner default)'}` : '; Flink skipped'));
    console.log('steady-state rows/s = N / (t(2N) - t(N)); wall = job time, CPU = whole process (all threads)');
    console.log(`load average at start: ${loads()}`);
    const baseHead = BASE === undefined ? '' : ` ${'base CPU'.padStart(8)} ${'CPU S/base'.padStart(10)}`;
    console.log(`${'job'.padEnd(22)} ${'Sluice wall'.padStart(11)} ${'Sluice CPU'.padStart(10)} ${'Flink wall'.padStart(10)} ${'Flink CPU'.padStart(10)} ${'wall S/F'.padStart(8)} ${'CPU S/F'.padStart(8)}${baseHead}  whole N-row process (s) S | F   load`);
    for (const c of cases.filter((c) => ONLY.length === 0 || ONLY.some((o) => c.name.includes(o)))) {
      const runners = [(c, dir, size) => runSluice(c, dir, size)];
      if (BASE !== undefined) runners.push((c, dir, size) => runSluice(c, dir, size, BASE));
      if (WITH_FLINK) runners.push(runFlink);
      const [s, ...rest] = measure(runners, c, dir);
      const b = BASE === undefined ? null : rest.shift();
      const baseCols = b === null ? '' : ` ${m(b.cpu).padStart(8)} ${r(s.cpu, b.cpu).padStart(10)}`;
      const f = WITH_FLINK ? rest.shift() : { wall: NaN, cpu: NaN, wholeN: NaN };
      console.log(`${c.name.padEnd(22)} ${m(s.wall).padStart(11)} ${m(s.cpu).padStart(10)} ${m(f.wall).padStart(10)} ${m(f.cpu).padStart(10)} ${r(s.wall, f.wall).padStart(8)} ${r(s.cpu, f.cpu).padStart(8)}${baseCols}  ${s.wholeN.toFixed(1).padStart(14)} | ${f.wholeN.toFixed(1).padEnd(6)} ${loads()}`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
