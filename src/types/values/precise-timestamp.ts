/**
 * TIMESTAMP(p) / TIMESTAMP_LTZ(p) values finer than a millisecond (docs/values.md, "Timestamps beyond
 * milliseconds").
 *
 * A timestamp value is a `TimestampValue`: the epoch-millisecond `number` it always was when the value is a
 * whole millisecond, and a `PreciseTimestamp` only when it has digits below the millisecond (which only a
 * TIMESTAMP(4..9) / TIMESTAMP_LTZ(4..9) can hold). The form is canonical, so equal values always have the same
 * form: `timestampOf` returns the number whenever the nanoseconds of the millisecond are 0. This is Flink's
 * TimestampData (epoch millis plus nanos of the milli), with its compact form for values that fit in millis
 * kept as the plain number, so precision <= 3, and any whole-millisecond value of a higher precision, costs and
 * checkpoints exactly what it did before.
 *
 * `valueOf()` is the epoch millisecond (floor), so code that does arithmetic on a timestamp as a number keeps
 * working at millisecond precision rather than failing; code that must keep the fraction uses the helpers here.
 */
export class PreciseTimestamp {
  /**
   * @param millis epoch milliseconds (an integer), the floor of the instant
   * @param nanoOfMilli nanoseconds within that millisecond, 1..999,999 (never 0: that value is the number `millis`)
   */
  constructor(
    readonly millis: number,
    readonly nanoOfMilli: number,
  ) {}

  valueOf(): number {
    return this.millis;
  }

  toString(): string {
    return `${this.millis}+${this.nanoOfMilli}ns`;
  }
}

/** A TIMESTAMP / TIMESTAMP_LTZ value: epoch ms (a whole millisecond) or a PreciseTimestamp (finer). */
export type TimestampValue = number | PreciseTimestamp;

const NANOS_PER_MILLI = 1_000_000;

/** The canonical value of `millis` ms plus `nanos` ns (nanos may be any integer; it is carried into millis). */
export function timestampOf(millis: number, nanos: number): TimestampValue {
  if (nanos === 0) return millis;
  const carry = Math.floor(nanos / NANOS_PER_MILLI);
  const nano = nanos - carry * NANOS_PER_MILLI;
  return nano === 0 ? millis + carry : new PreciseTimestamp(millis + carry, nano);
}

/** Epoch milliseconds (floor) of a timestamp value. */
export function millisOf(v: TimestampValue): number {
  return typeof v === 'number' ? v : v.millis;
}

/** Nanoseconds within the millisecond (0..999,999) of a timestamp value. */
export function nanoOfMilliOf(v: TimestampValue): number {
  return typeof v === 'number' ? 0 : v.nanoOfMilli;
}

/** `v` plus `ms` milliseconds, keeping its fraction below the millisecond. */
export function plusMillis(v: TimestampValue, ms: number): TimestampValue {
  return typeof v === 'number' ? v + ms : new PreciseTimestamp(v.millis + ms, v.nanoOfMilli);
}

/** `v` with its millisecond part replaced by `f(millis)`, the fraction below the millisecond kept. */
export function mapMillis(v: TimestampValue, f: (ms: number) => number): TimestampValue {
  return typeof v === 'number' ? f(v) : new PreciseTimestamp(f(v.millis), v.nanoOfMilli);
}

/** Truncates (toward the past, as Flink) a timestamp value to `precision` fraction digits (0..9). */
export function truncateTimestamp(v: TimestampValue, precision: number): TimestampValue {
  if (precision >= 9 || (typeof v === 'number' && precision >= 3)) return v;
  if (precision <= 3) {
    const ms = millisOf(v);
    if (precision === 3) return ms;
    const unit = 10 ** (3 - precision);
    return Math.floor(ms / unit) * unit;
  }
  const p = v as PreciseTimestamp;
  const unit = 10 ** (9 - precision);
  return timestampOf(p.millis, Math.floor(p.nanoOfMilli / unit) * unit);
}

/** Total order of two timestamp values (either form). */
export function compareTimestamps(a: TimestampValue, b: TimestampValue): number {
  const ma = millisOf(a);
  const mb = millisOf(b);
  if (ma !== mb) return ma < mb ? -1 : 1;
  const na = nanoOfMilliOf(a);
  const nb = nanoOfMilliOf(b);
  return na < nb ? -1 : na > nb ? 1 : 0;
}

/** Epoch nanoseconds of a timestamp value, exact (for Arrow's and Avro's integer forms). */
export function epochNanosOf(v: TimestampValue): bigint {
  return BigInt(millisOf(v)) * 1_000_000n + BigInt(nanoOfMilliOf(v));
}

/** The timestamp value of exact epoch nanoseconds. */
export function timestampOfEpochNanos(nanos: bigint): TimestampValue {
  const ms = nanos / 1_000_000n;
  const rem = Number(nanos - ms * 1_000_000n);
  return timestampOf(Number(ms), rem);
}

/** The timestamp value of exact epoch microseconds (Avro's timestamp-micros, Debezium's MicroTimestamp). */
export function timestampOfEpochMicros(micros: bigint | number): TimestampValue {
  return timestampOfEpochNanos(BigInt(micros) * 1000n);
}

/** Epoch microseconds (floor) of a timestamp value. */
export function epochMicrosOf(v: TimestampValue): bigint {
  const n = epochNanosOf(v);
  const q = n / 1000n;
  return n < 0n && q * 1000n !== n ? q - 1n : q;
}
