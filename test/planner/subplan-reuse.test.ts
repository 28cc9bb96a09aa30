// Sub-plan reuse (Flink's SubplanReuser, `table.optimizer.reuse-sub-plan-enabled` / `reuse-source-enabled`,
// both on by default): identical sub-plans are planned once, so a self-join reads its table once and its rows
// fan out to both join inputs, and EXPLAIN's execution plan prints the shared node once as Flink's
// ExecNodePlanDumper does (test/planner/flink-explain-goldens/join.txt is a real Flink's output).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';
import { planQuery } from '../../src/planner/planner.js';
import type { JobGraph } from '../../src/runtime/job-graph.js';
import { parseStatement } from '../../src/sql/parse.js';
import { DataTypes } from '../../src/types/data-types.js';
import { Row } from '../../src/types/row.js';
import { RowKind } from '../../src/types/row-kind.js';
import { Columns, ResolvedSchema } from '../../src/types/schema.js';
import { testTable, TestContext } from './harness.js';

const envs: TableEnvironment[] = [];
afterEach(async () => {
  for (const e of envs.splice(0)) await e.close();
});

async function session(config: Record<string, string> = {}, mode: 'streaming' | 'batch' = 'streaming'): Promise<TableEnvironment> {
  const env = TableEnvironment.create({ mode, config, discoverPackages: false });
  envs.push(env);
  return env;
}

async function text(env: TableEnvironment, sql: string): Promise<string> {
  const out: string[] = [];
  for await (const row of (await env.executeSql(sql)).collect()) out.push(String(row.fields[0]));
  return out.join('\n');
}

/** The Optimized Execution Plan section of an EXPLAIN. */
function executionPlan(explained: string): string {
  return explained.split('== Optimized Execution Plan ==\n')[1]!.trimEnd();
}

const T = `CREATE TEMPORARY TABLE t (a INT, b BIGINT, c STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '10')`;
const scanT = 'TableSourceScan(table=[[default_catalog, default_database, t]], fields=[a, b, c])';

describe('EXPLAIN with sub-plan reuse', () => {
  it('prints a self-join\'s shared exchange once, as Flink does', async () => {
    const env = await session();
    await env.executeSql(T);
    expect(executionPlan(await text(env, 'EXPLAIN SELECT * FROM t AS l JOIN t AS r ON l.a = r.a'))).toBe(
      [
        'Join(joinType=[InnerJoin], where=[(a = a0)], select=[a, b, c, a0, b0, c0], leftInputSpec=[NoUniqueKey], rightInputSpec=[NoUniqueKey])',
        ':- Exchange(distribution=[hash[a]])(reuse_id=[1])',
        `:  +- ${scanT}`,
        '+- Reused(reference_id=[1])',
      ].join('\n'),
    );
  });

  it('shares only the scan when the two sides are exchanged differently', async () => {
    const env = await session();
    await env.executeSql(T);
    expect(executionPlan(await text(env, 'EXPLAIN SELECT * FROM t AS l JOIN t AS r ON l.a = r.b'))).toBe(
      [
        'Calc(select=[a, b, c, a AS a0, b AS b0, c AS c0])',
        '+- Join(joinType=[InnerJoin], where=[($lkey0 = b)], select=[a, b, c, $lkey0, a, b, c], leftInputSpec=[NoUniqueKey], rightInputSpec=[NoUniqueKey])',
        '   :- Exchange(distribution=[hash[$lkey0]])',
        '   :  +- Calc(select=[a, b, c, CAST(a AS BIGINT) AS $lkey0])',
        `   :     +- ${scanT}(reuse_id=[1])`,
        '   +- Exchange(distribution=[hash[b]])',
        '      +- Reused(reference_id=[1])',
      ].join('\n'),
    );
  });

  it("plans each side on its own with 'table.optimizer.reuse-sub-plan-enabled' = 'false'", async () => {
    const env = await session({ 'table.optimizer.reuse-sub-plan-enabled': 'false' });
    await env.executeSql(T);
    const plan = executionPlan(await text(env, 'EXPLAIN SELECT * FROM t AS l JOIN t AS r ON l.a = r.a'));
    expect(plan).not.toMatch(/reuse_id|Reused/);
    expect(plan.split(scanT)).toHaveLength(3);
  });

  it("shares no scan with 'table.optimizer.reuse-source-enabled' = 'false', but still a Calc over it (Flink's rule)", async () => {
    const env = await session({ 'table.optimizer.reuse-source-enabled': 'false' });
    await env.executeSql(T);
    expect(executionPlan(await text(env, 'EXPLAIN SELECT * FROM t AS l JOIN t AS r ON l.a = r.a'))).not.toMatch(/reuse_id|Reused/);
    const calcs = 'EXPLAIN SELECT * FROM (SELECT a, b + 1 AS x FROM t) AS l JOIN (SELECT a, b + 1 AS x FROM t) AS r ON l.a = r.a';
    expect(executionPlan(await text(env, calcs))).toBe(
      [
        'Join(joinType=[InnerJoin], where=[(a = a0)], select=[a, x, a0, x0], leftInputSpec=[NoUniqueKey], rightInputSpec=[NoUniqueKey])',
        ':- Exchange(distribution=[hash[a]])(reuse_id=[1])',
        ':  +- Calc(select=[a, (b + 1) AS x])',
        `:     +- ${scanT}`,
        '+- Reused(reference_id=[1])',
      ].join('\n'),
    );
  });

  it('prints a scan shared by two INSERTs as a block of its own, then each sink (Flink\'s DAG form)', async () => {
    const env = await session();
    await env.executeSql(T);
    for (const s of ['s1', 's2']) await env.executeSql(`CREATE TEMPORARY TABLE ${s} (a INT) WITH ('connector' = 'blackhole')`);
    const plan = executionPlan(await text(env, 'EXPLAIN STATEMENT SET BEGIN INSERT INTO s1 SELECT a FROM t WHERE a > 2; INSERT INTO s2 SELECT a FROM t WHERE a < 0; END'));
    expect(plan).toBe(
      [
        `${scanT}(reuse_id=[1])`,
        '',
        'Sink(table=[default_catalog.default_database.s1], fields=[a])',
        '+- Calc(select=[a], where=[(a > 2)])',
        '   +- Reused(reference_id=[1])',
        '',
        'Sink(table=[default_catalog.default_database.s2], fields=[a])',
        '+- Calc(select=[a], where=[(a < 0)])',
        '   +- Reused(reference_id=[1])',
      ].join('\n'),
    );
  });
});

describe('the job graph of a self-join', () => {
  const schema = ResolvedSchema.of([Columns.physical('k', DataTypes.INT()), Columns.physical('v', DataTypes.STRING())]);
  const rows = Array.from({ length: 30 }, (_, i) => Row.insert(i % 5, `v${i}`));

  async function graph(config: Record<string, string> = {}): Promise<JobGraph> {
    const ctx = new TestContext('streaming', { 'parallelism.default': '2', ...config }).add('src', testTable(schema, rows));
    const stmt = parseStatement('SELECT l.v, r.v FROM src AS l JOIN src AS r ON l.k = r.k');
    if (stmt.kind !== 'query') throw new Error('not a query');
    return (await planQuery(stmt.query, ctx)).toJobGraph({ push: () => undefined, end: () => undefined });
  }

  it('has one source vertex feeding both inputs of the join', async () => {
    const g = await graph();
    const sources = g.vertices.filter((v) => v.kind === 'source');
    expect(sources).toHaveLength(1);
    const join = g.vertices.find((v) => v.name.startsWith('Join('))!;
    const into = g.edges.filter((e) => e.to === join.id);
    expect(into.map((e) => [e.from, e.inputIndex ?? 0, e.partitioner.kind])).toEqual([
      [sources[0]!.id, 0, 'hash'],
      [sources[0]!.id, 1, 'hash'],
    ]);
  });

  it("has a source vertex per side with 'table.optimizer.reuse-sub-plan-enabled' = 'false'", async () => {
    const g = await graph({ 'table.optimizer.reuse-sub-plan-enabled': 'false' });
    expect(g.vertices.filter((v) => v.kind === 'source')).toHaveLength(2);
  });
});

/**
 * The table a query's changelog materializes to, as sorted row texts (an insert-only result is its rows), and how
 * many checkpoints its job completed.
 */
async function run(env: TableEnvironment, sql: string): Promise<{ rows: string[]; checkpoints: number }> {
  const counts = new Map<string, number>();
  const result = await env.executeSql(sql);
  for await (const r of result.collect()) {
    const text = JSON.stringify(r.fields, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
    counts.set(text, (counts.get(text) ?? 0) + (r.kind === RowKind.INSERT || r.kind === RowKind.UPDATE_AFTER ? 1 : -1));
  }
  const out: string[] = [];
  for (const [text, n] of counts) for (let i = 0; i < n; i++) out.push(text);
  return { rows: out.sort(), checkpoints: result.getJobClient()?.metrics().completedCheckpoints ?? 0 };
}

async function rowsOf(env: TableEnvironment, sql: string): Promise<string[]> {
  return (await run(env, sql)).rows;
}

// A random column: equal on both sides of `l.id = r.id` only if the table was read once.
const RANDOM = (rows: number, rate = 100_000_000): string => `CREATE TEMPORARY TABLE g (id BIGINT, v BIGINT) WITH (
  'connector' = 'datagen', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '${rows}',
  'fields.v.min' = '0', 'fields.v.max' = '1000000000', 'rows-per-second' = '${rate}')`;
const SELF_JOIN = 'SELECT l.id, l.v = r.v AS same FROM g AS l JOIN g AS r ON l.id = r.id';

describe('a self-join at run time', () => {
  it('reads the table once: both sides see the same random values, every row joins once', async () => {
    const env = await session({ 'parallelism.default': '2' });
    await env.executeSql(RANDOM(500));
    const got = await rowsOf(env, SELF_JOIN);
    expect(got).toEqual(Array.from({ length: 500 }, (_, i) => JSON.stringify([`${i + 1}n`, true])).sort());
  });

  it('reads it twice without sub-plan reuse (the sides draw their own random values)', async () => {
    const env = await session({ 'parallelism.default': '2', 'table.optimizer.reuse-sub-plan-enabled': 'false' });
    await env.executeSql(RANDOM(500));
    const got = await rowsOf(env, SELF_JOIN);
    expect(got).toHaveLength(500);
    expect(got.filter((r) => r.endsWith('false]')).length).toBeGreaterThan(400);
  });

  it('feeds both inputs of a UNION ALL of one sub-query, and of an EXCEPT / INTERSECT of it with itself', async () => {
    const env = await session({ 'parallelism.default': '2' });
    await env.executeSql(RANDOM(200));
    const sub = 'SELECT id, v FROM g WHERE id % 2 = 0';
    const union = await rowsOf(env, `SELECT id FROM (${sub} UNION ALL ${sub})`);
    expect(union).toEqual(Array.from({ length: 200 }, (_, i) => JSON.stringify([`${2 * (Math.floor(i / 2) + 1)}n`])).sort());
    expect(await rowsOf(env, `SELECT id FROM (${sub} EXCEPT ${sub})`)).toEqual([]);
    // Both sides of the INTERSECT read the same random values, so every row is in both.
    const intersect = await rowsOf(env, `SELECT id FROM (${sub} INTERSECT ${sub})`);
    expect(intersect).toHaveLength(100);
  });

  it('gives the same rows in batch mode', async () => {
    const env = await session({ 'parallelism.default': '2' }, 'batch');
    await env.executeSql(RANDOM(300));
    expect(await rowsOf(env, SELF_JOIN)).toEqual(Array.from({ length: 300 }, (_, i) => JSON.stringify([`${i + 1}n`, true])).sort());
  });

  it('aligns checkpoint barriers arriving twice from one source subtask (both join inputs), every row once', async () => {
    // About 1.5 s of input at 4,000 rows/s with a checkpoint every 100 ms: many barriers pass the fan-out.
    const env = await session({ 'parallelism.default': '2', 'execution.checkpointing.interval': '100 ms' });
    await env.executeSql(RANDOM(6000, 4000));
    const got = await run(env, SELF_JOIN);
    expect(got.rows).toEqual(Array.from({ length: 6000 }, (_, i) => JSON.stringify([`${i + 1}n`, true])).sort());
    expect(got.checkpoints).toBeGreaterThan(0);
  }, 60_000);

  const BUILT = existsSync(fileURLToPath(new URL('../../dist/api/sql-worker-main.js', import.meta.url)));
  it.skipIf(!BUILT)('runs with subtasks on worker threads, the shared source feeding a join subtask on another thread', async () => {
    const env = await session({ 'parallelism.default': '2', 'execution.worker-threads': '2', 'execution.checkpointing.interval': '100 ms' });
    await env.executeSql(RANDOM(6000, 4000));
    const got = await run(env, SELF_JOIN);
    expect(got.rows).toEqual(Array.from({ length: 6000 }, (_, i) => JSON.stringify([`${i + 1}n`, true])).sort());
    expect(got.checkpoints).toBeGreaterThan(0);
  }, 60_000);
});
