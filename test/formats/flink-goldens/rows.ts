// The rows test/java/flink-reference/goldens/formats.sql writes with Apache Flink; keep both in step.
import { DataTypes, FIELD } from '../../../src/types/data-types.js';
import type { RowType } from '../../../src/types/logical-type.js';
import { Decimal } from '../../../src/types/decimal.js';
import { Row } from '../../../src/types/row.js';
import { RowKind } from '../../../src/types/row-kind.js';
import { NULL_ROW, SCALAR_ROW, SCALAR_TYPE } from '../fixtures.js';

/** `scalars` of formats.sql: SCALAR_TYPE of the shared fixtures. */
export const SCALARS_TYPE: RowType = SCALAR_TYPE;

export const SCALARS: readonly (readonly unknown[])[] = [
  SCALAR_ROW,
  NULL_ROW,
  // Edge values: extremes, negative scale-18 decimal, empty string and bytes, leap day, before the epoch.
  [
    false, 127, -32768, 2147483647, -9223372036854775808n, -0.25, 1e-7, Decimal.parse('-0.000000000000000001'),
    '', new Uint8Array([]), 18321, 86399000, -1, -1,
  ],
  // Delimiters, quotes, backslash, tab and non-BMP unicode in a string; a day before the epoch.
  [
    true, 0, 0, 0, 0n, 1e10, 1e7, Decimal.parse('-1.500000000000000000'),
    'comma,semi;pipe|quote\'s "dq" back\\slash\ttab 日本語 🎉', new Uint8Array([0, 255]),
    -1, 0, Date.UTC(2024, 1, 29, 23, 59, 59, 1), 1709251199001,
  ],
  [
    false, 1, 1, 1, 1n, Math.fround(0.001), -1.7976931348623157e308, Decimal.parse('0.000000000000000000'),
    ' lead and trail ', new Uint8Array([0x20]), -719162, 3723000, Date.UTC(2020, 0, 1, 0, 0, 0, 120), 1577836800000,
  ],
];

/** `nested` of formats.sql. */
export const NESTED_TYPE: RowType = DataTypes.ROW(
  FIELD('id', DataTypes.INT()),
  FIELD('arr', DataTypes.ARRAY(DataTypes.INT())),
  FIELD('sarr', DataTypes.ARRAY(DataTypes.STRING())),
  FIELD('m', DataTypes.MAP(DataTypes.STRING(), DataTypes.INT())),
  FIELD('r', DataTypes.ROW(FIELD('x', DataTypes.INT()), FIELD('y', DataTypes.STRING()), FIELD('z', DataTypes.ARRAY(DataTypes.DOUBLE())))),
  FIELD('rows_', DataTypes.ARRAY(DataTypes.ROW(FIELD('a', DataTypes.BIGINT()), FIELD('b', DataTypes.DECIMAL(5, 2))))),
);

export const NESTED: readonly (readonly unknown[])[] = [
  [
    1, [1, null, 3], ['a', '', null], new Map<string, number | null>([['k1', 1], ['k2', null]]), [7, 'seven', [0.5, -1.0]],
    [[1n, Decimal.parse('1.25')], [-2n, Decimal.parse('-0.50')]],
  ],
  [2, null, null, null, null, null],
  [3, [-7], ['x,y;z'], new Map([['only', 0]]), [null, null, null], [[null, null], [100n, Decimal.parse('100.00')]]],
];

/** `null_key` of formats.sql: a MAP with a NULL key, for json's map-null-key options. */
export const NULL_KEY_TYPE: RowType = DataTypes.ROW(FIELD('id', DataTypes.INT()), FIELD('m', DataTypes.MAP(DataTypes.STRING(), DataTypes.INT())));
// formats.sql writes MAP[NULL, 1, 'k', 2]; Flink 2.x's MAP constructor keeps the NULL key first (1.20 held it last),
// and json writes in that order.
export const NULL_KEY: readonly (readonly unknown[])[] = [[1, new Map<string | null, number>([[null, 1], ['k', 2]])]];

/** `changelog` of formats.sql: a streaming GROUP BY k over ('a', 1), ('b', 2), ('a', 3). */
export const CHANGELOG_TYPE: RowType = DataTypes.ROW(FIELD('k', DataTypes.STRING()), FIELD('cnt', DataTypes.BIGINT()), FIELD('total', DataTypes.INT()));
export const CHANGELOG: readonly Row[] = [
  new Row(RowKind.INSERT, ['a', 1n, 1]),
  new Row(RowKind.INSERT, ['b', 1n, 2]),
  new Row(RowKind.UPDATE_BEFORE, ['a', 1n, 1]),
  new Row(RowKind.UPDATE_AFTER, ['a', 2n, 4]),
];

export const inserts = (rows: readonly (readonly unknown[])[]): Row[] => rows.map((r) => new Row(RowKind.INSERT, [...r]));
