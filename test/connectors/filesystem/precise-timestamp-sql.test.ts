import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';
import { formatValueJava } from '../../../src/types/values/format-value.js';
import { rowKindShortString } from '../../../src/types/row-kind.js';

// TIMESTAMP(p > 3) through files, end to end. The input and every expected text below are what a real Apache Flink
// 2.3.0 read and wrote for the same statements (scripts/flink-reference.sh): digits below the millisecond kept,
// not truncated to the column's precision (ts6 of row 3 holds 7 digits, as in Flink).
const INPUT = [
  '{"id":1,"ts":"2024-01-01 10:00:00.123456789","ts6":"2024-01-01 10:00:00.123456","ts3":"2024-01-01 10:00:00.123","ltz":"2024-01-01 10:00:00.123456Z"}',
  '{"id":2,"ts":"2024-01-01 10:00:00.1","ts6":"2024-01-01 10:00:00","ts3":"2024-01-01 10:00:00.1","ltz":"2024-01-01 10:00:00Z"}',
  '{"id":3,"ts":"2024-01-01 10:00:00.1000001","ts6":"2024-01-01 10:00:00.1234567","ts3":"2024-01-01 10:00:00.1239","ltz":"2024-01-01 10:00:00.000001Z"}',
];

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function session(): Promise<{ env: TableEnvironment; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-precise-ts-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'in'));
  writeFileSync(join(dir, 'in', 'a.json'), `${INPUT.join('\n')}\n`);
  const env = TableEnvironment.create({ mode: 'batch', discoverPackages: false, config: { 'table.local-time-zone': 'UTC' } });
  await env.executeSql(
    `CREATE TABLE j (id INT, ts TIMESTAMP(9), ts6 TIMESTAMP(6), ts3 TIMESTAMP(3), ltz TIMESTAMP_LTZ(6))
     WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'in')}', 'format' = 'json')`,
  );
  return { env, dir };
}

async function tsv(env: TableEnvironment, sql: string): Promise<string[]> {
  const result = await env.executeSql(sql);
  const types = result.getResolvedSchema().columnTypes();
  const out: string[] = [];
  for await (const r of result.collect()) out.push([rowKindShortString(r.kind), ...r.fields.map((v, i) => (v === null ? '\\N' : formatValueJava(v, types[i]!)))].join('\t'));
  return out.sort();
}

function written(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => !f.startsWith('.'))
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n'))
    .filter((l) => l !== '')
    .sort();
}

describe('TIMESTAMP(p > 3) through the JSON and CSV formats, as a real Flink 2.3 reads and writes them', () => {
  it('reads every digit of the JSON text', async () => {
    const { env } = await session();
    expect(await tsv(env, 'SELECT * FROM j')).toEqual([
      '+I\t1\t2024-01-01T10:00:00.123456789\t2024-01-01T10:00:00.123456\t2024-01-01T10:00:00.123\t2024-01-01T10:00:00.123456Z',
      '+I\t2\t2024-01-01T10:00:00.100\t2024-01-01T10:00\t2024-01-01T10:00:00.100\t2024-01-01T10:00:00Z',
      '+I\t3\t2024-01-01T10:00:00.100000100\t2024-01-01T10:00:00.123456700\t2024-01-01T10:00:00.123\t2024-01-01T10:00:00.000001Z',
    ]);
    await env.close();
  });

  it('writes JSON and CSV with every digit, trailing zeros stripped, and reads the CSV back', async () => {
    const { env, dir } = await session();
    await env.executeSql(
      `CREATE TABLE jout (id INT, ts TIMESTAMP(9), ts6 TIMESTAMP(6), ltz TIMESTAMP_LTZ(6))
       WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'jout')}', 'format' = 'json')`,
    );
    await env.executeSql(
      `CREATE TABLE cout (id INT, ts TIMESTAMP(9), ts6 TIMESTAMP(6), ltz TIMESTAMP_LTZ(6))
       WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'cout')}', 'format' = 'csv')`,
    );
    await (await env.executeSql('INSERT INTO jout SELECT id, ts, ts6, ltz FROM j')).await();
    await (await env.executeSql('INSERT INTO cout SELECT id, ts, ts6, ltz FROM j')).await();
    expect(written(join(dir, 'jout'))).toEqual([
      '{"id":1,"ts":"2024-01-01 10:00:00.123456789","ts6":"2024-01-01 10:00:00.123456","ltz":"2024-01-01 10:00:00.123456Z"}',
      '{"id":2,"ts":"2024-01-01 10:00:00.1","ts6":"2024-01-01 10:00:00","ltz":"2024-01-01 10:00:00Z"}',
      '{"id":3,"ts":"2024-01-01 10:00:00.1000001","ts6":"2024-01-01 10:00:00.1234567","ltz":"2024-01-01 10:00:00.000001Z"}',
    ]);
    expect(written(join(dir, 'cout'))).toEqual([
      '1,"2024-01-01 10:00:00.123456789","2024-01-01 10:00:00.123456","2024-01-01 10:00:00.123456Z"',
      '2,"2024-01-01 10:00:00.1","2024-01-01 10:00:00","2024-01-01 10:00:00Z"',
      '3,"2024-01-01 10:00:00.1000001","2024-01-01 10:00:00.1234567","2024-01-01 10:00:00.000001Z"',
    ]);
    expect(await tsv(env, 'SELECT id, ts, ts6 FROM cout WHERE ts6 > TIMESTAMP \'2024-01-01 10:00:00.123456\'')).toEqual([
      '+I\t3\t2024-01-01T10:00:00.100000100\t2024-01-01T10:00:00.123456700',
    ]);
    await env.close();
  });

  it('keeps Arrow micro- and nanoseconds through a write and a read', async () => {
    const { env, dir } = await session();
    await env.executeSql(
      `CREATE TABLE aout (id INT, ts TIMESTAMP(9), ts6 TIMESTAMP(6), ltz TIMESTAMP_LTZ(6))
       WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'aout')}', 'format' = 'arrow')`,
    );
    await (await env.executeSql('INSERT INTO aout SELECT id, ts, ts6, ltz FROM j')).await();
    await env.executeSql(
      `CREATE TABLE nout (id INT, r ROW<ts TIMESTAMP(9), ltz TIMESTAMP_LTZ(6)>, a ARRAY<TIMESTAMP(9)>)
       WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'nout')}', 'format' = 'arrow')`,
    );
    await (await env.executeSql('INSERT INTO nout SELECT id, ROW(ts, ltz), ARRAY[ts, ts6] FROM j')).await();
    expect(await tsv(env, 'SELECT id, r.ts, r.ltz, a[1], a[2] FROM nout')).toEqual([
      '+I\t1\t2024-01-01T10:00:00.123456789\t2024-01-01T10:00:00.123456Z\t2024-01-01T10:00:00.123456789\t2024-01-01T10:00:00.123456',
      '+I\t2\t2024-01-01T10:00:00.100\t2024-01-01T10:00:00Z\t2024-01-01T10:00:00.100\t2024-01-01T10:00',
      '+I\t3\t2024-01-01T10:00:00.100000100\t2024-01-01T10:00:00.000001Z\t2024-01-01T10:00:00.100000100\t2024-01-01T10:00:00.123456700',
    ]);
    // ts6 of row 3 holds a seventh digit (read from JSON as Flink does), which Timestamp[us] cannot carry.
    expect(await tsv(env, 'SELECT * FROM aout')).toEqual([
      '+I\t1\t2024-01-01T10:00:00.123456789\t2024-01-01T10:00:00.123456\t2024-01-01T10:00:00.123456Z',
      '+I\t2\t2024-01-01T10:00:00.100\t2024-01-01T10:00\t2024-01-01T10:00:00Z',
      '+I\t3\t2024-01-01T10:00:00.100000100\t2024-01-01T10:00:00.123456\t2024-01-01T10:00:00.000001Z',
    ]);
    await env.close();
  });

  it("keeps Avro microseconds with 'avro.timestamp_mapping.legacy' = 'false' and refuses them, as Flink, under the legacy default", async () => {
    const { env, dir } = await session();
    await env.executeSql(
      `CREATE TABLE vout (id INT, ts6 TIMESTAMP(6), ltz TIMESTAMP_LTZ(6))
       WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'vout')}', 'format' = 'avro', 'avro.timestamp_mapping.legacy' = 'false')`,
    );
    await (await env.executeSql('INSERT INTO vout SELECT id, ts6, ltz FROM j')).await();
    // Avro carries microseconds: the seventh digit of row 3's ts6 is dropped.
    expect(await tsv(env, 'SELECT * FROM vout')).toEqual([
      '+I\t1\t2024-01-01T10:00:00.123456\t2024-01-01T10:00:00.123456Z',
      '+I\t2\t2024-01-01T10:00\t2024-01-01T10:00:00Z',
      '+I\t3\t2024-01-01T10:00:00.123456\t2024-01-01T10:00:00.000001Z',
    ]);
    await env.executeSql(
      `CREATE TABLE legacy (id INT, ts6 TIMESTAMP(6)) WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'legacy')}', 'format' = 'avro')`,
    );
    await expect(env.executeSql('INSERT INTO legacy SELECT id, ts6 FROM j').then((r) => r.await())).rejects.toThrow(/Column 'ts6' is TIMESTAMP\(6\).*legacy timestamp mapping/);
    await env.close();
  });
});
