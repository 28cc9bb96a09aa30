// Runs the statements ported from Flink's own SQL integration tests (test/differential/flink-itcases.mjs) on Sluice
// and on a real Flink (scripts/flink-reference.sh: one JVM, one script per runtime mode declaring every table once,
// groups of 10 statements a job, parallelism 1, UTC), prints the verdicts and the agreement figures, and with --record
// writes test/differential/goldens-itcases/flink-itcases.json (Flink's rows or error per statement, and `known`: the
// divergences classified, by index; reasons of the previous file are kept for statements whose SQL and mode are
// unchanged, new ones come from knownReason in flink-itcases.mjs or are marked UNEXPLAINED).
//   npm run build && SLUICE_CACHE=/work/.cache-shared node scripts/flink-itcase-port.mjs [--record] [--flink-output F1,F2]
// --flink-output reuses saved runner stdouts (printed as "flink output: ...") instead of starting Flink.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const { TableEnvironment } = await import(join(repo, 'dist/index.js'));
const { rowKindShortString } = await import(join(repo, 'dist/types/row-kind.js'));
const { formatValueJava } = await import(join(repo, 'dist/types/values/format-value.js'));
const { runOnSluice, flinkScript, parseFlinkOutput } = await import(join(repo, 'test/differential/compare.mjs'));
const { specs, knownReason, writeSpecTables, specDdl, tablesOf, itcaseVerdict } = await import(join(repo, 'test/differential/flink-itcases.mjs'));

const args = process.argv.slice(2);
const record = args.includes('--record');
const outIdx = args.indexOf('--flink-output');
const MODES = ['batch', 'streaming'];

const dir = mkdtempSync(join(tmpdir(), 'flink-itcases-'));
const dataDir = join(dir, 'data');
writeSpecTables(dataDir, tablesOf(specs));

// Sluice: one session per mode over every table of that mode's statements.
const mine = new Array(specs.length);
for (const mode of MODES) {
  const ofMode = specs.map((s, i) => [s, i]).filter(([s]) => s.mode === mode);
  if (ofMode.length === 0) continue;
  const env = TableEnvironment.create({ mode, discoverPackages: false, config: { 'table.local-time-zone': 'UTC' } });
  for (const d of specDdl(dataDir, tablesOf(ofMode.map(([s]) => s)))) await env.executeSql(d);
  for (const [s, i] of ofMode) mine[i] = await runOnSluice(env, s.sql, { formatValueJava, rowKindShortString });
  await env.close();
}

// Flink: the answers of saved runner outputs (keyed by mode and SQL), then one runner run per mode for the rest.
const key = (mode, sql) => `${mode}\u0000${sql.trim()}`;
const cached = new Map();
const readOutput = (text) => {
  const mode = /^SET 'execution\.runtime-mode' = '(\w+)'/m.exec(text)?.[1] ?? 'batch';
  for (const a of parseFlinkOutput(text)) cached.set(key(mode, a.sql), a);
};
if (outIdx >= 0) for (const f of args[outIdx + 1].split(',')) readOutput(readFileSync(f, 'utf8'));
for (const mode of MODES) {
  const todo = specs.map((s, i) => [s, i]).filter(([s]) => s.mode === mode && !cached.has(key(mode, s.sql)));
  if (todo.length === 0) continue;
  const queries = [...new Set(todo.map(([s]) => s.sql))];
  const alone = (q) => todo.some(([s, i]) => s.sql === q && mine[i]?.error !== undefined);
  const script = `SET 'table.local-time-zone' = 'UTC';\n${flinkScript(specDdl(dataDir, tablesOf(todo.map(([s]) => s))), queries, mode, 10, alone)}`;
  writeFileSync(join(dir, `${mode}.sql`), script);
  const t0 = Date.now();
  const r = spawnSync(join(repo, 'scripts/flink-reference.sh'), ['--shared-cluster', join(dir, `${mode}.sql`)], {
    encoding: 'utf8',
    env: { ...process.env, FLINK_REFERENCE_JAVA_OPTS: process.env.FLINK_REFERENCE_JAVA_OPTS ?? '-XX:+UseParallelGC -Xmx1g' },
    maxBuffer: 1 << 28,
  });
  // The runner exits non-zero when any statement fails; its stdout still holds every answer.
  const out = `SET 'execution.runtime-mode' = '${mode}'\n${r.stdout}`;
  writeFileSync(join(dir, `flink-${mode}.out`), out);
  console.error(`flink output: ${join(dir, `flink-${mode}.out`)} (exit ${r.status}, ${queries.length} statements, ${Math.round((Date.now() - t0) / 1000)} s)`);
  if (r.stdout.trim() === '') console.error(r.stderr.slice(-3000));
  readOutput(out);
}
const theirs = specs.map((s) => cached.get(key(s.mode, s.sql)) ?? { error: 'no answer from Flink' });

const goldenPath = join(repo, 'test/differential/goldens-itcases/flink-itcases.json');
const previous = existsSync(goldenPath) ? JSON.parse(readFileSync(goldenPath, 'utf8')) : { queries: [], known: {} };
const oldKnown = new Map(Object.entries(previous.known).map(([i, why]) => [key(previous.queries[Number(i)]?.mode ?? '', previous.queries[Number(i)]?.sql ?? ''), why]));
const counts = {};
const byFamily = {};
const known = {};
specs.forEach((s, i) => {
  const v = itcaseVerdict(s, theirs[i], mine[i]);
  counts[v] = (counts[v] ?? 0) + 1;
  const fam = `${family(s.source)} ${s.mode}`;
  byFamily[fam] ??= { statements: 0, agree: 0 };
  byFamily[fam].statements++;
  if (v === 'agree' || v === 'both-error') byFamily[fam].agree++;
  else {
    known[i] = oldKnown.get(key(s.mode, s.sql)) ?? knownReason?.(s) ?? `UNEXPLAINED ${v}`;
    console.log(`#${i} ${v} ${s.mode} [${s.source.split('/').pop()}] (${known[i]})\n  ${s.sql}\n  flink:  ${JSON.stringify(theirs[i].rows ?? theirs[i].error).slice(0, 600)}\n  sluice: ${JSON.stringify(mine[i].rows ?? mine[i].error).slice(0, 600)}`);
  }
});
const agree = (counts.agree ?? 0) + (counts['both-error'] ?? 0);
for (const [f, c] of Object.entries(byFamily).sort()) console.log(`${f}: ${c.agree}/${c.statements}`);
console.log(JSON.stringify(counts), `agree ${agree}/${specs.length} = ${((100 * agree) / specs.length).toFixed(1)} %`);
if (record) {
  const golden = {
    about:
      "Statements ported from Apache Flink's own SQL integration tests (flink-table-planner .../runtime/{batch,stream}/sql/*ITCase.scala; test/differential/flink-itcases.mjs), each over csv tables holding the TestData rows it reads, with the answers of a real Apache Flink 2.3.0 (scripts/flink-itcase-port.mjs); replayed by test/differential/itcase-replay.test.ts.",
    flinkVersion: '2.3.0',
    figures: { statements: specs.length, agree, verdicts: counts, byFamily },
    // Every table once (one name, one content): the replay needs no other file.
    tables: Object.fromEntries(tablesOf(specs).map(({ name, ...t }) => [name, t])),
    queries: specs.map((s, i) => ({ source: s.source, mode: s.mode, tables: s.tables.map((t) => t.name), sql: s.sql, ordered: s.ordered ?? false, flink: theirs[i].rows ? { rows: theirs[i].rows } : { error: theirs[i].error } })),
    known,
  };
  mkdirSync(dirname(goldenPath), { recursive: true });
  writeFileSync(goldenPath, `${JSON.stringify(golden, null, 1)}\n`);
  console.log(`recorded ${goldenPath}`);
}

/** The ITCase family of a source: the test class's file name. */
function family(source) {
  return /\/(\w+?)(?:Base)?\.scala/.exec(source)?.[1] ?? source;
}
