import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';
import { RowKind } from '../../src/types/row-kind.js';

/** The final table of a streaming GROUP BY: its changelog applied, keyed by the first column. */
async function groupBy(config: Record<string, string>): Promise<Map<unknown, unknown[]>> {
  const env = TableEnvironment.create({ config: { 'parallelism.default': '2', ...config } });
  await env.executeSql(`CREATE TEMPORARY TABLE nums (n BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '30000',
    'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '30000')`);
  const table = new Map<unknown, unknown[]>();
  const result = await env.executeSql('SELECT n % 5000 AS k, COUNT(*) AS c, SUM(n) AS s, MAX(n) AS m FROM nums GROUP BY n % 5000');
  for await (const r of result.collect()) {
    if (r.kind === RowKind.INSERT || r.kind === RowKind.UPDATE_AFTER) table.set(r.fields[0], r.fields);
    else table.delete(r.fields[0]);
  }
  await env.close();
  return table;
}

describe("SET 'state.backend.type'", () => {
  it("a GROUP BY over 5,000 keys gives the same table on 'lmdb' and on 'rocksdb' as on 'hashmap', and leaves no store behind", async () => {
    const heap = await groupBy({ 'state.backend.type': 'hashmap' });
    expect(heap.size).toBe(5_000);
    expect(heap.get(7)).toEqual([7, 6n, 7n + 5_007n + 10_007n + 15_007n + 20_007n + 25_007n, 25_007n]);
    // A cache far smaller than the state: most reads and writes go through the store.
    const dir = mkdtempSync(join(tmpdir(), 'sluice-lmdb-test-'));
    const lmdb = await groupBy({ 'state.backend.type': 'lmdb', 'state.backend.lmdb.memory.cache-size': '1 kb', 'state.backend.lmdb.localdir': dir });
    expect(lmdb).toEqual(heap);
    const rocks = await groupBy({ 'state.backend.type': 'ROCKSDB', 'state.backend.lmdb.memory.cache-size': '1 kb', 'state.backend.rocksdb.localdir': dir });
    expect(rocks).toEqual(heap);
    // One subtask on a worker thread: the native binding loads there too.
    expect(await groupBy({ 'state.backend.type': 'rocksdb', 'state.backend.lmdb.memory.cache-size': '1 kb', 'execution.worker-threads': '1' })).toEqual(heap);
    // The stores are working space: gone when the job ends (a RocksDB store once its asynchronous close is done).
    const stores = join(dir, 'sluice-lmdb');
    expect(existsSync(stores)).toBe(true);
    expect(readdirSync(stores)).toEqual([]);
    const rocksStores = join(dir, 'sluice-rocksdb');
    expect(existsSync(rocksStores)).toBe(true);
    await vi.waitFor(() => expect(readdirSync(rocksStores)).toEqual([]));
  });

  it('a batch GROUP BY, whose end reads every group back while iterating the keys, gives the same rows', async () => {
    const run = async (backend: string): Promise<string[]> => {
      const env = TableEnvironment.create({ config: { 'execution.runtime-mode': 'batch', 'state.backend.type': backend, 'state.backend.lmdb.memory.cache-size': '1 kb' } });
      await env.executeSql(`CREATE TEMPORARY TABLE nums (n BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '12000',
        'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '12000')`);
      const out: string[] = [];
      for await (const r of (await env.executeSql('SELECT n % 4000, COUNT(*), SUM(n) FROM nums GROUP BY n % 4000')).collect()) out.push(String(r.fields));
      await env.close();
      return out.sort();
    };
    const heap = await run('hashmap');
    expect(heap).toHaveLength(4_000);
    expect(heap).toContain('5,3,12015');
    expect(await run('lmdb')).toEqual(heap);
    expect(await run('rocksdb')).toEqual(heap);
  });

  it('refuses an unknown backend, naming the values it takes', async () => {
    const env = TableEnvironment.create();
    await expect(env.executeSql("SET 'state.backend.type' = 'forst'")).rejects.toThrow(/state\.backend\.type.*hashmap, lmdb, rocksdb/);
    await env.close();
  });
});
