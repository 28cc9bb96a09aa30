import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';

async function rows(env: TableEnvironment, sql: string): Promise<unknown[][]> {
  const out: unknown[][] = [];
  for await (const r of (await env.executeSql(sql)).collect()) out.push(r.fields);
  return out;
}

describe('CREATE TABLE AS SELECT and INSERT OVERWRITE', () => {
  it('creates a table with the query columns and fills it in one job', async () => {
    const env = TableEnvironment.create({ mode: 'batch' });
    const dir = mkdtempSync(join(tmpdir(), 'sluice-ctas-'));
    const result = await env.executeSql(
      `CREATE TABLE copy WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'csv')
       AS SELECT id, UPPER(name) AS name FROM (VALUES (1, 'a'), (2, 'b')) AS t(id, name)`,
    );
    expect(result.getJobClient()).toBeDefined();
    await result.await();
    const table = await env.session.catalogs.resolveTable(['copy']);
    expect(table.table.schema.columnNames()).toEqual(['id', 'name']);
    expect((await rows(env, 'SELECT * FROM copy ORDER BY id')).map((r) => r.join(','))).toEqual(['1,A', '2,B']);
    await expect(env.executeSql(`CREATE TABLE copy WITH ('connector' = 'blackhole') AS SELECT 1 AS x`)).rejects.toThrow("a table or view named 'copy' already exists in database 'default_database' of catalog 'default_catalog'");
    await env.close();
  });

  it('overwrites one partition of a partitioned filesystem table in batch mode', async () => {
    const env = TableEnvironment.create({ mode: 'batch' });
    const dir = mkdtempSync(join(tmpdir(), 'sluice-ow-'));
    await env.executeSql(`CREATE TABLE parts (v INT, dt STRING) PARTITIONED BY (dt) WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'json')`);
    await (await env.executeSql(`INSERT INTO parts VALUES (1, 'a'), (2, 'b')`)).await();
    await (await env.executeSql(`INSERT OVERWRITE parts PARTITION (dt = 'a') SELECT 10`)).await();
    expect((await rows(env, 'SELECT v, dt FROM parts ORDER BY dt, v')).map((r) => r.join(','))).toEqual(['10,a', '2,b']);
    await env.close();
  });
});

describe('changelog sources in batch mode', () => {
  it('are refused, naming the table, as Flink does', async () => {
    const env = TableEnvironment.create({ mode: 'batch' });
    const dir = mkdtempSync(join(tmpdir(), 'sluice-cdc-'));
    await env.executeSql(`CREATE TEMPORARY TABLE cdc (id INT, v STRING) WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'debezium-json')`);
    await expect(env.executeSql('SELECT * FROM cdc')).rejects.toThrow(
      "Querying a table in batch mode is currently only possible for INSERT-only table sources. But the source for table 'default_catalog.default_database.cdc' produces other changelog messages than just INSERT.",
    );
    await env.close();
  });
});
