import type { Decimal } from '../../types/decimal.js';

/**
 * Java's `BigDecimal.toString()` for a Sluice Decimal (scale >= 0): plain digits unless the adjusted
 * exponent is below -6, then scientific (`2.7E-8`, `0E-8`). Jackson writes DECIMAL this way by default,
 * so Flink's JSON and CSV formats do too.
 */
export function javaBigDecimalString(d: Decimal): string {
  if (d.scale === 0) return d.unscaled.toString();
  const neg = d.unscaled < 0n;
  const digits = (neg ? -d.unscaled : d.unscaled).toString();
  const adjusted = digits.length - 1 - d.scale;
  if (adjusted >= -6) return d.toString();
  const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${neg ? '-' : ''}${mantissa}E${adjusted}`;
}

/** Java's `BigDecimal.toPlainString()` for a Decimal (scale >= 0). */
export function javaBigDecimalPlainString(d: Decimal): string {
  return d.toString();
}
