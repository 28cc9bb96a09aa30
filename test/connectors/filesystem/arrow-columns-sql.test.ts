import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';
import { ArrowBulkDecoder } from '../../../src/formats/arrow/arrow-bulk-decoder.js';
import { ColumnBatch } from '../../../src/types/columns/column-batch.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function rows(env: TableEnvironment, sql: string): Promise<string[]> {
  const out: string[] = [];
  for await (const r of (await env.executeSql(sql)).collect()) out.push(r.fields.map((f) => (f === null ? 'NULL' : String(f))).join(','));
  return out.sort();
}

async function arrowTable(): Promise<TableEnvironment> {
  const env = TableEnvironment.create({ mode: 'batch' });
  const dir = mkdtempSync(join(tmpdir(), 'sluice-arrow-sql-'));
  dirs.push(dir);
  await env.executeSql(
    `CREATE TABLE t (id BIGINT, s STRING, ts TIMESTAMP(3), fname STRING METADATA FROM 'file.name' VIRTUAL, p STRING)
     PARTITIONED BY (p) WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'arrow')`,
  );
  await (
    await env.executeSql(`INSERT INTO t (id, s, ts, p) VALUES
      (1, 'a', TIMESTAMP '2026-11-30 10:00:00.001', 'x'), (2, CAST(NULL AS STRING), TIMESTAMP '2026-11-30 10:00:00.002', 'x'),
      (3, 'c', CAST(NULL AS TIMESTAMP(3)), 'y')`)
  ).await();
  await env.executeSql(`CREATE TABLE bh (s STRING, id BIGINT, p STRING) WITH ('connector' = 'blackhole')`);
  return env;
}

describe('SQL over arrow files: columnar batches as far as the plan allows', () => {
  it('projections, partition and metadata columns read the same values as rows would', async () => {
    const env = await arrowTable();
    expect(await rows(env, 'SELECT s, id, p FROM t')).toEqual(['NULL,2,x', 'a,1,x', 'c,3,y']);
    expect((await rows(env, 'SELECT id, fname FROM t')).map((r) => r.replace(/part-[^,]*/, 'part'))).toEqual(['1,part', '2,part', '3,part']);
    expect(await rows(env, `SELECT id * 10, CAST(ts AS STRING) FROM t WHERE id > 1`)).toEqual(['20,2026-11-30 10:00:00.002', '30,NULL']);
    expect(await rows(env, 'SELECT p, COUNT(*), SUM(id) FROM t GROUP BY p')).toEqual(['x,2,3', 'y,1,3']);
    await env.close();
  });

  it('INSERT of a projection into a sink taking columns builds no row at all; a computing query builds them', async () => {
    const env = await arrowTable();
    const toRows = vi.spyOn(ColumnBatch.prototype, 'toRows');
    const columnar = vi.spyOn(ArrowBulkDecoder.prototype, 'decodeColumnBatches');
    try {
      await (await env.executeSql('INSERT INTO bh SELECT s, id, p FROM t')).await();
      expect(columnar).toHaveBeenCalledTimes(2); // one file per partition
      expect(toRows).not.toHaveBeenCalled();
      // A Calc that only picks columns (here one twice, which the source's projection cannot do) stays columnar.
      const select = vi.spyOn(ColumnBatch.prototype, 'select');
      await env.executeSql(`CREATE TABLE bh4 (s STRING, id BIGINT, p STRING, s2 STRING) WITH ('connector' = 'blackhole')`);
      await (await env.executeSql('INSERT INTO bh4 SELECT s, id, p, s FROM t')).await();
      expect(select).toHaveBeenCalled();
      select.mockRestore();
      expect(toRows).not.toHaveBeenCalled();
      await (await env.executeSql('INSERT INTO bh SELECT UPPER(s), id + 1, p FROM t')).await();
      expect(toRows).toHaveBeenCalled();
    } finally {
      toRows.mockRestore();
      columnar.mockRestore();
      await env.close();
    }
  });
});
