import { describe, expect, it } from 'vitest';
import { ExecutionError, ValidationError } from '../../src/errors/sluice-error.js';
import { Decimal } from '../../src/types/decimal.js';
import {
  decimalAddType,
  decimalAvgType,
  decimalCommonType,
  decimalDivideType,
  decimalFloorCeilType,
  decimalModType,
  decimalMultiplyType,
  decimalRoundType,
  decimalSumType,
} from '../../src/types/decimal-type-rules.js';

const d = (s: string): Decimal => Decimal.parse(s);

describe('Decimal', () => {
  it('parses and prints plainly, keeping the scale', () => {
    expect(d('1.50').toString()).toBe('1.50');
    expect(d('1.50').scale).toBe(2);
    expect(d('-0.05').toString()).toBe('-0.05');
    expect(d('.5').toString()).toBe('0.5');
    expect(d('+7').toString()).toBe('7');
    expect(d('1.2E3').toString()).toBe('1200');
    expect(d('1e-5').toString()).toBe('0.00001');
    expect(d('-12.345e1').toString()).toBe('-123.45');
    expect(d('0.000').toString()).toBe('0.000');
    expect(() => d('abc')).toThrow(ValidationError);
    expect(() => d('.')).toThrow(ValidationError);
    expect(() => d('1.2.3')).toThrow(ValidationError);
    expect(Decimal.tryParse('x')).toBeNull();
  });

  it('converts from and to numbers', () => {
    expect(Decimal.fromNumber(0.1).toString()).toBe('0.1');
    expect(Decimal.fromNumber(1e21).toString()).toBe('1000000000000000000000');
    expect(Decimal.fromNumber(-2.5e-7).toString()).toBe('-0.00000025');
    expect(d('3.25').toNumber()).toBe(3.25);
    expect(() => Decimal.fromNumber(Number.NaN)).toThrow(ValidationError);
  });

  it('adds, subtracts and multiplies exactly with 38-digit values', () => {
    const big = d('99999999999999999999999999999999999999'); // 38 nines
    expect(big.precision()).toBe(38);
    expect(big.add(d('1')).toString()).toBe('100000000000000000000000000000000000000');
    expect(big.add(d('1')).toPrecision(38, 0)).toBeNull();
    expect(d('1234567890123456789012345678.0123456789').subtract(d('0.0123456789')).toString()).toBe(
      '1234567890123456789012345678.0000000000',
    );
    expect(d('1.5').add(d('2.25')).toString()).toBe('3.75');
    expect(d('1.5').subtract(d('2.25')).toString()).toBe('-0.75');
    expect(d('12345678901234567890.5').multiply(d('-2.00')).toString()).toBe('-24691357802469135781.000');
  });

  it('divides rounding HALF_UP to the requested scale', () => {
    expect(d('1').divide(d('3'), 6).toString()).toBe('0.333333');
    expect(d('2').divide(d('3'), 6).toString()).toBe('0.666667');
    expect(d('-2').divide(d('3'), 2).toString()).toBe('-0.67');
    expect(d('1.25').divide(d('0.5'), 0).toString()).toBe('3');
    expect(d('-0.5').divide(d('1'), 0).toString()).toBe('-1');
    expect(d('100').divide(d('0.001'), 1).toString()).toBe('100000.0');
    expect(() => d('1').divide(d('0.00'), 2)).toThrow(ExecutionError);
  });

  it('divides as Flink does: to 38 significant digits first, then to the scale (both HALF_UP)', () => {
    // What a real Flink 2.3.0 printed for these divisions (and for the AVG of the first sum over 13 rows).
    expect(d('-18437736627541232514').divide(d('13'), 18).toString()).toBe('-1418287432887787116.461538461538461539');
    expect(d('2').divide(d('3'), 13).toString()).toBe('0.6666666666667');
    expect(d('1').divide(d('7'), 6).toString()).toBe('0.142857');
    expect(d('-0.000000000000000000000000000000000005').divide(d('3'), 37).toString()).toBe('-0.0000000000000000000000000000000000017');
    expect(d('0').divide(d('-3'), 2).toString()).toBe('0.00');
    // A quotient past 38 digits is still computed (the caller's precision check refuses it).
    expect(d('99999999999999999999999999999999999999').divide(d('0.0000000000000000000000000000000000001'), 0).toString()).toBe(`99999999999999999999999999999999999999${'0'.repeat(37)}`);
  });

  it('rescales with HALF_UP and checks precision as Flink (null on overflow)', () => {
    expect(d('1.245').rescale(2).toString()).toBe('1.25');
    expect(d('-1.245').rescale(2).toString()).toBe('-1.25');
    expect(d('1.244').rescale(2).toString()).toBe('1.24');
    expect(d('1.5').rescale(3).toString()).toBe('1.500');
    expect(d('123.456').toPrecision(5, 2)?.toString()).toBe('123.46');
    expect(d('1234.5').toPrecision(5, 2)).toBeNull();
    expect(d('999.995').toPrecision(5, 2)).toBeNull();
    expect(d('0.001').toPrecision(1, 0)?.toString()).toBe('0');
    expect(d('1.5').fits(2, 1)).toBe(true);
    expect(d('1.55').fits(2, 1)).toBe(false);
  });

  it('compares by value regardless of scale', () => {
    expect(d('1.50').equals(d('1.5'))).toBe(true);
    expect(d('1.50').compareTo(d('1.51'))).toBe(-1);
    expect(d('-1').compareTo(d('-2'))).toBe(1);
    expect(d('1.500').stripTrailingZeros().toString()).toBe('1.5');
    expect(d('0.00').stripTrailingZeros().toString()).toBe('0');
  });

  it('floors, ceils, truncates and takes remainders', () => {
    expect(d('-1.5').floor().toString()).toBe('-2');
    expect(d('-1.5').ceil().toString()).toBe('-1');
    expect(d('1.1').ceil().toString()).toBe('2');
    expect(d('1.99').truncate(1).toString()).toBe('1.9');
    expect(d('-7.5').remainder(d('2')).toString()).toBe('-1.5');
    expect(d('-7.9').toBigInt()).toBe(-7n);
  });
});

describe('decimal result types (Flink LogicalTypeMerging)', () => {
  it('follows Flink for + - * / % SUM AVG', () => {
    expect(decimalAddType(10, 2, 5, 3)).toMatchObject({ precision: 12, scale: 3 });
    expect(decimalMultiplyType(10, 2, 5, 3)).toMatchObject({ precision: 16, scale: 5 });
    expect(decimalDivideType(10, 2, 5, 3)).toMatchObject({ precision: 19, scale: 8 });
    expect(decimalDivideType(38, 10, 38, 10)).toMatchObject({ precision: 38, scale: 6 });
    expect(decimalMultiplyType(38, 10, 38, 10)).toMatchObject({ precision: 38, scale: 6 });
    expect(decimalAddType(38, 2, 38, 2)).toMatchObject({ precision: 38, scale: 2 });
    expect(decimalModType(10, 2, 5, 3)).toMatchObject({ precision: 5, scale: 3 });
    expect(decimalSumType(10, 2)).toMatchObject({ precision: 38, scale: 2 });
    expect(decimalAvgType(10, 2)).toMatchObject({ precision: 38, scale: 6 });
  });

  // Figures from a real Flink 2.3.0 (scripts/flink-reference.sh, DESCRIBE of views over columns of these types).
  it('meets two DECIMALs as Calcite least-restrictive: integer digits win over fraction digits', () => {
    expect(decimalCommonType(10, 2, 38, 0)).toMatchObject({ precision: 38, scale: 0 });
    expect(decimalCommonType(38, 18, 5, 0)).toMatchObject({ precision: 38, scale: 18 });
    expect(decimalCommonType(38, 30, 19, 0)).toMatchObject({ precision: 38, scale: 19 });
    expect(decimalCommonType(38, 30, 10, 0)).toMatchObject({ precision: 38, scale: 28 });
    expect(decimalCommonType(3, 3, 10, 2)).toMatchObject({ precision: 11, scale: 3 });
    expect(decimalCommonType(22, 1, 38, 18)).toMatchObject({ precision: 38, scale: 17 });
  });

  it('types ROUND and TRUNCATE alike, with a digit for the carry', () => {
    expect(decimalRoundType(38, 18, 1)).toMatchObject({ precision: 22, scale: 1 });
    expect(decimalRoundType(38, 18, 0)).toMatchObject({ precision: 21, scale: 0 });
    expect(decimalRoundType(38, 18, -2)).toMatchObject({ precision: 21, scale: 0 });
    expect(decimalRoundType(38, 18, 20)).toMatchObject({ precision: 38, scale: 18 });
    expect(decimalRoundType(3, 3, 1)).toMatchObject({ precision: 2, scale: 1 });
    expect(decimalRoundType(10, 2, 0)).toMatchObject({ precision: 9, scale: 0 });
    expect(decimalRoundType(5, 0, -1)).toMatchObject({ precision: 6, scale: 0 });
  });

  it('keeps the precision of FLOOR and CEIL, dropping the scale', () => {
    expect(decimalFloorCeilType(10, 2)).toMatchObject({ precision: 10, scale: 0 });
    expect(decimalFloorCeilType(38, 18)).toMatchObject({ precision: 38, scale: 0 });
    expect(decimalFloorCeilType(3, 3)).toMatchObject({ precision: 3, scale: 0 });
  });
});
