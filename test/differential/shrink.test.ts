import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';
import { rowKindShortString } from '../../src/types/row-kind.js';
import { formatValueJava } from '../../src/types/values/format-value.js';
// Plain ESM modules shared with scripts/differential.mjs.
import { runOnSluice, verdict } from './compare.mjs';
import { generate, ordered, render, shrinkCandidates } from './generator.mjs';
import { shrinkAll } from './shrink.mjs';
import { tableDdl, writeTables } from './tables.mjs';

// The shrinker on a divergence injected on purpose: the "reference" is Sluice as it is, the engine under test is
// Sluice with ABS broken into its negation (the query text rewritten before it runs). A large generated query that shows
// the bug must shrink to a small one that still shows it, and that no one-step-smaller query shows.
const dir = mkdtempSync(join(tmpdir(), 'sluice-diff-shrink-'));
let env: TableEnvironment;
const sluice = { formatValueJava, rowKindShortString };
type Answer = { rows?: string[]; error?: string };
const run = async (sqls: readonly string[]): Promise<Answer[]> => {
  const out: Answer[] = [];
  for (const sql of sqls) out.push((await runOnSluice(env, sql, sluice)) as Answer);
  return out;
};
const broken = (sql: string): string => sql.replace(/\bABS\(/g, '-1 * ABS(');
const engines = { flink: run, sluice: (sqls: readonly string[]) => run(sqls.map(broken)) };

beforeAll(async () => {
  writeTables(join(dir, 'data'));
  env = TableEnvironment.create({ mode: 'batch', discoverPackages: false, config: { 'table.local-time-zone': 'UTC' } });
  for (const d of tableDdl(join(dir, 'data')) as string[]) await env.executeSql(d);
});

afterAll(async () => {
  await env.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('shrinkAll', () => {
  it('shrinks an injected divergence to a query no smaller step still shows', async () => {
    // The first large query of seed 5 that the broken ABS changes the answer of.
    let found: { q: { where?: unknown };  sql: string; verdict: string; flink: Answer; sluice: Answer } | undefined;
    for (const q of generate(5, 400)) {
      const sql = render(q);
      if (!sql.includes('ABS(') || sql.length < 250) continue;
      const [flink] = await engines.flink([sql]);
      const [mine] = await engines.sluice([sql]);
      const v = verdict(flink, mine, ordered(q));
      if (v === 'rows') {
        found = { q, sql, verdict: v, flink, sluice: mine };
        break;
      }
    }
    expect(found).toBeDefined();
    if (found === undefined) return;

    const [shrunk] = await shrinkAll([found], engines, { rounds: 30, maxCandidates: 1000 });
    const min = shrunk.min;
    expect(min.sql.length).toBeLessThan(found.sql.length * 0.7);
    expect(min.q.where).toBeUndefined();
    expect(min.sql).toContain('ABS(');
    // It still diverges, as the shrinker recorded it ...
    const [flink] = await engines.flink([min.sql]);
    const [mine] = await engines.sluice([min.sql]);
    expect(verdict(flink, mine, ordered(min.q))).toBe('rows');
    // ... and it is a fixpoint: no one-step-smaller candidate diverges.
    const cands = shrinkCandidates(min.q).map(render).filter((s: string) => s.length < min.sql.length);
    const fl = await engines.flink(cands);
    const sl = await engines.sluice(cands);
    expect(cands.filter((_s: string, i: number) => verdict(fl[i], sl[i], ordered(min.q)) === 'rows')).toEqual([]);
  }, 120_000);
});
