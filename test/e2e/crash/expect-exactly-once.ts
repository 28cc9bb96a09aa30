// The verdict every crash trial asserts: a non-empty reference, at least the kills asked for, and the
// committed output equal to the failure-free run's (nothing extra or retracted after a kill, nothing lost).
import { expect } from 'vitest';
import type { TrialResult } from './harness.js';

export function expectExactlyOnce(r: TrialResult, minKills: number): void {
  const log = r.log.join('\n');
  if (process.env.CRASH_DEBUG) console.log(log);
  expect(r.referenceRows, log).toBeGreaterThan(0);
  expect(r.kills, log).toBeGreaterThanOrEqual(minKills);
  expect({ extraAfterKill: r.extraAfterKill.slice(0, 10), negative: r.negative.slice(0, 10) }, log).toEqual({ extraAfterKill: [], negative: [] });
  expect({ extra: r.extra.slice(0, 10), missing: r.missing.slice(0, 10) }, log).toEqual({ extra: [], missing: [] });
}
