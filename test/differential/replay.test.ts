import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';
import { rowKindShortString } from '../../src/types/row-kind.js';
import { formatValueJava } from '../../src/types/values/format-value.js';
// Plain ESM modules shared with scripts/differential.mjs.
import { runOnSluice, verdictIn } from './compare.mjs';
import { tableDdl, writeTables } from './tables.mjs';

// Generated queries with the answers a real Apache Flink gave (recorded by `npm run diff -- --record ...`): Sluice
// must give the same answers, with no Flink here. `known` lists, by query index, divergences not fixed yet and why;
// those must still diverge (a fix shows up as a failure here, so that the list is kept honest).
interface Golden {
  readonly flinkVersion: string;
  readonly seed: number;
  /** The runtime mode both engines ran in (batch when absent); streaming answers compare as materialized changelogs. */
  readonly mode?: 'batch' | 'streaming';
  readonly queries: readonly { readonly sql: string; readonly ordered: boolean; readonly flink: { rows?: string[]; error?: string } }[];
  readonly known: Readonly<Record<string, string>>;
}

const goldenDir = new URL('./goldens/', import.meta.url);
const goldens: readonly [string, Golden][] = readdirSync(goldenDir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => [f, JSON.parse(readFileSync(new URL(f, goldenDir), 'utf8')) as Golden]);
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
  it.each(goldens)('%s', async (_file, golden) => {
    const diverging: string[] = [];
    const fixed: string[] = [];
    const mode = golden.mode ?? 'batch';
    const env = await sessionFor(mode);
    for (const [i, q] of golden.queries.entries()) {
      const mine = await runOnSluice(env, q.sql, { formatValueJava, rowKindShortString });
      const v = verdictIn(mode, q.flink, mine, q.ordered, q.sql);
      const agrees = v === 'agree' || v === 'both-error';
      const known = golden.known[String(i)];
      if (known === undefined && !agrees) diverging.push(`#${i} [${v}] ${q.sql}\n  flink: ${JSON.stringify(q.flink).slice(0, 300)}\n  sluice: ${JSON.stringify(mine).slice(0, 300)}`);
      if (known !== undefined && agrees) fixed.push(`#${i} now agrees (listed as known: ${known})`);
    }
    expect(diverging).toEqual([]);
    expect(fixed).toEqual([]);
  }, 120_000);
});
