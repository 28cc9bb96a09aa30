// Checks that batching the reference runner (`-- @tsv-batch`, scripts/differential.mjs --batch K) changes nothing but
// the time: the generated queries of a seed run on Flink twice, K a job and one a job, and every answer must be the
// same: the same error text, or the same rows (in the same order where the query's ORDER BY fixes it; as a multiset
// otherwise, as the verdict compares them: the plan of a multi-query job may hash or union rows in another order). Needs Java and Maven (scripts/flink-reference.sh); no Sluice.
//
//   node scripts/differential-batch-check.mjs [--seed 7] [--count 250] [--batch 40] [--mode batch]
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { flinkScript, materialize, parseFlinkOutput } from '../test/differential/compare.mjs';
import { generate, ordered, render } from '../test/differential/generator.mjs';
import { tableDdl, writeTables } from '../test/differential/tables.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const o = { seed: 7, count: 250, batch: 40, mode: 'batch' };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const key = argv[i].replace(/^--/, '');
  if (!(key in o)) throw new Error(`unknown option ${argv[i]} (--seed --count --batch --mode)`);
  o[key] = key === 'mode' ? argv[++i] : Number(argv[++i]);
}

const dir = mkdtempSync(join(tmpdir(), 'sluice-batch-check-'));
writeTables(join(dir, 'data'));
const ddl = tableDdl(join(dir, 'data'));
const queries = generate(o.seed, o.count);
const sqls = queries.map(render);

/** One runner JVM over the queries, `batch` a job; resolves to its answers and wall time. */
function run(tag, batch) {
  const script = join(dir, `${tag}.sql`);
  writeFileSync(script, flinkScript(ddl, sqls, o.mode, batch));
  const outFile = join(dir, `${tag}.stdout`);
  const fd = openSync(outFile, 'w');
  const t0 = Date.now();
  const child = spawn(join(repo, 'scripts/flink-reference.sh'), ['--shared-cluster', script], { stdio: ['ignore', fd, 'inherit'] });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', () => {
      closeSync(fd);
      const secs = (Date.now() - t0) / 1000;
      const answers = parseFlinkOutput(readFileSync(outFile, 'utf8'));
      console.error(`batch-check: ${tag} (${batch} a job): ${answers.length} answers in ${secs.toFixed(1)} s, ${((answers.length * 60) / secs).toFixed(0)} queries/min, load average ${loadavg()[0].toFixed(1)}`);
      resolve({ answers, secs });
    });
  });
}

// Both JVMs at once: the check is about answers; the timings printed are of two runners sharing the machine.
const [batched, single] = await Promise.all([run('batched', o.batch), run('single', 1)]);
let same = 0;
const differ = [];
for (let i = 0; i < sqls.length; i++) {
  const a = batched.answers[i];
  const b = single.answers[i];
  // Streaming answers compare as the differential harness compares them, materialized: the interleaving of an
  // outer join's retractions depends on which input reaches the join first, which differs from job to job.
  // A streaming ORDER BY sorts by time only: those answers compare as multisets too (verdictIn).
  const streaming = o.mode === 'streaming';
  const key = (x) => {
    const y = streaming ? materialize(x) : x;
    return JSON.stringify(y.error !== undefined || (ordered(queries[i]) && !streaming) ? y : { ...y, rows: [...y.rows].sort() });
  };
  if (a && b && key(a) === key(b)) same++;
  else differ.push({ i, sql: sqls[i], batched: a, single: b });
}
console.log(`batch-check: seed ${o.seed}, ${o.mode}, ${sqls.length} queries, ${o.batch} a job: ${same} identical answers${o.mode === 'streaming' ? ' (materialized)' : ''}, ${differ.length} differ (errors in both: ${single.answers.filter((a) => a.error !== undefined).length})`);
for (const d of differ) console.log(JSON.stringify(d));
rmSync(dir, { recursive: true, force: true });
process.exit(differ.length === 0 ? 0 : 1);
