import { describe, expect, it } from 'vitest';
import * as A from 'apache-arrow';
import { DataTypes, FIELD } from '../../../src/types/data-types.js';
import { Decimal } from '../../../src/types/decimal.js';
import { PreciseTimestamp } from '../../../src/types/values/precise-timestamp.js';
import type { RowType } from '../../../src/types/logical-type.js';
import type { Row } from '../../../src/types/row.js';
import { ArrowBulkDecoder } from '../../../src/formats/arrow/arrow-bulk-decoder.js';
import { ArrowBulkEncoder } from '../../../src/formats/arrow/arrow-bulk-encoder.js';
import type { ArrowIpcFormat } from '../../../src/formats/arrow/arrow-bulk-encoder.js';
import { arrowColumnWriter, utf8Buffers } from '../../../src/formats/arrow/arrow-column-writer.js';
import { toArrowType } from '../../../src/formats/arrow/arrow-types.js';
import { toArrowConverter } from '../../../src/formats/arrow/arrow-values.js';
import { FormatError } from '../../../src/formats/format-error.js';
import { SCALAR_TYPE, expectFields, insert } from '../fixtures.js';

/** The encoder as it was before the direct column writers: apache-arrow's builders for every column. */
function builderEncode(rowType: RowType, rows: readonly Row[], ipcFormat: ArrowIpcFormat, batchSize: number): Uint8Array {
  const types = rowType.fields.map((f) => toArrowType(f.type));
  const schema = new A.Schema(rowType.fields.map((f, i) => new A.Field(f.name, types[i]!, true)));
  const convs = rowType.fields.map((f) => toArrowConverter(f.type));
  const batch = (start: number, end: number): A.RecordBatch => {
    const children = types.map((type, c) => {
      const b = A.makeBuilder({ type, nullValues: [null, undefined] });
      for (let r = start; r < end; r++) {
        const v = rows[r]!.fields[c];
        b.append(v === null || v === undefined || convs[c] === undefined ? v : convs[c]!(v));
      }
      return b.finish().toVector().data[0]!;
    });
    return new A.RecordBatch(schema, A.makeData({ type: new A.Struct(schema.fields), length: end - start, nullCount: 0, children }));
  };
  const batches = rows.length === 0 ? [batch(0, 0)] : [];
  for (let s = 0; s < rows.length; s += batchSize) batches.push(batch(s, Math.min(rows.length, s + batchSize)));
  return A.tableToIPC(new A.Table(schema, batches), ipcFormat);
}

/** The fixture's scalar types but DECIMAL (a builder type), and the other flat types with a direct writer. */
const FAST = DataTypes.ROW(
  ...SCALAR_TYPE.fields.filter((f) => f.name !== 'dec'),
  FIELD('c', DataTypes.CHAR(3)),
  FIELD('vc', DataTypes.VARCHAR(10)),
  FIELD('iym', DataTypes.INTERVAL_YEAR_MONTH()),
  FIELD('idt', DataTypes.INTERVAL_DAY_TIME()),
);

/** Row `i` of a FAST table; with NULLs, column `i % width` is NULL, so every column has NULLs at varied bits. */
function fastRow(i: number, withNulls: boolean): Row {
  const fields: unknown[] = [
    i % 3 === 0,
    (i % 256) - 128,
    -32768 + i * 7,
    -2147483648 + i * 1000003,
    BigInt.asIntN(64, BigInt(i) * -3074457345618258602n + 9007199254740993n),
    Math.fround(i / 3),
    i * -1.1e300,
    i % 2 === 0 ? `row ${i}` : `ü€😀 ${i}`,
    new Uint8Array([i & 255, 0, 255]),
    -719162 + i * 1000, // from 0001-01-01
    i * 3600000,
    -62135596800000 + i * 98765432123, // crosses 2^32 ms boundaries and 0
    i % 2 === 0 ? -i : i * 4294967296,
    'abc',
    '',
    -i * 13,
    i * 90061001 - 4294967297,
  ];
  if (withNulls) fields[i % fields.length] = null;
  return insert(fields);
}

function rowsOf(n: number, withNulls: boolean): Row[] {
  return Array.from({ length: n }, (_, i) => fastRow(i, withNulls));
}

/** Every value of `table` through apache-arrow's own getters, column-major. */
function values(table: A.Table): unknown[][] {
  return table.schema.fields.map((f) => [...table.getChild(f.name)!].map((v) => (v instanceof Uint8Array ? [...v] : v)));
}

describe('ArrowBulkEncoder direct column writers', () => {
  it('covers every flat type with a direct writer and leaves the rest to the builders', () => {
    for (const f of FAST.fields) expect(arrowColumnWriter(f.type, toArrowType(f.type)), f.name).toBeDefined();
    const slow = [DataTypes.DECIMAL(10, 2), DataTypes.ARRAY(DataTypes.INT()), DataTypes.NULL()];
    for (const t of [DataTypes.TIMESTAMP(6), DataTypes.TIMESTAMP_LTZ(9)]) expect(arrowColumnWriter(t, toArrowType(t)), t.kind).toBeDefined();
    for (const t of slow) expect(arrowColumnWriter(t, toArrowType(t)), t.kind).toBeUndefined();
  });

  for (const withNulls of [false, true]) {
    it(`apache-arrow reads the same types and values as from the builder encoding (${withNulls ? 'with' : 'without'} NULLs, batches of 4)`, () => {
      const rows = rowsOf(19, withNulls);
      const ours = A.tableFromIPC(new ArrowBulkEncoder(FAST, { ipcFormat: 'stream', batchSize: 4 }).encode(rows));
      const theirs = A.tableFromIPC(builderEncode(FAST, rows, 'stream', 4));
      expect(ours.batches.map((b) => b.numRows)).toEqual([4, 4, 4, 4, 3]);
      expect(ours.schema.fields.map((f) => `${f.name}: ${String(f.type)} ${f.nullable}`)).toEqual(
        theirs.schema.fields.map((f) => `${f.name}: ${String(f.type)} ${f.nullable}`),
      );
      expect(values(ours)).toEqual(values(theirs));
      for (const f of FAST.fields) {
        const nulls = ours.batches.map((b) => b.getChild(f.name)!.nullCount);
        expect(nulls, f.name).toEqual(theirs.batches.map((b) => b.getChild(f.name)!.nullCount));
        expect(nulls.some((n) => n > 0), f.name).toBe(withNulls);
      }
    });

    it(`round-trips exactly through our decoder (${withNulls ? 'with' : 'without'} NULLs, stream and file)`, () => {
      const rows = rowsOf(21, withNulls);
      for (const ipcFormat of ['stream', 'file'] as const) {
        const decoded = new ArrowBulkDecoder(FAST).decode(new ArrowBulkEncoder(FAST, { ipcFormat, batchSize: 8 }).encode(rows));
        expect(decoded).toHaveLength(rows.length);
        decoded.forEach((r, i) => expectFields(r.fields, rows[i]!.fields));
      }
    });
  }

  it('writes no validity bitmap for a column without NULLs and a correct one across bitmap bytes', () => {
    const type = DataTypes.ROW(FIELD('x', DataTypes.INT()), FIELD('s', DataTypes.STRING()));
    const rows = Array.from({ length: 19 }, (_, i) => insert([i, [0, 7, 8, 15, 16, 18].includes(i) ? null : `v${i}`]));
    const table = A.tableFromIPC(new ArrowBulkEncoder(type, { ipcFormat: 'stream', batchSize: 100 }).encode(rows));
    const x = table.getChild('x')!.data[0]!;
    expect(x.nullCount).toBe(0);
    expect(x.nullBitmap?.byteLength ?? 0).toBe(0);
    const s = table.getChild('s')!;
    expect(s.nullCount).toBe(6);
    expect([...s].map((v, i) => (v === null ? i : -1)).filter((i) => i >= 0)).toEqual([0, 7, 8, 15, 16, 18]);
    expect(s.get(17)).toBe('v17');
  });

  it('writes an empty batch carrying the schema for no rows', () => {
    for (const ipcFormat of ['stream', 'file'] as const) {
      const data = new ArrowBulkEncoder(FAST, { ipcFormat, batchSize: 4 }).encode([]);
      const table = A.tableFromIPC(data);
      expect(table.numRows).toBe(0);
      expect(table.batches).toHaveLength(1);
      expect(table.schema.fields.map((f) => f.name)).toEqual(FAST.fields.map((f) => f.name));
      expect(new ArrowBulkDecoder(FAST).decode(data)).toEqual([]);
    }
  });

  it('writes non-ASCII strings with UTF-8 offsets, also in a batch after an ASCII-only one', () => {
    const type = DataTypes.ROW(FIELD('s', DataTypes.STRING()));
    const strings = ['plain', 'ascii', '', 'ü', '€uro', '😀 emoji', null, 'tail', 'Ω'.repeat(300), 'x'];
    const data = new ArrowBulkEncoder(type, { ipcFormat: 'stream', batchSize: 3 }).encode(strings.map((s) => insert([s])));
    const table = A.tableFromIPC(data);
    expect([...table.getChild('s')!]).toEqual(strings);
    const offsets = table.batches[1]!.getChild('s')!.data[0]!.valueOffsets;
    expect([...offsets]).toEqual([0, 2, 8, 18]); // 'ü' (2 bytes), '€uro' (3 + 3), '😀 emoji' (4 + 6)
    expect(new ArrowBulkDecoder(type).decode(data).map((r) => r.fields[0])).toEqual(strings);
  });

  it('joins a long batch of strings in pieces with the same bytes and offsets', () => {
    const parts = ['ab', 'ü', '', 'cdefg', '€€', 'x', '😀', 'plain ascii'];
    const expected = new TextEncoder().encode(parts.join(''));
    const offsets = parts.reduce((o, s) => [...o, o[o.length - 1]! + new TextEncoder().encode(s).length], [0]);
    for (const max of [1, 3, 6, 1000]) {
      const out = utf8Buffers(parts, max);
      expect([...out.bytes], `max ${max}`).toEqual([...expected]);
      expect([...out.offsets], `max ${max}`).toEqual(offsets);
    }
    expect(utf8Buffers([]).bytes.byteLength).toBe(0);
  });

  it('writes negative and large epoch-ms timestamps as exact int64', () => {
    const type = DataTypes.ROW(FIELD('ts', DataTypes.TIMESTAMP(3)), FIELD('ltz', DataTypes.TIMESTAMP_LTZ(3)), FIELD('idt', DataTypes.INTERVAL_DAY_TIME()));
    const ms = [-1, 0, 1, -1234, -4294967295, -4294967296, -4294967297, 4294967295, 4294967296, -62135596800000, 253402300799999, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER];
    const data = new ArrowBulkEncoder(type, { ipcFormat: 'file', batchSize: 5 }).encode(ms.map((v) => insert([v, v, v])));
    const table = A.tableFromIPC(data);
    for (const name of ['ts', 'ltz', 'idt']) {
      const raw = table.getChild(name)!.data.flatMap((d) => [...(d.values as BigInt64Array)]);
      expect(raw, name).toEqual(ms.map((v) => BigInt(v)));
    }
    expect(new ArrowBulkDecoder(type).decode(data).map((r) => r.fields)).toEqual(ms.map((v) => [v, v, v]));
  });

  it('fails with a FormatError naming the field for a value outside its representation', () => {
    const type = DataTypes.ROW(FIELD('id', DataTypes.INT()), FIELD('big', DataTypes.BIGINT()), FIELD('ts', DataTypes.TIMESTAMP(3)), FIELD('s', DataTypes.STRING()));
    const enc = new ArrowBulkEncoder(type, { ipcFormat: 'stream', batchSize: 10 });
    const bad = (fields: unknown[]): (() => Uint8Array) => () => enc.encode([insert([1, 2n, 3, 'ok']), insert(fields)]);
    expect(bad([1, 5, 3, 'ok'])).toThrow(FormatError);
    expect(bad([1, 5, 3, 'ok'])).toThrow(/field 'big': cannot write number 5 as BIGINT/);
    expect(bad([1, 2n, 1.5, 'ok'])).toThrow(/field 'ts': cannot write number 1.5 as TIMESTAMP/);
    expect(bad([1, 2n, 2 ** 64, 'ok'])).toThrow(/field 'ts'/);
    expect(bad(['1', 2n, 3, 'ok'])).toThrow(/field 'id': cannot write string "1" as INT/);
    expect(bad([1, 2n, 3, 7])).toThrow(/field 's': cannot write number 7 as STRING/);
  });

  it('encodes the builder-only types (DECIMAL, nested, NULL) byte for byte as before', () => {
    const type = DataTypes.ROW(
      FIELD('dec', DataTypes.DECIMAL(10, 2)),
      FIELD('arr', DataTypes.ARRAY(DataTypes.STRING())),
      FIELD('m', DataTypes.MAP(DataTypes.BIGINT(), DataTypes.DATE())),
      FIELD('r', DataTypes.ROW(FIELD('x', DataTypes.INT()), FIELD('t', DataTypes.TIMESTAMP(3)))),
      FIELD('n', DataTypes.NULL()),
    );
    const rows = [
      insert([Decimal.parse('-12.5'), ['a', null, 'ü'], new Map([[1n, 18262]]), [7, -1], null]),
      insert([null, null, null, null, null]),
      insert([Decimal.parse('99999999.99'), [], new Map(), [null, null], null]),
    ];
    for (const ipcFormat of ['stream', 'file'] as const) {
      const ours = new ArrowBulkEncoder(type, { ipcFormat, batchSize: 2 }).encode(rows);
      expect(Buffer.from(ours).equals(Buffer.from(builderEncode(type, rows, ipcFormat, 2)))).toBe(true);
    }
  });

  it('writes TIMESTAMP(4..6) as Timestamp[us] and TIMESTAMP(7..9) as Timestamp[ns], every digit kept through a round trip', () => {
    const type = DataTypes.ROW(FIELD('t6', DataTypes.TIMESTAMP(6)), FIELD('t9', DataTypes.TIMESTAMP(9)), FIELD('l9', DataTypes.TIMESTAMP_LTZ(9)));
    const rows = [
      insert([new PreciseTimestamp(1_704_103_200_123, 456_000), new PreciseTimestamp(1_704_103_200_123, 456_789), new PreciseTimestamp(-1, 999_999)]),
      insert([1_704_103_200_123, null, 0]),
    ];
    const bytes = new ArrowBulkEncoder(type, { ipcFormat: 'stream', batchSize: 8 }).encode(rows);
    const table = A.tableFromIPC(bytes);
    expect(table.schema.fields.map((f) => String(f.type))).toEqual(['Timestamp<MICROSECOND>', 'Timestamp<NANOSECOND>', 'Timestamp<NANOSECOND, UTC>']);
    expect(table.batches[0]!.getChild('t9')!.data[0]!.values[0]).toBe(1_704_103_200_123_456_789n);
    const decoded = new ArrowBulkDecoder(type).decode(bytes);
    expect(decoded.map((r) => r.fields)).toEqual(rows.map((r) => r.fields));
    // Nested, every digit too: a ROW's TIMESTAMP(9) is Timestamp[ns] with the exact int64, not the builder's epoch ms.
    const nested = DataTypes.ROW(FIELD('r', DataTypes.ROW(FIELD('t9', DataTypes.TIMESTAMP(9)))));
    const nestedBytes = new ArrowBulkEncoder(nested, { ipcFormat: 'stream', batchSize: 8 }).encode([insert([[new PreciseTimestamp(1_704_103_200_123, 456_789)]]), insert([[-1]])]);
    const nestedTable = A.tableFromIPC(nestedBytes);
    expect(String(nestedTable.schema.fields[0]!.type)).toBe('Struct<{t9:Timestamp<NANOSECOND>}>');
    expect(nestedTable.batches[0]!.getChild('r')!.data[0]!.children[0]!.values[0]).toBe(1_704_103_200_123_456_789n);
    expect(new ArrowBulkDecoder(nested).decode(nestedBytes).map((r) => r.fields)).toEqual([[[new PreciseTimestamp(1_704_103_200_123, 456_789)]], [[-1]]]);
    // Whole milliseconds as apache-arrow's builders wrote them before (epoch ms times 1000).
    const wholeMs = [insert([1_577_836_800_123, null, -1]), insert([null, 0, null])];
    expect(values(A.tableFromIPC(new ArrowBulkEncoder(type, { ipcFormat: 'stream', batchSize: 1 }).encode(wholeMs)))).toEqual(
      values(A.tableFromIPC(builderEncode(type, wholeMs, 'stream', 1))),
    );
  });

  it('keeps every digit of TIMESTAMP(4..9) nested in ROW, ARRAY, MAP keys and values and MULTISET, NULLs and empties around them', () => {
    const ts = (ms: number, nanos: number): PreciseTimestamp => new PreciseTimestamp(ms, nanos);
    const type = DataTypes.ROW(
      FIELD('id', DataTypes.INT()),
      FIELD('a', DataTypes.ARRAY(DataTypes.TIMESTAMP(6))),
      FIELD('m', DataTypes.MAP(DataTypes.TIMESTAMP_LTZ(9), DataTypes.ARRAY(DataTypes.TIMESTAMP(7)))),
      FIELD('ms', DataTypes.MULTISET(DataTypes.TIMESTAMP(4))),
      FIELD('r', DataTypes.ROW(FIELD('x', DataTypes.INT()), FIELD('t', DataTypes.TIMESTAMP(9)), FIELD('aa', DataTypes.ARRAY(DataTypes.ROW(FIELD('u', DataTypes.TIMESTAMP_LTZ(5))))))),
    );
    const rows = [
      insert([1, [ts(1_704_103_200_123, 456_000), null, -1], new Map([[ts(0, 1), [ts(-5, 999_900), null]]]), new Map([[ts(86_400_000, 100_000), 2]]), [7, ts(-1, 1), [[ts(1, 10_000)], null]]]),
      insert([2, null, null, null, null]),
      insert([3, [], new Map(), new Map(), [null, null, []]]),
      insert([4, [ts(951_782_400_000, 999_000)], new Map([[5, []], [ts(6, 7), [ts(8, 900_000)]]]), new Map([[-3, 1]]), [null, 1_704_103_200_123, [[null], [ts(2, 20_000)]]]]),
    ];
    for (const batchSize of [1, 3, 8]) {
      const bytes = new ArrowBulkEncoder(type, { ipcFormat: 'file', batchSize }).encode(rows);
      const decoded = new ArrowBulkDecoder(type).decode(bytes);
      expect(decoded.map((r) => r.fields)).toEqual(rows.map((r) => r.fields));
    }
    const table = A.tableFromIPC(new ArrowBulkEncoder(type, { ipcFormat: 'stream', batchSize: 8 }).encode(rows));
    expect(table.schema.fields.map((f) => String(f.type))[1]).toBe('List<Timestamp<MICROSECOND>>');
    expect(table.batches[0]!.getChild('a')!.data[0]!.children[0]!.values[0]).toBe(1_704_103_200_123_456n);
  });
});
