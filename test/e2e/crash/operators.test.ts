// Crash trials for every stateful operator (issue #12 item 6), through the built CLI: each job is
// SIGKILLed at seeded random moments (the first kill once a checkpoint is complete, later ones anywhere up
// to past the end of the input), resumed with --resume until a run ends by itself, and its committed
// output must equal a failure-free run's exactly, as a multiset of rows (the materialized table for
// updating results). See harness.ts.
//
// CRASH_KILLS kills per operator (default 3), CRASH_SEED replays a run (each operator adds its index),
// CRASH_CONCURRENCY trials at once (default 3), CRASH_ONLY=name,name runs some, CRASH_DEBUG=1 prints the
// logs and keeps the directories. bench/crash-trials.mjs runs the same jobs with many more kills.
import { describe, it } from 'vitest';
import { cliAvailable, crashTrial, limiter } from './harness.js';
import { expectExactlyOnce } from './expect-exactly-once.js';
import { allJobs } from './jobs.js';

const KILLS = Number(process.env.CRASH_KILLS ?? '3');
const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
const ONLY = (process.env.CRASH_ONLY ?? '').split(',').filter((s) => s !== '');
// Three at a time: a trial mostly waits (rate-limited input, kill delays, checkpoints); two used under one core.
const limit = limiter(Number(process.env.CRASH_CONCURRENCY ?? '3'));

describe.skipIf(!cliAvailable('crash trials'))('stateful operators under SIGKILL and --resume commit what a failure-free run commits', () => {
  allJobs.forEach((job, i) => {
    it.skipIf(ONLY.length > 0 && !ONLY.includes(job.name)).concurrent(`${job.name}: ${KILLS} kills`, async () => {
      const r = await limit(() => crashTrial(job, { kills: KILLS, seed: SEED + i, keepDirs: Boolean(process.env.CRASH_DEBUG) }));
      expectExactlyOnce(r, KILLS);
    }, 600_000);
  });
});
