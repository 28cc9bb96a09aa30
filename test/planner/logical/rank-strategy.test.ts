import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';

// The strategy each streaming Top-N / SortLimit prints, as Apache Flink 2.3.0 printed it for the same statement
// (scripts/flink-reference.sh, EXPLAIN): UpdateFastStrategy[unique key] when every order key can only move a row
// towards the top (rank-strategy.ts, modified-monotonicity.ts), RetractStrategy otherwise.
const env = TableEnvironment.create({ mode: 'streaming', discoverPackages: false });
const setup = env.executeSql(
  `CREATE TEMPORARY TABLE nums (id INT, g AS MOD(id * 7, 10)) WITH ('connector' = 'datagen', 'number-of-rows' = '100', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '100')`,
);
afterAll(() => env.close());

async function strategy(sql: string): Promise<string | undefined> {
  await setup;
  const result = await env.executeSql(`EXPLAIN ${sql}`);
  for await (const row of result.collect()) return /strategy=\[((?:UpdateFastStrategy\[[0-9,]*\])|\w+)\]/.exec(String(row.fields[0]))?.[1];
  return undefined;
}

const topN = (agg: string, order: string, where = '', partition = '') =>
  `SELECT * FROM (SELECT g, c, ROW_NUMBER() OVER (${partition}ORDER BY ${order}) AS rn FROM (SELECT g, ${agg} AS c FROM nums${where} GROUP BY g)) WHERE rn <= 2`;

describe("a streaming Top-N's strategy (Flink's RankProcessStrategy)", () => {
  it.each([
    ['COUNT descending', topN('COUNT(*)', 'c DESC'), 'UpdateFastStrategy[0]'],
    ['COUNT ascending: a count moves a row down', topN('COUNT(*)', 'c ASC'), 'RetractStrategy'],
    ['SUM of values of unknown sign', topN('SUM(id)', 'c DESC'), 'RetractStrategy'],
    ['SUM of values a filter keeps above zero', topN('SUM(id)', 'c DESC', ' WHERE id > 0'), 'UpdateFastStrategy[0]'],
    ['MIN descending', topN('MIN(id)', 'c DESC'), 'RetractStrategy'],
    ['MIN ascending', topN('MIN(id)', 'c ASC'), 'UpdateFastStrategy[0]'],
    ['partitioned by an aggregate value: the unique key does not hold the partition key', topN('COUNT(*)', 'g ASC', '', 'PARTITION BY c '), 'RetractStrategy'],
    ['without the rank number', 'SELECT g, c FROM (SELECT g, c, ROW_NUMBER() OVER (ORDER BY c DESC) AS rn FROM (SELECT g, COUNT(*) AS c FROM nums GROUP BY g)) WHERE rn <= 2', 'UpdateFastStrategy[0]'],
    ['ORDER BY ... LIMIT over COUNT descending (SortLimit)', 'SELECT g, COUNT(*) AS c FROM nums GROUP BY g ORDER BY c DESC LIMIT 2', 'UpdateFastStrategy[0]'],
    ['ORDER BY a SUM, then a key (SortLimit)', 'SELECT g, COUNT(*) AS c, SUM(id) AS s FROM nums GROUP BY g ORDER BY s DESC, g LIMIT 3', 'RetractStrategy'],
    [
      'over a Top-N of an insert-only input: its partition key and rank number are a unique key',
      'SELECT * FROM (SELECT g, id, rn, ROW_NUMBER() OVER (ORDER BY id DESC) AS rn2 FROM (SELECT g, id, ROW_NUMBER() OVER (PARTITION BY g ORDER BY id DESC) AS rn FROM nums) WHERE rn <= 3) WHERE rn2 <= 2',
      'UpdateFastStrategy[0,2]',
    ],
    [
      'over an update-fast Top-N',
      'SELECT * FROM (SELECT g, c, ROW_NUMBER() OVER (ORDER BY c DESC) AS rn2 FROM (SELECT g, c, ROW_NUMBER() OVER (PARTITION BY g ORDER BY c DESC) AS rn FROM (SELECT g, COUNT(*) AS c FROM nums GROUP BY g)) WHERE rn <= 3) WHERE rn2 <= 2',
      'UpdateFastStrategy[0]',
    ],
  ])('%s', async (_, sql, expected) => {
    expect(await strategy(sql)).toBe(expected);
  });

  it('retracts over a Top-N that retracts, where Flink 2.3 picks UpdateFastStrategy[0] and would read its -D as an upsert (docs/differences-from-flink.md)', async () => {
    const sql =
      'SELECT * FROM (SELECT g, c, rn, ROW_NUMBER() OVER (ORDER BY g DESC) AS rn2 FROM (SELECT g, c, ROW_NUMBER() OVER (PARTITION BY g ORDER BY c DESC) AS rn FROM (SELECT g, SUM(id) AS c FROM nums GROUP BY g)) WHERE rn <= 3) WHERE rn2 <= 2';
    expect(await strategy(sql)).toBe('RetractStrategy');
  });
});
