// A two-phase window aggregate whose phases both run at parallelism 1 (one thread: subtask 0 of every task shares
// slot 0) runs as one phase: the global phase's vertex accumulates the input rows by slice itself, with no local
// operator before the exchange. EXPLAIN keeps Flink's two phases; the rows are those of the two-phase plan at
// parallelism 2 and of the one-phase plan Flink builds with ONE_PHASE, for HOP, CUMULATE and TUMBLE with and without
// keys. Its checkpoints taken over into the two-phase plan at another parallelism: test/e2e/crash/rescale.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';
import type { JobGraph } from '../../../src/runtime/job-graph.js';
import { parseStatement } from '../../../src/sql/parse.js';

let env: TableEnvironment | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

// 3,000 rows, one every 7 ms of event time, ids scrambled over 13 keys; v varies so SUM and MAX tell slices apart.
const EVENTS = `CREATE TEMPORARY TABLE ev (id INT, k AS MOD(id * 7, 13), v AS MOD(id * 31, 101) - 20, ts AS TO_TIMESTAMP_LTZ(id * 7, 3),
  WATERMARK FOR ts AS ts - INTERVAL '50' MILLISECOND) WITH ('connector' = 'datagen', 'number-of-rows' = '3000',
  'rows-per-second' = '100000000', 'fields.id.kind' = 'sequence', 'fields.id.start' = '0', 'fields.id.end' = '2999')`;

const HOP = "TABLE(HOP(TABLE ev, DESCRIPTOR(ts), INTERVAL '1' SECOND, INTERVAL '3' SECOND))";
const QUERIES = {
  'HOP by key': `SELECT k, window_start, window_end, COUNT(*), SUM(v), MAX(v), MIN(id) FROM ${HOP} GROUP BY k, window_start, window_end`,
  'HOP without keys': `SELECT window_start, window_end, COUNT(*), SUM(v) FROM ${HOP} GROUP BY window_start, window_end`,
  'CUMULATE by key': `SELECT k, window_end, COUNT(*), SUM(v), AVG(v) FROM TABLE(CUMULATE(TABLE ev, DESCRIPTOR(ts), INTERVAL '1' SECOND, INTERVAL '4' SECOND)) GROUP BY k, window_start, window_end`,
  'TUMBLE by key, filtered': `SELECT k, window_start, COUNT(*), SUM(v) FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '2' SECOND)) WHERE v > 0 GROUP BY k, window_start, window_end`,
};

async function session(parallelism: number, strategy = 'AUTO'): Promise<TableEnvironment> {
  const e = TableEnvironment.create({
    mode: 'streaming',
    discoverPackages: false,
    config: { 'parallelism.default': String(parallelism), 'table.optimizer.agg-phase-strategy': strategy, 'execution.worker-threads': 'off' },
  });
  await e.executeSql(EVENTS);
  return e;
}

async function rows(e: TableEnvironment, sql: string): Promise<string[]> {
  const out: string[] = [];
  for await (const r of (await e.executeSql(sql)).collect()) out.push(`${r.kind} ${r.fields.map(String).join(' ')}`);
  return out.sort();
}

async function jobGraph(e: TableEnvironment, sql: string): Promise<JobGraph> {
  const stmt = parseStatement(sql);
  if (stmt.kind !== 'query') throw new Error('a query');
  return (await e.planner.planQuery(stmt.query)).toJobGraph({ push: () => undefined, end: () => undefined });
}

const operatorsOf = (g: JobGraph): string[] => g.vertices.flatMap((v) => (v.operators ?? []).map((o) => o.name.split('(')[0]!));

describe('a two-phase window aggregate at parallelism 1', () => {
  it('lowers to the global phase alone behind its exchange; EXPLAIN keeps both phases', async () => {
    env = await session(1);
    const sql = QUERIES['HOP by key'];
    const g = await jobGraph(env, sql);
    expect(operatorsOf(g)).not.toContain('LocalWindowAggregate');
    expect(operatorsOf(g).filter((o) => o === 'GlobalWindowAggregate')).toHaveLength(1);
    expect(g.edges.some((x) => x.partitioner.kind === 'hash')).toBe(true);
    const plan = String((await rows(env, `EXPLAIN ${sql}`))[0]);
    expect(plan).toContain('LocalWindowAggregate');
    expect(plan).toContain('GlobalWindowAggregate');
  });

  it('keeps the local phase at parallelism 2', async () => {
    env = await session(2);
    expect(operatorsOf(await jobGraph(env, QUERIES['HOP by key']))).toContain('LocalWindowAggregate');
  });

  for (const [name, sql] of Object.entries(QUERIES)) {
    it(`${name}: the rows of the two-phase plan at parallelism 2 and of the one-phase plan`, async () => {
      env = await session(1);
      const fused = await rows(env, sql);
      await env.close();
      env = await session(2);
      const twoPhase = await rows(env, sql);
      await env.close();
      env = await session(1, 'ONE_PHASE');
      const onePhase = await rows(env, sql);
      expect(fused.length).toBeGreaterThan(20);
      expect(fused).toEqual(twoPhase);
      expect(fused).toEqual(onePhase);
    });
  }
});
