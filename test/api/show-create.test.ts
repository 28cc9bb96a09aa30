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

  // The expected texts are what Flink 2.3.0's SQL client printed for the same statements (scripts/flink-sql-client.sh).
  it("prints Flink 2.3's text: serializable type names, `)` alone on its line, COMMENT / PARTITIONED BY / WITH lines, options sorted", async () => {
    const env = TableEnvironment.create();
    await env.executeSql(`CREATE TABLE t1 (s STRING NOT NULL, b BYTES, tl TIMESTAMP_LTZ(3), arr ARRAY<STRING>, m MAP<STRING, INT NOT NULL>,
      r ROW<a INT, \`b c\` STRING>, dd DECIMAL, tm TIME, k STRING METADATA, WATERMARK FOR tl AS tl - INTERVAL '5' SECOND)
      COMMENT 'tbl ''c''' PARTITIONED BY (s) WITH ('connector' = 'filesystem', 'path' = '/tmp/x', 'format' = 'csv')`);
    expect(await showCreate(env, 't1')).toBe(`CREATE TABLE \`default_catalog\`.\`default_database\`.\`t1\` (
  \`s\` VARCHAR(2147483647) NOT NULL,
  \`b\` VARBINARY(2147483647),
  \`tl\` TIMESTAMP(3) WITH LOCAL TIME ZONE,
  \`arr\` ARRAY<VARCHAR(2147483647)>,
  \`m\` MAP<VARCHAR(2147483647), INT NOT NULL>,
  \`r\` ROW<\`a\` INT, \`b c\` VARCHAR(2147483647)>,
  \`dd\` DECIMAL(10, 0),
  \`tm\` TIME(0),
  \`k\` VARCHAR(2147483647) METADATA,
  WATERMARK FOR \`tl\` AS \`tl\` - INTERVAL '5' SECOND
)
COMMENT 'tbl ''c'''
PARTITIONED BY (\`s\`)
WITH (
  'connector' = 'filesystem',
  'format' = 'csv',
  'path' = '/tmp/x'
)
`);
    await env.close();
  });

  it('prints computed columns as Flink stores them, validated: built-in names upper-cased, SUBSTRING and TRIM in call form, CASE searched with ELSE', async () => {
    const env = TableEnvironment.create();
    await env.executeSql(`CREATE TABLE o (a INT, b STRING, c AS coalesce(b, 'x'), e AS substring(b from 1 for 2), f AS upper(b),
      k AS char_length(b), m AS CASE a WHEN 1 THEN 'one' END, t AS trim(b)) WITH ('connector' = 'datagen')`);
    await env.executeSql('ALTER TABLE o ADD (i AS lower(b))');
    expect(await showCreate(env, 'o')).toBe(`CREATE TABLE \`default_catalog\`.\`default_database\`.\`o\` (
  \`a\` INT,
  \`b\` VARCHAR(2147483647),
  \`c\` AS COALESCE(\`b\`, 'x'),
  \`e\` AS SUBSTRING(\`b\`, 1, 2),
  \`f\` AS UPPER(\`b\`),
  \`k\` AS CHAR_LENGTH(\`b\`),
  \`m\` AS CASE WHEN \`a\` = 1 THEN 'one' ELSE NULL END,
  \`t\` AS TRIM(BOTH ' ' FROM \`b\`),
  \`i\` AS LOWER(\`b\`)
)
WITH (
  'connector' = 'datagen'
)
`);
    await env.close();
  });
});
