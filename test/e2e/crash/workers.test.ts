// Checkpoints taken with subtasks on worker threads restore exactly (issue #19): the crash trials of
// harness.ts, with `parallelism.default` = 2 and `execution.worker-threads` = 2, through the built CLI
// (SIGKILL at seeded moments, --resume until a run ends by itself, committed output compared with a
// failure-free run's exactly). CRASH_KILLS kills per job (default 2), CRASH_SEED replays a run.
import { describe, it } from 'vitest';
import { cliAvailable, crashTrial, limiter } from './harness.js';
import { expectExactlyOnce } from './expect-exactly-once.js';
import { groupBy, innerJoin, selfJoin, tumble } from './jobs.js';
import type { CrashJob } from './harness.js';

const KILLS = Number(process.env.CRASH_KILLS ?? '2');
const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
const limit = limiter(Number(process.env.CRASH_CONCURRENCY ?? '2'));

const onWorkers = (job: CrashJob): CrashJob => ({
  ...job,
  name: `${job.name}-on-workers`,
  settings: [...(job.settings ?? []), `SET 'parallelism.default' = '2'`, `SET 'execution.worker-threads' = '2'`],
});

describe.skipIf(!cliAvailable('crash trials on worker threads'))('jobs on two worker threads under SIGKILL and --resume commit what a failure-free run commits', () => {
  [groupBy, tumble, innerJoin, selfJoin].map(onWorkers).forEach((job, i) => {
    it.concurrent(`${job.name}: ${KILLS} kills`, async () => {
      const r = await limit(() => crashTrial(job, { kills: KILLS, seed: SEED + i, keepDirs: Boolean(process.env.CRASH_DEBUG) }));
      expectExactlyOnce(r, KILLS);
    }, 600_000);
  });
});
