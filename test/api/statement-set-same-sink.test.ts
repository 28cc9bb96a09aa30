import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { distinctSinkColumnNames } from '../../src/api/table-results.js';
import { TableEnvironment } from '../../src/api/table-environment.js';

let env: TableEnvironment;
afterEach(async () => {
  await env?.close();
});

async function readBack(path: string): Promise<number[]> {
  const out: number[] = [];
  await env.executeSql(`CREATE TEMPORARY TABLE back (n INT) WITH ('connector' = 'filesystem', 'path' = '${path}', 'format' = 'csv')`);
  for await (const r of (await env.executeSql('SELECT n FROM back')).collect()) out.push(r.fields[0] as number);
  return out.sort((a, b) => a - b);
}

describe('a statement set with two INSERTs into the same sink', () => {
  it('runs both through the StatementSet API; the sink holds the rows of both', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'sluice-set-')), 'out');
    env = TableEnvironment.create({ mode: 'batch' });
    await env.executeSql(`CREATE TEMPORARY TABLE out1 (n INT) WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'csv')`);
    const set = env.createStatementSet();
    set.addInsertSql('INSERT INTO out1 SELECT * FROM (VALUES (1), (2)) AS t(n)');
    set.addInsertSql('INSERT INTO out1 SELECT * FROM (VALUES (30), (40), (50)) AS t(n)');
    const result = await set.execute();
    // Flink's names for a sink written twice: one column per INSERT, suffixed _1, _2.
    expect(result.getResolvedSchema().columnNames()).toEqual(['default_catalog.default_database.out1_1', 'default_catalog.default_database.out1_2']);
    await result.await();
    expect(await readBack(dir)).toEqual([1, 2, 30, 40, 50]);
  });

  it('runs both through EXECUTE STATEMENT SET BEGIN ... END', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'sluice-set-')), 'out');
    env = TableEnvironment.create({ mode: 'batch' });
    await env.executeSql(`CREATE TEMPORARY TABLE src (n INT) WITH ('connector' = 'datagen', 'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '4')`);
    await env.executeSql(`CREATE TEMPORARY TABLE out1 (n INT) WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'csv')`);
    const result = await env.executeSql(`EXECUTE STATEMENT SET BEGIN
      INSERT INTO out1 SELECT n FROM src;
      INSERT INTO out1 SELECT n * 100 FROM src WHERE n > 2;
    END`);
    await result.await();
    expect(await readBack(dir)).toEqual([1, 2, 3, 4, 300, 400]);
  });
});

describe('distinctSinkColumnNames', () => {
  it('suffixes only the names that repeat, in order of appearance', () => {
    expect(distinctSinkColumnNames(['a', 'b', 'a', 'c', 'a'])).toEqual(['a_1', 'b', 'a_2', 'c', 'a_3']);
    expect(distinctSinkColumnNames(['a', 'b'])).toEqual(['a', 'b']);
  });
});
