// Whether a keyed node over a keyed node on the same keys keeps its exchange: Flink 2.3.0's streaming planner does
// (its stream physical nodes derive no distribution), and prints these plans (scripts/flink-reference.sh, EXPLAIN,
// parallelism.default 2, datagen tables t and s (a INT, b BIGINT, c STRING)). Compared from the upper keyed node
// down: Sluice prints a Calc above the Rank and `Calc(select=[])` for `Calc(select=[0 AS $f0])`, differences of
// their own.
import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';

const env = TableEnvironment.create({ mode: 'streaming', discoverPackages: false });
env.getConfig().set('parallelism.default', '2');
const ready = (async () => {
  for (const t of ['t', 's']) await env.executeSql(`CREATE TABLE ${t} (a INT, b BIGINT, c STRING) WITH ('connector' = 'datagen')`);
})();
afterAll(() => env.close());

/** The optimized physical plan's lines without their tree drawing, from the first line starting with `from`. */
async function linesFrom(sql: string, from: string, count: number): Promise<string[]> {
  const lines = (await physicalPlan(sql)).split('\n').map((l) => l.replace(/^[\s:+-]*/, ''));
  const start = lines.findIndex((l) => l.startsWith(from));
  return lines.slice(start, start + count);
}

async function physicalPlan(sql: string): Promise<string> {
  await ready;
  for await (const row of (await env.executeSql(`EXPLAIN ${sql}`)).collect()) {
    const text = String(row.fields[0]);
    return text.slice(text.indexOf('== Optimized Physical Plan ==') + '== Optimized Physical Plan ==\n'.length, text.indexOf('\n\n== Optimized Execution Plan =='));
  }
  throw new Error('no plan');
}

describe('an input already hashed on the keys a node requires keeps its exchange, as in Flink streaming', () => {
  it('a Top-N over a GROUP BY on its partition key', async () => {
    const sql = 'SELECT * FROM (SELECT a, c, ROW_NUMBER() OVER (PARTITION BY a ORDER BY c DESC) AS rn FROM (SELECT a, COUNT(*) AS c FROM t GROUP BY a)) WHERE rn <= 2';
    expect(await linesFrom(sql, 'Rank(', 4)).toEqual([
      'Rank(strategy=[UpdateFastStrategy[0]], rankType=[ROW_NUMBER], rankRange=[rankStart=1, rankEnd=2], partitionBy=[a], orderBy=[c DESC], select=[a, c, w0$o0])',
      'Exchange(distribution=[hash[a]])',
      'GroupAggregate(groupBy=[a], select=[a, COUNT(*) AS c])',
      'Exchange(distribution=[hash[a]])',
    ]);
  });

  it('a join over a GROUP BY on its join key', async () => {
    const sql = 'SELECT x.a, x.c, y.b FROM (SELECT a, COUNT(*) AS c FROM t GROUP BY a) x JOIN s y ON x.a = y.a';
    // Flink prints leftInputSpec=[JoinKeyContainsUniqueKey] on the Join, Sluice NoUniqueKey: the Join line is left out.
    expect((await linesFrom(sql, 'Join(', 4)).slice(1)).toEqual([
      'Exchange(distribution=[hash[a]])',
      'GroupAggregate(groupBy=[a], select=[a, COUNT(*) AS c])',
      'Exchange(distribution=[hash[a]])',
    ]);
  });

  it('a SortLimit over a global aggregate: single twice', async () => {
    const sql = 'SELECT cnt FROM (SELECT COUNT(*) AS cnt FROM t) ORDER BY cnt LIMIT 1';
    expect(await linesFrom(sql, 'SortLimit(', 4)).toEqual([
      'SortLimit(orderBy=[cnt ASC], offset=[0], fetch=[1], strategy=[RetractStrategy])',
      'Exchange(distribution=[single])',
      'GroupAggregate(select=[COUNT(*) AS cnt])',
      'Exchange(distribution=[single])',
    ]);
  });
});
