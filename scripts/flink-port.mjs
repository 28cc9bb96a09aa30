// Runs the statements ported from Flink's own function tests (test/differential/flink-port.mjs) on Sluice and on a
// real Flink (scripts/flink-reference.sh, one JVM, groups of 20 statements a job, batch mode, parallelism 1, UTC),
// prints the verdicts and the agreement figures, and with --record writes test/differential/goldens/flink-functions.json
// (Flink's answers; the `known` reasons of the previous file are kept for statements whose SQL is unchanged).
//   npm run build && SLUICE_CACHE=/work/.cache-shared node scripts/flink-port.mjs [--record] [--flink-output F]
// --flink-output F reuses a saved runner stdout instead of starting Flink (judging a new Sluice build).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const { TableEnvironment } = await import(join(repo, 'dist/index.js'));
const { rowKindShortString } = await import(join(repo, 'dist/types/row-kind.js'));
const { formatValueJava } = await import(join(repo, 'dist/types/values/format-value.js'));
const { runOnSluice, verdictIn, flinkScript, parseFlinkOutput } = await import(join(repo, 'test/differential/compare.mjs'));
const { statements, knownReason } = await import(join(repo, 'test/differential/flink-port.mjs'));

const args = process.argv.slice(2);
const record = args.includes('--record');
const outIdx = args.indexOf('--flink-output');
const stmts = statements();
const queries = stmts.map((s) => s.sql);

const env = TableEnvironment.create({ mode: 'batch', discoverPackages: false, config: { 'table.local-time-zone': 'UTC' } });
const mine = [];
for (const q of queries) mine.push(await runOnSluice(env, q, { formatValueJava, rowKindShortString }));
await env.close();

// Flink's answers of earlier runs (--flink-output F1,F2: saved runner stdouts) are reused; only statements none of
// them answered go to a new Flink run.
const cached = new Map();
if (outIdx >= 0) for (const f of args[outIdx + 1].split(',')) for (const a of parseFlinkOutput(readFileSync(f, 'utf8'))) cached.set(a.sql, a);
const missing = queries.filter((q) => !cached.has(q));
if (missing.length > 0) {
  const dir = mkdtempSync(join(tmpdir(), 'flink-port-'));
  // Statements Sluice refuses are likely refused by Flink too: they run alone, so as not to fail their group's job.
  const alone = (q) => mine[queries.indexOf(q)]?.error !== undefined;
  writeFileSync(join(dir, 'f.sql'), `SET 'table.local-time-zone' = 'UTC';\n${flinkScript([], missing, 'batch', 20, alone)}`);
  const r = spawnSync(join(repo, 'scripts/flink-reference.sh'), ['--shared-cluster', join(dir, 'f.sql')], {
    encoding: 'utf8',
    env: { ...process.env, FLINK_REFERENCE_JAVA_OPTS: process.env.FLINK_REFERENCE_JAVA_OPTS ?? '-XX:+UseParallelGC -Xmx1g' },
    maxBuffer: 1 << 28,
  });
  writeFileSync(join(dir, 'flink.out'), r.stdout);
  console.error(`flink output: ${join(dir, 'flink.out')} (exit ${r.status}, ${missing.length} statements) ${r.stderr.split('\n').filter((l) => /batch jobs/.test(l)).join(' ')}`);
  for (const a of parseFlinkOutput(r.stdout)) cached.set(a.sql, a);
}
const theirs = queries.map((q) => cached.get(q.trim()) ?? { error: 'no answer from Flink' });
const goldenPath = join(repo, 'test/differential/goldens/flink-functions.json');
const previous = existsSync(goldenPath) ? JSON.parse(readFileSync(goldenPath, 'utf8')) : { queries: [], known: {} };
const oldKnown = new Map(Object.entries(previous.known).map(([i, why]) => [previous.queries[Number(i)]?.sql, why]));
const counts = {};
const known = {};
queries.forEach((q, i) => {
  const v = verdictIn('batch', theirs[i], mine[i], false, q);
  counts[v] = (counts[v] ?? 0) + 1;
  if (v !== 'agree' && v !== 'both-error') {
    known[i] = oldKnown.get(q) ?? knownReason(q) ?? `UNEXPLAINED ${v}`;
    console.log(`#${i} ${v} [${stmts[i].source}] (${known[i]}) ${q}\n  flink:  ${JSON.stringify(theirs[i].rows ?? theirs[i].error).slice(0, 400)}\n  sluice: ${JSON.stringify(mine[i].rows ?? mine[i].error).slice(0, 400)}`);
  }
});
const agree = (counts.agree ?? 0) + (counts['both-error'] ?? 0);
console.log(JSON.stringify(counts), `agree ${agree}/${queries.length} = ${((100 * agree) / queries.length).toFixed(1)} %`);
if (record) {
  const golden = {
    about: previous.about ?? 'Statements ported from Apache Flink\'s own built-in function tests (flink-table-planner .../functions/*ITCase.java; test/differential/flink-port.mjs), with the answers of a real Apache Flink 2.3.0 (scripts/flink-port.mjs); replayed by test/differential/replay.test.ts.',
    flinkVersion: '2.3.0',
    seed: 0,
    mode: 'batch',
    queries: queries.map((q, i) => ({ sql: q, ordered: false, flink: theirs[i].rows ? { rows: theirs[i].rows } : { error: theirs[i].error }, source: stmts[i].source })),
    known,
  };
  writeFileSync(goldenPath, `${JSON.stringify(golden, null, 1)}\n`);
  console.log(`recorded ${goldenPath}`);
}
