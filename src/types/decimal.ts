import { ExecutionError, ValidationError } from '../errors/sluice-error.js';

const TEN = 10n;
const POW10: bigint[] = [1n];

/** 10^n as a bigint, cached for the exponents decimals use. */
export function pow10(n: number): bigint {
  if (n < 0) throw new RangeError(`negative exponent ${n}`);
  // Cache the range DECIMAL(38, s) arithmetic uses; compute rarer, larger powers without caching them.
  if (n > 80) return TEN ** BigInt(n);
  while (POW10.length <= n) POW10.push(POW10[POW10.length - 1]! * TEN);
  return POW10[n]!;
}

function abs(v: bigint): bigint {
  return v < 0n ? -v : v;
}

/** n / d rounded HALF_UP (ties away from zero), as Java's RoundingMode.HALF_UP. */
function divHalfUp(n: bigint, d: bigint): bigint {
  if (d === 0n) throw new ExecutionError('Division by zero.');
  const q = n / d;
  const r = n % d;
  if (r === 0n) return q;
  if (abs(r) * 2n >= abs(d)) return (n < 0n) !== (d < 0n) ? q - 1n : q + 1n;
  return q;
}

/** Count of decimal digits of |v|; 1 for zero, as BigDecimal.precision(). */
function digitCount(v: bigint): number {
  const a = abs(v);
  if (a < 10n) return 1;
  return a.toString().length;
}

const DECIMAL_PATTERN = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * An exact decimal number: `unscaled × 10^-scale`, Flink's `DecimalData` / Java's `BigDecimal`.
 *
 * Immutable. Arithmetic is exact (add, subtract, multiply keep every digit); `divide` and `rescale`
 * round HALF_UP to a given scale. To apply Flink's result type of an expression, compute exactly then
 * call `toPrecision(p, s)`, which returns `null` when the value does not fit DECIMAL(p, s) — Flink
 * yields NULL there too. Use `decimal-type-rules.ts` for the (p, s) of results.
 *
 * `equals` and `compareTo` compare by value (1.50 equals 1.5), as Flink's DecimalData does.
 */
export class Decimal {
  static readonly ZERO = new Decimal(0n, 0);
  static readonly ONE = new Decimal(1n, 0);

  /** The decimal `unscaled × 10^-scale`; prefer `Decimal.of` / `Decimal.parse` in code. */
  constructor(
    /** The digits without the decimal point: 1.50 is 150n with scale 2. */
    readonly unscaled: bigint,
    /** Number of digits after the decimal point; never negative. */
    readonly scale: number,
  ) {
    if (!Number.isInteger(scale) || scale < 0) throw new ValidationError(`Decimal scale must be a non-negative integer, but was ${scale}.`);
  }

  /** The decimal `unscaled × 10^-scale`. */
  static of(unscaled: bigint, scale = 0): Decimal {
    return new Decimal(unscaled, scale);
  }

  /**
   * Parse `123`, `-1.50`, `.5`, `+2.`, `1.2E3`, `1e-5`. Trailing zeros set the scale (`1.50` has scale 2).
   * @throws ValidationError for anything else.
   */
  static parse(text: string): Decimal {
    const m = DECIMAL_PATTERN.exec(text.trim());
    if (m === null || (m[2] === '' && (m[3] === undefined || m[3] === ''))) {
      throw new ValidationError(`Cannot parse '${text}' as a DECIMAL.`);
    }
    const sign = m[1] === '-' ? -1n : 1n;
    const intPart = m[2]!;
    const fracPart = m[3] ?? '';
    const exponent = m[4] === undefined ? 0 : Number(m[4]);
    let unscaled = BigInt((intPart + fracPart) || '0') * sign;
    let scale = fracPart.length - exponent;
    if (scale < 0) {
      unscaled *= pow10(-scale);
      scale = 0;
    }
    return new Decimal(unscaled, scale);
  }

  /** Parse like `parse`, returning null instead of throwing (for TRY_CAST and lenient formats). */
  static tryParse(text: string): Decimal | null {
    try {
      return Decimal.parse(text);
    } catch {
      return null;
    }
  }

  /**
   * The exact value of a JS number's shortest decimal form (0.1 is 0.1, not 0.1000000000000000055...),
   * as Java's `BigDecimal.valueOf(double)`.
   * @throws ValidationError for NaN and infinities.
   */
  static fromNumber(n: number): Decimal {
    if (!Number.isFinite(n)) throw new ValidationError(`Cannot convert ${n} to a DECIMAL.`);
    return Decimal.parse(String(n));
  }

  static fromBigInt(v: bigint): Decimal {
    return new Decimal(v, 0);
  }

  /** Total number of significant digits of the unscaled value (1 for zero), as BigDecimal.precision(). */
  precision(): number {
    return digitCount(this.unscaled);
  }

  signum(): -1 | 0 | 1 {
    return this.unscaled < 0n ? -1 : this.unscaled > 0n ? 1 : 0;
  }

  isZero(): boolean {
    return this.unscaled === 0n;
  }

  negate(): Decimal {
    return new Decimal(-this.unscaled, this.scale);
  }

  abs(): Decimal {
    return this.unscaled < 0n ? this.negate() : this;
  }

  /** Both unscaled values at the larger scale. */
  private aligned(other: Decimal): [bigint, bigint, number] {
    if (this.scale === other.scale) return [this.unscaled, other.unscaled, this.scale];
    if (this.scale > other.scale) return [this.unscaled, other.unscaled * pow10(this.scale - other.scale), this.scale];
    return [this.unscaled * pow10(other.scale - this.scale), other.unscaled, other.scale];
  }

  /** Exact sum, at scale max(s1, s2). */
  add(other: Decimal): Decimal {
    const [a, b, s] = this.aligned(other);
    return new Decimal(a + b, s);
  }

  /** Exact difference, at scale max(s1, s2). */
  subtract(other: Decimal): Decimal {
    const [a, b, s] = this.aligned(other);
    return new Decimal(a - b, s);
  }

  /** Exact product, at scale s1 + s2. */
  multiply(other: Decimal): Decimal {
    return new Decimal(this.unscaled * other.unscaled, this.scale + other.scale);
  }

  /**
   * Quotient rounded HALF_UP to `scale` digits. Flink's result scale for DECIMAL(p1, s1) / DECIMAL(p2, s2)
   * comes from `decimalDivideType`.
   * @throws ExecutionError on division by zero, as Flink fails the job.
   */
  /**
   * The quotient at `scale` digits, rounded as Flink rounds it (DecimalDataUtils.divide): first to 38 significant
   * digits, HALF_UP (BigDecimal.divide with MathContext(38, HALF_UP)), then that to `scale`, HALF_UP again. The two
   * roundings can differ from one: -18437736627541232514 / 13 is ...116.4615384615384615384615... exactly, which
   * rounds to ...461538 at 18 digits but is ...116.4615384615384615385 at 38 significant digits, then ...461539.
   */
  divide(other: Decimal, scale: number): Decimal {
    if (other.unscaled === 0n) throw new ExecutionError('Division by zero.');
    if (this.unscaled === 0n) return new Decimal(0n, scale);
    const negative = this.unscaled < 0n !== other.unscaled < 0n;
    const a = abs(this.unscaled);
    const b = abs(other.unscaled);
    // |this / other| = a / b * 10^(sb - sa). At scale t its digits are a * 10^(t - sa + sb) / b; t is chosen so that
    // they number at least 39 (one more than kept), whatever the magnitude.
    const t = 40 - (digitCount(a) - digitCount(b) - this.scale + other.scale);
    const shift = t - this.scale + other.scale;
    const n = shift >= 0 ? a * pow10(shift) : a;
    const d = shift >= 0 ? b : b * pow10(-shift);
    const q = n / d;
    // Rounded to 38 significant digits, HALF_UP: the dropped digits (and the remainder below them, which only ever
    // adds to them) decide. The result has scale t - drop.
    const drop = Math.max(0, digitCount(q) - 38);
    let kept = q;
    if (drop > 0) {
      const p = pow10(drop);
      kept = q / p;
      if ((q % p) * 2n >= p) kept += 1n;
    } else if (n % d * 2n >= d) {
      kept += 1n;
    }
    // A quotient too large for any DECIMAL has a negative scale here: as an integer instead (the caller's precision
    // check refuses it).
    const at = t - drop;
    const at38 = at >= 0 ? new Decimal(negative ? -kept : kept, at) : new Decimal((negative ? -kept : kept) * pow10(-at), 0);
    return at38.rescale(scale);
  }

  /** Remainder with the sign of the dividend (SQL MOD / Java BigDecimal.remainder), at scale max(s1, s2). */
  remainder(other: Decimal): Decimal {
    if (other.unscaled === 0n) throw new ExecutionError('Division by zero.');
    const [a, b, s] = this.aligned(other);
    return new Decimal(a % b, s);
  }

  /** The value at `scale` digits, rounding HALF_UP when digits are dropped. */
  rescale(scale: number): Decimal {
    if (scale === this.scale) return this;
    if (!Number.isInteger(scale) || scale < 0) throw new ValidationError(`Decimal scale must be a non-negative integer, but was ${scale}.`);
    if (scale > this.scale) return new Decimal(this.unscaled * pow10(scale - this.scale), scale);
    return new Decimal(divHalfUp(this.unscaled, pow10(this.scale - scale)), scale);
  }

  /** The value at `scale` digits, dropping digits toward zero (SQL TRUNCATE). */
  truncate(scale: number): Decimal {
    if (scale >= this.scale) return this.rescale(scale);
    return new Decimal(this.unscaled / pow10(this.scale - scale), scale);
  }

  /** Largest integer value <= this, at scale 0. */
  floor(): Decimal {
    if (this.scale === 0) return this;
    const p = pow10(this.scale);
    const q = this.unscaled / p;
    return new Decimal(this.unscaled < 0n && this.unscaled % p !== 0n ? q - 1n : q, 0);
  }

  /** Smallest integer value >= this, at scale 0. */
  ceil(): Decimal {
    if (this.scale === 0) return this;
    const p = pow10(this.scale);
    const q = this.unscaled / p;
    return new Decimal(this.unscaled > 0n && this.unscaled % p !== 0n ? q + 1n : q, 0);
  }

  /**
   * Flink's `DecimalData.fromBigDecimal(v, p, s)`: rescale HALF_UP to `scale`, then null if the result has
   * more than `precision` digits (the value does not fit DECIMAL(precision, scale)).
   */
  toPrecision(precision: number, scale: number): Decimal | null {
    const r = this.rescale(scale);
    return abs(r.unscaled) >= pow10(precision) ? null : r;
  }

  /** True when the value fits DECIMAL(precision, scale) without rounding away digits or overflowing. */
  fits(precision: number, scale: number): boolean {
    const r = this.rescale(scale);
    return r.compareTo(this) === 0 && abs(r.unscaled) < pow10(precision);
  }

  /** Negative, zero or positive as this is less than, equal to or greater than `other` by value. */
  compareTo(other: Decimal): -1 | 0 | 1 {
    const [a, b] = this.aligned(other);
    return a < b ? -1 : a > b ? 1 : 0;
  }

  /** Equality by value: 1.5 equals 1.50. */
  equals(other: Decimal): boolean {
    return this.compareTo(other) === 0;
  }

  /** The same value without trailing fractional zeros (1.500 -> 1.5, 2.0 -> 2); used for hashing. */
  stripTrailingZeros(): Decimal {
    let u = this.unscaled;
    let s = this.scale;
    if (u === 0n) return Decimal.ZERO;
    while (s > 0 && u % TEN === 0n) {
      u /= TEN;
      s--;
    }
    return s === this.scale ? this : new Decimal(u, s);
  }

  /** Integer part, truncated toward zero (CAST to an integer type). */
  toBigInt(): bigint {
    return this.scale === 0 ? this.unscaled : this.unscaled / pow10(this.scale);
  }

  /** Nearest double; lossy beyond ~17 significant digits. */
  toNumber(): number {
    return Number(this.toString());
  }

  /** Plain notation, never an exponent, exactly `scale` fraction digits: `1.50`, `-0.05`, `100`. */
  toString(): string {
    const neg = this.unscaled < 0n;
    const digits = abs(this.unscaled).toString();
    if (this.scale === 0) return neg ? `-${digits}` : digits;
    const padded = digits.padStart(this.scale + 1, '0');
    const cut = padded.length - this.scale;
    const text = `${padded.slice(0, cut)}.${padded.slice(cut)}`;
    return neg ? `-${text}` : text;
  }

  toJSON(): string {
    return this.toString();
  }
}

/** Runtime check used by value helpers. */
export function isDecimal(v: unknown): v is Decimal {
  return v instanceof Decimal;
}
