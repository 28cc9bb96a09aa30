import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';
import { rowKindShortString } from '../../src/types/row-kind.js';
import { formatValueJava } from '../../src/types/values/format-value.js';
// Plain ESM modules shared with scripts/flink-itcase-port.mjs.
import { runOnSluice } from './compare.mjs';
import { itcaseVerdict, specDdl, writeSpecTables } from './flink-itcases.mjs';

// Statements ported from Apache Flink's own SQL integration tests (CalcITCase, AggregateITCase, WindowAggregateITCase,
// JoinITCase, RankITCase, DeduplicateITCase, ...; test/differential/flink-itcases.mjs) with the answers a real Apache
// Flink 2.3.0 gave over the same csv tables (recorded by scripts/flink-itcase-port.mjs --record). Sluice must give
// the same answers, with no Flink here: batch answers compare as multisets (lists under `ordered`), streaming ones as
// materialized changelogs. `known` lists, by statement index, divergences not fixed yet and why; those must still
// diverge (a fix shows up as a failure here, so that the list stays honest).
type Mode = 'batch' | 'streaming';
interface Table {
  readonly columns: readonly (readonly [string, string])[];
  readonly rows: readonly (readonly unknown[])[];
  readonly watermark?: string;
}
interface Golden {
  readonly flinkVersion: string;
  readonly tables: Readonly<Record<string, Table>>;
  readonly queries: readonly {
    readonly source: string;
    readonly mode: Mode;
    readonly tables: readonly string[];
    readonly sql: string;
    readonly ordered: boolean;
    readonly flink: { rows?: string[]; error?: string };
  }[];
  readonly known: Readonly<Record<string, string>>;
}

const golden = JSON.parse(readFileSync(new URL('./goldens-itcases/flink-itcases.json', import.meta.url), 'utf8')) as Golden;
const tables = Object.entries(golden.tables).map(([name, t]) => ({ name, ...t }));
const dir = mkdtempSync(join(tmpdir(), 'sluice-itcase-replay-'));
const envs = new Map<Mode, TableEnvironment>();

/** One session per runtime mode over every table of the golden. */
async function sessionFor(mode: Mode): Promise<TableEnvironment> {
  let env = envs.get(mode);
  if (env === undefined) {
    env = TableEnvironment.create({ mode, discoverPackages: false, config: { 'table.local-time-zone': 'UTC' } });
    for (const d of specDdl(dir, tables) as string[]) await env.executeSql(d);
    envs.set(mode, env);
  }
  return env;
}

beforeAll(() => {
  writeSpecTables(dir, tables);
});

afterAll(async () => {
  for (const env of envs.values()) await env.close();
  rmSync(dir, { recursive: true, force: true });
});

const families = [...new Set(golden.queries.map((q) => `${family(q.source)} ${q.mode}`))].sort();

describe("Flink's SQL integration tests answer as a real Flink did (test/differential/goldens-itcases)", () => {
  it.each(families)('%s', async (fam) => {
    const diverging: string[] = [];
    const fixed: string[] = [];
    for (const [i, q] of golden.queries.entries()) {
      if (`${family(q.source)} ${q.mode}` !== fam) continue;
      const env = await sessionFor(q.mode);
      const mine = await runOnSluice(env, q.sql, { formatValueJava, rowKindShortString });
      const v = itcaseVerdict(q, q.flink, mine);
      const agrees = v === 'agree' || v === 'both-error';
      const known = golden.known[String(i)];
      if (known === undefined && !agrees) diverging.push(`#${i} [${v}] ${q.source}\n  ${q.sql}\n  flink: ${JSON.stringify(q.flink).slice(0, 400)}\n  sluice: ${JSON.stringify(mine).slice(0, 400)}`);
      if (known !== undefined && agrees) fixed.push(`#${i} now agrees (listed as known: ${known})`);
    }
    expect(diverging).toEqual([]);
    expect(fixed).toEqual([]);
  }, 120_000);
});

/** The ITCase family of a source: the test class's file name. */
function family(source: string): string {
  return /\/(\w+?)(?:Base)?\.scala/.exec(source)?.[1] ?? source;
}
