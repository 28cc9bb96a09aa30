// The crash trials of harness.ts with keyed state in the on-disk backend, on both of its stores
// (`state.backend.type` = 'lmdb' and 'rocksdb'):
// SIGKILL at seeded moments after a checkpoint exists, --resume until a run ends by itself, committed
// output compared exactly with a failure-free run's, at parallelism 2 so state is split by key group.
// The cache is the smallest (1,024 values per operator), so a job with more keys than that reads and
// writes through the store between checkpoints. CRASH_KILLS kills per job (default 2), CRASH_SEED
// replays a run.
import { describe, it } from 'vitest';
import { cliAvailable, crashTrial, incrementalChainAtLeast, limiter } from './harness.js';
import { expectExactlyOnce } from './expect-exactly-once.js';
import { groupBy, groupByRetracting, innerJoin, sequence } from './jobs.js';
import type { CrashJob } from './harness.js';

const KILLS = Number(process.env.CRASH_KILLS ?? '2');
const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
const limit = limiter(Number(process.env.CRASH_CONCURRENCY ?? '2'));

/** 3,000 groups: more than the cache holds. COUNT and SUM show a row counted twice or lost. */
const groupByManyKeys: CrashJob = {
  name: 'group-by-many-keys',
  sources: sequence('numbers', { rows: 6000, rowsPerSecond: 2500 }),
  sinkColumns: 'k BIGINT, c BIGINT, s BIGINT',
  query: 'SELECT id % 3000, COUNT(*), SUM(id) FROM numbers GROUP BY id % 3000',
  output: 'changelog',
};

const onStore = (store: 'lmdb' | 'rocksdb') => (job: CrashJob): CrashJob => ({
  ...job,
  name: `${job.name}-on-${store}`,
  settings: [
    ...(job.settings ?? []),
    `SET 'state.backend.type' = '${store}'`,
    `SET 'state.backend.lmdb.memory.cache-size' = '1 kb'`,
    `SET 'parallelism.default' = '2'`,
  ],
});

const jobs = [groupByManyKeys, groupBy, groupByRetracting, innerJoin];
describe.skipIf(!cliAvailable('crash trials on the on-disk state backend'))('jobs on the on-disk state backend under SIGKILL and --resume commit what a failure-free run commits', () => {
  [...jobs.map(onStore('lmdb')), ...jobs.map(onStore('rocksdb'))].forEach((job, i) => {
    it.concurrent(`${job.name}: ${KILLS} kills`, async () => {
      const r = await limit(() => crashTrial(job, { kills: KILLS, seed: SEED + i, keepDirs: Boolean(process.env.CRASH_DEBUG) }));
      expectExactlyOnce(r, KILLS);
    }, 600_000);
  });
});

/**
 * 3,000 groups updated five times each over about 6 s: with a checkpoint every 200 ms, each delta holds the
 * groups one interval touched, and the chain grows over several checkpoints before every 8th is full again.
 */
const groupByLongerIncremental: CrashJob = {
  name: 'group-by-3000-updated',
  sources: sequence('numbers', { rows: 15000, rowsPerSecond: 2500 }),
  sinkColumns: 'k BIGINT, c BIGINT, s BIGINT',
  query: 'SELECT id % 3000, COUNT(*), SUM(id) FROM numbers GROUP BY id % 3000',
  output: 'changelog',
};

/**
 * Groups emptied and filled again, over and over: each of the two inner groups' count modulo 8 cycles, so
 * at any moment six of the eight outer groups are empty (their state removed), each filled again a few rows
 * later. A delta that lost a removal would bring a removed group's old accumulator back on restore, and the
 * refilled group's COUNT and SUM show it.
 */
const groupByCycling: CrashJob = {
  name: 'group-by-cycling',
  sources: sequence('numbers', { rows: 6000, rowsPerSecond: 2000 }),
  sinkColumns: 'c BIGINT, n BIGINT, s BIGINT',
  query: 'SELECT c, COUNT(*), SUM(k) FROM (SELECT id % 2 AS k, COUNT(*) % 8 AS c FROM numbers GROUP BY id % 2) GROUP BY c',
  output: 'changelog',
};

const incremental = (job: CrashJob): CrashJob => ({
  ...job,
  name: `${job.name}-incremental`,
  settings: [...(job.settings ?? []), `SET 'state.backend.incremental' = 'true'`],
});

// Incremental checkpoints: the first kill of a copy waits until a checkpoint building on two earlier ones is
// complete, so its resume restores a base and deltas merged (a kill before the first checkpoint proves
// nothing); later kills land anywhere, mostly after the resumed run's own deltas. The cycling job's deltas
// carry removed keys that come back.
const incrementalJobs = [groupByLongerIncremental, groupByCycling];
describe.skipIf(!cliAvailable('incremental crash trials on the on-disk state backend'))('jobs with incremental checkpoints under SIGKILL and --resume commit what a failure-free run commits', () => {
  [...incrementalJobs.map(onStore('lmdb')), ...incrementalJobs.map(onStore('rocksdb'))].map(incremental).forEach((job, i) => {
    it.concurrent(`${job.name}: ${KILLS} kills after a chain of deltas`, async () => {
      const r = await limit(() =>
        crashTrial(job, { kills: KILLS, seed: SEED + 100 + i, keepDirs: Boolean(process.env.CRASH_DEBUG), firstKillWhen: incrementalChainAtLeast(2) }),
      );
      expectExactlyOnce(r, KILLS);
    }, 600_000);
  });
});

/**
 * On worker threads: an on-disk backend's snapshots are spilled to files in the worker and acknowledged to
 * the main thread by path, which copies them into the checkpoint (spilled-snapshot.ts); incremental, so
 * deltas cross threads too.
 */
const onWorkers = (job: CrashJob): CrashJob => ({
  ...job,
  name: `${job.name}-on-workers`,
  settings: [...(job.settings ?? []), `SET 'execution.worker-threads' = '2'`],
});
describe.skipIf(!cliAvailable('crash trials of spilled snapshots on worker threads'))('an on-disk backend on worker threads under SIGKILL and --resume commits what a failure-free run commits', () => {
  [groupByManyKeys].map(onStore('rocksdb')).map(incremental).map(onWorkers).forEach((job, i) => {
    it.concurrent(`${job.name}: ${KILLS} kills`, async () => {
      const r = await limit(() => crashTrial(job, { kills: KILLS, seed: SEED + 200 + i, keepDirs: Boolean(process.env.CRASH_DEBUG) }));
      expectExactlyOnce(r, KILLS);
    }, 600_000);
  });
});
