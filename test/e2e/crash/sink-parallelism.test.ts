// A resume whose chaining changed (issue #12), through the built CLI: the sink has its own
// 'sink.parallelism' (2), so at 'parallelism.default' 2 it is chained to the aggregate before it and at 3
// it is a task of its own. Each job runs at 2, is SIGKILLed after a checkpoint, resumes at 3 (chain split),
// is killed after a checkpoint of that run and resumes at 2 (chained again) until it ends. The aggregate's
// state, the sink's writer state and its pending committables must follow their operators, as Flink's
// state follows operator ids: the committed result equals a failure-free run's exactly (COUNT and SUM,
// which show a row lost or counted twice). See harness.ts.
//
// CRASH_SEED replays a run, CRASH_DEBUG=1 prints the logs and keeps the directories.
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { appendOutput, type CrashJob, cliAvailable, limiter, materializedOutput, rescaleTrial } from './harness.js';
import { expectExactlyOnce } from './expect-exactly-once.js';
import { rescaleJobs } from './jobs.js';

const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
const limit = limiter(Number(process.env.CRASH_CONCURRENCY ?? '2'));
const SINK_PARALLELISM = 2;

/**
 * The job writing to the filesystem sink with an explicit 'sink.parallelism'. An updating job's sink
 * declares its group key as primary key: at 'parallelism.default' 3 its input is hashed by it into the 2
 * sink subtasks (without a key the plan is refused, as Flink refuses it).
 */
function withSinkParallelism(job: CrashJob, primaryKey?: string): CrashJob {
  const format = job.output === 'append' ? 'csv' : 'debezium-json';
  const key = primaryKey === undefined ? '' : `, PRIMARY KEY (${primaryKey}) NOT ENFORCED`;
  return {
    ...job,
    name: `${job.name}-sink-p${SINK_PARALLELISM}`,
    output: {
      ddl: (dir, columns) =>
        `CREATE TEMPORARY TABLE crash_sink (${columns}${key}) WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'out')}', 'format' = '${format}', 'sink.parallelism' = '${SINK_PARALLELISM}')`,
      read: async (dir) => (format === 'csv' ? appendOutput(join(dir, 'out')) : materializedOutput(join(dir, 'out'))),
    },
  };
}

const byName = (name: string): CrashJob => {
  const j = rescaleJobs.find((x) => x.name === name);
  if (j === undefined) throw new Error(`no crash job '${name}'`);
  return j;
};

const jobs = [withSinkParallelism(byName('group-by'), 'k'), withSinkParallelism(byName('tumble-keyed'))];

describe.skipIf(!cliAvailable('sink parallelism trials'))('a sink with its own parallelism, chained in one run and not in the next, commits what a failure-free run commits', () => {
  jobs.forEach((job, i) => {
    it.concurrent(`${job.name}: parallelism.default 2 (chained) -> 3 (not chained) -> 2`, async () => {
      const r = await limit(() => rescaleTrial(job, { parallelisms: [2, 3, 2], seed: SEED + i, keepDirs: Boolean(process.env.CRASH_DEBUG) }));
      expectExactlyOnce(r, 2);
    }, 600_000);
  });
});
