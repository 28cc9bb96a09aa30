import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';
import { complete } from '../../../src/cli/repl/completer.js';

const envs: TableEnvironment[] = [];
afterEach(async () => {
  for (const e of envs.splice(0)) await e.close();
});

describe('REPL completion after CATALOG', () => {
  it('offers the catalogs only, for DESCRIBE / ALTER / SHOW CREATE / USE CATALOG', async () => {
    const env = TableEnvironment.create();
    envs.push(env);
    await env.executeSql("CREATE CATALOG cat2 WITH ('type' = 'generic_in_memory')");
    await env.executeSql("CREATE TABLE cats (a INT) WITH ('connector' = 'datagen')");
    for (const line of ['DESCRIBE CATALOG c', 'desc catalog extended c', 'ALTER CATALOG c', 'SHOW CREATE CATALOG c', 'USE CATALOG c']) {
      expect(await complete(env, '', line)).toEqual([['cat2'], 'c']);
    }
  });

  it('completes the statements\' own words', async () => {
    const env = TableEnvironment.create();
    envs.push(env);
    expect((await complete(env, '', 'DESCRIBE CAT'))[0]).toContain('CATALOG');
    expect((await complete(env, '', 'alter cat'))[0]).toContain('catalog');
  });
});

describe('REPL completion of materialized table statements', () => {
  it('completes their words, and the table after MATERIALIZED TABLE', async () => {
    const env = TableEnvironment.create();
    envs.push(env);
    await env.executeSql("CREATE TABLE src (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '1')");
    await env.executeSql("CREATE MATERIALIZED TABLE mat WITH ('connector' = 'blackhole') AS SELECT a FROM src");
    expect((await complete(env, '', 'CREATE MATER'))[0]).toEqual(['MATERIALIZED']);
    expect((await complete(env, '', 'create materialized table m fresh'))[0]).toEqual(['freshness']);
    expect((await complete(env, '', 'ALTER MATERIALIZED TABLE mat SUSP'))[0]).toEqual(['SUSPEND']);
    expect((await complete(env, '', 'DROP MATERIALIZED TABLE m'))[0]).toEqual(['mat']);
    await env.executeSql('DROP MATERIALIZED TABLE mat');
  });
});
