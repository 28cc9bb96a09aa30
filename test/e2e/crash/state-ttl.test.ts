// The crash trials of harness.ts with a state TTL set (`table.exec.state.ttl`), on both state backends: TTL
// state keeps a write time beside each value and sweeps a few entries on every access, and both must come
// back from a checkpoint exactly. The TTL is an hour, longer than any trial: Flink's TTL counts processing
// time and restores the write times as they were, so a TTL that expired during a trial would make the
// killed run (whose downtime ages the restored state) rightly differ from the failure-free one. Expiry itself
// is tested without kills in test/table-runtime/state-ttl.test.ts and the backends' tests.
// CRASH_KILLS kills per job (default 2), CRASH_SEED replays a run.
import { describe, it } from 'vitest';
import { cliAvailable, crashTrial, limiter } from './harness.js';
import { expectExactlyOnce } from './expect-exactly-once.js';
import { groupBy, innerJoin } from './jobs.js';
import type { CrashJob } from './harness.js';

const KILLS = Number(process.env.CRASH_KILLS ?? '2');
const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
const limit = limiter(Number(process.env.CRASH_CONCURRENCY ?? '2'));

const withTtl = (backend: 'hashmap' | 'lmdb') => (job: CrashJob): CrashJob => ({
  ...job,
  name: `${job.name}-ttl-${backend}`,
  settings: [
    ...(job.settings ?? []),
    `SET 'table.exec.state.ttl' = '1 h'`,
    `SET 'state.backend.type' = '${backend}'`,
    // The smallest lmdb cache, so values and their write times go through the store between checkpoints.
    ...(backend === 'lmdb' ? [`SET 'state.backend.lmdb.memory.cache-size' = '1 kb'`] : []),
    `SET 'parallelism.default' = '2'`,
  ],
});

// The aggregate's and the join's TTL state on the heap, the aggregate's through lmdb (its TTL layout is the backend's own).
const jobs = [...[groupBy, innerJoin].map(withTtl('hashmap')), withTtl('lmdb')(groupBy)];

describe.skipIf(!cliAvailable('crash trials with a state TTL'))('jobs with a state TTL under SIGKILL and --resume commit what a failure-free run commits', () => {
  jobs.forEach((job, i) => {
    it.concurrent(`${job.name}: ${KILLS} kills`, async () => {
      const r = await limit(() => crashTrial(job, { kills: KILLS, seed: SEED + i, keepDirs: Boolean(process.env.CRASH_DEBUG) }));
      expectExactlyOnce(r, KILLS);
    }, 600_000);
  });
});
