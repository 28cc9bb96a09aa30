// The columnar batch codec of exchanges between threads (issue #19): every value comes back exact and
// of its own type, whichever layout a column gets (typed array, UTF-8 block, or the state codec).
import { describe, expect, it } from 'vitest';
import { decodeBatch, encodeBatch } from '../../../src/runtime/workers/batch-codec.js';
import { Decimal } from '../../../src/types/decimal.js';
import { Row } from '../../../src/types/row.js';
import { RowKind } from '../../../src/types/row-kind.js';

const roundTrip = (rows: Row[]): Row[] => decodeBatch(encodeBatch(rows));

describe('batch codec', () => {
  it('keeps BIGINT, DOUBLE and STRING columns exact, with nulls in any row', () => {
    const rows = [
      Row.insert(1n, 1.5, 'a', null),
      Row.insert(null, -0, null, null),
      Row.insert(-(2n ** 63n), Number.NaN, 'ünïcødé 😀', null),
      Row.insert(2n ** 63n - 1n, -Infinity, '', null),
    ];
    const got = roundTrip(rows);
    expect(got).toEqual(rows);
    expect(Object.is(got[1]!.fields[1], -0)).toBe(true);
    expect(typeof got[0]!.fields[0]).toBe('bigint');
    expect(got[0]).toBeInstanceOf(Row);
  });

  it('keeps each row kind', () => {
    const rows = [new Row(RowKind.UPDATE_BEFORE, [1n]), new Row(RowKind.UPDATE_AFTER, [2n]), new Row(RowKind.DELETE, [3n]), Row.insert(4n)];
    expect(roundTrip(rows).map((r) => r.kind)).toEqual([RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER, RowKind.DELETE, RowKind.INSERT]);
  });

  it('keeps values no typed column holds: beyond 64 bits, mixed types, lone surrogates, Decimal, Date, bytes, booleans, nested rows', () => {
    const rows = [
      Row.insert(2n ** 64n, 1n, 'a\uD800b', Decimal.parse('1.50'), new Date(7), new Uint8Array([9]), true, Row.insert(1n, 'x'), [1, null]),
      Row.insert(-1n, 'one', 'ok', null, null, null, false, null, []),
    ];
    const got = roundTrip(rows);
    expect(got).toEqual(rows);
    expect(got[0]!.fields[0]).toBe(2n ** 64n);
    expect(got[0]!.fields[2]).toBe('a\uD800b');
    expect(got[0]!.fields[3]).toBeInstanceOf(Decimal);
    expect(String(got[0]!.fields[3])).toBe('1.50');
    expect(got[0]!.fields[7]).toBeInstanceOf(Row);
  });

  it('lays nested rows out by field: strings, numbers and bigints inside them, null rows and null fields, rows in rows', () => {
    const rows = [
      Row.insert(1n, [7n, 'https://example.com/a', 1.5, ['deep', 2n]], [1, 2, 3]),
      Row.insert(2n, null, [4, 5, 6]),
      Row.insert(3n, [null, 'ünï', Number.NaN, null], [7, 8, 9]),
      Row.insert(4n, [8n, '', -0, ['', null]], null),
    ];
    const got = roundTrip(rows);
    expect(got).toEqual(rows);
    expect(typeof (got[0]!.fields[1] as unknown[])[0]).toBe('bigint');
    expect(Object.is((got[3]!.fields[1] as unknown[])[2], -0)).toBe(true);
    expect(Array.isArray(got[0]!.fields[2])).toBe(true);
  });

  it('keeps arrays of different lengths, rows nested deeper than the columnar layout goes, and values of mixed types in a field', () => {
    let deep: unknown = ['leaf'];
    for (let i = 0; i < 8; i++) deep = [deep, i];
    const rows = [Row.insert([1, 2], deep, [1n, 'a']), Row.insert([1], deep, [2n, 5])];
    expect(roundTrip(rows)).toEqual(rows);
  });

  it('round-trips random batches of nested values exactly', () => {
    let seed = 7;
    const rnd = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const leaf = (k: number): unknown => [null, 1n << BigInt(Math.floor(rnd() * 70)), rnd() * 100, `s${Math.floor(rnd() * 9)}`, 'é', Decimal.parse('2.5')][k % 6];
    const value = (depth: number, shape: number): unknown => (rnd() < 0.15 ? null : depth > 0 && shape % 3 === 0 ? [value(depth - 1, shape + 1), value(depth - 1, shape + 2)] : leaf(shape));
    for (let t = 0; t < 50; t++) {
      const shapes = [Math.floor(rnd() * 12), Math.floor(rnd() * 12), Math.floor(rnd() * 12)];
      const rows = Array.from({ length: 1 + Math.floor(rnd() * 40) }, () => Row.insert(...shapes.map((s) => value(3, s))));
      expect(roundTrip(rows)).toEqual(rows);
    }
  });

  it('carries rows of different arity, and an empty batch', () => {
    const rows = [Row.insert(1n), Row.insert(1n, 'two')];
    expect(roundTrip(rows)).toEqual(rows);
    expect(roundTrip([])).toEqual([]);
  });

  it('gives each batch its own buffer: a later batch does not change an earlier one', () => {
    const a = encodeBatch([Row.insert(1n, 'first')]);
    const b = encodeBatch([Row.insert(2n, 'second, longer')]);
    expect(decodeBatch(a)).toEqual([Row.insert(1n, 'first')]);
    expect(decodeBatch(b)).toEqual([Row.insert(2n, 'second, longer')]);
  });

  it('keeps a large batch exact (the scratch buffer grows)', () => {
    const rows = Array.from({ length: 5_000 }, (_, i) => Row.insert(BigInt(i) * 1_000_003n, `s${i}`.repeat(i % 7), i / 3, i % 2 === 0 ? 'y'.repeat(60 + (i % 9)) : 'short'));
    expect(roundTrip(rows)).toEqual(rows);
  });

  it('names the value and the option when a row holds something that cannot cross threads', () => {
    expect(() => encodeBatch([Row.insert(() => 1)])).toThrow(/cannot cross threads.*'execution.worker-threads' = 'off'/);
  });
});
