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
      "From line 1, column 15 to line 1, column 39: Object 'default_database.custmers' not found; did you mean 'default_database.customers'?",
    );
    expect((await failure('INSERT INTO ordrs SELECT 1')).message).toContain("From line 1, column 13 to line 1, column 17: Object 'ordrs' not found; did you mean 'orders'?");
  });

  it('suggests a CTE name and gives no hint when nothing is near', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    expect((await failure('WITH totals AS (SELECT 1 AS n) SELECT * FROM totls')).message).toContain("did you mean 'totals'?");
    expect((await failure('SELECT * FROM zzzzzz')).message).toBe("From line 1, column 15 to line 1, column 20: Object 'zzzzzz' not found");
  });

  it('inside a view names the object without a position from the view text', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    await env.executeSql("CREATE TEMPORARY TABLE src (id INT) WITH ('connector' = 'datagen', 'number-of-rows' = '1')");
    await env.executeSql('CREATE TEMPORARY VIEW v AS SELECT * FROM src');
    await env.executeSql('DROP TEMPORARY TABLE src');
    expect((await failure('SELECT * FROM v')).message).toBe("Object 'src' not found");
  });
});
