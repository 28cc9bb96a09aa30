import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Schema, TableDescriptor } from '../../src/api/table-descriptor.js';
import { ValidationError } from '../../src/errors/sluice-error.js';
import { TableEnvironment } from '../../src/api/table-environment.js';
import { Decimal } from '../../src/types/decimal.js';
import { DataTypes } from '../../src/types/data-types.js';
import { RowKind } from '../../src/types/row-kind.js';
import type { Row } from '../../src/types/row.js';

let env: TableEnvironment;
afterEach(async () => {
  await env?.close();
});

async function rows(sql: string): Promise<Row[]> {
  const out: Row[] = [];
  for await (const r of (await env.executeSql(sql)).collect()) out.push(r);
  return out;
}

describe('TableEnvironment', () => {
  it('runs DDL and a batch query, returning exact values', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    await env.executeSql(`CREATE TEMPORARY TABLE nums (n BIGINT) WITH (
      'connector' = 'datagen', 'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '100')`);
    const r = await rows('SELECT SUM(n) AS total, COUNT(*) AS c FROM nums');
    expect(r.map((x) => x.fields)).toEqual([[5050n, 100n]]);
    const result = await env.executeSql('SELECT CAST(9007199254740993 AS BIGINT) AS big');
    expect(result.getResolvedSchema().columnNames()).toEqual(['big']);
    for await (const row of result.collect()) expect(row.fields[0]).toBe(9007199254740993n);
  });

  it('streams a changelog for an aggregate in streaming mode', async () => {
    env = TableEnvironment.create({ mode: 'streaming' });
    const r = await rows("SELECT k, COUNT(*) AS c FROM (VALUES ('a'), ('a')) AS t(k) GROUP BY k");
    expect(r.map((x) => [x.kind, ...x.fields])).toEqual([
      [RowKind.INSERT, 'a', 1n],
      [RowKind.UPDATE_BEFORE, 'a', 1n],
      [RowKind.UPDATE_AFTER, 'a', 2n],
    ]);
  });

  it('builds tables from values, views, descriptors, and explains queries', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    const t = await env.fromValues(
      [
        [1, 'a', Decimal.parse('1.50')],
        [2, 'b', Decimal.parse('2.25')],
      ],
      ['id', 'name', 'price'],
    );
    expect(t.getResolvedSchema().columnNames()).toEqual(['id', 'name', 'price']);
    await env.createTemporaryView('items', t);
    const r = await rows('SELECT name, price * 2 AS p FROM items ORDER BY id');
    expect(r.map((x) => [x.fields[0], String(x.fields[1])])).toEqual([
      ['a', '3.00'],
      ['b', '4.50'],
    ]);
    const plan = await (await env.sqlQuery('SELECT id FROM items WHERE id > 1')).explain();
    expect(plan).toContain('== Abstract Syntax Tree ==');
    expect(plan).toContain('== Optimized Physical Plan ==');

    await env.createTemporaryTable(
      'gen',
      TableDescriptor.forConnector('datagen').schema(Schema.newBuilder().column('x', 'INT').build()).option('number-of-rows', 7).build(),
    );
    expect((await rows('SELECT COUNT(*) FROM gen'))[0]!.fields).toEqual([7n]);
  });

  it('refuses arguments of the wrong type with an error naming the method, never JavaScript error text', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    const e = env;
    const table = await e.sqlQuery('SELECT 1 AS x');
    const set = e.createStatementSet();
    const calls: [string, () => unknown][] = [
      ['executeSql() takes the statement as a string; it was given a number.', () => e.executeSql(123 as never)],
      ['sqlQuery() takes the query as a string; it was given null.', () => e.sqlQuery(null as never)],
      ['fromValues() takes the rows as an array of arrays', () => e.fromValues('x' as never)],
      ['createTemporaryView() takes a Table (env.sqlQuery(...) or env.fromValues(...) makes one); it was given a string.', () => e.createTemporaryView('v', 'SELECT 1' as never)],
      ["createTemporaryTable() takes a TableDescriptor (TableDescriptor.forConnector('datagen').schema(...).build() makes one); it was given a plain object.", () => e.createTemporaryTable('t', {} as never)],
      ['createTable() takes the table path as a string; it was given undefined.', () => e.createTable(undefined as never, {} as never)],
      ['registerFactory() takes a factory: an object with a non-empty string factoryIdentifier', () => e.registerFactory({} as never)],
      ['createTemporarySystemFunction() takes the function name as a string; it was given a number.', () => e.createTemporarySystemFunction(7 as never, () => 'x')],
      ["onWarning() takes a function called with each warning's text; it was given number.", () => e.onWarning(5 as never)],
      ['Configuration.set() takes an option key as a string (or a ConfigOption); it was given number.', () => e.getConfig().set(1 as never, 2)],
      ['addInsertSql() takes the INSERT statement as a string; it was given a number.', () => set.addInsertSql(5 as never)],
      ['addInsert() takes a Table (env.sqlQuery(...) or env.fromValues(...) makes one); it was given a string.', () => set.addInsert('t', 'SELECT 1' as never)],
      ['executeInsert() takes the table path as a string; it was given a number.', () => table.executeInsert(5 as never)],
    ];
    for (const [message, call] of calls) {
      const error = await (async () => call())().then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error, message).toBeInstanceOf(ValidationError);
      expect((error as Error).message).toContain(message);
    }
  });

  it('says what schema() takes when a JavaScript caller gives it something else', () => {
    const builder = TableDescriptor.forConnector('datagen');
    expect(() => builder.schema('x INT' as never)).toThrow(
      "TableDescriptor.schema() for connector 'datagen' takes the schema Schema.newBuilder()...build() returns, e.g. Schema.newBuilder().column('id', 'BIGINT').build(); it was given a string.",
    );
    expect(() => builder.schema(Schema.newBuilder().column('x', 'INT') as never)).toThrow(/it was given a SchemaBuilder: call \.build\(\) on it\.$/);
    expect(() => builder.schema(undefined as never)).toThrow(ValidationError);
  });

  it('runs a statement set as one job and inserts through Table.executeInsert', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    await env.executeSql(`CREATE TEMPORARY TABLE out1 (id INT) WITH ('connector' = 'blackhole')`);
    await env.executeSql(`CREATE TEMPORARY TABLE out2 (id INT) WITH ('connector' = 'blackhole')`);
    const set = env.createStatementSet();
    set.addInsertSql('INSERT INTO out1 SELECT * FROM (VALUES (1), (2)) AS t(id)');
    set.addInsertSql('INSERT INTO out2 SELECT * FROM (VALUES (3)) AS t(id)');
    const result = await set.execute();
    expect(result.getResolvedSchema().columnNames()).toEqual(['default_catalog.default_database.out1', 'default_catalog.default_database.out2']);
    await result.await();
    expect(result.getJobClient()!.status()).toBe('FINISHED');
    const t = await env.sqlQuery('SELECT * FROM (VALUES (5)) AS t(id)');
    const insert = await t.executeInsert('out1');
    await insert.await();
    expect(insert.getJobClient()!.status()).toBe('FINISHED');
  });

  it('registers scalar and aggregate functions, in code and from a module', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    env.createTemporarySystemFunction('twice', { eval: (x: number) => x * 2, resultType: DataTypes.INT(), argumentTypes: [DataTypes.INT()] });
    env.createTemporarySystemFunction('longest', {
      createAccumulator: () => ({ best: '' }),
      accumulate: (acc: { best: string }, s: string) => {
        if (s !== null && s.length > acc.best.length) acc.best = s;
      },
      getValue: (acc: { best: string }) => acc.best,
      resultType: DataTypes.STRING(),
    });
    const r2 = await rows("SELECT SUM(twice(id)) AS s, longest(name) AS l FROM (VALUES (1, 'ab'), (2, 'abc')) AS v(id, name)");
    expect(r2.map((x) => x.fields)).toEqual([[6, 'abc']]);

    const dir = mkdtempSync(join(tmpdir(), 'sluice-udf-'));
    writeFileSync(join(dir, 'udf.mjs'), 'export const shout = { eval: (s) => s.toUpperCase() + "!" };\n');
    env = TableEnvironment.create({ mode: 'batch', baseDir: dir });
    await env.executeSql("CREATE TEMPORARY FUNCTION shout AS './udf.mjs#shout' LANGUAGE JAVASCRIPT");
    expect((await rows("SELECT shout('hi') AS s"))[0]!.fields).toEqual(['HI!']);
    await expect(env.executeSql("CREATE TEMPORARY FUNCTION f AS './nope.mjs#x'")).rejects.toThrow("Could not load the function module './nope.mjs'");
  });

  it('cancels the job when the reader stops reading an unbounded result', async () => {
    env = TableEnvironment.create({ mode: 'streaming' });
    await env.executeSql(`CREATE TEMPORARY TABLE endless (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '1000')`);
    const result = await env.executeSql('SELECT n FROM endless');
    let seen = 0;
    for await (const row of result.collect()) {
      void row;
      if (++seen === 3) break;
    }
    expect(seen).toBe(3);
    await expect(result.getJobClient()!.waitForCompletion()).resolves.toMatchObject({ status: 'CANCELED' });
  });

  it('refuses an unbounded source in batch mode naming the table', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    await env.executeSql(`CREATE TEMPORARY TABLE endless (n BIGINT) WITH ('connector' = 'datagen')`);
    await expect(env.executeSql('SELECT n FROM endless')).rejects.toThrow(/endless/);
  });
});
