import { DataTypes, FIELD } from '../../src/types/data-types.js';
import type { RowType } from '../../src/types/logical-type.js';
import { Decimal } from '../../src/types/decimal.js';
import { Row } from '../../src/types/row.js';
import { RowKind } from '../../src/types/row-kind.js';
import { valuesEqual } from '../../src/types/values/equality.js';
import { expect } from 'vitest';

/** Scalar types every text format supports, with one row of tricky values. */
export const SCALAR_TYPE: RowType = DataTypes.ROW(
  FIELD('b', DataTypes.BOOLEAN()),
  FIELD('ti', DataTypes.TINYINT()),
  FIELD('si', DataTypes.SMALLINT()),
  FIELD('i', DataTypes.INT()),
  FIELD('big', DataTypes.BIGINT()),
  FIELD('f', DataTypes.FLOAT()),
  FIELD('d', DataTypes.DOUBLE()),
  FIELD('dec', DataTypes.DECIMAL(38, 18)),
  FIELD('s', DataTypes.STRING()),
  FIELD('bytes', DataTypes.BYTES()),
  FIELD('dt', DataTypes.DATE()),
  FIELD('tm', DataTypes.TIME(0)),
  FIELD('ts', DataTypes.TIMESTAMP(3)),
  FIELD('ltz', DataTypes.TIMESTAMP_LTZ(3)),
);

export const TS_MS = Date.UTC(2020, 0, 1, 12, 0, 0, 123);

export const SCALAR_ROW: unknown[] = [
  true,
  -128,
  32767,
  -2147483648,
  9007199254740993n,
  1.5,
  0.1,
  Decimal.parse('12345678901234567890.123456789012345678'),
  'a "quoted", text\nwith ü',
  new Uint8Array([107, 3, 11]),
  18262, // 2020-01-01
  45296000, // 12:34:56
  TS_MS,
  TS_MS,
];

export const NULL_ROW: unknown[] = SCALAR_ROW.map(() => null);

export function insert(fields: unknown[]): Row {
  return new Row(RowKind.INSERT, fields);
}

/** Field-by-field equality by value (Decimal 1.5 equals 1.50, bytes by content). */
export function expectFields(actual: readonly unknown[], expected: readonly unknown[]): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((v, i) => {
    if (!valuesEqual(v, expected[i])) {
      throw new Error(`field ${i}: expected ${String(expected[i])} but got ${String(v)}`);
    }
  });
}

export const text = (b: Uint8Array): string => new TextDecoder().decode(b);
export const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
