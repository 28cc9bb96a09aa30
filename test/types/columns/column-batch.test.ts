import { describe, expect, it } from 'vitest';
import { ColumnBatch } from '../../../src/types/columns/column-batch.js';
import { decodeText, vectorSignature, vectorValue, type ColumnVector } from '../../../src/types/columns/column-vector.js';
import { RowKind } from '../../../src/types/row-kind.js';

/** One vector of each kind, 4 rows; NULL where the validity bit (0b1011: rows 0, 1, 3) is clear. */
const validity = { bitmap: Uint8Array.of(0b1011), offset: 0 };
const VECTORS: [string, ColumnVector, unknown[]][] = [
  ['typed', { kind: 'typed', values: BigInt64Array.of(1n, -2n, 3n, 9007199254740993n), validity: undefined }, [1n, -2n, 3n, 9007199254740993n]],
  ['typed with NULLs', { kind: 'typed', values: Int32Array.of(7, 8, 9, 10), validity }, [7, 8, null, 10]],
  // 2^32 + 5 ms and -1 ms as int32 halves (low, high).
  ['int64 ms', { kind: 'int64', words: Int32Array.of(5, 1, -1, -1, 0, 0, 1000, 0), unit: 'ms', validity: undefined }, [4294967301, -1, 0, 1000]],
  ['int64 us', { kind: 'int64', words: Int32Array.of(1500, 0, 0, 0, 0, 0, -1500, -1), unit: 'us', validity }, [1, 0, null, -2]],
  ['int64 s', { kind: 'int64', words: Int32Array.of(2, 0, 0, 0, 0, 0, 0, 0), unit: 's', validity: undefined }, [2000, 0, 0, 0]],
  ['ascii', { kind: 'ascii', text: 'cdefghij', offsets: Int32Array.of(2, 4, 4, 7, 10), base: 2, validity }, ['cd', '', null, 'hij']],
  ['bool', { kind: 'bool', bits: Uint8Array.of(0b1010_0000), offset: 4, validity: undefined }, [false, true, false, true]],
  ['values', { kind: 'values', values: [{ a: 1 }, null, 'x', 2] }, [{ a: 1 }, null, 'x', 2]],
  ['constant', { kind: 'constant', value: 'p=1' }, ['p=1', 'p=1', 'p=1', 'p=1']],
];

describe('column vectors and batches', () => {
  it.each(VECTORS)('%s: vectorValue reads every row as its Sluice value', (_name, v, expected) => {
    expect(Array.from({ length: 4 }, (_, j) => vectorValue(v, j))).toEqual(expected);
  });

  it('toRows builds +I rows equal to reading every cell, for all kinds at once', () => {
    const batch = new ColumnBatch(VECTORS.map(([, v]) => v), 4);
    const rows = batch.toRows();
    expect(rows).toHaveLength(4);
    for (let j = 0; j < 4; j++) {
      expect(rows[j]!.kind).toBe(RowKind.INSERT);
      expect(rows[j]!.fields).toEqual(VECTORS.map(([, , values]) => values[j]));
      for (let c = 0; c < VECTORS.length; c++) expect(batch.value(c, j)).toEqual(rows[j]!.fields[c]);
    }
    // Each call hands out new rows: the receiver owns them.
    expect(batch.toRows()[0]).not.toBe(rows[0]);
  });

  it('select picks and reorders columns without touching rows', () => {
    const batch = new ColumnBatch(VECTORS.map(([, v]) => v), 4);
    const picked = batch.select([8, 5, 5]);
    expect(picked.length).toBe(4);
    expect(picked.columns.map(vectorSignature)).toEqual(['c', 'a?', 'a?']);
    expect(picked.toRows().map((r) => r.fields)).toEqual([
      ['p=1', 'cd', 'cd'],
      ['p=1', '', ''],
      ['p=1', null, null],
      ['p=1', 'hij', 'hij'],
    ]);
  });
});

describe('utf8 column vectors', () => {
  const bytes = Buffer.from('héllowörldascii');
  const offsets = Int32Array.of(0, 6, 12, 17);
  const utf8: ColumnVector = { kind: 'utf8', bytes, offsets, validity: { bitmap: Uint8Array.of(0b101), offset: 0 } };

  it('decode when read, cell by cell or as rows, non-ASCII text included', () => {
    expect([0, 1, 2].map((j) => vectorValue(utf8, j))).toEqual(['héllo', null, 'ascii']);
    expect(new ColumnBatch([utf8], 3).toRows().map((r) => r.fields[0])).toEqual(['héllo', null, 'ascii']);
  });

  it('an ASCII range is decoded once and cut', () => {
    const ascii: ColumnVector = { kind: 'utf8', bytes, offsets: Int32Array.of(12, 14, 17), validity: undefined };
    expect(decodeText(ascii, 2)).toMatchObject({ kind: 'ascii', text: 'ascii', base: 12 });
    expect(new ColumnBatch([ascii], 2).toRows().map((r) => r.fields[0])).toEqual(['as', 'cii']);
  });
});
