import { describe, expect, it } from 'vitest';
import { ExecutionError, PlanningError } from '../../../src/errors/sluice-error.js';
import { Decimal } from '../../../src/types/decimal.js';
import { typeToString } from '../../../src/types/type-to-string.js';
import { T, bind, call, lit } from './helpers.js';

const d = (s: string): Decimal => Decimal.parse(s);

describe('arithmetic type inference', () => {
  it('widens integers and keeps INT / INT integral', () => {
    expect(typeToString(bind('+', [[1, T.INT()], [1n, T.BIGINT()]]).call.type)).toBe('BIGINT NOT NULL');
    expect(typeToString(bind('/', [[7, T.INT()], [2, T.INT()]]).call.type)).toBe('INT NOT NULL');
    expect(typeToString(bind('+', [[1, T.INT()], [1.5, T.DOUBLE()]]).call.type)).toBe('DOUBLE NOT NULL');
    expect(typeToString(bind('+', [[null, T.INT()], [1, T.INT()]]).call.type)).toBe('INT');
  });
  it('follows Flink decimal precision and scale rules', () => {
    expect(typeToString(bind('+', [[d('1.00'), T.DECIMAL(10, 2)], [d('1.000'), T.DECIMAL(5, 3)]]).call.type)).toBe('DECIMAL(12, 3) NOT NULL');
    expect(typeToString(bind('*', [[d('1.00'), T.DECIMAL(10, 2)], [d('1.000'), T.DECIMAL(5, 3)]]).call.type)).toBe('DECIMAL(16, 5) NOT NULL');
    expect(typeToString(bind('/', [[d('1.00'), T.DECIMAL(10, 2)], [d('3'), T.DECIMAL(5, 0)]]).call.type)).toBe('DECIMAL(16, 8) NOT NULL');
    expect(typeToString(bind('+', [[d('1.5'), T.DECIMAL(3, 1)], [1, T.INT()]]).call.type)).toBe('DECIMAL(12, 1) NOT NULL');
  });
  it('types % and MOD as Flink: exact numerics only, and between integers the divisor\'s type', () => {
    expect(typeToString(bind('%', [[9_000_000_000n, T.BIGINT()], [7, T.INT()]]).call.type)).toBe('INT NOT NULL');
    expect(typeToString(bind('MOD', [[7, T.TINYINT()], [9n, T.BIGINT()]]).call.type)).toBe('BIGINT NOT NULL');
    expect(typeToString(bind('%', [[d('7.25'), T.DECIMAL(10, 2)], [3, T.INT()]]).call.type)).toBe('DECIMAL(10, 2) NOT NULL');
    expect(() => bind('%', [[7.5, T.DOUBLE()], [2, T.INT()]])).toThrow("Cannot apply '%' to arguments of type '<DOUBLE> % <INTEGER>'. Supported form(s): '<EXACT_NUMERIC> % <EXACT_NUMERIC>'");
    expect(() => bind('MOD', [[7, T.INT()], [2.5, T.DOUBLE()]])).toThrow("Cannot apply 'MOD' to arguments of type 'MOD(<INTEGER>, <DOUBLE>)'. Supported form(s): 'MOD(<EXACT_NUMERIC>, <EXACT_NUMERIC>)'");
  });
  it('rejects non-numeric operands with a Calcite-style message', () => {
    expect(() => bind('+', [[true, T.BOOLEAN()], [1, T.INT()]])).toThrow(PlanningError);
    expect(() => bind('+', [[true, T.BOOLEAN()], [1, T.INT()]])).toThrow("Cannot apply '+' to arguments of type '<BOOLEAN> + <INTEGER>'. Supported form(s): '<NUMERIC> + <NUMERIC>'");
    expect(() => bind('UPPER', [[1, T.INT()]])).toThrow("Cannot apply 'UPPER' to arguments of type 'UPPER(<INTEGER>)'");
  });
});

describe('arithmetic evaluation', () => {
  it('INT wraps at 32 bits and BIGINT at 64 bits like Java', () => {
    expect(call('+', [[2147483647, T.INT()], [1, T.INT()]])).toBe(-2147483648);
    expect(call('*', [[65536, T.INT()], [65536, T.INT()]])).toBe(0);
    expect(call('+', [[9223372036854775807n, T.BIGINT()], [1n, T.BIGINT()]])).toBe(-9223372036854775808n);
    expect(call('*', [[9007199254740993n, T.BIGINT()], [1n, T.BIGINT()]])).toBe(9007199254740993n);
    expect(call('+', [[127, T.TINYINT()], [1, T.TINYINT()]])).toBe(-128);
  });
  it('integer division truncates and fails on zero', () => {
    expect(call('/', [[7, T.INT()], [2, T.INT()]])).toBe(3);
    expect(call('/', [[-7, T.INT()], [2, T.INT()]])).toBe(-3);
    expect(call('/', [[7n, T.BIGINT()], [2n, T.BIGINT()]])).toBe(3n);
    expect(() => call('/', [[7, T.INT()], [0, T.INT()]])).toThrow(ExecutionError);
    expect(() => call('%', [[7n, T.BIGINT()], [0n, T.BIGINT()]])).toThrow('Division by zero');
    expect(call('%', [[-7, T.INT()], [3, T.INT()]])).toBe(-1);
    expect(call('MOD', [[7, T.INT()], [3, T.INT()]])).toBe(1);
    // Mixed integer types: computed in the wider type, given in the divisor's.
    expect(call('%', [[9_000_000_000n, T.BIGINT()], [7, T.INT()]])).toBe(5);
    expect(call('MOD', [[-7, T.INT()], [3n, T.BIGINT()]])).toBe(-1n);
    expect(() => call('%', [[7n, T.BIGINT()], [0, T.INT()]])).toThrow('Division by zero');
  });
  it('double division by zero is Infinity / NaN', () => {
    expect(call('/', [[1, T.DOUBLE()], [0, T.DOUBLE()]])).toBe(Infinity);
    expect(call('/', [[0, T.DOUBLE()], [0, T.DOUBLE()]])).toBeNaN();
  });
  it('decimal arithmetic is exact', () => {
    expect(String(call('+', [[d('0.1'), T.DECIMAL(2, 1)], [d('0.2'), T.DECIMAL(2, 1)]]))).toBe('0.3');
    expect(String(call('*', [[d('1.10'), T.DECIMAL(10, 2)], [d('3'), T.DECIMAL(5, 0)]]))).toBe('3.30');
    expect(String(call('/', [[d('1.00'), T.DECIMAL(10, 2)], [d('3'), T.DECIMAL(5, 0)]]))).toBe('0.33333333');
    expect(String(call('+', [[d('1.5'), T.DECIMAL(3, 1)], [2, T.INT()]]))).toBe('3.5');
    expect(() => call('/', [[d('1'), T.DECIMAL(3, 1)], [d('0'), T.DECIMAL(3, 1)]])).toThrow('Division by zero');
  });
  it('unary minus and nulls', () => {
    expect(call('-', [[5, T.INT()]])).toBe(-5);
    expect(call('-', [[5n, T.BIGINT()]])).toBe(-5n);
    expect(String(call('-', [[d('1.5'), T.DECIMAL(2, 1)]]))).toBe('-1.5');
    expect(call('+', [[null, T.INT()], [1, T.INT()]])).toBe(null);
  });
  it('timestamp and date plus intervals', () => {
    const ts = Date.UTC(2024, 0, 31, 10, 0, 0);
    expect(call('+', [[ts, T.TIMESTAMP(3)], [3_600_000, T.INTERVAL_DAY_TIME('HOUR')]])).toBe(ts + 3_600_000);
    expect(call('+', [[ts, T.TIMESTAMP(3)], [1, T.INTERVAL_YEAR_MONTH('MONTH')]])).toBe(Date.UTC(2024, 1, 29, 10, 0, 0));
    expect(call('-', [[ts, T.TIMESTAMP(3)], [86_400_000, T.INTERVAL_DAY_TIME('DAY')]])).toBe(ts - 86_400_000);
    expect(call('+', [[100, T.DATE()], [2 * 86_400_000, T.INTERVAL_DAY_TIME('DAY')]])).toBe(102);
    expect(() => bind('+', [[ts, T.TIMESTAMP(3)], [ts, T.TIMESTAMP(3)]])).toThrow(PlanningError);
  });
});

describe('math functions', () => {
  it('ABS, SIGN, POWER, SQRT, LN, LOG, EXP', () => {
    expect(call('ABS', [[-3, T.INT()]])).toBe(3);
    expect(call('ABS', [[-3n, T.BIGINT()]])).toBe(3n);
    expect(String(call('ABS', [[d('-1.25'), T.DECIMAL(3, 2)]]))).toBe('1.25');
    // Java's Math.abs overflows at the smallest value and keeps the type: a real Flink 2.3.0 answers ABS(a) =
    // -2147483648 for a = -2147483648 (differential harness, test/differential/goldens/generated.json).
    expect(call('ABS', [[-2147483648, T.INT()]])).toBe(-2147483648);
    expect(call('ABS', [[-32768, T.SMALLINT()]])).toBe(-32768);
    expect(call('ABS', [[-128, T.TINYINT()]])).toBe(-128);
    expect(call('ABS', [[-9223372036854775808n, T.BIGINT()]])).toBe(-9223372036854775808n);
    expect(call('SIGN', [[-3.5, T.DOUBLE()]])).toBe(-1);
    expect(call('POWER', [[2, T.INT()], [10, T.INT()]])).toBe(1024);
    expect(call('SQRT', [[16, T.INT()]])).toBe(4);
    expect(call('LN', [[Math.E, T.DOUBLE()]])).toBe(1);
    expect(call('LOG10', [[1000, T.INT()]])).toBeCloseTo(3);
    expect(call('LOG2', [[8, T.INT()]])).toBe(3);
    expect(call('LOG', [[2, T.INT()], [8, T.INT()]])).toBeCloseTo(3);
    expect(call('EXP', [[0, T.INT()]])).toBe(1);
    expect(call('SQRT', [[null, T.DOUBLE()]])).toBe(null);
  });
  it('ROUND and TRUNCATE HALF_UP with Flink result types', () => {
    expect(call('ROUND', [[1.2345, T.DOUBLE()], [2, T.INT()]])).toBe(1.23);
    expect(call('ROUND', [[2.5, T.DOUBLE()]])).toBe(3);
    expect(call('ROUND', [[-2.5, T.DOUBLE()]])).toBe(-3);
    expect(call('ROUND', [[1234, T.INT()], [-2, T.INT()]])).toBe(1200);
    expect(call('ROUND', [[1250, T.INT()], [-2, T.INT()]])).toBe(1300);
    expect(call('ROUND', [[1249.999999999, T.DOUBLE()], [-2, T.INT()]])).toBe(1200);
    expect(call('ROUND', [[300, T.INT()], lit(0, T.INT())])).toBe(300);
    const r = bind('ROUND', [[d('3.14159'), T.DECIMAL(6, 5)], lit(2, T.INT())]);
    expect(typeToString(r.call.type)).toBe('DECIMAL(4, 2) NOT NULL');
    expect(String(call('ROUND', [[d('3.14559'), T.DECIMAL(6, 5)], lit(2, T.INT())]))).toBe('3.15');
    expect(String(call('TRUNCATE', [[d('3.14959'), T.DECIMAL(6, 5)], lit(2, T.INT())]))).toBe('3.14');
    expect(call('TRUNCATE', [[-1.99, T.DOUBLE()], [1, T.INT()]])).toBe(-1.9);
  });
  it('FLOOR, CEIL, PI, trigonometry, HEX, BIN', () => {
    expect(call('FLOOR', [[-1.5, T.DOUBLE()]])).toBe(-2);
    expect(call('CEIL', [[1.2, T.DOUBLE()]])).toBe(2);
    expect(String(call('FLOOR', [[d('-1.5'), T.DECIMAL(2, 1)]]))).toBe('-2');
    expect(call('PI', [])).toBe(Math.PI);
    expect(call('SIN', [[0, T.DOUBLE()]])).toBe(0);
    expect(call('COS', [[0, T.DOUBLE()]])).toBe(1);
    expect(call('DEGREES', [[Math.PI, T.DOUBLE()]])).toBe(180);
    expect(call('RADIANS', [[180, T.DOUBLE()]])).toBe(Math.PI);
    expect(call('HEX', [[255, T.INT()]])).toBe('FF');
    expect(call('HEX', [['abc', T.STRING()]])).toBe('616263');
    expect(call('HEX', [[-1n, T.BIGINT()]])).toBe('FFFFFFFFFFFFFFFF');
    expect(call('BIN', [[12, T.INT()]])).toBe('1100');
  });
  it('RAND is in [0, 1), seeded RAND repeats, UUID is a v4 string, and they are non-deterministic', () => {
    const r = call('RAND', []) as number;
    expect(r >= 0 && r < 1).toBe(true);
    const i = call('RAND_INTEGER', [[10, T.INT()]]) as number;
    expect(Number.isInteger(i) && i >= 0 && i < 10).toBe(true);
    expect(call('UUID', [])).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(bind('RAND', []).call.kind === 'call' && (bind('RAND', []).call as { fn: { deterministic: boolean } }).fn.deterministic).toBe(false);
  });
});
