import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';

const root = mkdtempSync(join(tmpdir(), 'sluice-bytes-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

function folder(name: string, content: Buffer): { dir: string; file: string } {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'part-0');
  writeFileSync(file, content);
  return { dir, file };
}

async function query(ddl: string, sql: string): Promise<unknown[][]> {
  const env = TableEnvironment.create({ mode: 'batch' });
  try {
    await env.executeSql(ddl);
    const r = await env.executeSql(sql);
    const rows: unknown[][] = [];
    for await (const row of r.collect()) rows.push([...row.fields]);
    return rows.sort((a, b) => Number(a[0]) - Number(b[0]));
  } finally {
    await env.close();
  }
}

async function failure(ddl: string, sql: string): Promise<string> {
  try {
    await query(ddl, sql);
  } catch (e) {
    const chain: string[] = [];
    for (let x: unknown = e; x instanceof Error; x = x.cause) chain.push(x.message);
    return chain.join('\n');
  }
  throw new Error('expected the query to fail');
}

const table = (dir: string, format: string, extra = ''): string =>
  `CREATE TABLE t (id INT, d DOUBLE, s STRING) WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = '${format}'${extra})`;

describe('filesystem files with a BOM and bad bytes', () => {
  it('json: skips the BOM at the start of the file, keeping the first record', async () => {
    const { dir } = folder('json-bom', Buffer.concat([BOM, Buffer.from('{"id":1,"d":1.5,"s":"a"}\n{"id":2,"d":2.5,"s":"b"}\n')]));
    expect(await query(table(dir, 'json'), 'SELECT id, s FROM t')).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
  });

  it('csv: skips the BOM and reads NaN, Infinity and -Infinity in DOUBLE columns', async () => {
    const { dir } = folder('csv-bom', Buffer.concat([BOM, Buffer.from('1,NaN,a\n2,Infinity,b\n3,-Infinity,c\n')]));
    // `d <> d` is FALSE even for NaN, as in Flink, whose optimizer simplifies a comparison of an expression with
    // itself (test/differential/goldens/regressions.json); the NaN shows in the value and its text.
    const rows = await query(table(dir, 'csv'), 'SELECT id, d, CAST(d AS STRING), d <> d FROM t');
    expect(rows).toEqual([
      [1, NaN, 'NaN', false],
      [2, Infinity, 'Infinity', false],
      [3, -Infinity, '-Infinity', false],
    ]);
  });

  it('json: invalid UTF-8 fails naming the file, line and byte offset', async () => {
    const first = '{"id":1,"d":1,"s":"a"}\n';
    const { dir, file } = folder('json-bad', Buffer.concat([Buffer.from(first), Buffer.from('{"id":2,"d":2,"s":"x'), Buffer.from([0xff]), Buffer.from('"}\n')]));
    const message = await failure(table(dir, 'json'), 'SELECT * FROM t');
    expect(message).toContain(`Failed to deserialize JSON message (file ${file}, line 2, byte offset ${first.length}): Invalid UTF-8 byte 0xFF at byte 20 of the record.`);
  });

  it('csv: a bad field fails naming the file, line and byte offset', async () => {
    const { dir, file } = folder('csv-bad', Buffer.from('1,1.5,a\n2,2.5,b\n3,abc,c\n'));
    const message = await failure(table(dir, 'csv'), 'SELECT * FROM t');
    expect(message).toContain(`Failed to deserialize CSV line (file ${file}, line 3, byte offset 16): field 'd': cannot read 'abc' as DOUBLE.`);
  });

  it('csv: a bad field after a line with non-ASCII text names its byte offset (the chunk is read per line as bytes)', async () => {
    const { dir, file } = folder('csv-bad-utf8', Buffer.from('1,1.5,é\n3,abc,c\n'));
    const message = await failure(table(dir, 'csv'), 'SELECT * FROM t');
    expect(message).toContain(`Failed to deserialize CSV line (file ${file}, line 2, byte offset 9): field 'd': cannot read 'abc' as DOUBLE.`);
  });

  it('csv: ASCII and non-ASCII files, with LF or CRLF line breaks, read alike', async () => {
    const rows = [
      [1, 1.5, 'a'],
      [2, 2.5, 'b'],
    ];
    for (const [name, text] of [['csv-lf', '1,1.5,a\n2,2.5,b\n'], ['csv-crlf', '1,1.5,a\r\n2,2.5,b\r\n'], ['csv-crlf-last', '1,1.5,a\r\n2,2.5,b']]) {
      expect(await query(table(folder(name!, Buffer.from(text!)).dir, 'csv'), 'SELECT * FROM t')).toEqual(rows);
    }
    expect(await query(table(folder('csv-utf8', Buffer.from('1,1.5,é\r\n2,2.5,b\r\n')).dir, 'csv'), 'SELECT * FROM t')).toEqual([
      [1, 1.5, 'é'],
      [2, 2.5, 'b'],
    ]);
  });

  it('csv: a subset of the columns, in file order or not, reads the same values', async () => {
    const { dir } = folder('csv-columns', Buffer.from('1,1.5,a\n2,2.5,b\n'));
    expect(await query(table(dir, 'csv'), 'SELECT id, s FROM t')).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
    expect(await query(table(dir, 'csv'), 'SELECT d, s, id FROM t')).toEqual([
      [1.5, 'a', 1],
      [2.5, 'b', 2],
    ]);
    expect(await query(table(dir, 'csv'), 'SELECT s, d FROM t')).toEqual([
      ['a', 1.5],
      ['b', 2.5],
    ]);
  });

  it('ignore-parse-errors skips records that are not UTF-8 and keeps the rest', async () => {
    const body = Buffer.concat([Buffer.from('{"id":1,"d":1,"s":"a"}\n{"id":2,"d":2,"s":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n{"id":3,"d":3,"s":"c"}\n')]);
    const { dir } = folder('json-ignore', body);
    expect(await query(table(dir, 'json', ", 'json.ignore-parse-errors' = 'true'"), 'SELECT id, s FROM t')).toEqual([
      [1, 'a'],
      [3, 'c'],
    ]);
    const csv = folder('csv-ignore', Buffer.concat([Buffer.from('1,1,a\n2,2,'), Buffer.from([0xff]), Buffer.from('\n3,3,c\n')]));
    expect(await query(table(csv.dir, 'csv', ", 'csv.ignore-parse-errors' = 'true'"), 'SELECT id, s FROM t')).toEqual([
      [1, 'a'],
      [3, 'c'],
    ]);
  });
});
