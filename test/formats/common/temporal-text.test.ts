import { describe, expect, it } from 'vitest';
import { daysFromCivil, formatFlinkTimestamp, formatIsoDate, formatTimeOfDay, parseFlinkTimestamp, parseFlinkTimestampAt, parseIsoDate, parseSqlTime } from '../../../src/formats/common/temporal-text.js';
import { jacksonDecimalText } from '../../../src/formats/common/java-text.js';
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

  it('reads every TIMESTAMP(3) text as Date.UTC does and rejects a bad char at any position', () => {
    let seed = 7;
    const rnd = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let k = 0; k < 400; k++) {
      // Runs of the same date, then a new one, as a stream has them.
      const ms = Date.UTC(1900 + rnd(200), rnd(12), 1 + rnd(28), rnd(24), rnd(60), rnd(60), rnd(1000));
      const sql = new Date(ms).toISOString().replace('T', ' ').slice(0, 23);
      expect(parseFlinkTimestamp(sql, 'SQL', false)).toBe(ms);
      expect(parseFlinkTimestamp(`${sql.replace(' ', 'T')}Z`, 'ISO-8601', true)).toBe(ms);
      const at = rnd(23);
      const bad = `${sql.slice(0, at)}${'x:-. T'[rnd(6)]}${sql.slice(at + 1)}`;
      if (bad !== sql) expect(parseFlinkTimestamp(bad, 'SQL', false)).toBeNaN();
    }
    expect(parseFlinkTimestamp('2021-06-01 24:00:00.000', 'SQL', false)).toBeNaN();
    expect(parseFlinkTimestamp('2021-06-01 23:60:00.000', 'SQL', false)).toBeNaN();
    expect(parseFlinkTimestamp('2021-06-01 23:00:60.000', 'SQL', false)).toBeNaN();
    // The cached date must not accept the same digits with other separators.
    expect(parseFlinkTimestamp('2021-06-01 23:00:00.000', 'SQL', false)).toBe(Date.UTC(2021, 5, 1, 23));
    expect(parseFlinkTimestamp('2021/06/01 23:00:00.000', 'SQL', false)).toBeNaN();
  });

  it('formats and parses times', () => {
    expect(formatTimeOfDay(45296789, true)).toBe('12:34:56.789');
    expect(formatTimeOfDay(45296789, false)).toBe('12:34:56');
    expect(parseSqlTime('12:34:56.7')).toBe(45296700);
    expect(parseSqlTime('24:00:00')).toBeNaN();
  });
});

describe('DECIMAL text as Jackson writes it for Flink (trailing zeros stripped)', () => {
  it('matches BigDecimal.stripTrailingZeros().toString()', () => {
    const cases: [string, string][] = [
      ['123.45', '123.45'],
      ['-1.500000000000000000', '-1.5'],
      ['0.000001', '0.000001'],
      ['0.0000001', '1E-7'],
      ['0.000000027', '2.7E-8'],
      ['-0.00000012', '-1.2E-7'],
      ['100', '1E+2'],
      ['100.00', '1E+2'],
      ['123400000000000000000000000000', '1.234E+29'],
      ['7', '7'],
    ];
    for (const [input, expected] of cases) expect(jacksonDecimalText(Decimal.parse(input), false)).toBe(expected);
    expect(jacksonDecimalText(Decimal.of(0n, 18), false)).toBe('0');
  });

  it('matches stripTrailingZeros().toPlainString() for plain numbers', () => {
    expect(jacksonDecimalText(Decimal.parse('100.00'), true)).toBe('100');
    expect(jacksonDecimalText(Decimal.parse('0.000000027'), true)).toBe('0.000000027');
    expect(jacksonDecimalText(Decimal.parse('-1.50'), true)).toBe('-1.5');
    expect(jacksonDecimalText(Decimal.of(0n, 8), true)).toBe('0');
  });
});

describe('parseFlinkTimestampAt after a timestamp of the same second', () => {
  /** An independent reading of `yyyy-MM-dd?HH:mm:ss.SSS` (? the standard's separator), NaN when invalid. */
  function reference(text: string, sep: string): number {
    const m = /^(\d{4})-(\d{2})-(\d{2})(.)(\d{2}):(\d{2}):(\d{2})\.(\d{3})$/.exec(text);
    if (m === null || m[4] !== sep) return NaN;
    const [y, mo, d, h, mi, s, ms] = [m[1], m[2], m[3], m[5], m[6], m[7], m[8]].map(Number) as number[];
    const t = Date.UTC(y!, mo! - 1, d!, h!, mi!, s!, ms!);
    const date = new Date(t);
    if (date.getUTCDate() !== d || date.getUTCMonth() !== mo! - 1 || h! > 23 || mi! > 59 || s! > 59) return NaN;
    return t;
  }

  it('reads every text of a sequence sharing seconds as alone, in both standards, in place within a longer text', () => {
    const texts = [
      '2024-01-01 10:00:00.000', '2024-01-01 10:00:00.999', '2024-01-01 10:00:00.5x0', '2024-01-01 10:00:00.12', '2024-01-01 10:00:00,123',
      '2024-01-01T10:00:00.001', '2024-01-02 10:00:00.001', '2024-01-01 10:00:01.001', '2024-02-30 10:00:00.000', '2024-01-01 10:00:00.000',
      '2024-01-01 24:00:00.000', '2024-01-01 10:00:00.000', '2024-01-01 10:00:00.0001', '2024-01-01 10:00:00.-01',
    ];
    for (const standard of ['SQL', 'ISO-8601'] as const) {
      const sep = standard === 'SQL' ? ' ' : 'T';
      for (let round = 0; round < 3; round++) {
        for (const text of texts) {
          const want = text.length === 23 ? reference(text, sep) : parseFlinkTimestamp(text, standard, false);
          const framed = `xx,${text}Z,yy`;
          expect(parseFlinkTimestampAt(framed, 3, 3 + text.length + 1, standard, true), `${standard} ${text}`).toBe(want);
          expect(parseFlinkTimestampAt(text, 0, text.length, standard, false), `${standard} ${text}`).toBe(want);
        }
      }
    }
  });
});
