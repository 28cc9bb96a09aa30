// Sluice against a real Apache Flink (scripts/flink-reference.sh, Flink 1.20.3 in a local MiniCluster) on the same
// bounded SQL jobs, same machine, same run: datagen -> query -> blackhole. Run after `npm run build`:
//   node bench/flink-baseline.mjs [rows] [case-name-part]      (BENCH_FLINK_ROWS also sets rows; SLUICE_DIST another build)
// Flink runs at parallelism 1 (one slot, one task per operator chain): a per-core comparison with Sluice, whose job
// runs on Node's one thread. Per case: one JVM runs the DDL, a warm-up INSERT and RUNS timed INSERTs (so the JIT is
// warm; the warm-up is dropped), then this process does the same with TableEnvironment. Both time only the job: from
// executeSql(INSERT) having returned (parsed, planned, submitted; for Flink that includes starting the MiniCluster) to
// result.await() resolving, i.e. the `(job ms)` of the runner's `#### ELAPSED` line. Reports input rows/s (median of
// RUNS) for both and the ratio of the medians of the job times (Sluice / Flink: > 1 means Sluice is slower).
// Flink's job time still includes deploying the job's tasks (~0.5 s here with 1000 rows), hence the default 2M rows
// (every Flink run > 2 s); pass 5000000 for steadier figures (~15 min). Both engines run the same SQL text and read
// the same row counts (checked once by hand with COUNT(*) over each query, 100k rows).
// Skipped (exit 0) when the Flink runner cannot run: no java/javac, or no jar cache and BENCH_FLINK_BUILD unset (with
// it set, the runner fetches the jars with Maven first).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { load } from './format-bench-util.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROWS = Number(process.argv[2] ?? process.env.BENCH_FLINK_ROWS ?? 2_000_000);
const ONLY = process.argv[3];
const RUNS = 3;
const load1 = () => loadavg().map((l) => l.toFixed(1)).join(' ');

/** Why the Flink runner cannot run here, or null when it can. */
function flinkUnavailable() {
  const has = (bin) => spawnSync(bin, ['-version'], { stdio: 'ignore' }).status === 0;
  if (!has(process.env.JAVA ?? 'java') || !has(process.env.JAVAC ?? 'javac')) return 'no java/javac on PATH';
  const cache = join(process.env.SLUICE_CACHE ?? join(repo, '.cache'), 'flink-reference', `libs-${process.env.FLINK_VERSION ?? '1.20.3'}`);
  if (existsSync(join(cache, '.complete'))) return null;
  if (!process.env.BENCH_FLINK_BUILD) return `no Flink jars in ${cache} (set BENCH_FLINK_BUILD=1 to fetch them with Maven)`;
  return spawnSync('mvn', ['-v'], { stdio: 'ignore' }).status === 0 ? null : 'no Flink jar cache and no mvn on PATH';
}

const gen = (name, n) =>
  `CREATE TABLE ${name} (id BIGINT, k INT, price BIGINT, s STRING, ts AS TO_TIMESTAMP_LTZ(id * 10, 3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'datagen', 'number-of-rows' = '${n}',
  'rows-per-second' = '1000000000', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '${n}',
  'fields.k.min' = '0', 'fields.k.max' = '999', 'fields.price.min' = '1', 'fields.price.max' = '100000',
  'fields.s.length' = '10')`;

const cases = [
  {
    name: 'a) projection+filter',
    mode: 'batch',
    ddl: [gen('gen', ROWS), "CREATE TABLE out_a (id BIGINT, k INT, p BIGINT, s STRING) WITH ('connector' = 'blackhole')"],
    insert: 'INSERT INTO out_a SELECT id, k, price * 908 / 1000, s FROM gen WHERE k < 500',
  },
  {
    name: 'b) GROUP BY COUNT (batch)',
    mode: 'batch',
    ddl: [gen('gen', ROWS), "CREATE TABLE out_b (k INT, c BIGINT) WITH ('connector' = 'blackhole')"],
    insert: 'INSERT INTO out_b SELECT k, COUNT(*) FROM gen GROUP BY k',
  },
  {
    name: 'b) TUMBLE COUNT (streaming)',
    mode: 'streaming',
    ddl: [gen('gen', ROWS), "CREATE TABLE out_w (k INT, ws TIMESTAMP(3), c BIGINT) WITH ('connector' = 'blackhole')"],
    insert: "INSERT INTO out_w SELECT k, window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE gen, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY k, window_start, window_end",
  },
  {
    name: 'c) two-way join (batch)',
    mode: 'batch',
    ddl: [
      gen('gen', ROWS),
      // number-of-rows too: in Flink 1.20 a sequence field alone leaves the table unbounded (batch mode refuses it).
      `CREATE TABLE dim (k INT, name STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '1000', 'rows-per-second' = '1000000000',
  'fields.k.kind' = 'sequence', 'fields.k.start' = '0', 'fields.k.end' = '999', 'fields.name.length' = '10')`,
      "CREATE TABLE out_c (id BIGINT, name STRING) WITH ('connector' = 'blackhole')",
    ],
    insert: 'INSERT INTO out_c SELECT g.id, d.name FROM gen AS g JOIN dim AS d ON g.k = d.k',
  },
];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Job milliseconds of each INSERT of one Flink JVM run of the case, warm-up first. */
function runFlink(c, dir) {
  const settings = [`SET 'execution.runtime-mode' = '${c.mode}'`, "SET 'parallelism.default' = '1'"];
  const script = [...settings, ...c.ddl, ...Array.from({ length: RUNS + 1 }, () => c.insert)].map((s) => `${s};\n`).join('');
  const file = join(dir, 'case.sql');
  writeFileSync(file, script);
  const r = spawnSync(join(repo, 'scripts/flink-reference.sh'), [file], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const errors = [...r.stdout.matchAll(/^#### END \d+ (ERROR.*)$/gm)].map((m) => m[1]);
  if (r.status !== 0 || errors.length > 0) {
    throw new Error(`Flink failed (exit ${r.status}): ${errors.join('; ') || r.stderr.slice(-2000)}`);
  }
  const jobs = [...r.stdout.matchAll(/^#### ELAPSED [\d.]+ \(job ([\d.]+)\)$/gm)].map((m) => Number(m[1]));
  if (jobs.length !== RUNS + 1) throw new Error(`expected ${RUNS + 1} timed INSERTs from Flink, got ${jobs.length}`);
  return jobs;
}

/** The same for Sluice, in this process: one session, the DDL, then a warm-up and RUNS INSERTs. */
async function runSluice(c, TableEnvironment) {
  const env = TableEnvironment.create({ mode: c.mode, discoverPackages: false });
  await env.executeSql("SET 'parallelism.default' = '1'");
  for (const d of c.ddl) await env.executeSql(d);
  const jobs = [];
  for (let i = 0; i <= RUNS; i++) {
    const result = await env.executeSql(c.insert);
    const t0 = performance.now();
    await result.await();
    jobs.push(performance.now() - t0);
  }
  await env.close();
  return jobs;
}

const why = flinkUnavailable();
if (why !== null) {
  console.log(`skipped: Apache Flink baseline unavailable (${why})`);
  process.exit(0);
}
const { TableEnvironment } = await load('index.js');
const dir = mkdtempSync(join(tmpdir(), 'sluice-flink-bench-'));
const fmt = (ms) => `${((ROWS / ms) * 1000).toFixed(0).padStart(9)} rows/s`;
const list = (xs) => xs.map((x) => x.toFixed(0)).join(', ');
console.log(`input rows per run: ${ROWS}; medians of ${RUNS} runs after a warm-up; Flink 1.20.3 MiniCluster at parallelism 1 vs Sluice (node ${process.version})`);
console.log(`load average at start: ${load1()} (2-core machine shared with other jobs: figures are noisy)`);
try {
  for (const c of cases.filter((c) => ONLY === undefined || c.name.includes(ONLY))) {
    const flink = runFlink(c, dir).slice(1);
    const sluice = (await runSluice(c, TableEnvironment)).slice(1);
    const f = median(flink);
    const s = median(sluice);
    console.log(
      `${c.name.padEnd(28)} Sluice ${fmt(s)}  Flink ${fmt(f)}  ratio Sluice/Flink ${(s / f).toFixed(2)}x  (job ms: Sluice ${list(sluice)}; Flink ${list(flink)}; load ${load1()})`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
