import { describe, expect, it } from 'vitest';
import { ExecutionError, PlanningError } from '../../../src/errors/sluice-error.js';
import { DataTypes as T } from '../../../src/types/data-types.js';
import { Decimal } from '../../../src/types/decimal.js';
import type { LogicalType } from '../../../src/types/logical-type.js';
import { Row } from '../../../src/types/row.js';
import { compileExpression } from '../../../src/planner/expressions/compile.js';
import { cast, inputRef } from '../../../src/planner/expressions/expr-factory.js';

function run(v: unknown, from: LogicalType, to: LogicalType, tryCast = false, timeZone?: string): unknown {
  return compileExpression(cast(inputRef(0, from), to, { tryCast }), timeZone === undefined ? {} : { timeZone })(Row.insert(v));
}

const d = (s: string): Decimal => Decimal.parse(s);

describe('CAST', () => {
  // As a real Flink 2.3 answers its CastFunctionITCase (test/differential/goldens/flink-functions.json).
  it('intervals: one class casts to itself unchanged, only single-field intervals to integers; TIME prints milliseconds', () => {
    const ym = (resolution: 'YEAR_TO_MONTH' | 'MONTH'): LogicalType => ({ kind: 'INTERVAL_YEAR_MONTH', resolution, yearPrecision: 4, nullable: true });
    expect(run(123, ym('YEAR_TO_MONTH'), ym('MONTH'))).toBe(123);
    expect(run(123, ym('YEAR_TO_MONTH'), T.STRING())).toBe('+10-03');
    expect(() => run(124, ym('YEAR_TO_MONTH'), T.INT())).toThrow(PlanningError);
    expect(run('12:34:56.123', T.STRING(), T.TIME(5))).toBe(45_296_123);
    expect(run(45_296_123, T.TIME(5), T.STRING())).toBe('12:34:56.123');
  });
  it('string to numbers, trimming and failing with the value and target named', () => {
    expect(run(' 42 ', T.STRING(), T.INT())).toBe(42);
    expect(run('9007199254740993', T.STRING(), T.BIGINT())).toBe(9007199254740993n);
    expect(run('1.5e2', T.STRING(), T.DOUBLE())).toBe(150);
    expect(String(run('1.005', T.STRING(), T.DECIMAL(5, 2)))).toBe('1.01');
    expect(() => run('abc', T.STRING(), T.INT())).toThrow(ExecutionError);
    expect(() => run('abc', T.STRING(), T.INT())).toThrow("Cannot cast 'abc' of type STRING to type INT");
    expect(() => run('3000000000', T.STRING(), T.INT())).toThrow(ExecutionError);
  });
  it('TRY_CAST gives NULL instead of failing', () => {
    expect(run('abc', T.STRING(), T.INT(), true)).toBe(null);
    expect(run('12', T.STRING(), T.INT(), true)).toBe(12);
    expect(run('2024-13-01', T.STRING(), T.DATE(), true)).toBe(null);
  });
  it('string to integer drops a fraction, even with no digit before the point, as Flink (differential harness finding)', () => {
    // A real Flink 2.3.0 answers TRY_CAST('.5' AS INT) = 0 (test/differential/goldens/generated-seed11.json).
    expect(run('.5', T.STRING(), T.INT(), true)).toBe(0);
    expect(run('-7.9', T.STRING(), T.INT(), true)).toBe(-7);
    expect(run('5.', T.STRING(), T.BIGINT(), true)).toBe(5n);
    expect(run('.5x', T.STRING(), T.INT(), true)).toBe(null);
    expect(run('', T.STRING(), T.INT(), true)).toBe(null);
  });
  it('numeric narrowing wraps as Java, decimal rounds HALF_UP, decimal overflow is NULL', () => {
    expect(run(300, T.INT(), T.TINYINT())).toBe(44);
    expect(run(4294967297n, T.BIGINT(), T.INT())).toBe(1);
    expect(run(3.99, T.DOUBLE(), T.INT())).toBe(3);
    expect(run(-3.99, T.DOUBLE(), T.BIGINT())).toBe(-3n);
    expect(run(1e20, T.DOUBLE(), T.INT())).toBe(2147483647);
    expect(run(d('-2.5'), T.DECIMAL(2, 1), T.INT())).toBe(-2);
    expect(String(run(d('2.345'), T.DECIMAL(4, 3), T.DECIMAL(3, 2)))).toBe('2.35');
    expect(String(run(d('-2.345'), T.DECIMAL(4, 3), T.DECIMAL(3, 2)))).toBe('-2.35');
    expect(run(d('123.4'), T.DECIMAL(4, 1), T.DECIMAL(3, 1))).toBe(null);
    expect(String(run(0.1, T.DOUBLE(), T.DECIMAL(5, 3)))).toBe('0.100');
    expect(run(d('1.25'), T.DECIMAL(3, 2), T.DOUBLE())).toBe(1.25);
    expect(run(5, T.INT(), T.BIGINT())).toBe(5n);
    expect(run(16777217, T.INT(), T.FLOAT())).toBe(16777216);
    expect(run(5n, T.BIGINT(), T.DOUBLE())).toBe(5);
  });
  it('to and from BOOLEAN', () => {
    expect(run('TRUE', T.STRING(), T.BOOLEAN())).toBe(true);
    expect(run('no', T.STRING(), T.BOOLEAN())).toBe(false);
    expect(() => run('maybe', T.STRING(), T.BOOLEAN())).toThrow(ExecutionError);
    expect(run(true, T.BOOLEAN(), T.STRING())).toBe('TRUE');
    expect(run(true, T.BOOLEAN(), T.INT())).toBe(1);
    expect(run(0, T.INT(), T.BOOLEAN())).toBe(false);
  });
  it('to STRING uses Flink formats and CHAR/VARCHAR lengths', () => {
    expect(run(1.0, T.DOUBLE(), T.STRING())).toBe('1.0');
    expect(run(d('1.50'), T.DECIMAL(3, 2), T.STRING())).toBe('1.50');
    expect(run(Date.UTC(2024, 0, 2, 3, 4, 5, 600), T.TIMESTAMP(3), T.STRING())).toBe('2024-01-02 03:04:05.600');
    expect(run(19723, T.DATE(), T.STRING())).toBe('2024-01-01');
    expect(run('abcdef', T.STRING(), T.VARCHAR(3))).toBe('abc');
    expect(run('ab', T.STRING(), T.CHAR(4))).toBe('ab  ');
    expect(run(12345678901n, T.BIGINT(), T.STRING())).toBe('12345678901');
  });
  it('temporal conversions with the local time zone for TIMESTAMP_LTZ', () => {
    expect(run('2024-01-02 03:04:05.678', T.STRING(), T.TIMESTAMP(3))).toBe(Date.UTC(2024, 0, 2, 3, 4, 5, 678));
    expect(run('2024-01-02 03:04:05.678', T.STRING(), T.TIMESTAMP(0))).toBe(Date.UTC(2024, 0, 2, 3, 4, 5));
    expect(run('2024-01-02', T.STRING(), T.DATE())).toBe(19724);
    expect(run('10:30:00', T.STRING(), T.TIME(0))).toBe(37_800_000);
    expect(run(Date.UTC(2024, 0, 2, 3), T.TIMESTAMP(3), T.DATE())).toBe(19724);
    expect(run(19724, T.DATE(), T.TIMESTAMP(3))).toBe(Date.UTC(2024, 0, 2));
    const instant = Date.UTC(2024, 0, 1, 20);
    expect(run(instant, T.TIMESTAMP_LTZ(3), T.TIMESTAMP(3), false, 'Asia/Shanghai')).toBe(Date.UTC(2024, 0, 2, 4));
    expect(run(Date.UTC(2024, 0, 2, 4), T.TIMESTAMP(3), T.TIMESTAMP_LTZ(3), false, 'Asia/Shanghai')).toBe(instant);
    expect(run(instant, T.TIMESTAMP_LTZ(3), T.STRING(), false, 'Asia/Shanghai')).toBe('2024-01-02 04:00:00.000');
  });
  it('collections cast element-wise', () => {
    expect(run([1, null, 3], T.ARRAY(T.INT()), T.ARRAY(T.BIGINT()))).toEqual([1n, null, 3n]);
    expect(run(['1', '2'], T.ARRAY(T.STRING()), T.ARRAY(T.INT()))).toEqual([1, 2]);
    expect(run([1, 'a'], T.ROW(T.FIELD('x', T.INT()), T.FIELD('y', T.STRING())), T.STRING())).toBe('(1, a)');
  });
  it('bytes and strings convert through UTF-8', () => {
    expect(run('hé', T.STRING(), T.BYTES())).toEqual(new Uint8Array([0x68, 0xc3, 0xa9]));
    expect(run(new Uint8Array([0x68, 0x69]), T.BYTES(), T.STRING())).toBe('hi');
  });
  it('rejects unsupported casts at planning time', () => {
    expect(() => cast(inputRef(0, T.BOOLEAN()), T.DATE())).toThrow(PlanningError);
    expect(() => cast(inputRef(0, T.BOOLEAN()), T.DATE())).toThrow('Cast function cannot convert value of type BOOLEAN to type DATE');
    expect(() => cast(inputRef(0, T.INT()), T.TIMESTAMP(3))).toThrow(PlanningError);
  });
  it('NULL stays NULL and nullability follows the operand', () => {
    expect(run(null, T.STRING(), T.INT())).toBe(null);
    expect(cast(inputRef(0, { ...T.INT(), nullable: false }), T.BIGINT()).type.nullable).toBe(false);
    expect(cast(inputRef(0, { ...T.INT(), nullable: false }), T.BIGINT(), { tryCast: true }).type.nullable).toBe(true);
  });
});
