import { describe, expect, it } from 'vitest';
import { bindExpression } from '../../../src/planner/binder/bind-expression.js';
import { Scope } from '../../../src/planner/binder/scope.js';
import { createBuiltinRegistry } from '../../../src/planner/functions/builtin-registry.js';
import { sqlTypeName } from '../../../src/planner/expressions/type-rules.js';
import { compileRex } from '../../../src/planner/rex/compile-rex.js';
import type { RexNode } from '../../../src/planner/rex/rex-node.js';
import { parseExpression } from '../../../src/sql/parse.js';
import { DataTypes as T } from '../../../src/types/data-types.js';
import { parseDate, parseTime, parseTimestamp } from '../../../src/types/values/temporal.js';

// Datetime and interval arithmetic through binder -> RexNode -> code generator. Unless marked otherwise,
// cases and expected values are Flink's TemporalTypesTest.testTimeIntervalArithmetic
// (flink-table-planner/src/test/scala/.../expressions/TemporalTypesTest.scala), whose input row is
// f0 = DATE '1990-10-14', f1 = TIME '10:20:45', f2 = TIMESTAMP '1990-10-14 10:20:45.123'.
const scope = new Scope([
  { qualifier: null, name: 'f0', type: T.DATE() },
  { qualifier: null, name: 'f1', type: T.TIME(0) },
  { qualifier: null, name: 'f2', type: T.TIMESTAMP(3) },
  { qualifier: null, name: 'ltz', type: T.TIMESTAMP_LTZ(3) },
]);
const functions = createBuiltinRegistry();
const bind = (sql: string): RexNode => bindExpression(parseExpression(sql), { scope, timeZone: 'UTC', functions });
const row = [parseDate('1990-10-14'), parseTime('10:20:45'), parseTimestamp('1990-10-14 10:20:45.123'), Date.UTC(2024, 0, 31, 23, 0, 0)];
const run = (sql: string): unknown => compileRex(bind(sql))(row);
const typeOf = (sql: string): string => sqlTypeName(bind(sql).type);

describe('datetime +- interval', () => {
  it('adds and subtracts days and months on a DATE, either operand order', () => {
    expect(run("f0 + INTERVAL '2' DAY")).toBe(parseDate('1990-10-16'));
    expect(run("INTERVAL '30' DAY + f0")).toBe(parseDate('1990-11-13'));
    expect(run("f0 + INTERVAL '2' MONTH")).toBe(parseDate('1990-12-14'));
    expect(run("INTERVAL '2' MONTH + f0")).toBe(parseDate('1990-12-14'));
    expect(run("f0 - INTERVAL '2' DAY")).toBe(parseDate('1990-10-12'));
    expect(run("INTERVAL '-30' DAY + f0")).toBe(parseDate('1990-09-14'));
    expect(run("f0 - INTERVAL '2' MONTH")).toBe(parseDate('1990-08-14'));
    expect(run("-INTERVAL '2' MONTH + f0")).toBe(parseDate('1990-08-14'));
    expect(run("f0 + INTERVAL '2' DAY + INTERVAL '1' MONTH")).toBe(parseDate('1990-11-16'));
    expect(run("f0 - INTERVAL '2' DAY - INTERVAL '1' MONTH")).toBe(parseDate('1990-09-12'));
    expect(typeOf("f0 + INTERVAL '2' DAY")).toBe('DATE');
    expect(typeOf("INTERVAL '2' MONTH + f0")).toBe('DATE');
  });

  it('the issue\'s statement: DATE literal + INTERVAL DAY', () => {
    // Issue #13; 2024-03-05 + 30 days is 2024-04-04 (ScalarOperatorGens: date + millis / MILLIS_PER_DAY).
    expect(run("DATE '2024-03-05' + INTERVAL '30' DAY")).toBe(parseDate('2024-04-04'));
  });

  it('clamps to the end of the month as Flink\'s ADD_MONTHS does', () => {
    // ScalarOperatorGens (DATE, INTERVAL_YEAR_MONTH) -> DateTimeUtils.addMonths, which clamps the day.
    expect(run("DATE '2024-01-31' + INTERVAL '1' MONTH")).toBe(parseDate('2024-02-29'));
    expect(run("DATE '2023-01-31' + INTERVAL '1' MONTH")).toBe(parseDate('2023-02-28'));
    expect(run("DATE '2024-02-29' + INTERVAL '1' YEAR")).toBe(parseDate('2025-02-28'));
    expect(run("DATE '2024-03-31' - INTERVAL '1-1' YEAR TO MONTH")).toBe(parseDate('2023-02-28'));
  });

  it('drops the part of a day-time interval below a day on a DATE (truncating toward zero)', () => {
    // ScalarOperatorGens (DATE, INTERVAL_DAY_TIME) with a DATE result: date op toIntExact(millis / MILLIS_PER_DAY).
    expect(run("f0 + INTERVAL '36' HOUR")).toBe(parseDate('1990-10-15'));
    expect(run("f0 + INTERVAL '23' HOUR")).toBe(parseDate('1990-10-14'));
    expect(run("f0 - INTERVAL '1 23:00:00' DAY TO SECOND")).toBe(parseDate('1990-10-13'));
    expect(typeOf("f0 + INTERVAL '36' HOUR")).toBe('DATE');
  });

  it('wraps a TIME around midnight and leaves it alone for year-month intervals', () => {
    expect(run("f1 + INTERVAL '12' HOUR")).toBe(parseTime('22:20:45'));
    expect(run("INTERVAL '12' HOUR + f1")).toBe(parseTime('22:20:45'));
    expect(run("f1 - INTERVAL '12' HOUR")).toBe(parseTime('22:20:45'));
    expect(run("INTERVAL '-12' HOUR + f1")).toBe(parseTime('22:20:45'));
    // ScalarOperatorGens (TIME, INTERVAL_YEAR_MONTH): the time itself.
    expect(run("f1 + INTERVAL '1' MONTH")).toBe(parseTime('10:20:45'));
    expect(typeOf("f1 + INTERVAL '12' HOUR")).toBe('TIME(0)');
  });

  it('moves a TIMESTAMP by day-time and year-month intervals', () => {
    expect(run("f2 + INTERVAL '10 00:00:00.004' DAY TO SECOND")).toBe(parseTimestamp('1990-10-24 10:20:45.127'));
    expect(run("INTERVAL '10 00:00:00.004' DAY TO SECOND + f2")).toBe(parseTimestamp('1990-10-24 10:20:45.127'));
    expect(run("f2 + INTERVAL '10' YEAR")).toBe(parseTimestamp('2000-10-14 10:20:45.123'));
    expect(run("INTERVAL '10' YEAR + f2")).toBe(parseTimestamp('2000-10-14 10:20:45.123'));
    expect(run("f2 - INTERVAL '10 00:00:00.004' DAY TO SECOND")).toBe(parseTimestamp('1990-10-04 10:20:45.119'));
    expect(run("INTERVAL '-10 00:00:00.004' DAY TO SECOND + f2")).toBe(parseTimestamp('1990-10-04 10:20:45.119'));
    expect(run("f2 - INTERVAL '10' YEAR")).toBe(parseTimestamp('1980-10-14 10:20:45.123'));
    expect(run("INTERVAL '-10' YEAR + f2")).toBe(parseTimestamp('1980-10-14 10:20:45.123'));
    expect(run("f2 + INTERVAL '2' DAY + INTERVAL '1' MONTH")).toBe(parseTimestamp('1990-11-16 10:20:45.123'));
    expect(run("f2 - INTERVAL '2' DAY - INTERVAL '1' MONTH")).toBe(parseTimestamp('1990-09-12 10:20:45.123'));
    expect(typeOf("f2 + INTERVAL '10' YEAR")).toBe('TIMESTAMP(3)');
  });

  it('moves a TIMESTAMP_LTZ on its epoch milliseconds, months clamped', () => {
    // ScalarOperatorGens (TIMESTAMP_LTZ, INTERVAL_*): fromEpochMillis(millis op interval) / ADD_MONTHS(millis, ...).
    expect(run("ltz + INTERVAL '1' HOUR")).toBe(Date.UTC(2024, 1, 1, 0, 0, 0));
    expect(run("ltz + INTERVAL '1' MONTH")).toBe(Date.UTC(2024, 1, 29, 23, 0, 0));
    expect(typeOf("ltz - INTERVAL '1' DAY")).toBe('TIMESTAMP_WITH_LOCAL_TIME_ZONE(3)');
  });
});

describe('interval arithmetic', () => {
  it('adds and subtracts intervals of one kind', () => {
    expect(run("INTERVAL '8' YEAR + INTERVAL '10' MONTH")).toBe(8 * 12 + 10); // "+8-10"
    expect(run("INTERVAL '2' YEAR - INTERVAL '12' MONTH")).toBe(12); // "+1-00"
    expect(run("-INTERVAL '2' YEAR")).toBe(-24); // "-2-00"
    expect(run("INTERVAL '8' HOUR + INTERVAL '10' MINUTE + INTERVAL '12.005' SECOND")).toBe(((8 * 60 + 10) * 60 + 12) * 1000 + 5); // "+0 08:10:12.005"
    expect(run("INTERVAL '1' MINUTE - INTERVAL '10' SECOND")).toBe(50_000); // "+0 00:00:50.000"
    expect(run("-INTERVAL '10' SECOND")).toBe(-10_000); // "-0 00:00:10.000"
    expect(typeOf("INTERVAL '8' YEAR + INTERVAL '10' MONTH")).toBe('INTERVAL YEAR TO MONTH');
    expect(typeOf("INTERVAL '8' HOUR + INTERVAL '10' MINUTE")).toBe('INTERVAL HOUR TO MINUTE');
  });

  it('multiplies an interval by a number on either side', () => {
    expect(run("INTERVAL '2' DAY * 3")).toBe(6 * 86_400_000);
    expect(run("3 * INTERVAL '2' MONTH")).toBe(6);
  });

  it('refuses mixed interval kinds and DATE - DATE with Calcite\'s message', () => {
    expect(() => bind("INTERVAL '1' YEAR + INTERVAL '1' DAY")).toThrow(/Cannot apply '\+' to arguments of type '<INTERVAL YEAR> \+ <INTERVAL DAY>'/);
    // Calcite's MINUS_OPERATOR has no DATETIME - DATETIME form; a day count needs TIMESTAMPDIFF.
    expect(() => bind("f0 - DATE '1990-01-01'")).toThrow(
      "Cannot apply '-' to arguments of type '<DATE> - <DATE>'. Supported form(s): '<NUMERIC> - <NUMERIC>'\n'<DATETIME_INTERVAL> - <DATETIME_INTERVAL>'\n'<DATETIME> - <DATETIME_INTERVAL>'",
    );
    expect(() => bind("f0 + f0")).toThrow(/'<DATETIME_INTERVAL> \+ <DATETIME>'/);
  });
});
