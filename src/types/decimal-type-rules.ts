import { DECIMAL_MAX_PRECISION } from './logical-type.js';
import type { DecimalType, LogicalType } from './logical-type.js';

/**
 * Result types of DECIMAL arithmetic, as Flink's `LogicalTypeMerging` (which follows SQL Server):
 * the (precision, scale) a planner gives `a + b`, `a * b`, `a / b`, `a % b`, SUM and AVG. Values are
 * computed exactly with `Decimal` and then brought to the result type with `toPrecision(p, s)`.
 */

/** Fractional digits kept at least when a result exceeds 38 digits. */
const MINIMUM_ADJUSTED_SCALE = 6;

function decimal(precision: number, scale: number): DecimalType {
  return { kind: 'DECIMAL', precision, scale, nullable: true };
}

/** Cap a result above 38 digits, keeping integer digits and at least min(scale, 6) fraction digits. */
export function adjustPrecisionScale(precision: number, scale: number): DecimalType {
  if (precision <= DECIMAL_MAX_PRECISION) return decimal(precision, scale);
  const integerDigits = precision - scale;
  const minScale = Math.min(scale, MINIMUM_ADJUSTED_SCALE);
  return decimal(DECIMAL_MAX_PRECISION, Math.max(DECIMAL_MAX_PRECISION - integerDigits, minScale));
}

/** `+` and `-`: scale max(s1, s2), precision max(p1 - s1, p2 - s2) + scale + 1. */
export function decimalAddType(p1: number, s1: number, p2: number, s2: number): DecimalType {
  const scale = Math.max(s1, s2);
  return adjustPrecisionScale(Math.max(p1 - s1, p2 - s2) + scale + 1, scale);
}

/** `*`: precision p1 + p2 + 1, scale s1 + s2. */
export function decimalMultiplyType(p1: number, s1: number, p2: number, s2: number): DecimalType {
  return adjustPrecisionScale(p1 + p2 + 1, s1 + s2);
}

/** `/`: scale max(6, s1 + p2 + 1), precision p1 - s1 + s2 + scale. */
export function decimalDivideType(p1: number, s1: number, p2: number, s2: number): DecimalType {
  const scale = Math.max(MINIMUM_ADJUSTED_SCALE, s1 + p2 + 1);
  return adjustPrecisionScale(p1 - s1 + s2 + scale, scale);
}

/** `%` / MOD: scale max(s1, s2), precision min(p1 - s1, p2 - s2) + scale. */
export function decimalModType(p1: number, s1: number, p2: number, s2: number): DecimalType {
  const scale = Math.max(s1, s2);
  return adjustPrecisionScale(Math.min(p1 - s1, p2 - s2) + scale, scale);
}

/**
 * The common type of two DECIMALs (UNION columns, CASE/COALESCE/IF branches, GREATEST, join keys): Calcite's
 * least-restrictive rule that Flink keeps. Integer digits win: d = max(p1 - s1, p2 - s2) capped at 38, the scale
 * max(s1, s2) cut to what is left of 38 digits, so DECIMAL(38, 0) and DECIMAL(10, 2) meet at DECIMAL(38, 0) and
 * the (10, 2) side's values round to integers. Unlike arithmetic results, no minimum scale is kept.
 */
export function decimalCommonType(p1: number, s1: number, p2: number, s2: number): DecimalType {
  const integerDigits = Math.min(Math.max(p1 - s1, p2 - s2), DECIMAL_MAX_PRECISION);
  const scale = Math.min(Math.max(s1, s2), DECIMAL_MAX_PRECISION - integerDigits);
  return decimal(integerDigits + scale, scale);
}

/**
 * ROUND(x, r) and TRUNCATE(x, r) of DECIMAL(p, s) (Flink's findRoundDecimalType): unchanged when r >= s;
 * DECIMAL(min(38, 1 + p - s), 0) when r < 0; else DECIMAL(1 + p - s + r, r). The extra digit holds a carry
 * (9.99 rounds to 10.0); TRUNCATE, which cannot carry, is typed the same.
 */
export function decimalRoundType(p: number, s: number, r: number): DecimalType {
  if (r >= s) return decimal(p, s);
  if (r < 0) return decimal(Math.min(DECIMAL_MAX_PRECISION, 1 + p - s), 0);
  return decimal(1 + p - s + r, r);
}

/** FLOOR and CEIL of DECIMAL(p, s): DECIMAL(p, 0) (Calcite's ARG0_OR_EXACT_NO_SCALE keeps the precision). */
export function decimalFloorCeilType(p: number, _s: number): DecimalType {
  return decimal(p, 0);
}

/** SUM over DECIMAL(p, s): DECIMAL(38, s). */
export function decimalSumType(_p: number, s: number): DecimalType {
  return decimal(DECIMAL_MAX_PRECISION, s);
}

/** AVG over DECIMAL(p, s): the division of DECIMAL(38, s) by a count DECIMAL(20, 0). */
export function decimalAvgType(_p: number, s: number): DecimalType {
  return decimalDivideType(DECIMAL_MAX_PRECISION, s, 20, 0);
}

/**
 * The DECIMAL an exact numeric type widens to in mixed arithmetic: TINYINT DECIMAL(3, 0), SMALLINT (5, 0),
 * INT (10, 0), BIGINT (19, 0), a DECIMAL itself; undefined for anything else.
 */
export function toDecimalType(t: LogicalType): DecimalType | undefined {
  switch (t.kind) {
    case 'TINYINT':
      return decimal(3, 0);
    case 'SMALLINT':
      return decimal(5, 0);
    case 'INT':
      return decimal(10, 0);
    case 'BIGINT':
      return decimal(19, 0);
    case 'DECIMAL':
      return t;
    default:
      return undefined;
  }
}
