// A resume at another parallelism for every keyed operator (issue #12 items 2 and 6), through the built
// CLI: each job runs at parallelism 2, is SIGKILLed at a seeded random moment after a checkpoint completed,
// resumes at parallelism 3 (its state split over new key groups ranges, its source splits and sink state
// shared out anew), is killed again after a checkpoint of that run, and resumes at parallelism 1 until it
// ends. Its committed output must equal a failure-free run's exactly, as a multiset of rows (the
// materialized table for updating results). See harness.ts.
//
// Window aggregates also go 1 -> 2 -> 1, through the one-phase plan they run at parallelism 1.
//
// CRASH_RESCALE_COPIES copies per operator (default 1), CRASH_SEED replays a run (each operator adds its
// index), CRASH_CONCURRENCY trials at once (default 3), CRASH_ONLY=name,name runs some, CRASH_DEBUG=1
// prints the logs and keeps the directories. bench/crash-trials.mjs --rescale runs many more.
import { describe, it } from 'vitest';
import { cliAvailable, limiter, rescaleTrial } from './harness.js';
import { expectExactlyOnce } from './expect-exactly-once.js';
import { rescaleJobs } from './jobs.js';

const COPIES = Number(process.env.CRASH_RESCALE_COPIES ?? '1');
const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
const ONLY = (process.env.CRASH_ONLY ?? '').split(',').filter((s) => s !== '');
// Three at a time: a trial mostly waits (rate-limited input, kill delays, checkpoints); two used under one core.
const limit = limiter(Number(process.env.CRASH_CONCURRENCY ?? '3'));

describe.skipIf(!cliAvailable('rescale trials'))('keyed operators killed at parallelism 2, resumed at 3, killed, resumed at 1 commit what a failure-free run commits', () => {
  rescaleJobs.forEach((job, i) => {
    it.skipIf(ONLY.length > 0 && !ONLY.includes(job.name)).concurrent(`${job.name}: 2 -> 3 -> 1`, async () => {
      const r = await limit(() => rescaleTrial(job, { parallelisms: [2, 3, 1], copies: COPIES, seed: SEED + i, keepDirs: Boolean(process.env.CRASH_DEBUG) }));
      expectExactlyOnce(r, 2 * COPIES);
    }, 600_000);
  });
});

// At parallelism 1 a two-phase window aggregate runs as one phase (src/planner/lowering/lower-aggregate.ts): what it
// checkpoints must carry on in the two-phase plan at parallelism 2 and come back, COUNT and SUM exact.
const ONE_PHASE_AT_1 = ['hop', 'cumulate-keyed'];
describe.skipIf(!cliAvailable('rescale trials'))('window aggregates killed at parallelism 1 (one phase), resumed at 2 (two phases), killed, resumed at 1', () => {
  rescaleJobs
    .filter((job) => ONE_PHASE_AT_1.includes(job.name))
    .forEach((job, i) => {
      it.skipIf(ONLY.length > 0 && !ONLY.includes(job.name)).concurrent(`${job.name}: 1 -> 2 -> 1`, async () => {
        const r = await limit(() => rescaleTrial(job, { parallelisms: [1, 2, 1], copies: COPIES, seed: SEED + 100 + i, keepDirs: Boolean(process.env.CRASH_DEBUG) }));
        expectExactlyOnce(r, 2 * COPIES);
      }, 600_000);
    });
});
