// The generated queries of test/differential/goldens at parallelism 2, with subtasks on a worker thread (issue #19:
// key tests run at parallelism 1 and 2 with equal results): every query must still answer as a real Flink did at
// parallelism 1, as a set of rows where the order is not part of the answer. Keyed state split by key group,
// exchanges between threads, two-phase aggregates merging partial results and watermarks over two channels all
// take part. A divergence listed as known at parallelism 1 may agree here; it is not checked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Golden, goldenSessions, goldens, replayGolden } from './golden-replay.js';

const sessions = goldenSessions({ 'parallelism.default': '2', 'execution.worker-threads': '2' });
beforeAll(() => sessions.open());
afterAll(() => sessions.close());

/** The streaming goldens, the regressions and one generated batch file: every operator kind the generator writes. */
const CHOSEN = new Set(['streaming-seed301.json', 'streaming-regressions.json', 'regressions.json', 'generated-seed11.json']);

describe('generated queries at parallelism 2 on worker threads answer as a real Flink did', () => {
  it.each(goldens.filter(([f]) => CHOSEN.has(f)))('%s', async (_file, golden: Golden) => {
    const { diverging } = await replayGolden(await sessions.sessionFor(golden.mode ?? 'batch'), golden);
    expect(diverging).toEqual([]);
  }, 300_000);
});
