import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';
import { type Golden, goldens, replayGolden } from './golden-replay.js';
import { tableDdl, writeTables } from './tables.mjs';

const dir = mkdtempSync(join(tmpdir(), 'sluice-diff-replay-'));
const envs = new Map<string, TableEnvironment>();

/** One session per runtime mode over the tables. */
async function sessionFor(mode: 'batch' | 'streaming'): Promise<TableEnvironment> {
  let env = envs.get(mode);
  if (env === undefined) {
    env = TableEnvironment.create({ mode, discoverPackages: false, config: { 'table.local-time-zone': 'UTC' } });
    for (const d of tableDdl(join(dir, 'data')) as string[]) await env.executeSql(d);
    envs.set(mode, env);
  }
  return env;
}

beforeAll(() => {
  writeTables(join(dir, 'data'));
});

afterAll(async () => {
  for (const env of envs.values()) await env.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('generated queries answer as a real Flink did (test/differential/goldens)', () => {
  it.each(goldens)('%s', async (_file, golden: Golden) => {
    const { diverging, fixed } = await replayGolden(await sessionFor(golden.mode ?? 'batch'), golden);
    expect(diverging).toEqual([]);
    expect(fixed).toEqual([]);
  }, 120_000);
});
