import type { Decimal } from '../../types/decimal.js';

/**
 * DECIMAL as Flink's JSON and CSV encoders write it. They hand the value to Jackson's
 * `JsonNodeFactory.numberNode(BigDecimal)`, which strips trailing zeros (Flink 1.20 shades a Jackson that
 * normalizes), then Jackson prints the result with `BigDecimal.toString()` (`-1.5`, `0`, `1E+2`, `2.7E-8`),
 * or with `toPlainString()` when asked for plain numbers (`encode.decimal-as-plain-number`,
 * `write-bigdecimal-in-scientific-notation` = false): `100`. Checked against files written by Flink 1.20.3 and
 * 2.3.0 (test/formats/flink-goldens); json's plain numbers keep their scale in 2.x and do not come here.
 */
export function jacksonDecimalText(d: Decimal, plain: boolean): string {
  let unscaled = d.unscaled;
  let scale = d.scale;
  if (unscaled === 0n) return '0';
  while (unscaled % 10n === 0n) {
    unscaled /= 10n;
    scale--;
  }
  const neg = unscaled < 0n;
  const digits = (neg ? -unscaled : unscaled).toString();
  const sign = neg ? '-' : '';
  if (plain || (scale >= 0 && digits.length - 1 - scale >= -6)) return sign + plainDigits(digits, scale);
  // BigDecimal.toString(): one digit before the point, then the adjusted exponent with its sign.
  const adjusted = digits.length - 1 - scale;
  const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${mantissa}E${adjusted > 0 ? '+' : ''}${adjusted}`;
}

/** `digits × 10^-scale` without an exponent. */
function plainDigits(digits: string, scale: number): string {
  if (scale <= 0) return digits + '0'.repeat(-scale);
  if (digits.length > scale) return `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
  return `0.${'0'.repeat(scale - digits.length)}${digits}`;
}
