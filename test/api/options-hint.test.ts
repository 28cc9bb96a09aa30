import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';

let env: TableEnvironment;
afterEach(async () => {
  await env?.close();
});

const SEQ = `CREATE TEMPORARY TABLE seq (n BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '5',
  'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '5')`;

async function rows(sql: string): Promise<unknown[][]> {
  const out: unknown[][] = [];
  for await (const r of (await env.executeSql(sql)).collect()) out.push([...r.fields]);
  return out;
}

describe("/*+ OPTIONS('k' = 'v') */ table hints (Flink's dynamic table options)", () => {
  it('override a source option for that scan only', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    await env.executeSql(SEQ);
    expect(await rows(`SELECT COUNT(*), SUM(n) FROM seq /*+ OPTIONS('number-of-rows' = '3', 'fields.n.end' = '3') */`)).toEqual([[3n, 6n]]);
    // The table itself is unchanged: the next scan without the hint reads all five.
    expect(await rows('SELECT COUNT(*), SUM(n) FROM seq')).toEqual([[5n, 15n]]);
  });

  it('override a sink option of an INSERT', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    const dir = mkdtempSync(join(tmpdir(), 'sluice-hint-'));
    await env.executeSql(SEQ);
    await env.executeSql(`CREATE TEMPORARY TABLE out_t (n BIGINT) WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'wrong')}', 'format' = 'csv')`);
    await (await env.executeSql(`INSERT INTO out_t /*+ OPTIONS('path' = '${join(dir, 'right')}') */ SELECT n FROM seq`)).await();
    await env.executeSql(`CREATE TEMPORARY TABLE back (n BIGINT) WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'right')}', 'format' = 'csv')`);
    expect((await rows('SELECT n FROM back')).map((r) => r[0]).sort()).toEqual([1n, 2n, 3n, 4n, 5n]);
  });

  it('are validated by the factory like WITH options, and refused on views or when disabled', async () => {
    env = TableEnvironment.create({ mode: 'batch' });
    await env.executeSql(SEQ);
    await expect(rows(`SELECT * FROM seq /*+ OPTIONS('number-of-rowz' = '3') */`)).rejects.toThrow(/number-of-rowz/);
    await env.executeSql('CREATE TEMPORARY VIEW v AS SELECT n FROM seq');
    await expect(rows(`SELECT * FROM v /*+ OPTIONS('number-of-rows' = '3') */`)).rejects.toThrow("View 'v' cannot be enriched with new options. Hints can only be applied to tables.");
    await env.executeSql(`SET 'table.dynamic-table-options.enabled' = 'false'`);
    await expect(rows(`SELECT * FROM seq /*+ OPTIONS('number-of-rows' = '3') */`)).rejects.toThrow(
      'OPTIONS hint is allowed only when table.dynamic-table-options.enabled is set to true',
    );
  });
});
