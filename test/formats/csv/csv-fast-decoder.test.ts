import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { DataTypes, FIELD } from '../../../src/types/data-types.js';
import type { LogicalType, RowType } from '../../../src/types/logical-type.js';
import { CsvRowDecoder } from '../../../src/formats/csv/csv-row-decoder.js';
import { createCsvFastDecoder } from '../../../src/formats/csv/csv-fast-decoder.js';
import { createCsvFieldReader } from '../../../src/formats/csv/csv-values.js';
import { DEFAULT_CSV } from '../../../src/formats/csv/csv-options.js';
import type { CsvSettings } from '../../../src/formats/csv/csv-options.js';
import { FastRandom } from '../../../src/connectors/datagen/random.js';
import { bytes } from '../fixtures.js';
import { PreciseTimestamp } from '../../../src/types/values/precise-timestamp.js';

/** Deterministic draws in [0, 1), so a failing record can be reproduced from the seed. */
function prng(seed: number): () => number {
  const random = new FastRandom(seed);
  return () => random.next();
}

/** Some of `width` field indexes (possibly none, possibly repeated once) in random order. */
function randomProjection(r: () => number, width: number): number[] {
  const kept = Array.from({ length: width }, (_, i) => i).filter(() => r() < 0.6);
  if (kept.length > 0 && r() < 0.1) kept.push(kept[0]!);
  for (let i = kept.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [kept[i], kept[j]] = [kept[j]!, kept[i]!];
  }
  return kept;
}

function fast(rowType: RowType, settings: CsvSettings): (line: string) => unknown[] | undefined {
  const readers = rowType.fields.map((f) => createCsvFieldReader(f.type, settings));
  const decoder = createCsvFastDecoder(rowType, settings, readers);
  if (decoder === undefined) throw new Error('no fast decoder');
  return (line) => decoder(line, 0, line.length, undefined);
}

const BIDS = DataTypes.ROW(
  FIELD('auction', DataTypes.BIGINT()),
  FIELD('price', DataTypes.INT()),
  FIELD('url', DataTypes.STRING()),
  FIELD('dateTime', DataTypes.TIMESTAMP(3)),
  FIELD('at', DataTypes.TIMESTAMP_LTZ(3)),
  FIELD('extra', DataTypes.STRING()),
);

describe('csv fast decoder', () => {
  it('reads a TIMESTAMP(p > 3) in place up to milliseconds and leaves finer fields to the field reader', () => {
    const type = DataTypes.ROW(FIELD('ts', DataTypes.TIMESTAMP(6)), FIELD('ltz', DataTypes.TIMESTAMP_LTZ(9)));
    const read = fast(type, DEFAULT_CSV);
    const ms = Date.UTC(2024, 0, 1, 10, 0, 0, 123);
    expect(read('2024-01-01 10:00:00.123,2024-01-01 10:00:00.123Z')).toEqual([ms, ms]);
    expect(read('2024-01-01 10:00:00.123456,"2024-01-01 10:00:00.123456789Z"')).toEqual([new PreciseTimestamp(ms, 456_000), new PreciseTimestamp(ms, 456_789)]);
  });

  it('reads the common record shape itself: quoted and unquoted fields, integers, SQL timestamps', () => {
    const read = fast(BIDS, DEFAULT_CSV);
    expect(read('1005,-39695,"https://x/?a=1,b",2020-01-01 00:00:00.085,"2020-02-29 23:59:59.5Z",')).toEqual([
      1005n,
      -39695,
      'https://x/?a=1,b',
      Date.UTC(2020, 0, 1, 0, 0, 0, 85),
      Date.UTC(2020, 1, 29, 23, 59, 59, 500),
      '',
    ]);
    expect(read('+7,0,"",2020-01-01 00:00:00,"2020-01-01 00:00:00.12",ü')).toEqual([7n, 0, '', Date.UTC(2020, 0, 1), Date.UTC(2020, 0, 1, 0, 0, 0, 120), 'ü']);
    // Fields the fast code does not read itself go to the column's reader: empty numbers are NULL.
    expect(read(',,x,,,y')).toEqual([null, null, 'x', null, null, 'y']);
  });

  it('leaves every uncommon or bad record to the general path', () => {
    const read = fast(BIDS, DEFAULT_CSV);
    const ok = '1,2,u,2020-01-01 00:00:00,2020-01-01 00:00:00,e';
    expect(read(ok)).toBeDefined();
    for (const line of [
      '1,2,u,2020-01-01 00:00:00,2020-01-01 00:00:00', // too few fields
      `${ok},`, // too many
      '1,2,"a""b",2020-01-01 00:00:00,2020-01-01 00:00:00,e', // doubled quote
      '1,2,"a"b,2020-01-01 00:00:00,2020-01-01 00:00:00,e', // text after the closing quote
      '1,2,"u,2020-01-01 00:00:00,2020-01-01 00:00:00,e', // unterminated
      '1,99999999999,u,2020-01-01 00:00:00,2020-01-01 00:00:00,e', // INT out of range
      'x,2,u,2020-01-01 00:00:00,2020-01-01 00:00:00,e', // not a number
      '1,2,u,2021-02-29 00:00:00,2020-01-01 00:00:00,e', // no such date
      '1,2,u,2020-01-01 24:00:00,2020-01-01 00:00:00,e', // no such hour
    ]) {
      expect(read(line), line).toBeUndefined();
    }
    // Timestamps in another accepted shape are read by the column's reader, not rejected.
    expect(read('1,2,u,2020-01-01T00:00:00.123456,2020-01-01 00:00:00.123456789Z,e')).toEqual([
      1n, 2, 'u', Date.UTC(2020, 0, 1, 0, 0, 0, 123), Date.UTC(2020, 0, 1, 0, 0, 0, 123), 'e',
    ]);
    expect(fast(BIDS, { ...DEFAULT_CSV, escapeCharacter: '\\' })('1,2,a\\,b,2020-01-01 00:00:00,2020-01-01 00:00:00,e')).toBeUndefined();
    expect(createCsvFastDecoder(BIDS, { ...DEFAULT_CSV, fieldDelimiter: '"' }, [])).toBeUndefined();
  });

  it('honours null-literal, disabled quoting and other delimiters', () => {
    const nulls = fast(BIDS, { ...DEFAULT_CSV, nullLiteral: 'null' });
    expect(nulls('null,null,null,"null",null,nullx')).toEqual([null, null, null, null, null, 'nullx']);
    const noQuote = fast(BIDS, { ...DEFAULT_CSV, quoteCharacter: undefined });
    expect(noQuote('1,2,"u",2020-01-01 00:00:00,2020-01-01 00:00:00,"e')).toEqual([1n, 2, '"u"', Date.UTC(2020, 0, 1), Date.UTC(2020, 0, 1), '"e']);
    const pipe = fast(BIDS, { ...DEFAULT_CSV, fieldDelimiter: '\t', quoteCharacter: "'" });
    expect(pipe("1\t2\t'a\tb'\t2020-01-01 00:00:00\t2020-01-01 00:00:00\t\"")).toEqual([1n, 2, 'a\tb', Date.UTC(2020, 0, 1), Date.UTC(2020, 0, 1), '"']);
  });
});

/**
 * Column types of the random schemas, with texts that read (some in edge shapes) and texts that do not.
 * Bad texts are rarer, so that most records decode and the fast path is exercised, not just the errors.
 */
const COLUMNS: { type: LogicalType; good: (r: () => number) => string[]; bad: string[] }[] = [
  { type: DataTypes.BIGINT(), good: (r) => ['0', '-0', '+12', '9007199254740993', '123456789012345', '1234567890123456', '-123456789012345', '0000000000000001', String(Math.floor(r() * 1e9))], bad: ['-', ' 5', '1e3', '12x', '+-1', '5 '] },
  { type: DataTypes.INT(), good: (r) => ['2147483647', '-2147483648', '007', '', String(Math.floor(r() * 2e5) - 1e5)], bad: ['2147483648', '+', '1.0'] },
  { type: DataTypes.TINYINT(), good: () => ['127', '-128', '12'], bad: ['128', '-129', 'x'] },
  { type: DataTypes.STRING(), good: () => ['', 'plain', 'a,b', 'a|b', 'q"uo"te', "it's", 'back\\slash', 'line\nbreak', 'ü€', 'null', ' '], bad: [] },
  {
    type: DataTypes.TIMESTAMP(3),
    good: (r) => [
      '2020-01-01 00:00:00', '2020-01-01 00:00:00.1', '2020-01-01 00:00:00.12', '2020-12-31 23:59:59.999', '2020-01-01 00:00:00.1234',
      '2020-01-01T00:00:00', `20${10 + Math.floor(r() * 20)}-0${1 + Math.floor(r() * 9)}-1${Math.floor(r() * 10)} 1${Math.floor(r() * 10)}:30:0${Math.floor(r() * 10)}.5`,
    ],
    bad: ['2020-01-01 00:00:00.', '2020-12-31 23:59:59.999x', '2020-12-31 23:59:59.99x', '2020-02-30 00:00:00', '2020-01-01 23:60:00', '2020-01-01 00:00:00Z', '2020-1-01 00:00:00', ' 2020-01-01 00:00:00'],
  },
  { type: DataTypes.TIMESTAMP_LTZ(3), good: () => ['2020-01-01 00:00:00Z', '2020-01-01 00:00:00.5Z', '2020-01-01 00:00:00', '2020-01-01T00:00:00Z'], bad: ['Z', '2020-01-01 00:00:00ZZ'] },
  { type: DataTypes.DOUBLE(), good: () => ['1.5', '-0', 'NaN', '1e400', ''], bad: ['abc'] },
  { type: DataTypes.DECIMAL(10, 2), good: () => ['1.005', '-0.5'], bad: ['12345678901', 'x'] },
  { type: DataTypes.BOOLEAN(), good: () => ['true', 'FALSE', 'yes', ''], bad: [] },
  { type: DataTypes.DATE(), good: () => ['2020-02-29', ''], bad: ['2021-02-29'] },
  { type: DataTypes.ARRAY(DataTypes.INT()), good: () => ['', '1;2', 'null;3'], bad: ['1;x'] },
];

const SETTINGS: CsvSettings[] = [
  DEFAULT_CSV,
  { ...DEFAULT_CSV, nullLiteral: 'null' },
  // A null literal that looks like a number or is empty: the fast code must not read it as a value.
  { ...DEFAULT_CSV, nullLiteral: '0' },
  { ...DEFAULT_CSV, nullLiteral: '', ignoreParseErrors: true },
  { ...DEFAULT_CSV, ignoreParseErrors: true },
  { ...DEFAULT_CSV, escapeCharacter: '\\', ignoreParseErrors: true },
  { ...DEFAULT_CSV, quoteCharacter: undefined, nullLiteral: 'null' },
  { ...DEFAULT_CSV, fieldDelimiter: '|', quoteCharacter: "'", allowComments: true },
];

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

/** One field as a writer might have put it: bare, quoted (doubling quotes), escaped, or broken. */
function fieldText(r: () => number, value: string, s: CsvSettings): string {
  const q = s.quoteCharacter;
  const roll = r();
  if (q !== undefined && roll < 0.4) return q + value.split(q).join(q + q) + q;
  if (q !== undefined && roll < 0.42) return q + value; // unterminated or stray quote
  if (s.escapeCharacter !== undefined && roll < 0.6) return value.replace(/[,|"\\]/g, (c) => s.escapeCharacter + c);
  return value;
}

/** What a decoder makes of a message: the rows' fields, or the error's message, and the skip count. */
function outcome(decoder: CsvRowDecoder, line: string): unknown {
  const out: { fields: unknown[] }[] = [];
  try {
    decoder.deserialize(bytes(line), out as never);
  } catch (e) {
    return { error: (e as Error).message };
  }
  return { rows: out.map((row) => row.fields), skipped: decoder.skippedRecords };
}

describe('csv fast path against the general path', () => {
  it('decodes random records exactly as the general path, including every error and lenient NULL', () => {
    const r = prng(20240605);
    let fastHits = 0;
    let records = 0;
    for (let schema = 0; schema < 30; schema++) {
      const columns = Array.from({ length: 1 + Math.floor(r() * 6) }, () => pick(r, COLUMNS));
      const rowType = DataTypes.ROW(...columns.map((c, i) => FIELD(`c${i}`, c.type)));
      for (const settings of SETTINGS) {
        const withFast = new CsvRowDecoder(rowType, settings);
        const general = new CsvRowDecoder(rowType, settings, { fastPath: false });
        const read = fast(rowType, settings);
        for (let k = 0; k < 40; k++) {
          // Mostly well-formed records; some with a field missing or one too many.
          const texts = columns.map((c) => fieldText(r, r() < 0.1 && settings.nullLiteral !== undefined ? settings.nullLiteral : (r() < 0.08 && c.bad.length > 0 ? pick(r, c.bad) : pick(r, c.good(r))), settings));
          const shape = r();
          if (shape < 0.05) texts.pop();
          else if (shape < 0.1) texts.push('extra');
          const line = texts.join(settings.fieldDelimiter) + (r() < 0.3 ? '\n' : '');
          records++;
          if (read(line.replace(/\n$/, '')) !== undefined) fastHits++;
          const got = outcome(withFast, line);
          const want = outcome(general, line);
          // expect() per record would dominate the run time; it reports only a difference.
          if (!isDeepStrictEqual(got, want)) expect(got, JSON.stringify(line)).toEqual(want);
        }
      }
    }
    // The comparison means something only if the fast path took a fair share of the records.
    expect(fastHits).toBeGreaterThan(records / 2);
  });
});

describe('csv decoding of the projected columns only', () => {
  const line = bytes('1001,17,https://x,2024-01-01 00:00:01.500,2020-02-29 23:59:59.5Z,e\n');
  const decode = (projection: readonly number[] | undefined, fastPath: boolean, message = line, settings = DEFAULT_CSV) => {
    const out: { fields: readonly unknown[] }[] = [];
    const decoder = new CsvRowDecoder(BIDS, settings, { fastPath, ...(projection === undefined ? {} : { projection }) });
    decoder.deserialize(message, out as never);
    return { rows: out.map((r) => r.fields), skipped: decoder.skippedRecords };
  };

  it('reads only the listed fields, in the listed order, as a full decode reads them, on both paths', () => {
    const full = decode(undefined, true).rows[0]!;
    expect(full).toHaveLength(6);
    for (const fastPath of [true, false]) {
      expect(decode([0, 3], fastPath).rows).toEqual([[full[0], full[3]]]);
      expect(decode([4, 2], fastPath).rows).toEqual([[full[4], full[2]]]);
      expect(decode([5, 5, 0], fastPath).rows).toEqual([[full[5], full[5], full[0]]]);
      expect(decode([], fastPath).rows).toEqual([[]]);
    }
  });

  it('does not convert an unread field, so a bad value there is no error (as Flink with projection pushdown)', () => {
    const bad = bytes('1001,not-a-number,https://x,2024-01-01 00:00:01.500,2020-02-29 23:59:59.5Z,e\n');
    for (const fastPath of [true, false]) {
      expect(decode([0], fastPath, bad).rows).toEqual([[1001n]]);
      expect(() => decode([0, 1], fastPath, bad)).toThrow(/price/);
      // The first bad field in record order is named, whatever the projection's order.
      const twoBad = bytes('1001,not-a-number,https://x,not-a-time,2020-02-29 23:59:59.5Z,e\n');
      expect(() => decode([3, 1], fastPath, twoBad)).toThrow(/field 'price'/);
    }
  });

  it('steps over a skipped quoted field holding the delimiter, a doubled quote and a line break', () => {
    const quoted = bytes('1001,17,"https://x,y ""z""\nnext line",2024-01-01 00:00:01.500,2020-02-29 23:59:59.5Z,e\n');
    for (const fastPath of [true, false]) {
      expect(decode([0, 3, 5], fastPath, quoted).rows).toEqual([[1001n, Date.UTC(2024, 0, 1, 0, 0, 1, 500), 'e']]);
      expect(decode([2], fastPath, quoted).rows).toEqual([['https://x,y "z"\nnext line']]);
    }
  });

  it('a skipped malformed field: no error when only its value is bad; a broken record fails, or is skipped when lenient', () => {
    const lenient = { ...DEFAULT_CSV, ignoreParseErrors: true };
    // An unterminated quote in a skipped field breaks the record's shape: an error, or a skipped record when lenient.
    const unterminated = bytes('1001,17,"https://x,2024-01-01 00:00:01.500,2020-02-29 23:59:59.5Z,e\n');
    // Text after a closing quote in a skipped field, likewise.
    const stray = bytes('1001,17,"https://x"y,2024-01-01 00:00:01.500,2020-02-29 23:59:59.5Z,e\n');
    const badValue = bytes('1001,17,https://x,not-a-time,2020-02-29 23:59:59.5Z,e\n');
    for (const fastPath of [true, false]) {
      for (const broken of [unterminated, stray]) {
        expect(() => decode([0, 5], fastPath, broken)).toThrow();
        expect(decode([0, 5], fastPath, broken, lenient)).toEqual({ rows: [], skipped: 1 });
      }
      expect(decode([0, 5], fastPath, badValue)).toEqual({ rows: [[1001n, 'e']], skipped: 0 });
      expect(decode([0, 5], fastPath, badValue, lenient)).toEqual({ rows: [[1001n, 'e']], skipped: 0 });
      // Read, the bad value is an error, or NULL when lenient (the row is kept).
      expect(() => decode([0, 3], fastPath, badValue)).toThrow(/field 'dateTime'/);
      expect(decode([0, 3], fastPath, badValue, lenient)).toEqual({ rows: [[1001n, null]], skipped: 0 });
    }
  });

  it('still refuses a record with the wrong number of fields', () => {
    for (const fastPath of [true, false]) {
      expect(() => decode([0], fastPath, bytes('1001,17\n'))).toThrow(/2 fields|fields expected/);
      expect(() => decode([0], fastPath, bytes('1001,17,https://x,2024-01-01 00:00:01.500,2020-02-29 23:59:59.5Z,e,7\n'))).toThrow(/7/);
    }
  });
});

/**
 * The file source's in-place reading (AsciiLineDecoder): a chunk of ASCII lines decoded as one string, each line
 * read by offsets. Lines of a random chunk must decode exactly as each line alone does (rows, errors, skips); the
 * chunk includes lines with too few fields and one-column schemas, where a delimiter search runs past the line.
 */
describe('csv lines read in place from an ASCII chunk', () => {
  /** Per line of `chunk`: what deserializeAsciiLine makes of it (in file order, one decoder), as `outcome` says. */
  function inPlace(decoder: CsvRowDecoder, chunk: string): unknown[] {
    const data = Buffer.from(chunk, 'latin1');
    const results: unknown[] = [];
    for (let from = 0; from < chunk.length; ) {
      let nl = chunk.indexOf('\n', from);
      if (nl < 0) nl = chunk.length;
      const end = nl > from && chunk.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      const out: { fields: unknown[] }[] = [];
      const skipped = decoder.skippedRecords;
      try {
        decoder.deserializeAsciiLine(data, chunk, from, end, out as never);
        results.push({ rows: out.map((row) => row.fields), skipped: decoder.skippedRecords - skipped });
      } catch (e) {
        results.push({ error: (e as Error).message });
      }
      from = nl + 1;
    }
    return results;
  }

  function lineByLine(decoder: CsvRowDecoder, chunk: string): unknown[] {
    const results: unknown[] = [];
    for (let from = 0; from < chunk.length; ) {
      let nl = chunk.indexOf('\n', from);
      if (nl < 0) nl = chunk.length;
      const end = nl > from && chunk.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      const skipped = decoder.skippedRecords;
      const out: { fields: unknown[] }[] = [];
      try {
        decoder.deserialize(Buffer.from(chunk.slice(from, end), 'latin1'), out as never);
        results.push({ rows: out.map((row) => row.fields), skipped: decoder.skippedRecords - skipped });
      } catch (e) {
        results.push({ error: (e as Error).message });
      }
      from = nl + 1;
    }
    return results;
  }

  const ascii = (s: string): string => s.replace(/[^\x20-\x7e\n]/g, '?').replace(/\n/g, ' ');

  it('decodes every line of random chunks as the same line alone, on both paths', () => {
    const r = prng(20261204);
    for (let schema = 0; schema < 40; schema++) {
      // One-column schemas often: their records hold no delimiter at all.
      const width = r() < 0.3 ? 1 : 1 + Math.floor(r() * 6);
      const columns = Array.from({ length: width }, () => pick(r, COLUMNS));
      const rowType = DataTypes.ROW(...columns.map((c, i) => FIELD(`c${i}`, c.type)));
      for (const settings of SETTINGS) {
        const lines: string[] = [];
        for (let k = 0; k < 30; k++) {
          const texts = columns.map((c) => ascii(fieldText(r, r() < 0.1 && settings.nullLiteral !== undefined ? settings.nullLiteral : (r() < 0.08 && c.bad.length > 0 ? pick(r, c.bad) : pick(r, c.good(r))), settings)));
          const shape = r();
          if (shape < 0.08) texts.pop();
          else if (shape < 0.14) texts.push('extra');
          lines.push(texts.join(settings.fieldDelimiter) + (r() < 0.1 ? '\r' : ''));
          if (r() < 0.05) lines.push('');
        }
        const chunk = lines.join('\n') + (r() < 0.5 ? '\n' : '');
        // All columns, and a random projection (some columns skipped, the others in any order).
        const projection = randomProjection(r, width);
        // Views (values that die with their batch) slice instead of copying: the same values.
        for (const options of [{}, { projection }, { projection, views: true }]) {
          for (const fastPath of [true, false]) {
            const got = inPlace(new CsvRowDecoder(rowType, settings, { fastPath, ...options }), chunk);
            const want = lineByLine(new CsvRowDecoder(rowType, settings, { fastPath: false, projection: options.projection }), chunk);
            if (!isDeepStrictEqual(got, want)) expect(got, `${JSON.stringify(options)} ${JSON.stringify(chunk)}`).toEqual(want);
          }
        }
        // Where the whole record decodes, its projection decodes to the projected values (and skips no record).
        const whole = lineByLine(new CsvRowDecoder(rowType, settings, { fastPath: false }), chunk);
        const projected = inPlace(new CsvRowDecoder(rowType, settings, { projection }), chunk);
        whole.forEach((w, k) => {
          const { rows } = w as { rows?: unknown[][] };
          if (rows === undefined) return;
          const want = { rows: rows.map((row) => projection.map((i) => row[i])), skipped: (w as { skipped: number }).skipped };
          if (!isDeepStrictEqual(projected[k], want)) expect(projected[k], JSON.stringify(chunk)).toEqual(want);
        });
      }
    }
  });

  it('does not reuse a remembered delimiter position across chunks or out of order', () => {
    const type = DataTypes.ROW(FIELD('a', DataTypes.STRING()), FIELD('b', DataTypes.STRING()));
    const decoder = new CsvRowDecoder(type, DEFAULT_CSV);
    const read = (chunk: string, start: number, end: number): unknown[][] => {
      const out: { fields: unknown[] }[] = [];
      decoder.deserializeAsciiLine(Buffer.from(chunk, 'latin1'), chunk, start, end, out as never);
      return out.map((row) => row.fields);
    };
    // The first chunk's last delimiter search found none (its remembered position is its length, 20): a stale
    // position would read the second chunk's "22,bcd..." as one field.
    expect(read('1xxxxxxxxxxxxxxxx,a\n', 0, 19)).toEqual([['1xxxxxxxxxxxxxxxx', 'a']]);
    expect(read('22,bcdefghijklmnopq\n', 0, 19)).toEqual([['22', 'bcdefghijklmnopq']]);
    const chunk = '3,c\n44,dd\n';
    expect(read(chunk, 4, 9)).toEqual([['44', 'dd']]);
    expect(read(chunk, 0, 3)).toEqual([['3', 'c']]);
  });
});
