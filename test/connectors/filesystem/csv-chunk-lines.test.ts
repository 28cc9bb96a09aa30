import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Configuration } from '../../../src/config/configuration.js';
import { FileSource, type FieldSource } from '../../../src/connectors/filesystem/file-source.js';
import { CsvFormatFactory } from '../../../src/formats/csv/csv-format-factory.js';
import { DataTypes, FIELD } from '../../../src/types/data-types.js';
import type { RowType } from '../../../src/types/logical-type.js';
import type { Row } from '../../../src/types/row.js';
import { MemorySink, pipe, runToEnd, tableContext } from '../datagen/context.js';

/**
 * CSV files read through the file source's in-place path (an ASCII chunk decoded once, lines read by offsets) and
 * through the per-line paths (non-ASCII chunks), at chunk sizes that cut records, quoted fields and multi-byte
 * characters anywhere: every chunk size must give the rows of the largest one, which reads each file in one piece.
 */
const root = mkdtempSync(join(tmpdir(), 'sluice-csv-chunks-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const TYPE: RowType = DataTypes.ROW(
  FIELD('id', DataTypes.INT()),
  FIELD('big', DataTypes.BIGINT()),
  FIELD('s', DataTypes.STRING()),
  FIELD('ts', DataTypes.TIMESTAMP(3)),
  FIELD('d', DataTypes.DECIMAL(10, 2)),
);

/** Mostly ASCII lines; some with multi-byte text, quoted fields (with delimiters, doubled quotes), CRLF, blank lines. */
function csvText(lines: number): string {
  let out = '';
  for (let i = 1; i <= lines; i++) {
    const s = i % 17 === 0 ? `"é€🎉 ${i}"` : i % 5 === 0 ? `"a,""b"" ${i}"` : i % 3 === 0 ? `"quoted ${i}"` : `plain-string-number-${i}`;
    const ts = `2024-01-0${1 + (i % 9)} 10:${String(i % 60).padStart(2, '0')}:00.${String(i % 1000).padStart(3, '0')}`;
    out += `${i},${i * 1_000_003},${s},${ts},${(i % 997) / 4}`;
    out += i % 4 === 0 ? '\r\n' : '\n';
    if (i % 23 === 0) out += '\n';
  }
  return out;
}

async function read(dir: string, chunkSize: number, fields: readonly FieldSource[], options: Record<string, string> = {}, type = TYPE): Promise<Row[]> {
  const config = new Configuration();
  for (const [k, v] of Object.entries(options)) config.set(k, v);
  const format = new CsvFormatFactory().createDecodingFormat(tableContext([], {}), config);
  // As the filesystem table source: the decoder produces the file fields read, which index its rows.
  const projection = fields.flatMap((f) => (f.kind === 'file' ? [f.index] : []));
  const produced = fields.map((f): FieldSource => (f.kind === 'file' ? { kind: 'file', index: projection.indexOf(f.index) } : f));
  const sink = new MemorySink();
  const source = new FileSource({
    root: dir, partitionKeys: [], pathRegex: undefined, monitorIntervalMs: undefined,
    format: { kind: 'lines', decoder: () => format.createProjectedDecoder!(type, projection), projected: true },
    fields: produced, chunkSize,
  });
  await runToEnd(pipe(source, sink, 1));
  return sink.rows;
}

const ALL: FieldSource[] = [0, 1, 2, 3, 4].map((index) => ({ kind: 'file', index }));
const key = (rows: readonly Row[]): string[] => rows.map((r) => JSON.stringify(r.fields, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)));

function folder(name: string, text: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'part-0.csv'), text);
  return dir;
}

describe('csv files read in chunks of every size', () => {
  it('gives the same rows at every chunk size, all columns and a projection', async () => {
    const dir = folder('mixed', csvText(400));
    const all = await read(dir, 1 << 20, ALL);
    expect(all[16]!.fields).toEqual([17, 17_000_051n, 'é€🎉 17', Date.UTC(2024, 0, 9, 10, 17, 0, 17), all[16]!.fields[4]]);
    expect(all[4]!.fields.slice(0, 3)).toEqual([5, 5_000_015n, 'a,"b" 5']);
    expect(all[3]!.fields.slice(0, 3)).toEqual([4, 4_000_012n, 'plain-string-number-4']);
    for (const fields of [ALL, [{ kind: 'file', index: 3 }, { kind: 'file', index: 0 }] as FieldSource[]]) {
      const whole = key(await read(dir, 1 << 20, fields));
      expect(whole.length).toBe(400);
      for (const size of [1, 7, 64, 333, 4096]) expect(key(await read(dir, size, fields)), `chunk ${size}`).toEqual(whole);
    }
  });

  it('a one-column file (no delimiter anywhere) and lenient bad records, at every chunk size', async () => {
    const one = folder('one-column', Array.from({ length: 300 }, (_, i) => `${i}`).join('\n'));
    const ids = Array.from({ length: 300 }, (_, i) => [i]);
    for (const size of [3, 64, 1 << 20]) expect((await read(one, size, [{ kind: 'file', index: 0 }], {}, DataTypes.ROW(FIELD('id', DataTypes.INT())))).map((r) => [...r.fields])).toEqual(ids);
    // Bad records (a bad INT, too many fields, an unterminated quote) are dropped whole with ignore-parse-errors.
    const bad = folder('lenient', csvText(50) + '51,1,x,2024-01-01 00:00:00,1\nnope,1,x,2024-01-01 00:00:00,1\n52,1,x,2024-01-01 00:00:00,1,9\n53,1,"x,2024-01-01 00:00:00,1\n54,1,x,2024-01-01 00:00:00,1');
    for (const size of [5, 100, 1 << 20]) {
      const rows = await read(bad, size, ALL, { 'ignore-parse-errors': 'true' });
      expect(rows.map((r) => r.fields[0]), `chunk ${size}`).toEqual([...Array.from({ length: 51 }, (_, i) => i + 1), null, 54]);
    }
  });

  it('an ASCII file larger than a text window, with a line longer than one, at every chunk size', async () => {
    // Past 32 KiB an ASCII chunk is decoded in windows of whole lines; a 40,000-char line is a window of its own.
    // A 70,000-char line is longer than the line tail the file reader copies in front of the next chunk.
    const long = (i: number): string | undefined => (i === 1500 ? 'L'.repeat(40_000) : i === 2500 ? 'M'.repeat(70_000) : undefined);
    const lines = Array.from({ length: 3000 }, (_, i) => `${i},${i},${long(i) ?? `s${i}`},2024-01-01 00:00:00.000,1.5`);
    const dir = folder('windows', `${lines.join('\n')}\n`);
    const want = lines.map((_, i) => [i, BigInt(i), long(i) ?? `s${i}`]);
    for (const size of [100, 4096, 64 * 1024, 256 * 1024, 1 << 20]) {
      const rows = await read(dir, size, ALL);
      expect(rows.map((r) => r.fields.slice(0, 3)), `chunk ${size}`).toEqual(want);
    }
  });

  it('a non-ASCII file (a byte order mark, CRLF, comments, a line longer than a text window) at every chunk size', async () => {
    // Text first and last: a byte order mark or a carriage return left in a line would show in them.
    const type = DataTypes.ROW(FIELD('first', DataTypes.STRING()), FIELD('big', DataTypes.BIGINT()), FIELD('s', DataTypes.STRING()), FIELD('ts', DataTypes.TIMESTAMP(3)), FIELD('last', DataTypes.STRING()));
    const name = (i: number): string => (i === 1700 ? 'Ж'.repeat(30_000) : i % 7 === 0 ? `Zoë-${i}-€` : `plain-${i}`);
    const lines = Array.from({ length: 3000 }, (_, i) => `${i},${i},${name(i)},2024-01-01 00:00:00.000,tail-${i}${i % 3 === 0 ? '\r' : ''}`);
    const withComments = lines.flatMap((l, i) => (i % 500 === 499 ? [l, '# a comment ünd more'] : [l]));
    const dir = folder('utf8-windows', `\uFEFF${withComments.join('\n')}\n`);
    const want = lines.map((_, i) => [String(i), BigInt(i), name(i), Date.UTC(2024, 0, 1), `tail-${i}`]);
    for (const size of [100, 4096, 64 * 1024, 256 * 1024, 1 << 20]) {
      const rows = await read(dir, size, ALL, { 'allow-comments': 'true' }, type);
      expect(rows.map((r) => [...r.fields]), `chunk ${size}`).toEqual(want);
    }
  });

  it('a chunk with bytes that are not UTF-8 names the bad line, or skips it when lenient', async () => {
    const good = Array.from({ length: 200 }, (_, i) => `${i},${i},café-${i},2024-01-01 00:00:00.000,1.5`);
    const bytes = Buffer.concat([Buffer.from(`${good.slice(0, 100).join('\n')}\n`), Buffer.from('100,100,bad-'), Buffer.from([0xff, 0xfe]), Buffer.from(`,2024-01-01 00:00:00.000,1.5\n${good.slice(101).join('\n')}\n`)]);
    const dir = join(root, 'not-utf8');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'part-0.csv'), bytes);
    const offset = Buffer.byteLength(`${good.slice(0, 100).join('\n')}\n`);
    for (const size of [64, 4096, 1 << 20]) {
      await expect(read(dir, size, ALL), `chunk ${size}`).rejects.toThrow(`line 101, byte offset ${offset})`);
      const rows = await read(dir, size, ALL, { 'ignore-parse-errors': 'true' });
      expect(rows.map((r) => r.fields[0]), `chunk ${size}`).toEqual(Array.from({ length: 200 }, (_, i) => i).filter((i) => i !== 100));
    }
  });

  it('names the line and byte offset of a bad record at every chunk size (lines counted across chunks)', async () => {
    const text = csvText(300);
    const bad = `${text}301,1,x,not-a-time,1\n`;
    const dir = folder('bad-line', bad);
    // csvText's blank lines count: the bad record is on the file's last line.
    const line = bad.split('\n').length - 1;
    const offset = Buffer.byteLength(text);
    for (const size of [7, 64, 333, 4096, 1 << 20]) {
      await expect(read(dir, size, ALL), `chunk ${size}`).rejects.toThrow(`line ${line}, byte offset ${offset}): field 'ts'`);
    }
  });
});
