import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';

/**
 * A projection pushed into a CSV file source: the CSV decoder builds the produced row straight away (only the columns
 * the query reads). The watermark's time column is read even when the query does not select it, since the
 * source's watermark is computed from it; a column nobody reads is not converted (a bad value there is no error).
 */
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function table(lines: readonly string[], watermark: boolean): Promise<TableEnvironment> {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-csv-projection-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'in'));
  writeFileSync(join(dir, 'in', 'a.csv'), `${lines.join('\n')}\n`);
  const env = TableEnvironment.create({ mode: 'streaming', discoverPackages: false, config: { 'table.local-time-zone': 'UTC' } });
  await env.executeSql(
    `CREATE TABLE t (id INT, note STRING, ts TIMESTAMP(3), price BIGINT${watermark ? ", WATERMARK FOR ts AS ts - INTERVAL '1' SECOND" : ''})
     WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'in')}', 'format' = 'csv')`,
  );
  return env;
}

async function rows(env: TableEnvironment, sql: string): Promise<unknown[][]> {
  const out: unknown[][] = [];
  for await (const r of (await env.executeSql(sql)).collect()) out.push([...r.fields]);
  return out;
}

// A file line is one record (a quoted line break is the decoder tests' business, csv-fast-decoder.test.ts).
const GOOD = ['1,"a, ""quoted"" note",2024-01-01 00:00:01.000,10', '2,b,2024-01-01 00:00:02.500,20'];

describe('csv file source with a projection', () => {
  it('reads the selected columns, in the query order, past a skipped quoted field holding the delimiter', async () => {
    const env = await table(GOOD, false);
    expect(await rows(env, 'SELECT price, id FROM t')).toEqual([[10n, 1], [20n, 2]]);
    expect(await rows(env, 'SELECT note FROM t WHERE id = 1')).toEqual([['a, "quoted" note']]);
    // No column read at all: each record is still checked and counted.
    expect((await rows(env, 'SELECT COUNT(*) FROM t')).at(-1)).toEqual([2n]);
    await env.close();
  });

  it('still reads the watermark column when the query does not select it', async () => {
    const env = await table(GOOD, true);
    const plan = (await rows(env, 'EXPLAIN SELECT id, price FROM t')).flat().join('\n');
    expect(plan).toMatch(/project=\[id, ts, price\]|project=\[id, price, ts\]/);
    expect(await rows(env, 'SELECT id, price FROM t')).toEqual([[1, 10n], [2, 20n]]);
    await env.close();
  });

  it('a bad value in the unselected watermark column fails the record; without a watermark nobody reads it', async () => {
    const bad = [...GOOD, '3,c,not-a-time,30'];
    const withWatermark = await table(bad, true);
    await expect(rows(withWatermark, 'SELECT id FROM t')).rejects.toThrow(/line 3, .*field 'ts'/);
    await withWatermark.close();
    const without = await table(bad, false);
    expect(await rows(without, 'SELECT id FROM t')).toEqual([[1], [2], [3]]);
    await without.close();
  });
});
