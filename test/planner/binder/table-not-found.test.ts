import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';
import { ValidationError } from '../../../src/errors/sluice-error.js';

let env: TableEnvironment;
afterEach(async () => {
  await env?.close();
});

async function failure(sql: string): Promise<Error> {
  const e = await env.executeSql(sql).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ValidationError);
  return e as Error;
}

describe('an unknown table name', () => {
  it('points at the name and suggests the nearest table or view of the database', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    await env.executeSql("CREATE TEMPORARY TABLE orders (id INT) WITH ('connector' = 'datagen', 'number-of-rows' = '1')");
    await env.executeSql("CREATE TABLE customers (id INT) WITH ('connector' = 'datagen', 'number-of-rows' = '1')");
    expect((await failure('SELECT id\nFROM   ordres')).message).toBe("From line 2, column 8 to line 2, column 13: Object 'ordres' not found; did you mean 'orders'?");
    expect((await failure('SELECT * FROM default_database.custmers')).message).toBe(
      "From line 1, column 15 to line 1, column 39: Object 'custmers' not found within 'default_catalog.default_database'; did you mean 'default_database.customers'?",
    );
    expect((await failure('INSERT INTO ordrs SELECT 1')).message).toContain("From line 1, column 13 to line 1, column 17: Object 'ordrs' not found; did you mean 'orders'?");
  });

  // Flink 2.3.0's messages for the same names (scripts/flink-sql-client.sh): the first part that does not resolve.
  it('names the part of a qualified name that does not resolve, within what did, as Calcite does', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    expect((await failure('SELECT * FROM nocat.nodb.t')).message).toMatch(/: Object 'nocat' not found$/);
    expect((await failure('SELECT * FROM default_catalog.nodb.t')).message).toMatch(/: Object 'nodb' not found within 'default_catalog'$/);
    expect((await failure('SELECT * FROM nodb.t')).message).toMatch(/: Object 'nodb' not found$/);
    expect((await failure('SELECT * FROM default_database.t')).message).toMatch(/: Object 't' not found within 'default_catalog.default_database'$/);
  });

  it('suggests a CTE name and gives no hint when nothing is near', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    expect((await failure('WITH totals AS (SELECT 1 AS n) SELECT * FROM totls')).message).toContain("did you mean 'totals'?");
    expect((await failure('SELECT * FROM zzzzzz')).message).toBe("From line 1, column 15 to line 1, column 20: Object 'zzzzzz' not found");
  });

  it('inside a view names the view and points at its use, not at a position in the view text', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    await env.executeSql("CREATE TEMPORARY TABLE src (id INT) WITH ('connector' = 'datagen', 'number-of-rows' = '1')");
    await env.executeSql('CREATE TEMPORARY VIEW v AS SELECT * FROM src');
    await env.executeSql('DROP TEMPORARY TABLE src');
    // The view keeps its query expanded, `src` by its full name, so Flink names the database it looked in.
    expect((await failure('SELECT *\n  FROM v')).message).toBe(
      "At line 2, column 8: In view 'default_catalog.default_database.v': Object 'src' not found within 'default_catalog.default_database'",
    );
  });

  it('a column a view needs and its table no longer has is reported at the view\'s use, naming the view', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    await env.executeSql("CREATE TEMPORARY TABLE src (id INT, name STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '1')");
    await env.executeSql('CREATE TEMPORARY VIEW names AS SELECT id, name FROM src');
    await env.executeSql('DROP TEMPORARY TABLE src');
    await env.executeSql("CREATE TEMPORARY TABLE src (id INT) WITH ('connector' = 'datagen', 'number-of-rows' = '1')");
    const e = await failure('SELECT n.id FROM names AS n');
    expect(e.message).toMatch(/^From line 1, column 18 to line 1, column 22: In view 'default_catalog.default_database.names': Column 'name' not found/);
    expect((e as ValidationError).range).toEqual({ line: 1, column: 18, endLine: 1, endColumn: 22 });
  });
});
