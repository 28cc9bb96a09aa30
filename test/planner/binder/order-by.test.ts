import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';
import { rowKindShortString } from '../../../src/types/row-kind.js';

let env: TableEnvironment | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

async function rows(sql: string): Promise<unknown[][]> {
  const out: unknown[][] = [];
  for await (const r of (await env!.executeSql(sql)).collect()) out.push(r.fields.map((v) => (typeof v === 'bigint' ? Number(v) : v)));
  return out;
}

describe('ORDER BY', () => {
  it('sorts by expressions over the select list, by columns not selected and by aggregates, as Flink', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    await env.executeSql(
      "CREATE TEMPORARY TABLE t (id INT, v INT) WITH ('connector' = 'datagen', 'number-of-rows' = '5', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '5', 'fields.v.kind' = 'sequence', 'fields.v.start' = '10', 'fields.v.end' = '14')",
    );
    expect(await rows('SELECT id FROM t ORDER BY id * -1 LIMIT 2')).toEqual([[5], [4]]);
    expect(await rows('SELECT id, v FROM t ORDER BY MOD(v, 3), id')).toEqual([[3, 12], [1, 10], [4, 13], [2, 11], [5, 14]]);
    expect(await rows('SELECT id FROM t ORDER BY MOD(v, 3) DESC, id DESC')).toEqual([[5], [2], [4], [1], [3]]);
    expect(await rows('SELECT id FROM t ORDER BY v DESC LIMIT 2')).toEqual([[5], [4]]);
    expect(await rows('SELECT MOD(v, 2) AS p, COUNT(*) AS c FROM t GROUP BY MOD(v, 2) ORDER BY COUNT(*) DESC')).toEqual([[0, 3], [1, 2]]);
  });

  it('sorts a streaming Top-N by an expression', async () => {
    env = TableEnvironment.create({ mode: 'streaming' });
    await env.executeSql(
      "CREATE TEMPORARY TABLE t (id INT) WITH ('connector' = 'datagen', 'number-of-rows' = '20', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '20')",
    );
    const table = new Map<string, number>();
    for await (const r of (await env.executeSql('SELECT id FROM t ORDER BY MOD(id, 7) DESC, id LIMIT 3')).collect()) {
      const kind = rowKindShortString(r.kind);
      const id = String(r.fields[0]);
      table.set(id, (table.get(id) ?? 0) + (kind === '+I' || kind === '+U' ? 1 : -1));
    }
    expect([...table].filter(([, n]) => n > 0).map(([id]) => Number(id)).sort((a, b) => a - b)).toEqual([6, 13, 20]);
  });

  it('ranks by PARTITION BY and ORDER BY expressions in ROW_NUMBER(), as Flink 2.3 answers (reference runner, same rows)', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    await env.executeSql('CREATE TEMPORARY VIEW o (cust, amount) AS VALUES (1, 10), (1, 30), (2, 5), (9, 100)');
    const sorted = async (sql: string): Promise<unknown[][]> => (await rows(sql)).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    expect(await sorted('SELECT cust, amount, rn FROM (SELECT cust, amount, ROW_NUMBER() OVER (PARTITION BY MOD(cust, 2) ORDER BY amount * -1) AS rn FROM o) WHERE rn <= 2')).toEqual([
      [1, 30, 2],
      [2, 5, 1],
      [9, 100, 1],
    ]);
    expect(await sorted('SELECT cust, amount FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY MOD(cust, 2) ORDER BY ABS(amount - 20)) AS rn FROM o) WHERE rn = 1')).toEqual([
      [1, 10],
      [2, 5],
    ]);
  });

  it('partitions and orders an OVER aggregate by expressions in batch mode, as Flink 2.3 answers (reference runner)', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    await env.executeSql('CREATE TEMPORARY VIEW o (cust, amount) AS VALUES (1, 10), (1, 30), (2, 5), (9, 100)');
    const got = await rows('SELECT cust, amount, SUM(amount) OVER (PARTITION BY MOD(cust, 2) ORDER BY amount * -1 ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS s FROM o');
    expect(got.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual([
      [1, 10, 140],
      [1, 30, 130],
      [2, 5, 5],
      [9, 100, 100],
    ]);
  });

  it('computes OVER aggregates of different windows in batch mode, and refuses them in streaming mode with Flink 2.3\'s message', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    await env.executeSql('CREATE TEMPORARY VIEW o (cust, amount) AS VALUES (1, 10), (1, 30), (2, 5), (9, 100)');
    const sql =
      'SELECT cust, amount, SUM(amount) OVER (PARTITION BY cust ORDER BY amount) AS s, COUNT(*) OVER (ORDER BY amount DESC ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS c, MAX(amount) OVER (PARTITION BY cust ORDER BY amount) AS m FROM o';
    const got = await rows(sql);
    // Flink 2.3 (reference runner, same rows): 1 10 10 2 10 | 1 30 40 2 30 | 2 5 5 2 5 | 9 100 100 1 100
    expect(got.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual([
      [1, 10, 10, 2, 10],
      [1, 30, 40, 2, 30],
      [2, 5, 5, 2, 5],
      [9, 100, 100, 1, 100],
    ]);
    await env.close();
    env = TableEnvironment.create({ mode: 'streaming' });
    await env.executeSql("CREATE TEMPORARY TABLE e (k INT, v INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen', 'number-of-rows' = '5')");
    await expect(env.executeSql('SELECT k, SUM(v) OVER (PARTITION BY k ORDER BY ts) AS s, COUNT(*) OVER (ORDER BY ts) AS c FROM e')).rejects.toThrow(
      'All aggregates must be computed on the same window',
    );
  });

  it('mixes ranking functions of different windows with OVER aggregates in batch mode (rows as Flink 2.3 answers)', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    await env.executeSql('CREATE TEMPORARY VIEW o (cust, amount) AS VALUES (1, 10), (1, 30), (2, 5), (9, 100)');
    const got = await rows(
      'SELECT cust, amount, ROW_NUMBER() OVER (PARTITION BY cust ORDER BY amount DESC) AS rn, RANK() OVER (ORDER BY cust) AS r, SUM(amount) OVER (PARTITION BY cust ORDER BY amount) AS s FROM o',
    );
    expect(got.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual([
      [1, 10, 2, 1, 10],
      [1, 30, 1, 1, 40],
      [2, 5, 1, 3, 5],
      [9, 100, 1, 4, 100],
    ]);
  });
});
