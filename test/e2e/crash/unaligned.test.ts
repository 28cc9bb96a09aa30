// Unaligned checkpoints (`execution.checkpointing.unaligned.enabled`, issue #19 item 3) restore exactly: the crash
// trials of harness.ts at parallelism 2 on worker threads, so every keyed task reads two channels and a join four,
// through the built CLI (SIGKILL at seeded moments, --resume until a run ends by itself, committed output compared
// with a failure-free run's exactly). The first kill of a copy waits until the newest checkpoint holds rows in
// flight, so the resume processes them again. CRASH_KILLS kills per job (default 2), CRASH_SEED replays a run.
import { describe, it } from 'vitest';
import { cliAvailable, crashTrial, limiter, newestCheckpointHoldsRowsInFlight, rescaleTrial } from './harness.js';
import { expectExactlyOnce } from './expect-exactly-once.js';
import { sequence } from './jobs.js';
import type { CrashJob } from './harness.js';

const KILLS = Number(process.env.CRASH_KILLS ?? '2');
const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
const limit = limiter(Number(process.env.CRASH_CONCURRENCY ?? '2'));

// Unpaced inputs: the jobs of jobs.ts read 1,500 rows a second, which leaves the channels empty when a barrier
// comes, so their checkpoints never hold rows in flight. These read as fast as they can for about two seconds.
const tumbleFast: CrashJob = {
  name: 'tumble-fast',
  // 1.2 M rows: at 300,000 a quiet machine ended the job (in about 0.4 s) before a checkpoint could hold rows in flight.
  sources: sequence('events', { rows: 1_200_000, rowsPerSecond: 1_000_000_000, eventTimeMs: 'id' }),
  sinkColumns: 'k BIGINT, ws TIMESTAMP(3), c BIGINT, s BIGINT',
  query: `SELECT id % 10, window_start, COUNT(*), SUM(id) FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY id % 10, window_start, window_end`,
  output: 'append',
};

const joinFast: CrashJob = {
  name: 'inner-join-fast',
  // Both sides keep coming for the whole run, so the join's four channels rarely deliver a barrier together.
  sources: [sequence('l', { rows: 150_000, rowsPerSecond: 1_000_000_000, column: 'a' }), sequence('r', { rows: 100_000, rowsPerSecond: 1_000_000_000, column: 'b' })].join('\n'),
  sinkColumns: 'a BIGINT, b BIGINT',
  query: 'SELECT a, b FROM l JOIN r ON l.a % 2000 = r.b - 1 WHERE MOD(l.a, 7) = 0',
  output: 'append',
};

const groupByFast: CrashJob = {
  name: 'group-by-fast',
  sources: sequence('numbers', { rows: 300_000, rowsPerSecond: 1_000_000_000 }),
  sinkColumns: 'k BIGINT, c BIGINT, s BIGINT',
  // Mini-batches keep the changelog small: one change per key and batch, not one per row.
  settings: ["SET 'table.exec.mini-batch.enabled' = 'true'", "SET 'table.exec.mini-batch.allow-latency' = '200 ms'", "SET 'table.exec.mini-batch.size' = '5000'"],
  query: 'SELECT id % 100, COUNT(*), SUM(id) FROM numbers GROUP BY id % 100',
  output: 'changelog',
};

const unaligned = (job: CrashJob): CrashJob => ({
  ...job,
  name: `${job.name}-unaligned`,
  settings: [
    ...(job.settings ?? []),
    `SET 'parallelism.default' = '2'`,
    `SET 'execution.worker-threads' = '2'`,
    `SET 'execution.checkpointing.unaligned.enabled' = 'true'`,
  ],
});

/**
 * Checkpoints start aligned and switch to unaligned in a task still aligning 10 ms after they started
 * (`execution.checkpointing.aligned-checkpoint-timeout`): under this load some switch and some do not.
 */
const switching = (job: CrashJob): CrashJob => {
  const u = unaligned(job);
  return { ...u, name: `${job.name}-aligned-timeout`, settings: [...(u.settings ?? []), `SET 'execution.checkpointing.aligned-checkpoint-timeout' = '10 ms'`] };
};

/** The join over three times the rows: a checkpoint must switch (which load makes rarer) before the job ends. */
const joinLonger: CrashJob = {
  ...joinFast,
  sources: [sequence('l', { rows: 450_000, rowsPerSecond: 1_000_000_000, column: 'a' }), sequence('r', { rows: 300_000, rowsPerSecond: 1_000_000_000, column: 'b' })].join('\n'),
};

describe.skipIf(!cliAvailable('unaligned-checkpoint crash trials'))('jobs with unaligned checkpoints under SIGKILL and --resume commit what a failure-free run commits', () => {
  [...[groupByFast, joinFast, tumbleFast].map(unaligned), switching(joinLonger)].forEach((job, i) => {
    it.concurrent(`${job.name}: ${KILLS} kills, the first after a checkpoint holding rows in flight`, async () => {
      const r = await limit(() =>
        crashTrial(job, { kills: KILLS, seed: SEED + i, keepDirs: Boolean(process.env.CRASH_DEBUG), firstKillWhen: newestCheckpointHoldsRowsInFlight }),
      );
      expectExactlyOnce(r, KILLS);
    }, 600_000);
  });
});

describe.skipIf(!cliAvailable('unaligned-checkpoint rescale trials'))('rows in flight are shared out anew when a job resumes at another parallelism', () => {
  // The parallelism is the trial's (2, then 3, then 1); each kill waits for a checkpoint of the run holding rows in flight.
  const job: CrashJob = {
    ...groupByFast,
    name: 'group-by-fast-unaligned-rescale',
    // Long enough that the runs at 2 and at 3 each take checkpoints holding rows in flight before they end.
    sources: sequence('numbers', { rows: 1_500_000, rowsPerSecond: 1_000_000_000 }),
    settings: [...(groupByFast.settings ?? []), `SET 'execution.worker-threads' = 'auto'`, `SET 'execution.checkpointing.unaligned.enabled' = 'true'`],
  };
  it(`${job.name}: 2 -> 3 -> 1, each kill after a checkpoint holding rows in flight`, async () => {
    const r = await limit(() => rescaleTrial(job, { parallelisms: [2, 3, 1], seed: SEED + 7, keepDirs: Boolean(process.env.CRASH_DEBUG), killWhen: newestCheckpointHoldsRowsInFlight }));
    expectExactlyOnce(r, 2);
  }, 600_000);
});
