import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Golden, goldenSessions, goldens, replayGolden } from './golden-replay.js';

const sessions = goldenSessions({});
beforeAll(() => sessions.open());
afterAll(() => sessions.close());

describe('generated queries answer as a real Flink did (test/differential/goldens)', () => {
  it.each(goldens)('%s', async (_file, golden: Golden) => {
    const { diverging, fixed } = await replayGolden(await sessions.sessionFor(golden.mode ?? 'batch'), golden);
    expect(diverging).toEqual([]);
    expect(fixed).toEqual([]);
  }, 120_000);
});
