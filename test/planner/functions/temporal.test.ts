import { describe, expect, it } from 'vitest';
import { typeToString } from '../../../src/types/type-to-string.js';
import { T, bind, call, sym } from './helpers.js';

const ts = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): number => Date.UTC(y, mo - 1, d, h, mi, s, ms);
const TS = T.TIMESTAMP(3);
const day = (y: number, mo: number, d: number): number => Date.UTC(y, mo - 1, d) / 86_400_000;

describe('temporal functions', () => {
  it('EXTRACT and the field shortcuts return BIGINT', () => {
    const v = ts(2024, 2, 29, 13, 45, 30, 123);
    expect(call('EXTRACT', [sym('YEAR'), [v, TS]])).toBe(2024n);
    expect(call('EXTRACT', [sym('MONTH'), [v, TS]])).toBe(2n);
    expect(call('EXTRACT', [sym('DAY'), [v, TS]])).toBe(29n);
    expect(call('EXTRACT', [sym('HOUR'), [v, TS]])).toBe(13n);
    // The millisecond of the second, as a real Flink 2.3 answers (TimeFunctionsITCase; flink-functions.json).
    expect(call('EXTRACT', [sym('MILLISECOND'), [v, TS]])).toBe(123n);
    expect(call('EXTRACT', [sym('MICROSECOND'), [v, TS]])).toBe(123000n);
    expect(call('EXTRACT', [sym('NANOSECOND'), [v, TS]])).toBe(123000000n);
    expect(typeToString(bind('YEAR', [[v, TS]]).call.type)).toBe('BIGINT NOT NULL');
    expect(call('QUARTER', [[v, TS]])).toBe(1n);
    expect(call('DAYOFYEAR', [[v, TS]])).toBe(60n);
    expect(call('DAYOFWEEK', [[ts(2024, 3, 3), TS]])).toBe(1n);
    expect(call('WEEK', [[ts(2024, 1, 1), TS]])).toBe(1n);
    expect(call('MINUTE', [[v, TS]])).toBe(45n);
    expect(call('SECOND', [[v, TS]])).toBe(30n);
    expect(call('YEAR', [[day(1999, 12, 31), T.DATE()]])).toBe(1999n);
    expect(call('YEAR', [[null, TS]])).toBe(null);
  });
  it('TIMESTAMP_LTZ fields follow table.local-time-zone', () => {
    const instant = ts(2024, 1, 1, 23, 30);
    expect(call('HOUR', [[instant, T.TIMESTAMP_LTZ(3)]], { timeZone: 'UTC' })).toBe(23n);
    expect(call('HOUR', [[instant, T.TIMESTAMP_LTZ(3)]], { timeZone: 'Asia/Shanghai' })).toBe(7n);
    expect(call('DATE_FORMAT', [[instant, T.TIMESTAMP_LTZ(3)], ['yyyy-MM-dd HH:mm', T.STRING()]], { timeZone: 'Asia/Shanghai' })).toBe('2024-01-02 07:30');
  });
  it('DATE_FORMAT, TO_TIMESTAMP, TO_DATE with Java patterns', () => {
    const v = ts(2024, 3, 5, 7, 8, 9, 10);
    expect(call('DATE_FORMAT', [[v, TS], ['yyyy-MM-dd HH:mm:ss.SSS', T.STRING()]])).toBe('2024-03-05 07:08:09.010');
    expect(call('DATE_FORMAT', [[v, TS], ["yyyyMMdd'T'HH", T.STRING()]])).toBe('20240305T07');
    expect(call('DATE_FORMAT', [['2024-03-05 07:08:09', T.STRING()], ['MMM d, yyyy', T.STRING()]])).toBe('Mar 5, 2024');
    expect(call('TO_TIMESTAMP', [['2024-03-05 07:08:09', T.STRING()]])).toBe(ts(2024, 3, 5, 7, 8, 9));
    expect(call('TO_TIMESTAMP', [['05/03/2024 07', T.STRING()], ['dd/MM/yyyy HH', T.STRING()]])).toBe(ts(2024, 3, 5, 7));
    expect(call('TO_TIMESTAMP', [['garbage', T.STRING()]])).toBe(null);
    expect(call('TO_DATE', [['2024-03-05', T.STRING()]])).toBe(day(2024, 3, 5));
    expect(call('TO_DATE', [['20240305', T.STRING()], ['yyyyMMdd', T.STRING()]])).toBe(day(2024, 3, 5));
  });
  it('TO_TIMESTAMP_LTZ, UNIX_TIMESTAMP, FROM_UNIXTIME', () => {
    expect(call('TO_TIMESTAMP_LTZ', [[1700000000n, T.BIGINT()], [0, T.INT()]])).toBe(1700000000000);
    expect(call('TO_TIMESTAMP_LTZ', [[1700000000123n, T.BIGINT()], [3, T.INT()]])).toBe(1700000000123);
    expect(call('UNIX_TIMESTAMP', [['1970-01-01 00:00:10', T.STRING()]])).toBe(10n);
    expect(call('UNIX_TIMESTAMP', [['1970-01-01 08:00:10', T.STRING()]], { timeZone: 'Asia/Shanghai' })).toBe(10n);
    expect(call('FROM_UNIXTIME', [[44n, T.BIGINT()]])).toBe('1970-01-01 00:00:44');
    expect(call('FROM_UNIXTIME', [[44n, T.BIGINT()], ['yyyy/MM/dd', T.STRING()]])).toBe('1970/01/01');
    const now = call('UNIX_TIMESTAMP', []) as bigint;
    expect(Math.abs(Number(now) - Date.now() / 1000) < 5).toBe(true);
  });
  it('TIMESTAMPADD and TIMESTAMPDIFF', () => {
    expect(call('TIMESTAMPADD', [sym('WEEK'), [1, T.INT()], [ts(2003, 1, 2, 10), TS]])).toBe(ts(2003, 1, 9, 10));
    expect(call('TIMESTAMPADD', [sym('MONTH'), [1, T.INT()], [ts(2024, 1, 31), TS]])).toBe(ts(2024, 2, 29));
    expect(call('TIMESTAMPADD', [sym('DAY'), [1, T.INT()], [day(2024, 1, 31), T.DATE()]])).toBe(day(2024, 2, 1));
    expect(call('TIMESTAMPDIFF', [sym('DAY'), [ts(2003, 1, 2, 10), TS], [ts(2003, 1, 4, 9), TS]])).toBe(1);
    // Calcite's subtractMonths (run by Flink): the 31st plus a month clamps to the 28th, so that is a whole month.
    expect(call('TIMESTAMPDIFF', [sym('MONTH'), [ts(2003, 1, 31), TS], [ts(2003, 2, 28), TS]])).toBe(1);
    expect(call('TIMESTAMPDIFF', [sym('MONTH'), [ts(2003, 1, 31, 10), TS], [ts(2003, 2, 28, 9), TS]])).toBe(0);
    expect(call('TIMESTAMPDIFF', [sym('YEAR'), [ts(2000, 6, 1), TS], [ts(2003, 6, 1), TS]])).toBe(3);
    expect(call('TIMESTAMPDIFF', [sym('HOUR'), [ts(2003, 1, 2, 10), TS], [ts(2003, 1, 2, 7), TS]])).toBe(-3);
  });
  it('FLOOR / CEIL to a unit', () => {
    const v = ts(2024, 5, 17, 13, 45, 30);
    expect(call('FLOOR', [[v, TS], sym('HOUR')])).toBe(ts(2024, 5, 17, 13));
    expect(call('CEIL', [[v, TS], sym('HOUR')])).toBe(ts(2024, 5, 17, 14));
    expect(call('FLOOR', [[v, TS], sym('MONTH')])).toBe(ts(2024, 5, 1));
    expect(call('CEIL', [[v, TS], sym('YEAR')])).toBe(ts(2025, 1, 1));
    expect(call('FLOOR', [[v, TS], sym('QUARTER')])).toBe(ts(2024, 4, 1));
    expect(call('FLOOR', [[v, TS], sym('DAY')])).toBe(ts(2024, 5, 17));
    expect(call('CEIL', [[ts(2024, 5, 17), TS], sym('DAY')])).toBe(ts(2024, 5, 17));
  });
  // A real Flink 2.3's answers to its TimeFunctionsITCase (test/differential/goldens/flink-functions.json).
  it('FLOOR / CEIL to DECADE, CENTURY and MILLENNIUM; CEIL of a DATE to DAY', () => {
    const d = day(1990, 10, 14);
    const v = ts(2020, 2, 29, 1, 56, 59, 987);
    expect(call('FLOOR', [[d, T.DATE()], sym('DECADE')])).toBe(day(1990, 1, 1));
    expect(call('FLOOR', [[d, T.DATE()], sym('CENTURY')])).toBe(day(1901, 1, 1));
    expect(call('FLOOR', [[d, T.DATE()], sym('MILLENNIUM')])).toBe(day(1001, 1, 1));
    expect(call('CEIL', [[d, T.DATE()], sym('DECADE')])).toBe(day(2000, 1, 1));
    expect(call('CEIL', [[d, T.DATE()], sym('MILLENNIUM')])).toBe(day(2001, 1, 1));
    expect(call('FLOOR', [[v, TS], sym('CENTURY')])).toBe(ts(2001, 1, 1));
    expect(call('CEIL', [[v, TS], sym('DECADE')])).toBe(ts(2030, 1, 1));
    expect(call('CEIL', [[v, TS], sym('CENTURY')])).toBe(ts(2101, 1, 1));
    expect(call('CEIL', [[v, TS], sym('MILLENNIUM')])).toBe(ts(3001, 1, 1));
    expect(call('CEIL', [[d, T.DATE()], sym('DAY')])).toBe(day(1990, 10, 15));
    expect(call('FLOOR', [[d, T.DATE()], sym('DAY')])).toBe(d);
  });
  it('CONVERT_TZ and the current-time functions', () => {
    expect(call('CONVERT_TZ', [['1970-01-01 00:00:00', T.STRING()], ['UTC', T.STRING()], ['America/Los_Angeles', T.STRING()]])).toBe('1969-12-31 16:00:00');
    const now = call('CURRENT_TIMESTAMP', []) as number;
    expect(Math.abs(now - Date.now()) < 5000).toBe(true);
    expect(typeToString(bind('CURRENT_TIMESTAMP', []).call.type)).toBe('TIMESTAMP_LTZ(3) NOT NULL');
    expect(call('CURRENT_DATE', [])).toBe(Math.floor(Date.now() / 86_400_000));
    const local = call('LOCALTIMESTAMP', [], { timeZone: 'GMT+08:00' }) as number;
    expect(Math.abs(local - (Date.now() + 8 * 3_600_000)) < 5000).toBe(true);
    const nowFn = bind('NOW', []).call;
    expect(nowFn.kind === 'call' && nowFn.fn.deterministic).toBe(false);
  });
});
