// The golden files of test/differential/goldens and how one is replayed on a Sluice session: shared by the replay
// at the planner's parallelism (replay.test.ts) and at parallelism 2 on worker threads (replay-parallel.test.ts).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TableEnvironment } from '../../src/api/table-environment.js';
import { rowKindShortString } from '../../src/types/row-kind.js';
import { formatValueJava } from '../../src/types/values/format-value.js';
// Plain ESM modules shared with scripts/differential.mjs.
import { runOnSluice, verdictIn } from './compare.mjs';
import { tableDdl, writeTables } from './tables.mjs';

// Generated queries with the answers a real Apache Flink gave (recorded by `npm run diff -- --record ...`): Sluice
// must give the same answers, with no Flink here. `known` lists, by query index, divergences not fixed yet and why;
// those must still diverge (a fix shows up as a failure here, so that the list is kept honest).
export interface Golden {
  readonly flinkVersion: string;
  readonly seed: number;
  /** The runtime mode both engines ran in (batch when absent); streaming answers compare as materialized changelogs. */
  readonly mode?: 'batch' | 'streaming';
  readonly queries: readonly { readonly sql: string; readonly ordered: boolean; readonly flink: { rows?: string[]; error?: string } }[];
  readonly known: Readonly<Record<string, string>>;
}

const goldenDir = new URL('./goldens/', import.meta.url);

/** Every golden file, by name. */
export const goldens: readonly [string, Golden][] = readdirSync(goldenDir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => [f, JSON.parse(readFileSync(new URL(f, goldenDir), 'utf8')) as Golden]);

/**
 * Replays `golden` on `env`: the queries that diverge from Flink's answers without being listed as known, and the
 * known ones that now agree.
 */
export async function replayGolden(env: TableEnvironment, golden: Golden): Promise<{ diverging: string[]; fixed: string[] }> {
  const diverging: string[] = [];
  const fixed: string[] = [];
  const mode = golden.mode ?? 'batch';
  for (const [i, q] of golden.queries.entries()) {
    const mine = await runOnSluice(env, q.sql, { formatValueJava, rowKindShortString });
    const v = verdictIn(mode, q.flink, mine, q.ordered, q.sql);
    const agrees = v === 'agree' || v === 'both-error';
    const known = golden.known[String(i)];
    if (known === undefined && !agrees) diverging.push(`#${i} [${v}] ${q.sql}\n  flink: ${JSON.stringify(q.flink).slice(0, 300)}\n  sluice: ${JSON.stringify(mine).slice(0, 300)}`);
    if (known !== undefined && agrees) fixed.push(`#${i} now agrees (listed as known: ${known})`);
  }
  return { diverging, fixed };
}

/**
 * Sessions over the generated tables, one per runtime mode, created with `config` on first use: `open` writes the
 * tables (call it before any test), `close` ends the sessions and removes the tables.
 */
export function goldenSessions(config: Readonly<Record<string, string>>) {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-diff-replay-'));
  const envs = new Map<string, TableEnvironment>();
  return {
    open(): void {
      writeTables(join(dir, 'data'));
    },
    async sessionFor(mode: 'batch' | 'streaming'): Promise<TableEnvironment> {
      let env = envs.get(mode);
      if (env === undefined) {
        env = TableEnvironment.create({ mode, discoverPackages: false, config: { 'table.local-time-zone': 'UTC', ...config } });
        for (const d of tableDdl(join(dir, 'data')) as string[]) await env.executeSql(d);
        envs.set(mode, env);
      }
      return env;
    },
    async close(): Promise<void> {
      for (const env of envs.values()) await env.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
