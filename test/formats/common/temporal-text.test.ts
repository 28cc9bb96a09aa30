import { describe, expect, it } from 'vitest';
import { daysFromCivil, formatFlinkTimestamp, formatIsoDate, formatTimeOfDay, parseFlinkTimestamp, parseIsoDate, parseSqlTime } from '../../../src/formats/common/temporal-text.js';
import { javaBigDecimalString } from '../../../src/formats/common/java-text.js';
import { Decimal } from '../../../src/types/decimal.js';

describe('temporal text', () => {
  it('formats dates as ISO_LOCAL_DATE across eras and leap days', () => {
    expect(formatIsoDate(0)).toBe('1970-01-01');
    expect(formatIsoDate(-1)).toBe('1969-12-31');
    expect(formatIsoDate(daysFromCivil(2000, 2, 29))).toBe('2000-02-29');
    expect(formatIsoDate(daysFromCivil(999, 3, 1))).toBe('0999-03-01');
    expect(formatIsoDate(daysFromCivil(10000, 1, 1))).toBe('+10000-01-01');
    expect(daysFromCivil(2020, 1, 1)).toBe(Date.UTC(2020, 0, 1) / 86_400_000);
  });

  it('parses strict dates, rejecting impossible ones', () => {
    expect(parseIsoDate('2024-02-29')).toBe(Date.UTC(2024, 1, 29) / 86_400_000);
    expect(parseIsoDate('2023-02-29')).toBeNaN();
    expect(parseIsoDate('2023-2-01')).toBeNaN();
  });

  it('formats and parses timestamps with stripped fractions, both standards, alternating dates', () => {
    const a = Date.UTC(2021, 5, 1, 1, 2, 3, 400);
    const b = Date.UTC(1960, 0, 1, 23, 59, 59, 999);
    expect(formatFlinkTimestamp(a, 'SQL', false)).toBe('2021-06-01 01:02:03.4');
    expect(formatFlinkTimestamp(b, 'ISO-8601', true)).toBe('1960-01-01T23:59:59.999Z');
    for (let i = 0; i < 3; i++) {
      expect(parseFlinkTimestamp('2021-06-01 01:02:03.4', 'SQL', false)).toBe(a);
      expect(parseFlinkTimestamp('1960-01-01T23:59:59.999123456Z', 'ISO-8601', true)).toBe(b);
    }
    expect(parseFlinkTimestamp('2021-06-01T01:02:03', 'SQL', false)).toBeNaN();
    expect(parseFlinkTimestamp('2021-06-01 01:02:03Z', 'SQL', false)).toBeNaN();
    expect(parseFlinkTimestamp('2021-06-01 01:02:03.', 'SQL', false)).toBeNaN();
    expect(parseFlinkTimestamp('2021-06-31 01:02:03', 'SQL', false)).toBeNaN();
  });

  it('formats and parses times', () => {
    expect(formatTimeOfDay(45296789, true)).toBe('12:34:56.789');
    expect(formatTimeOfDay(45296789, false)).toBe('12:34:56');
    expect(parseSqlTime('12:34:56.7')).toBe(45296700);
    expect(parseSqlTime('24:00:00')).toBeNaN();
  });
});

describe('java BigDecimal text', () => {
  it('matches BigDecimal.toString', () => {
    const cases: [string, string][] = [
      ['123.45', '123.45'],
      ['0.000001', '0.000001'],
      ['0.0000001', '1E-7'],
      ['0.000000027', '2.7E-8'],
      ['-0.00000012', '-1.2E-7'],
      ['100', '100'],
    ];
    for (const [input, expected] of cases) expect(javaBigDecimalString(Decimal.parse(input))).toBe(expected);
    expect(javaBigDecimalString(Decimal.of(0n, 7))).toBe('0E-7');
    expect(javaBigDecimalString(Decimal.of(0n, 6))).toBe('0.000000');
  });
});
