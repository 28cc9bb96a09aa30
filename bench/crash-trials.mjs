// Crash trials at scale (issue #12 item 6): every stateful-operator job of test/e2e/crash/jobs.ts is
// SIGKILLed N times in all (default 100) through the built CLI, resumed with --resume each time, and its
// committed output compared with a failure-free run. Prints per operator: trials (fresh job copies), kills,
// extra rows (duplicates or wrong values), missing rows (losses or wrong values), the seed.
// With --rescale, the keyed-operator jobs of the rescale trials instead: each copy runs at parallelism 2,
// is SIGKILLed after a checkpoint, resumed at 3, killed after a checkpoint of that run, resumed at 1 until
// it ends (two kills per copy; --parallelisms 2,3,1 changes the sequence), so N kills are N/2 copies.
// Run after `npm run build`:
//   node bench/crash-trials.mjs [--kills N] [--only group-by,tumble] [--seed S] [--concurrency C] [--rescale]
// Env: CRASH_KILLS (= --kills), CRASH_SEED, CRASH_CONCURRENCY, CRASH_DEBUG=1 (print each trial's log).
// Exits non-zero when some operator lost or duplicated rows, or a run failed.
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}
const kills = Number(arg('kills', process.env.CRASH_KILLS ?? '100'));
const seed = Number(arg('seed', process.env.CRASH_SEED ?? String(Date.now() % 1_000_000)));
const concurrency = Number(arg('concurrency', process.env.CRASH_CONCURRENCY ?? '2'));
const only = arg('only', '')?.split(',').filter((s) => s !== '') ?? [];
const rescale = process.argv.includes('--rescale');
const parallelisms = arg('parallelisms', '2,3,1').split(',').map(Number);

// The jobs and the harness are TypeScript test helpers: bundle them for this plain node script.
const out = mkdtempSync(join(tmpdir(), 'sluice-crash-bench-'));
const root = fileURLToPath(new URL('..', import.meta.url));
await build({
  entryPoints: [join(root, 'test/e2e/crash/bench-entry.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  outfile: join(out, 'crash.mjs'),
  logLevel: 'error',
  define: { 'import.meta.url': JSON.stringify(pathToFileURL(join(root, 'test/e2e/crash/harness.ts')).href) },
});
const { allJobs, rescaleJobs, crashTrial, rescaleTrial, limiter } = await import(pathToFileURL(join(out, 'crash.mjs')).href);
rmSync(out, { recursive: true, force: true });

const jobs = (rescale ? rescaleJobs : allJobs).filter((j) => only.length === 0 || only.includes(j.name));
const killsPerCopy = parallelisms.length - 1;
/** One operator's trials: `kills` kills in all, in copies of `killsPerCopy` with --rescale. */
const trial = (job, s) =>
  rescale ? rescaleTrial(job, { parallelisms, copies: Math.max(1, Math.ceil(kills / killsPerCopy)), seed: s }) : crashTrial(job, { kills, seed: s });
console.log(
  `crash trials${rescale ? ` at parallelism ${parallelisms.join(' -> ')}` : ''}: ${kills} kills per operator, seed ${seed}, ${jobs.length} operators, ${concurrency} at a time`,
);
const limit = limiter(concurrency);
const started = Date.now();
const pad = (s, n) => String(s).padEnd(n);
let bad = 0;
/** One line per operator, printed as soon as its trials are done. */
function report(r) {
  if (r.error) {
    bad++;
    console.log(`${pad(r.job, 20)}ERROR (seed ${r.seed}): ${r.error}`);
    return;
  }
  const wrong = r.extra.length + r.missing.length + r.extraAfterKill.length + r.negative.length;
  if (wrong > 0) bad++;
  console.log(
    `${pad(r.job, 20)}${pad(r.rounds, 8)}${pad(r.kills, 7)}${pad(r.extra.length, 8)}${pad(r.missing.length, 9)}${pad(r.extraAfterKill.length, 9)}${pad(r.seed, 9)}${(r.ms / 1000).toFixed(0)} s${wrong > 0 ? `   e.g. extra ${r.extra[0] ?? '-'} / missing ${r.missing[0] ?? '-'}` : ''}`,
  );
}
console.log(`\n${pad('operator', 20)}${pad('trials', 8)}${pad('kills', 7)}${pad('extra', 8)}${pad('missing', 9)}${pad('bad-mid', 9)}${pad('seed', 9)}time`);
await Promise.all(
  jobs.map((job, i) =>
    limit(async () => {
      const t0 = Date.now();
      try {
        const r = await trial(job, seed + i);
        if (process.env.CRASH_DEBUG) console.log(r.log.join('\n'));
        report({ ...r, ms: Date.now() - t0 });
      } catch (e) {
        report({ job: job.name, seed: seed + i, error: String(e instanceof Error ? e.message : e).split('\n').slice(-14).join('\n'), ms: Date.now() - t0 });
      }
    }),
  ),
);
console.log(`\n${jobs.length - bad}/${jobs.length} operators exactly once; ${((Date.now() - started) / 1000).toFixed(0)} s in all.`);
console.log('extra: rows committed more often than in the failure-free run (duplicates, wrong values); missing: the reverse;');
console.log('bad-mid: append-only jobs, rows committed after some kill that the failure-free result does not hold.');
process.exit(bad > 0 ? 1 : 0);
