import { describe, expect, it } from 'vitest';
import * as A from 'apache-arrow';
import { DataTypes, FIELD } from '../../../src/types/data-types.js';
import type { LogicalType } from '../../../src/types/logical-type.js';
import { Decimal } from '../../../src/types/decimal.js';
import { PreciseTimestamp } from '../../../src/types/values/precise-timestamp.js';
import { readColumn } from '../../../src/formats/arrow/arrow-columns.js';
import { ArrowBulkDecoder } from '../../../src/formats/arrow/arrow-bulk-decoder.js';
import { ArrowBulkEncoder } from '../../../src/formats/arrow/arrow-bulk-encoder.js';
import { decimalToWords } from '../../../src/formats/arrow/arrow-values.js';
import { expectFields, insert } from '../fixtures.js';

/** The column values as a plain array, so typed-array and plain-array results compare alike. */
function read(v: A.Vector, t: LogicalType): unknown[] {
  expect(v.data).toHaveLength(1);
  return Array.from(readColumn(v.data[0]!, t));
}

describe('arrow column reader', () => {
  it('reads a sliced Int64 column with nulls as exact bigints', () => {
    const v = A.vectorFromArray([1n, null, 9007199254740993n, -5n, null, 7n], new A.Int64()).slice(1, 5);
    expect(read(v, DataTypes.BIGINT())).toEqual([null, 9007199254740993n, -5n, null]);
  });

  it('reads sliced Bool, Utf8 (ASCII and not) and Binary columns from the slice offset', () => {
    const b = A.vectorFromArray([true, false, null, true, true, false, false, true, true, null, false], new A.Bool()).slice(3, 11);
    expect(read(b, DataTypes.BOOLEAN())).toEqual([true, true, false, false, true, true, null, false]);
    const s = A.vectorFromArray(['skip', 'a', null, 'bc', ''], new A.Utf8()).slice(1);
    expect(read(s, DataTypes.STRING())).toEqual(['a', null, 'bc', '']);
    const u = A.vectorFromArray(['x', 'ü€', null, 'y'], new A.Utf8()).slice(1);
    expect(read(u, DataTypes.STRING())).toEqual(['ü€', null, 'y']);
    const bin = A.vectorFromArray([new Uint8Array([1]), new Uint8Array([2, 3]), null], new A.Binary()).slice(1);
    expect(read(bin, DataTypes.BYTES())).toEqual([new Uint8Array([2, 3]), null]);
  });

  it('reads timestamps of every unit as epoch ms into TIMESTAMP(p <= 3), flooring before 1970 and exact for nanoseconds', () => {
    const ms = A.vectorFromArray([1_577_836_800_123, -1, null], new A.TimestampMillisecond());
    expect(read(ms, DataTypes.TIMESTAMP(3))).toEqual([1_577_836_800_123, -1, null]);
    const us = A.makeVector({ type: new A.TimestampMicrosecond(), data: new BigInt64Array([1_577_836_800_123_999n, -1n]) } as never);
    expect(read(us as A.Vector, DataTypes.TIMESTAMP(3))).toEqual([1_577_836_800_123, -1]);
    const ns = A.makeVector({ type: new A.TimestampNanosecond(), data: new BigInt64Array([1_577_836_800_123_999_999n, -1n, -2_000_000n]) } as never);
    expect(read(ns as A.Vector, DataTypes.TIMESTAMP(3))).toEqual([1_577_836_800_123, -1, -2]);
    const s = A.makeVector({ type: new A.TimestampSecond(), data: new BigInt64Array([2n, -3n]) } as never);
    expect(read(s as A.Vector, DataTypes.TIMESTAMP(0))).toEqual([2000, -3000]);
  });

  it('keeps every digit of micro- and nanosecond timestamps read into TIMESTAMP(4..9), as Flink (not truncated to p)', () => {
    const us = A.makeVector({ type: new A.TimestampMicrosecond(), data: new BigInt64Array([1_577_836_800_123_999n, -1n, 5_000n]) } as never);
    expect(read(us as A.Vector, DataTypes.TIMESTAMP(6))).toEqual([new PreciseTimestamp(1_577_836_800_123, 999_000), new PreciseTimestamp(-1, 999_000), 5]);
    expect(read(us as A.Vector, DataTypes.TIMESTAMP(4))).toEqual([new PreciseTimestamp(1_577_836_800_123, 999_000), new PreciseTimestamp(-1, 999_000), 5]);
    const ns = A.makeVector({ type: new A.TimestampNanosecond(), data: new BigInt64Array([1_577_836_800_123_999_999n, -1n, -2_000_000n]) } as never);
    expect(read(ns as A.Vector, DataTypes.TIMESTAMP_LTZ(9))).toEqual([new PreciseTimestamp(1_577_836_800_123, 999_999), new PreciseTimestamp(-1, 999_999), -2]);
    expect(read(ns as A.Vector, DataTypes.TIMESTAMP(6))).toEqual([new PreciseTimestamp(1_577_836_800_123, 999_999), new PreciseTimestamp(-1, 999_999), -2]);
  });

  it('rounds a Float64 column read as FLOAT and decodes a Float16 column through the generic path', () => {
    const d = A.vectorFromArray([0.1, null], new A.Float64());
    expect(read(d, DataTypes.FLOAT())).toEqual([Math.fround(0.1), null]);
    expect(read(d, DataTypes.DOUBLE())).toEqual([0.1, null]);
    const h = A.vectorFromArray([1.5, -2], new A.Float16());
    expect(read(h, DataTypes.FLOAT())).toEqual([1.5, -2]);
  });

  it('reads a sliced Decimal128 column, rescaling to the declared type', () => {
    const words = new Uint32Array(12);
    [123n, -4567n, 10n ** 30n].forEach((u, i) => words.set(decimalToWords(u), i * 4));
    const v = A.makeVector(A.makeData({ type: new A.Decimal(2, 38, 128), length: 3, nullCount: 0, data: words })).slice(1);
    const got = read(v, DataTypes.DECIMAL(38, 2)) as Decimal[];
    expect(got.map((x) => x.toString())).toEqual(['-45.67', Decimal.of(10n ** 30n, 2).toString()]);
  });
});

describe('arrow column ranges', () => {
  it('reads rows [from, to) of a chunk of every fast-path type like a slice of it', () => {
    const n = 40;
    const cases: [A.Vector, LogicalType][] = [
      [A.vectorFromArray(Array.from({ length: n }, (_, i) => (i % 6 === 0 ? null : BigInt(i * 4096 + 1) * (i % 2 ? -1n : 1n))), new A.Int64()), DataTypes.BIGINT()],
      [A.vectorFromArray(Array.from({ length: n }, (_, i) => (i % 5 === 0 ? null : i - 20)), new A.Int32()), DataTypes.INT()],
      [A.vectorFromArray(Array.from({ length: n }, (_, i) => (i % 4 === 0 ? null : i % 3 === 0)), new A.Bool()), DataTypes.BOOLEAN()],
      [A.vectorFromArray(Array.from({ length: n }, (_, i) => (i % 7 === 0 ? null : `v${i}${i % 9 === 0 ? 'ü' : ''}`)), new A.Utf8()), DataTypes.STRING()],
      [A.vectorFromArray(Array.from({ length: n }, (_, i) => (i % 3 === 0 ? null : 1_577_836_800_000 + i)), new A.TimestampMillisecond()), DataTypes.TIMESTAMP(3)],
      [A.vectorFromArray(Array.from({ length: n }, (_, i) => (i % 8 === 0 ? null : i / 4)), new A.Float64()), DataTypes.DOUBLE()],
      [A.vectorFromArray(Array.from({ length: n }, (_, i) => (i % 8 === 0 ? null : new Uint8Array([i]))), new A.Binary()), DataTypes.BYTES()],
    ];
    for (const [v, t] of cases) {
      const d = v.data[0]!;
      for (const [from, to] of [[0, n], [3, 17], [17, 40], [9, 9]] as const) {
        expect(Array.from(readColumn(d, t, from, to)), `${t.kind} [${from}, ${to})`).toEqual(Array.from(readColumn(d.slice(from, to - from), t)));
      }
    }
  });
});

describe('arrow decodeBatches', () => {
  it('hands a large record batch on in slices of at most 1024 rows, every row once and in order', () => {
    const type = DataTypes.ROW(FIELD('id', DataTypes.BIGINT()), FIELD('s', DataTypes.STRING()), FIELD('ts', DataTypes.TIMESTAMP(3)));
    const rows = Array.from({ length: 2500 }, (_, i) => insert([BigInt(i), i % 7 === 0 ? null : `s${i}`, i % 5 === 0 ? null : 1_577_836_800_000 + i]));
    const data = new ArrowBulkEncoder(type, { ipcFormat: 'stream', batchSize: 2400 }).encode(rows);
    const batches = [...new ArrowBulkDecoder(type).decodeBatches(data)];
    expect(batches.map((b) => b.length)).toEqual([1024, 1024, 352, 100]);
    const all = batches.flat();
    all.forEach((r, i) => expectFields(r.fields, rows[i]!.fields));
  });

  it('names the column and the row of a value it cannot read', () => {
    // A List column read as MAP goes through the generic path, which fails on the first value.
    const type = DataTypes.ROW(FIELD('l', DataTypes.ARRAY(DataTypes.INT())));
    const data = new ArrowBulkEncoder(type, { ipcFormat: 'stream', batchSize: 10 }).encode([insert([[1]]), insert([[2]])]);
    const asMap = DataTypes.ROW(FIELD('l', DataTypes.MAP(DataTypes.STRING(), DataTypes.INT())));
    expect(() => new ArrowBulkDecoder(asMap).decode(data, () => 'file /x.arrows')).toThrow(/file \/x\.arrows.*l\.row 0\.\[0\]/);
  });
});
