import { describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';

async function showCreate(env: TableEnvironment, name: string): Promise<string> {
  for await (const row of (await env.executeSql(`SHOW CREATE TABLE ${name}`)).collect()) return String(row.fields[0]);
  throw new Error('no row');
}

describe('SHOW CREATE TABLE', () => {
  it('prints DDL that re-creates the same table', async () => {
    const env = TableEnvironment.create();
    await env.executeSql(`CREATE TABLE orders (
      id BIGINT NOT NULL COMMENT 'the id',
      tags ARRAY<STRING>,
      attrs MAP<STRING, ROW<x INT, \`y z\` DECIMAL(10, 2)>>,
      ts TIMESTAMP(3),
      dt STRING,
      cost AS CAST(id AS DOUBLE) * 1.5,
      pt AS PROCTIME(),
      off BIGINT METADATA FROM 'offset' VIRTUAL,
      ts_meta TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',
      WATERMARK FOR ts AS ts - INTERVAL '5' SECOND,
      CONSTRAINT pk PRIMARY KEY (id) NOT ENFORCED
    ) COMMENT 'it''s a table'
    PARTITIONED BY (dt)
    WITH ('connector' = 'filesystem', 'path' = '/tmp/x', 'format' = 'json')`);
    const ddl = await showCreate(env, 'orders');
    await env.executeSql(ddl.replace('`default_catalog`.`default_database`.`orders`', 'copy'));
    const a = await env.session.catalogs.resolveTable(['orders']);
    const b = await env.session.catalogs.resolveTable(['copy']);
    expect(b.table.schema.toString()).toBe(a.table.schema.toString());
    expect(b.table.kind === 'table' && b.table.options).toEqual(a.table.kind === 'table' && a.table.options);
    expect(b.table.kind === 'table' && b.table.partitionKeys).toEqual(['dt']);
    expect(b.table.comment).toBe("it's a table");
    expect(await showCreate(env, 'copy')).toBe(ddl.replace('`orders`', '`copy`'));
    await env.close();
  });

  it('masks secret option values', async () => {
    const env = TableEnvironment.create();
    await env.executeSql(`CREATE TABLE k (a INT) WITH ('connector' = 'kafka', 'properties.sasl.jaas.config' = 'secret-stuff', 'topic' = 't')`);
    const ddl = await showCreate(env, 'k');
    expect(ddl).toContain("'properties.sasl.jaas.config' = '******'");
    expect(ddl).not.toContain('secret-stuff');
    await env.close();
  });
});
