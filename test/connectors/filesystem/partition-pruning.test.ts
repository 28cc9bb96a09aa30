import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';
import type { Row } from '../../../src/types/row.js';

let env: TableEnvironment | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await env?.close();
  env = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** dt=2024-01-01/hr=10 (good), dt=2024-01-02/hr=11 (a corrupt file), dt=__DEFAULT_PARTITION__/hr=10 (good). */
function partitionedDir(): string {
  const root = mkdtempSync(join(tmpdir(), 'sluice-prune-'));
  dirs.push(root);
  const put = (rel: string, text: string): void => {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  put('dt=2024-01-01/hr=10/part-0.json', '{"id":1,"name":"a"}\n{"id":2,"name":"b"}\n');
  put('dt=2024-01-02/hr=11/part-0.json', '{"id":3,"name":\n this is not json\n');
  put('dt=__DEFAULT_PARTITION__/hr=10/part-0.json', '{"id":4,"name":"d"}\n');
  return root;
}

async function createTable(root: string, extra = ''): Promise<void> {
  await env!.executeSql(`CREATE TABLE t (id INT, name STRING, dt STRING, hr INT) PARTITIONED BY (dt, hr) WITH (
    'connector' = 'filesystem', 'path' = '${root}', 'format' = 'json'${extra})`);
}

async function collectAll(sql: string): Promise<string[]> {
  const out: string[] = [];
  for await (const r of (await env!.executeSql(sql)).collect()) out.push(JSON.stringify(r.fields));
  return out.sort();
}

async function explainText(sql: string): Promise<string> {
  const lines: string[] = [];
  for await (const r of (await env!.executeSql(`EXPLAIN ${sql}`)).collect()) lines.push(String(r.fields[0]));
  return lines.join('\n');
}

describe('filesystem partition push-down', () => {
  it('batch: reads only the partitions the WHERE clause keeps, so a corrupt file in a pruned one does not fail the job', async () => {
    const root = partitionedDir();
    env = TableEnvironment.create({ mode: 'batch' });
    await createTable(root);
    await expect(collectAll('SELECT id FROM t')).rejects.toThrow();
    const sql = "SELECT id, name, hr FROM t WHERE dt = '2024-01-01' AND hr = 10";
    expect(await collectAll(sql)).toEqual(['[1,"a",10]', '[2,"b",10]']);
    expect(await explainText(sql)).toContain('t, partitions=[{dt=2024-01-01, hr=10}], project=[id, name, hr], metadata=[]]]');
    expect(await collectAll('SELECT id, dt FROM t WHERE dt IS NULL')).toEqual(['[4,null]']);
    // dt <> '...' is NULL, not TRUE, for the default (NULL) partition: pruned as SQL filters it.
    expect(await collectAll("SELECT id FROM t WHERE dt <> '2024-01-02' AND id > 1")).toEqual(['[2]']);
    expect(await collectAll("SELECT id FROM t WHERE (dt <> '2024-01-02' OR dt IS NULL) AND id > 1")).toEqual(['[2]', '[4]']);
  });

  it('streaming with source.monitor-interval: new files in kept partitions are read; pruned and new partitions are not (as Flink)', async () => {
    const root = partitionedDir();
    env = TableEnvironment.create({ mode: 'streaming' });
    await createTable(root, ", 'source.monitor-interval' = '20 ms'");
    const result = await env.executeSql("SELECT id FROM t WHERE dt = '2024-01-01'");
    const rows: Row[] = [];
    const it = result.collect();
    let failure: unknown;
    const consumer = (async () => {
      try {
        for await (const r of it) rows.push(r);
      } catch (e) {
        failure = e;
      }
    })();
    const waitFor = async (n: number): Promise<void> => {
      for (let i = 0; i < 200 && rows.length < n && failure === undefined; i++) await new Promise((r) => setTimeout(r, 20));
    };
    await waitFor(2);
    writeFileSync(join(root, 'dt=2024-01-01/hr=10/part-1.json'), '{"id":5,"name":"e"}\n');
    mkdirSync(join(root, 'dt=2024-01-01/hr=12'), { recursive: true });
    writeFileSync(join(root, 'dt=2024-01-01/hr=12/part-0.json'), '{"id":6,"name":"f"}\n');
    await waitFor(3);
    await new Promise((r) => setTimeout(r, 200));
    await it.close();
    await consumer;
    expect(failure).toBeUndefined();
    expect(rows.map((r) => r.fields[0]).sort()).toEqual([1, 2, 5]);
  });
});
