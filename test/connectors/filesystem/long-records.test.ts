import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';
import { LineRangeCursor } from '../../../src/connectors/filesystem/line-range-cursor.js';
import { ConnectorError } from '../../../src/errors/sluice-error.js';

const dir = mkdtempSync(join(tmpdir(), 'sluice-long-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MB = 1024 * 1024;

/** Reads a whole file through a cursor as the file source does (256 KiB chunks); lines and milliseconds. */
async function readAll(path: string, maxRecordBytes = 512 * MB): Promise<{ lines: number; bytes: number; ms: number }> {
  const h = await open(path, 'r');
  const c = new LineRangeCursor(h, 0, 0, Infinity, { maxRecordBytes, path });
  const t0 = performance.now();
  let lines = 0;
  let bytes = 0;
  for (;;) {
    const r = await c.next(256 * 1024);
    bytes += r.data.length;
    for (let i = r.data.indexOf(10); i >= 0; i = r.data.indexOf(10, i + 1)) lines++;
    if (r.done) break;
  }
  await c.close();
  return { lines, bytes, ms: performance.now() - t0 };
}

describe('long records', () => {
  it('reads one 32 MB line in about the time of 32 MB of short lines (linear, not quadratic)', async () => {
    const size = 32 * MB;
    const long = join(dir, 'long.txt');
    writeFileSync(long, `${'x'.repeat(size)}\n`);
    const short = join(dir, 'short.txt');
    writeFileSync(short, `${'y'.repeat(99)}\n`.repeat(size / 100));
    const l = await readAll(long);
    const s = await readAll(short);
    expect(l).toMatchObject({ lines: 1, bytes: size + 1 });
    expect(s.bytes).toBe(Math.floor(size / 100) * 100);
    // Quadratic reading took 24-39 s for a 32 MB line; linear is within a small factor of short lines.
    expect(l.ms).toBeLessThan(Math.max(10 * s.ms, 2000));
  }, 60_000);

  it('reads a 20 MB JSON record through SQL', async () => {
    const path = join(dir, 'json');
    rmSync(path, { recursive: true, force: true });
    const { mkdirSync } = await import('node:fs');
    mkdirSync(path);
    writeFileSync(join(path, 'a.json'), `{"id":1,"s":"a"}\n{"id":2,"s":"${'b'.repeat(20 * MB)}"}\n{"id":3,"s":"c"}\n`);
    const env = TableEnvironment.create({ mode: 'batch' });
    try {
      await env.executeSql(`CREATE TABLE t (id INT, s STRING) WITH ('connector' = 'filesystem', 'path' = '${path}', 'format' = 'json')`);
      const r = await env.executeSql('SELECT id, CHAR_LENGTH(s) FROM t');
      const rows: unknown[][] = [];
      for await (const row of r.collect()) rows.push([...row.fields]);
      expect(rows.sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([
        [1, 1],
        [2, 20 * MB],
        [3, 1],
      ]);
    } finally {
      await env.close();
    }
  }, 60_000);

  it("fails a record longer than 'source.max-record-size' naming the file and the record's byte offset", async () => {
    const path = join(dir, 'limit');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(path, { recursive: true });
    const file = join(path, 'a.json');
    const first = '{"id":1,"s":"a"}\n';
    writeFileSync(file, `${first}{"id":2,"s":"${'b'.repeat(3 * MB)}"}\n`);
    const env = TableEnvironment.create({ mode: 'batch' });
    try {
      await env.executeSql(
        `CREATE TABLE t (id INT, s STRING) WITH ('connector' = 'filesystem', 'path' = '${path}', 'format' = 'json', 'source.max-record-size' = '1 mb')`,
      );
      const r = await env.executeSql('SELECT id FROM t');
      const err = await (async () => {
        for await (const _ of r.collect()) {
          // drain
        }
      })().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeDefined();
      const chain: string[] = [];
      for (let e: unknown = err; e instanceof Error; e = e.cause) chain.push(e.message);
      expect(chain.join('\n')).toContain(`A record in file '${file}' starting at byte offset ${first.length} is longer than 'source.max-record-size' (1048576 bytes)`);
    } finally {
      await env.close();
    }
  }, 60_000);

  it('applies the limit to a line inside one chunk and to a line spanning chunks', async () => {
    const file = join(dir, 'cursor-limit.txt');
    writeFileSync(file, `short\n${'z'.repeat(5000)}\nshort\n`);
    const h = await open(file, 'r');
    const c = new LineRangeCursor(h, 0, 0, Infinity, { maxRecordBytes: 1000, path: file });
    let err: unknown;
    try {
      for (;;) if ((await c.next(1024)).done) break;
    } catch (e) {
      err = e;
    }
    await c.close();
    expect(err).toBeInstanceOf(ConnectorError);
    expect((err as Error).message).toContain(`file '${file}' starting at byte offset 6 is longer than 'source.max-record-size' (1000 bytes)`);
  });
});
