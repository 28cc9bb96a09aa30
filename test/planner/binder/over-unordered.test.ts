// OVER windows without ORDER BY (the whole partition) and OVER windows over grouped rows, as Flink's batch planner
// takes them; the replayed Flink answers of these shapes are in test/differential/goldens/regressions.json.
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';

let env: TableEnvironment | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

async function rows(sql: string): Promise<string[]> {
  const out: string[] = [];
  for await (const r of (await env!.executeSql(sql)).collect()) out.push(r.fields.map(String).join(' '));
  return out.sort();
}

const T = "CREATE TEMPORARY TABLE t (id INT, g AS MOD(id, 3)) WITH ('connector' = 'datagen', 'number-of-rows' = '6', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '6')";

describe('OVER without ORDER BY and over grouped rows', () => {
  it('gives every row the aggregate of its whole partition', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    await env.executeSql(T);
    // g = 1: ids 1, 4; g = 2: 2, 5; g = 0: 3, 6.
    expect(await rows('SELECT id, SUM(id) OVER (PARTITION BY g) AS s, COUNT(*) OVER () AS n FROM t')).toEqual(['1 5 6', '2 7 6', '3 9 6', '4 5 6', '5 7 6', '6 9 6']);
  });

  it('computes windows over the rows a GROUP BY leaves, ordered or partitioned by aggregates', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    await env.executeSql(T);
    expect(await rows('SELECT g, SUM(id) AS s, SUM(SUM(id)) OVER () AS total FROM t GROUP BY g')).toEqual(['0 9 21', '1 5 21', '2 7 21']);
    expect(await rows('SELECT g, RANK() OVER (ORDER BY SUM(id) DESC) AS r FROM t GROUP BY g HAVING COUNT(*) > 1')).toEqual(['0 1', '1 3', '2 2']);
    expect(await rows('SELECT g, SUM(MAX(id)) OVER (ORDER BY g) AS run FROM t GROUP BY g')).toEqual(['0 6', '1 10', '2 15']);
  });

  it('ignores a frame without ORDER BY, as Flink does, and refuses an unordered window in streaming mode', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    await env.executeSql(T);
    expect(await rows('SELECT SUM(id) OVER (ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t')).toEqual(Array(6).fill('21'));
    await env.close();
    env = TableEnvironment.create({ mode: 'streaming' });
    await env.executeSql(T);
    await expect(rows('SELECT SUM(id) OVER (PARTITION BY g) FROM t')).rejects.toThrow("OVER windows' ordering in stream mode must be defined on a time attribute.");
  });
});
