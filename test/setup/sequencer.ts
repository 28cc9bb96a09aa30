// The order test files start in. With several workers the run ends when the longest queue ends, so the
// long files (crash trials, real-server suites: minutes each, mostly waiting on checkpoints, kills and servers)
// start first, longest first, and the hundreds of short unit files fill the gaps behind them. Vitest's own order
// (cached durations, else file size) puts the crash trials, small files that run for minutes, last on a fresh
// clone, where CI runs: one worker then spent its last three minutes alone on them.
import { relative, sep } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each long file took in a full run (2026-12-02, one worker, load 7-11). Only the order matters: a
 * file missing here (or renamed) runs after these, in Vitest's order, and is still run.
 */
const MEASURED_SECONDS: ReadonlyMap<string, number> = new Map([
  ['test/e2e/crash/rescale.test.ts', 204],
  ['test/e2e/crash/operators.test.ts', 150],
  ['test/integration/flink-gateway/endpoint.test.ts', 92],
  ['test/e2e/crash-trials.test.ts', 86],
  ['test/integration/kafka/cli-exactly-once-kill.test.ts', 86],
  ['test/e2e/crash/state-backend.test.ts', 54],
  ['test/e2e/crash/state-ttl.test.ts', 45],
  ['test/integration/pravega/sql-exactly-once-kill.test.ts', 52],
  ['test/integration/pravega/java-interop.test.ts', 40],
  ['test/integration/pravega-catalog/crash-registry-sink.test.ts', 38],
  ['test/integration/kafka/crash-upsert-group-by.test.ts', 29],
  ['test/e2e/crash/workers.test.ts', 28],
  ['test/integration/kafka/lost-transaction.test.ts', 28],
  ['test/integration/pravega/lost-transaction.test.ts', 27],
  ['test/e2e/cli.test.ts', 24],
  ['test/integration/pravega/secure.test.ts', 23],
  ['test/e2e/crash/sink-parallelism.test.ts', 20],
  ['test/integration/pravega-catalog/java-interop.test.ts', 19],
  ['test/e2e/crash/restart-strategy.test.ts', 19],
  ['test/e2e/cli-signals.test.ts', 18],
  ['test/runtime/workers/worker-threads.test.ts', 18],
  ['test/integration/pravega-catalog/catalog.test.ts', 17],
  ['test/sql/huge-statements.test.ts', 16],
  ['test/differential/replay.test.ts', 16],
  ['test/e2e/examples.test.ts', 16],
  ['test/api/state-backend.test.ts', 14],
  ['test/e2e/cli-error-positions.test.ts', 13],
]);

function measured(spec: TestSpecification): number {
  return MEASURED_SECONDS.get(relative(spec.project.config.root, spec.moduleId).split(sep).join('/')) ?? 0;
}

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rest = await super.sort(files.filter((f) => measured(f) === 0));
    const long = files.filter((f) => measured(f) > 0).sort((a, b) => measured(b) - measured(a));
    // The files sharing a worker's module graph (vitest.config.ts, isolate: false) last and together: a worker
    // keeps its graph only while the next file in the queue shares it, and they are the shortest.
    const shared = (f: TestSpecification): boolean => f.project.config.isolate === false;
    return [...long, ...rest.filter((f) => !shared(f)), ...rest.filter(shared)];
  }
}
