// Differential testing against a real Apache Flink: generated queries (test/differential/generator.mjs) run on Sluice
// (in-process, batch TableEnvironment, from dist/: run `npm run build` first) and on the reference Flink
// (scripts/flink-reference.sh, every query in ONE JVM run), then compared row for row. Divergences are shrunk to a
// small query (each shrink round is one more JVM run) and reported with their category.
//
//   npm run diff -- [--seed S] [--count N] [--rounds R] [--report FILE] [--record FILE]
//
//   --seed S      first seed (default 1); the queries of a seed are the same on every machine
//   --count N     queries to generate (default 200)
//   --rounds R    shrink rounds (default 3; 0 reports divergences unshrunk)
//   --report FILE write the full report (every divergence, its minimised query and both answers) as JSON
//   --record FILE write the queries with Flink's answers as goldens for test/differential/replay.test.ts
//   --mode M      batch (default) or streaming: both engines run the queries in that runtime mode; streaming answers
//                 are compared as their materialized changelogs (the table the changelog leaves)
// FLINK_VERSION and SLUICE_CACHE are passed to the runner (see scripts/flink-reference.sh).
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGREEMENTS, flinkScript, materialize, parseFlinkOutput, rowDiff, runOnSluice, verdictIn } from '../test/differential/compare.mjs';
import { generate, ordered, render } from '../test/differential/generator.mjs';
import { shrinkAll } from '../test/differential/shrink.mjs';
import { tableDdl, writeTables } from '../test/differential/tables.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const MAX_CANDIDATES = 40;

function args() {
  const a = { seed: 1, count: 200, rounds: 3, report: undefined, record: undefined, mode: 'batch' };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i].replace(/^--/, '');
    if (!(key in a)) {
      console.error(`differential: unknown option ${argv[i]} (--seed --count --rounds --report --record --mode)`);
      process.exit(2);
    }
    a[key] = ['seed', 'count', 'rounds'].includes(key) ? Number(argv[++i]) : argv[++i];
  }
  if (a.mode !== 'batch' && a.mode !== 'streaming') {
    console.error(`differential: --mode is batch or streaming, not ${a.mode}`);
    process.exit(2);
  }
  return a;
}

async function loadSluice() {
  const base = process.env.SLUICE_DIST ? `file://${process.env.SLUICE_DIST.replace(/\/?$/, '/')}` : new URL('../dist/', import.meta.url).href;
  const [{ TableEnvironment }, { formatValueJava }, { rowKindShortString }] = await Promise.all([
    import(new URL('api/table-environment.js', base).href),
    import(new URL('types/values/format-value.js', base).href),
    import(new URL('types/row-kind.js', base).href),
  ]);
  return { TableEnvironment, formatValueJava, rowKindShortString };
}

/** One Sluice session over the tables; each query runs alone in it. */
async function sluiceRunner(sluice, ddl, mode) {
  const env = sluice.TableEnvironment.create({ mode, discoverPackages: false, config: { 'table.local-time-zone': 'UTC' } });
  for (const d of ddl) await (await env.executeSql(d)).await?.();
  return {
    run: (sql) => runOnSluice(env, sql, sluice),
    close: () => env.close(),
  };
}

/** Every query of `sqls` in one reference-runner JVM; the answers in the same order. */
function runOnFlink(ddl, sqls, dir, tag, mode) {
  const script = join(dir, `${tag}.sql`);
  writeFileSync(script, flinkScript(ddl, sqls, mode));
  const t0 = Date.now();
  // stdout goes to a file, so that a long run's progress can be watched (grep -c '#### END' on it).
  const outFile = join(dir, `${tag}.stdout`);
  const fd = openSync(outFile, 'w');
  console.error(`differential: Flink runs ${sqls.length} queries; its answers come into ${outFile}`);
  const p = spawnSync(join(repo, 'scripts/flink-reference.sh'), ['--shared-cluster', script], { stdio: ['ignore', fd, 'pipe'], encoding: 'utf8', maxBuffer: 1 << 30, env: process.env });
  closeSync(fd);
  if (p.error) throw p.error;
  const answers = parseFlinkOutput(readFileSync(outFile, 'utf8'));
  if (answers.length !== sqls.length) {
    throw new Error(`the reference runner answered ${answers.length} of ${sqls.length} queries (exit ${p.status}); stdout in ${join(dir, `${tag}.stdout`)}\n${p.stderr.slice(-2000)}`);
  }
  answers.forEach((a, i) => {
    if (a.sql !== sqls[i].trim()) throw new Error(`the runner's statement ${i} is not the query sent:\n${a.sql}\n${sqls[i]}`);
  });
  const secs = (Date.now() - t0) / 1000;
  console.error(`differential: Flink answered ${sqls.length} queries in ${secs.toFixed(1)} s (one JVM, ${((sqls.length * 60) / secs).toFixed(0)} queries/min, load average ${loadavg()[0].toFixed(1)})`);
  return answers;
}

async function main() {
  const o = args();
  const dir = mkdtempSync(join(tmpdir(), 'sluice-diff-'));
  writeTables(join(dir, 'data'));
  const ddl = tableDdl(join(dir, 'data'));
  const sluice = await loadSluice();
  const queries = generate(o.seed, o.count);
  const sqls = queries.map(render);
  const runner = await sluiceRunner(sluice, ddl, o.mode);

  const t0 = Date.now();
  const mine = [];
  for (const sql of sqls) mine.push(await runner.run(sql));
  const secs = (Date.now() - t0) / 1000;
  console.error(`differential: Sluice answered ${sqls.length} queries in ${secs.toFixed(1)} s (${((sqls.length * 60) / secs).toFixed(0)} queries/min)`);
  const theirs = runOnFlink(ddl, sqls, dir, 'queries', o.mode);

  const results = queries.map((q, i) => ({ i, q, sql: sqls[i], shape: q.shape, verdict: verdictIn(o.mode, theirs[i], mine[i], ordered(q)), flink: theirs[i], sluice: mine[i] }));
  const bad = results.filter((r) => !AGREEMENTS.has(r.verdict));

  const byVerdict = {};
  const byShape = {};
  for (const r of results) {
    byVerdict[r.verdict] = (byVerdict[r.verdict] ?? 0) + 1;
    const s = (byShape[r.shape] ??= { run: 0, agree: 0 });
    s.run++;
    if (AGREEMENTS.has(r.verdict)) s.agree++;
  }
  const agreements = results.length - bad.length;
  console.log(`differential: seed ${o.seed}, ${o.mode}, ${results.length} queries: ${agreements} agree (${byVerdict['both-error'] ?? 0} of them refused by both), ${bad.length} diverge`);
  console.log(`  by verdict: ${JSON.stringify(byVerdict)}`);
  console.log(`  by shape (run/agree): ${Object.entries(byShape).map(([k, v]) => `${k} ${v.run}/${v.agree}`).join(', ')}`);
  console.log(`  load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  for (const r of bad) console.log(`  diverging [${r.verdict}] query ${r.i} (${r.shape}): ${r.sql}`);

  if (o.record) {
    const previous = (() => {
      try {
        return JSON.parse(readFileSync(o.record, 'utf8'));
      } catch {
        return undefined;
      }
    })();
    const golden = {
      about: 'Generated queries with the answers of a real Apache Flink (scripts/differential.mjs --record); replayed by test/differential/replay.test.ts.',
      flinkVersion: process.env.FLINK_VERSION ?? 'default of scripts/flink-reference.sh',
      seed: o.seed,
      mode: o.mode,
      queries: results.map((r) => ({ sql: r.sql, ordered: ordered(r.q), flink: r.flink.error !== undefined ? { error: r.flink.error } : { rows: r.flink.rows } })),
      known: previous?.known ?? {},
    };
    writeFileSync(o.record, JSON.stringify(golden, null, 1) + '\n');
    console.error(`differential: recorded ${results.length} queries into ${o.record}`);
  }

  // Shrink: each round tries every one-step-smaller query of every divergence, Sluice first, then all on Flink at once.
  let round = 0;
  const engines = {
    sluice: async (list) => {
      const out = [];
      for (const sql of list) out.push(await runner.run(sql));
      return out;
    },
    flink: async (list) => runOnFlink(ddl, list, dir, `shrink-${++round}`, o.mode),
  };
  const current = await shrinkAll(bad, engines, { rounds: o.rounds, maxCandidates: MAX_CANDIDATES, mode: o.mode, log: (m) => console.error(`differential: ${m}`) });
  await runner.close();

  const seenMin = new Set();
  for (const c of current) {
    if (seenMin.has(c.min.sql)) continue;
    seenMin.add(c.min.sql);
    console.log(`\n[${c.verdict}] query ${c.i} (${c.shape}), minimised:\n  ${c.min.sql}`);
    if (c.verdict === 'rows') {
      const m = (a) => (o.mode === 'streaming' ? materialize(a) : a);
      const d = rowDiff(m(c.min.flink).rows, m(c.min.sluice).rows);
      console.log(`  only Flink:  ${d.onlyFlink.slice(0, 4).join(' | ')}\n  only Sluice: ${d.onlySluice.slice(0, 4).join(' | ')}`);
    } else console.log(`  Flink: ${c.min.flink.error ?? `${c.min.flink.rows.length} rows`}\n  Sluice: ${c.min.sluice.error ?? `${c.min.sluice.rows.length} rows`}`);
  }
  if (o.report) {
    const strip = (x) => ({ sql: x.sql, flink: x.flink, sluice: x.sluice });
    writeFileSync(o.report, JSON.stringify({ seed: o.seed, count: o.count, mode: o.mode, byVerdict, byShape, divergences: current.map((c) => ({ i: c.i, verdict: c.verdict, shape: c.shape, original: strip(c), minimised: strip(c.min) })) }, null, 1));
  }
  rmSync(dir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
