// One notion of where a keyed node needs its input's rows (the physical plan's exchanges, src/planner/physical/): the job graph's
// exchanges and EXPLAIN's Exchange lines both come from it, so the plan printed is the plan that runs.
import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';
import type { JobGraph } from '../../src/runtime/job-graph.js';
import { parseStatement } from '../../src/sql/parse.js';

const env = TableEnvironment.create({ mode: 'streaming', discoverPackages: false });
env.getConfig().set('parallelism.default', '3');
const ddl = [
  "CREATE TABLE a (id INT, k INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen', 'number-of-rows' = '5')",
  "CREATE TABLE b (k2 INT, v INT) WITH ('connector' = 'datagen', 'number-of-rows' = '5')",
];
const ready = (async () => {
  for (const d of ddl) await env.executeSql(d);
})();
afterAll(() => env.close());

async function explain(sql: string): Promise<string> {
  await ready;
  for await (const row of (await env.executeSql(`EXPLAIN ${sql}`)).collect()) {
    const text = String(row.fields[0]);
    return text.slice(text.indexOf('== Optimized Physical Plan =='), text.indexOf('== Optimized Execution Plan =='));
  }
  throw new Error('no plan');
}

async function graph(sql: string): Promise<JobGraph> {
  await ready;
  const stmt = parseStatement(sql);
  if (stmt.kind !== 'query') throw new Error('not a query');
  return (await env.planner.planQuery(stmt.query)).toJobGraph({ push: () => undefined, end: () => undefined });
}

const QUERIES = [
  'SELECT k, COUNT(*) FROM a GROUP BY k',
  'SELECT COUNT(*) FROM a',
  'SELECT id FROM a WHERE k IN (SELECT k2 FROM b)',
  'SELECT id FROM a WHERE k NOT IN (SELECT k2 FROM b)',
  'SELECT a.id, b.v FROM a JOIN b ON a.k = b.k2',
  'SELECT id FROM a ORDER BY k LIMIT 2',
  'SELECT * FROM (SELECT id, k, ROW_NUMBER() OVER (PARTITION BY k ORDER BY id) AS rn FROM a) WHERE rn <= 2',
  'SELECT id, SUM(k) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM a',
  'SELECT id, SUM(k) OVER (ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM a',
  "SELECT k, window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE a, DESCRIPTOR(ts), INTERVAL '1' SECOND)) GROUP BY k, window_start, window_end",
];

describe('exchanges: what EXPLAIN prints is what the job graph runs', () => {
  for (const sql of QUERIES) {
    it(sql, async () => {
      const plan = await explain(sql);
      const g = await graph(sql);
      const printedSingle = plan.match(/Exchange\(distribution=\[single\]\)/g)?.length ?? 0;
      const printedHash = plan.match(/Exchange\(distribution=\[hash\[/g)?.length ?? 0;
      const parallelism = new Map(g.vertices.map((v) => [v.id, v.parallelism]));
      const operatorIds = new Set(g.vertices.filter((v) => v.kind === 'operator').map((v) => v.id));
      const exchanged = g.edges.filter((e) => operatorIds.has(e.to) && e.partitioner.kind !== 'forward');
      expect(exchanged.filter((e) => e.partitioner.kind === 'hash' && parallelism.get(e.to) !== 1).length, 'hash exchanges').toBe(printedHash);
      expect(exchanged.filter((e) => parallelism.get(e.to) === 1).length, 'exchanges into one subtask').toBe(printedSingle);
    });
  }

  it('runs a NOT IN on one subtask and prints it so, as Flink 2.3 does (Exchange(distribution=[single]) on both inputs)', async () => {
    const sql = 'SELECT id FROM a WHERE k NOT IN (SELECT k2 FROM b)';
    expect((await explain(sql)).match(/Exchange\(distribution=\[single\]\)/g)).toHaveLength(2);
    const g = await graph(sql);
    expect(g.vertices.find((v) => v.name.startsWith('Join('))?.parallelism).toBe(1);
  });
});
