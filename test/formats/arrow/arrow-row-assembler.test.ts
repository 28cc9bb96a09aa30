import { describe, expect, it } from 'vitest';
import * as A from 'apache-arrow';
import { DataTypes, FIELD } from '../../../src/types/data-types.js';
import type { LogicalType } from '../../../src/types/logical-type.js';
import { RowKind } from '../../../src/types/row-kind.js';
import { readColumn } from '../../../src/formats/arrow/arrow-columns.js';
import { columnSource } from '../../../src/formats/arrow/arrow-column-source.js';
import { vectorSignature as sourceSignature } from '../../../src/types/columns/column-vector.js';
import { RowAssemblers } from '../../../src/types/columns/row-assembler.js';
import { ArrowBulkDecoder } from '../../../src/formats/arrow/arrow-bulk-decoder.js';
import { ArrowBulkEncoder } from '../../../src/formats/arrow/arrow-bulk-encoder.js';
import { expectFields, insert } from '../fixtures.js';

const N = 40;

function vec(type: A.DataType, f: (i: number) => unknown): A.Data {
  return A.vectorFromArray(Array.from({ length: N }, (_, i) => f(i)), type).data[0]!;
}

function raw(type: A.DataType, data: BigInt64Array): A.Data {
  return A.makeData({ type, length: data.length, nullCount: 0, data } as never) as A.Data;
}

/** One chunk per fast-path source kind, with and without NULLs, and the type to read it as. */
const CASES: [string, A.Data, LogicalType][] = [
  ['t', vec(new A.Int64(), (i) => BigInt(i) * 9007199254740993n), DataTypes.BIGINT()],
  ['t?', vec(new A.Int64(), (i) => (i % 6 === 0 ? null : -BigInt(i))), DataTypes.BIGINT()],
  ['t?', vec(new A.Int8(), (i) => (i % 5 === 0 ? null : i - 20)), DataTypes.TINYINT()],
  ['t', vec(new A.Float32(), (i) => i / 3), DataTypes.DOUBLE()],
  ['t?', vec(new A.DateDay(), (i) => (i % 4 === 0 ? null : i * 86_400_000)), DataTypes.DATE()],
  ['m', vec(new A.TimestampMillisecond(), (i) => 1_577_836_800_000 - 20 + i), DataTypes.TIMESTAMP(3)],
  ['m?', vec(new A.TimestampMillisecond('UTC'), (i) => (i % 3 === 0 ? null : -i)), DataTypes.TIMESTAMP_LTZ(3)],
  ['u', raw(new A.TimestampMicrosecond(), BigInt64Array.from({ length: N }, (_, i) => 1_577_836_800_123_999n - BigInt(i * 997))), DataTypes.TIMESTAMP(3)],
  ['s', raw(new A.TimestampSecond(), BigInt64Array.from({ length: N }, (_, i) => BigInt(i - 20))), DataTypes.TIMESTAMP(0)],
  // Strings stay UTF-8 bytes in the batch; the assembler decodes them (ASCII at once, other text per value).
  ['x', vec(new A.Utf8(), (i) => `value-${i}`.repeat(i % 3)), DataTypes.STRING()],
  ['x?', vec(new A.Utf8(), (i) => (i % 7 === 0 ? null : `https://x/${i}`)), DataTypes.STRING()],
  ['b', vec(new A.Bool(), (i) => i % 3 === 0), DataTypes.BOOLEAN()],
  ['b?', vec(new A.Bool(), (i) => (i % 4 === 0 ? null : i % 3 === 0)), DataTypes.BOOLEAN()],
  ['x?', vec(new A.Utf8(), (i) => (i % 9 === 0 ? null : `ü${i}`)), DataTypes.STRING()],
  ['v', vec(new A.Float64(), (i) => i / 3), DataTypes.FLOAT()],
  // Microseconds read into a TIMESTAMP(6) keep the digits below the millisecond: values built by the column reader.
  ['v', raw(new A.TimestampMicrosecond(), BigInt64Array.from({ length: N }, (_, i) => 1_577_836_800_123_999n - BigInt(i * 997))), DataTypes.TIMESTAMP(6)],
];

describe('arrow row assembler', () => {
  it('reads every source kind, sliced and in ranges, exactly as the column reader does', () => {
    for (const [sig, whole, t] of CASES) {
      for (const d of [whole, whole.slice(5, 30)]) {
        for (const [from, to] of [[0, d.length], [3, 17], [9, 9]] as const) {
          const source = columnSource(d, t, from, to);
          expect(sourceSignature(source), `${t.kind} ${sig}`).toBe(sig);
          const rows = new RowAssemblers().assemble([source], to - from);
          expect(rows.map((r) => r.kind)).toEqual(Array.from({ length: to - from }, () => RowKind.INSERT));
          expect(rows.map((r) => r.fields[0]), `${t.kind} ${sig} [${from}, ${to})`).toEqual(Array.from(readColumn(d, t, from, to)));
        }
      }
    }
  });

  it('reads the values themselves: bigints, floored epoch ms, substrings, bits and NULLs', () => {
    const src = (i: number) => columnSource(CASES[i]![1].slice(2, 2), CASES[i]![2], 0, 2);
    const rows = new RowAssemblers().assemble([src(1), src(7), src(10), src(12)], 2);
    expect(rows.map((r) => r.fields)).toEqual([
      [-2n, Math.floor((1_577_836_800_123_999 - 2 * 997) / 1000), 'https://x/2', false],
      [-3n, 1_577_836_800_121, 'https://x/3', true],
    ]);
    const neg = columnSource(CASES[8]![1], CASES[8]![2], 0, 2);
    expect(new RowAssemblers().assemble([neg], 2).map((r) => r.fields[0])).toEqual([-20_000, -19_000]);
  });

  it('keeps one assembler per shape, so ASCII and non-ASCII or NULL and non-NULL ranges of one column mix', () => {
    const type = DataTypes.ROW(FIELD('s', DataTypes.STRING()), FIELD('n', DataTypes.INT()));
    const rows = Array.from({ length: 3000 }, (_, i) => insert([i >= 1500 && i % 10 === 0 ? `ü${i}` : `a${i}`, i < 2100 ? i : null]));
    const data = new ArrowBulkEncoder(type, { ipcFormat: 'stream', batchSize: 3000 }).encode(rows);
    const got = new ArrowBulkDecoder(type).decode(data);
    expect(got).toHaveLength(3000);
    got.forEach((r, i) => expectFields(r.fields, rows[i]!.fields));
  });

  it('reads what apache-arrow writes, columns of every fast-path kind with NULLs, through the decoder', () => {
    const n = 2500;
    const table = new A.Table({
      big: A.vectorFromArray(Array.from({ length: n }, (_, i) => (i % 11 === 0 ? null : BigInt(i) - 9007199254740993n)), new A.Int64()),
      ts: A.vectorFromArray(Array.from({ length: n }, (_, i) => (i % 13 === 0 ? null : 1_577_836_800_000 + i * 17)), new A.TimestampMillisecond()),
      s: A.vectorFromArray(Array.from({ length: n }, (_, i) => (i % 7 === 0 ? null : `row ${i}`)), new A.Utf8()),
      ok: A.vectorFromArray(Array.from({ length: n }, (_, i) => (i % 5 === 0 ? null : i % 2 === 0)), new A.Bool()),
      d: A.vectorFromArray(Array.from({ length: n }, (_, i) => i / 8), new A.Float64()),
    });
    const type = DataTypes.ROW(
      FIELD('ok', DataTypes.BOOLEAN()),
      FIELD('s', DataTypes.STRING()),
      FIELD('ts', DataTypes.TIMESTAMP(3)),
      FIELD('big', DataTypes.BIGINT()),
      FIELD('d', DataTypes.DOUBLE()),
    );
    for (const format of ['stream', 'file'] as const) {
      const got = new ArrowBulkDecoder(type).decode(A.tableToIPC(table, format));
      expect(got).toHaveLength(n);
      got.forEach((r, i) => {
        const want = [
          i % 5 === 0 ? null : i % 2 === 0,
          i % 7 === 0 ? null : `row ${i}`,
          i % 13 === 0 ? null : 1_577_836_800_000 + i * 17,
          i % 11 === 0 ? null : BigInt(i) - 9007199254740993n,
          i / 8,
        ];
        expect(r.fields).toEqual(want);
      });
    }
  });
});
