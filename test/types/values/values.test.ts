import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/errors/sluice-error.js';
import { DataTypes, FIELD } from '../../../src/types/data-types.js';
import { Decimal } from '../../../src/types/decimal.js';
import { Row } from '../../../src/types/row.js';
import { RowKind } from '../../../src/types/row-kind.js';
import { formatValue, formatValueJava, rowToString } from '../../../src/types/values/format-value.js';
import { formatDouble, formatFloat } from '../../../src/types/values/number-format.js';
import {
  formatDate,
  formatTime,
  formatTimestamp,
  formatTimestampLtz,
  parseDate,
  parseTime,
  parseTimestamp,
  parseTimestampLtz,
} from '../../../src/types/values/temporal.js';
import { rowFieldsToJsonl, valueToJsonl } from '../../../src/types/values/jsonl.js';
import { hashFields, hashValue, valuesEqual } from '../../../src/types/values/equality.js';
import { decodeValue, decodeValueFromBuffer, encodeValue, encodeValueToBuffer } from '../../../src/types/values/state-codec.js';

const TS = Date.UTC(2024, 0, 1, 12, 0, 0, 123);

describe('temporal parse and format', () => {
  it('formats and parses dates, times and timestamps', () => {
    expect(parseDate('2024-01-01')).toBe(19723);
    expect(formatDate(19723)).toBe('2024-01-01');
    expect(formatDate(-1)).toBe('1969-12-31');
    expect(parseDate('2024-2-9')).toBe(parseDate('2024-02-09'));
    expect(() => parseDate('2023-02-29')).toThrow(ValidationError);
    expect(parseTime('12:00:00.123')).toBe(43_200_123);
    expect(parseTime('01:02')).toBe(3_720_000);
    expect(formatTime(43_200_123, 0)).toBe('12:00:00');
    expect(formatTime(43_200_123, 3)).toBe('12:00:00.123');
    expect(formatTime(43_200_123, 6)).toBe('12:00:00.123000');
    expect(parseTimestamp('2024-01-01 12:00:00.123')).toBe(TS);
    expect(parseTimestamp('2024-01-01T12:00:00.123456789')).toBe(TS);
    expect(parseTimestamp('2024-01-01T14:00:00.123+02:00')).toBe(TS);
    expect(parseTimestamp('2024-01-01T12:00:00.123Z')).toBe(TS);
    expect(parseTimestamp('2024-01-01')).toBe(Date.UTC(2024, 0, 1));
    expect(() => parseTimestamp('2024-13-01 00:00:00')).toThrow(/Invalid TIMESTAMP value/);
    expect(formatTimestamp(TS, 3)).toBe('2024-01-01 12:00:00.123');
    expect(formatTimestamp(TS, 0)).toBe('2024-01-01 12:00:00');
    expect(formatTimestamp(Date.UTC(1969, 11, 31, 23, 59, 59, 500), 3)).toBe('1969-12-31 23:59:59.500');
  });

  it('handles TIMESTAMP_LTZ in a time zone', () => {
    expect(formatTimestampLtz(TS, 3, 'Asia/Shanghai')).toBe('2024-01-01 20:00:00.123');
    expect(formatTimestampLtz(TS, 3, 'GMT+08:00')).toBe('2024-01-01 20:00:00.123');
    expect(formatTimestampLtz(Date.UTC(2024, 6, 1), 0, 'Europe/Berlin')).toBe('2024-07-01 02:00:00');
    expect(parseTimestampLtz('2024-01-01 20:00:00.123', 'Asia/Shanghai')).toBe(TS);
    expect(parseTimestampLtz('2024-07-01 02:00:00', 'Europe/Berlin')).toBe(Date.UTC(2024, 6, 1));
  });
});

describe('formatValue (Flink CAST to STRING / tableau)', () => {
  it('formats every kind', () => {
    expect(formatValue(true, DataTypes.BOOLEAN())).toBe('TRUE');
    expect(formatValue(null, DataTypes.INT())).toBe('NULL');
    expect(formatValue(9007199254740993n, DataTypes.BIGINT())).toBe('9007199254740993');
    expect(formatValue(1, DataTypes.DOUBLE())).toBe('1.0');
    expect(formatValue(Math.fround(0.1), DataTypes.FLOAT())).toBe('0.1');
    expect(formatValue(Decimal.parse('1.50'), DataTypes.DECIMAL(5, 2))).toBe('1.50');
    expect(formatValue(TS, DataTypes.TIMESTAMP(3))).toBe('2024-01-01 12:00:00.123');
    expect(formatValue(TS, DataTypes.TIMESTAMP_LTZ(3), { timeZone: 'Asia/Shanghai' })).toBe('2024-01-01 20:00:00.123');
    expect(formatValue(19723, DataTypes.DATE())).toBe('2024-01-01');
    expect(formatValue(43_200_000, DataTypes.TIME())).toBe('12:00:00');
    expect(formatValue(new Uint8Array([10, 255]), DataTypes.BYTES())).toBe("x'0aff'");
    expect(formatValue([1, null], DataTypes.ARRAY(DataTypes.INT()))).toBe('[1, NULL]');
    expect(formatValue(new Map([['a', 1], ['b', 2]]), DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()))).toBe('{a=1, b=2}');
    expect(formatValue([1, 'a'], DataTypes.ROW(FIELD('x', DataTypes.INT()), FIELD('y', DataTypes.STRING())))).toBe('(1, a)');
    expect(formatValue(86_400_000, DataTypes.INTERVAL_DAY_TIME())).toBe('+1 00:00:00.000');
    expect(formatValue(-1500, DataTypes.INTERVAL_DAY_TIME())).toBe('-0 00:00:01.500');
    expect(formatValue(12, DataTypes.INTERVAL_YEAR_MONTH())).toBe('+1-00');
    expect(formatValue(new Map([['x', 2]]), DataTypes.MULTISET(DataTypes.STRING()))).toBe('{x=2}');
  });

  it('prints doubles and floats as Java does', () => {
    expect(formatDouble(1e7)).toBe('1.0E7');
    expect(formatDouble(1234567.5)).toBe('1234567.5');
    expect(formatDouble(0.001)).toBe('0.001');
    expect(formatDouble(0.0001)).toBe('1.0E-4');
    expect(formatDouble(-1.25e-10)).toBe('-1.25E-10');
    expect(formatDouble(100)).toBe('100.0');
    expect(formatDouble(Number.NaN)).toBe('NaN');
    expect(formatDouble(-Infinity)).toBe('-Infinity');
    expect(formatDouble(-0)).toBe('-0.0');
    expect(formatFloat(3.4028234663852886e38)).toBe('3.4028235E38');
    expect(formatFloat(1.1)).toBe('1.1');
    // Where one digit reads back, Java prints the closest two-digit decimal (differential harness, seed 101).
    expect(formatDouble(Number.MIN_VALUE)).toBe('4.9E-324');
    expect(formatDouble(-Number.MIN_VALUE)).toBe('-4.9E-324');
    expect(formatDouble(1e23)).toBe('1.0E23');
    expect(formatDouble(2)).toBe('2.0');
    expect(formatFloat(1.401298464324817e-45)).toBe('1.4E-45');
    expect(formatFloat(2)).toBe('2.0');
  });
});

describe('print connector form', () => {
  it('prints rows as +I[1, a] with Java toString of fields', () => {
    const types = [DataTypes.INT(), DataTypes.STRING(), DataTypes.BOOLEAN(), DataTypes.TIMESTAMP(3), DataTypes.DECIMAL(5, 2)];
    expect(rowToString(Row.insert(1, 'a', true, Date.UTC(2024, 0, 1, 12), Decimal.parse('1.50')), types)).toBe(
      '+I[1, a, true, 2024-01-01T12:00, 1.50]',
    );
    expect(rowToString(Row.of(RowKind.UPDATE_BEFORE, [2, null]), types)).toBe('-U[2, null]');
    expect(formatValueJava(TS, DataTypes.TIMESTAMP_LTZ(3))).toBe('2024-01-01T12:00:00.123Z');
    expect(formatValueJava(3_600_000 + 1_800_000, DataTypes.INTERVAL_DAY_TIME())).toBe('PT1H30M');
    expect(formatValueJava(14, DataTypes.INTERVAL_YEAR_MONTH())).toBe('P1Y2M');
    // Flink's PeriodIntervalConverter: Period.ofMonths for INTERVAL MONTH (a real Flink 2.3 prints P18M), Period.ofYears
    // for INTERVAL YEAR.
    expect(formatValueJava(18, { kind: 'INTERVAL_YEAR_MONTH', resolution: 'MONTH', yearPrecision: 2, nullable: true })).toBe('P18M');
    expect(formatValueJava(24, { kind: 'INTERVAL_YEAR_MONTH', resolution: 'YEAR', yearPrecision: 2, nullable: true })).toBe('P2Y');
    expect(formatValueJava(new Uint8Array([1, 255]), DataTypes.BYTES())).toBe('[1, -1]');
    expect(formatValueJava(Decimal.parse('0.0000001'), DataTypes.DECIMAL(10, 7))).toBe('1E-7');
  });
});

describe('valueToJsonl', () => {
  it('keeps BIGINT beyond 2^53 and DECIMAL exact as strings', () => {
    expect(valueToJsonl(9007199254740993n, DataTypes.BIGINT())).toBe('9007199254740993');
    expect(valueToJsonl(9007199254740991n, DataTypes.BIGINT())).toBe(9007199254740991);
    expect(valueToJsonl(-9007199254740992n, DataTypes.BIGINT())).toBe('-9007199254740992');
    expect(valueToJsonl(Decimal.parse('12345678901234567890.123456789'), DataTypes.DECIMAL(38, 9))).toBe(
      '12345678901234567890.123456789',
    );
    const line = JSON.stringify(valueToJsonl(9007199254740993n, DataTypes.BIGINT()));
    expect(line).toBe('"9007199254740993"');
  });

  it('converts nested values and rows', () => {
    const rowType = DataTypes.ROW(
      FIELD('id', DataTypes.BIGINT()),
      FIELD('ts', DataTypes.TIMESTAMP(3)),
      FIELD('tags', DataTypes.ARRAY(DataTypes.STRING())),
      FIELD('m', DataTypes.MAP(DataTypes.INT(), DataTypes.DOUBLE())),
      FIELD('n', DataTypes.ROW(FIELD('b', DataTypes.BYTES()))),
      FIELD('x', DataTypes.INT()),
    );
    expect(rowFieldsToJsonl([1n, TS, ['a'], new Map([[1, Number.NaN]]), [new Uint8Array([1, 2])], null], rowType)).toEqual({
      id: 1,
      ts: '2024-01-01 12:00:00.123',
      tags: ['a'],
      m: { '1': 'NaN' },
      n: { b: 'AQI=' },
      x: null,
    });
  });
});

describe('valuesEqual and hashValue', () => {
  const pairs: Array<[unknown, unknown]> = [
    [9007199254740993n, 9007199254740993n],
    [Decimal.parse('1.5'), Decimal.parse('1.50')],
    [new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3])],
    [[1, [2n, 'x']], [1, [2n, 'x']]],
    [new Map([['a', 1], ['b', 2]]), new Map([['b', 2], ['a', 1]])],
    [new Map([[[1, 2], 'v']]), new Map([[[1, 2], 'v']])],
    [Number.NaN, Number.NaN],
    [0, -0],
    [null, null],
  ];
  it.each(pairs)('treats %o and %o as equal with equal hashes', (a, b) => {
    expect(valuesEqual(a, b)).toBe(true);
    expect(hashValue(a)).toBe(hashValue(b));
  });

  it('tells different values apart', () => {
    expect(valuesEqual(1n, 2n)).toBe(false);
    expect(valuesEqual(1n, 1)).toBe(false);
    expect(valuesEqual(Decimal.parse('1.5'), Decimal.parse('1.51'))).toBe(false);
    expect(valuesEqual(new Uint8Array([1]), new Uint8Array([2]))).toBe(false);
    expect(valuesEqual([1, 2], [1, 2, 3])).toBe(false);
    expect(valuesEqual(new Map([['a', 1]]), new Map([['a', 2]]))).toBe(false);
    expect(valuesEqual(null, 0)).toBe(false);
    expect(hashValue(9007199254740993n)).not.toBe(hashValue(9007199254740992n));
    const hashes = new Set(Array.from({ length: 1000 }, (_, i) => hashValue(BigInt(i))));
    expect(hashes.size).toBe(1000);
    expect(hashFields([1, 'a', 2n], [0, 2])).toBe(hashFields([1, 'b', 2n], [0, 2]));
    expect(hashFields([1, 'a', 2n], [0, 1])).not.toBe(hashFields([1, 'b', 2n], [0, 1]));
  });
});

describe('state codec', () => {
  const values: unknown[] = [
    null,
    true,
    'text',
    42,
    -0,
    Number.NaN,
    Infinity,
    9007199254740993n,
    -123456789012345678901234567890n,
    Decimal.parse('-12345678901234567890123456789012345.678'),
    new Uint8Array([0, 1, 254, 255]),
    [1, [2, [3n, null]], 'x'],
    new Map<unknown, unknown>([[1n, Decimal.parse('1.50')], ['k', [new Uint8Array([7])]]]),
    { count: 3n, sum: Decimal.parse('2.5'), $n: 'not a tag' },
    Row.of(RowKind.UPDATE_AFTER, [1n, 'a', null]),
  ];
  it.each(values.map((v) => [v]))('round trips %o', (v) => {
    const back = decodeValue(JSON.parse(JSON.stringify(encodeValue(v))));
    expect(back).toStrictEqual(v);
    expect(decodeValueFromBuffer(encodeValueToBuffer(v))).toStrictEqual(v);
  });

  it('keeps BIGINT 9007199254740993 exact through JSON text', () => {
    const text = JSON.stringify(encodeValue(9007199254740993n));
    expect(text).toBe('{"$n":"9007199254740993"}');
    expect(decodeValue(JSON.parse(text))).toBe(9007199254740993n);
  });

  it('rejects corrupt input', () => {
    expect(() => decodeValue({ $x: 1 })).toThrow(ValidationError);
    expect(() => decodeValue({ a: 1, b: 2 })).toThrow(ValidationError);
  });
});
