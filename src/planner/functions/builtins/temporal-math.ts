import { mapMillis } from '../../../types/values/precise-timestamp.js';
import type { TimestampValue } from '../../../types/values/precise-timestamp.js';
import { MS_PER_DAY } from '../../../types/values/temporal.js';

/** Calendar arithmetic on the docs/values.md temporal representations (UTC wall clock, proleptic Gregorian). */

function daysInMonth(y: number, m0: number): number {
  return new Date(Date.UTC(y, m0 + 1, 0)).getUTCDate();
}

/**
 * Add `months` to a DATE (days, `isDate`) or TIMESTAMP (epoch ms), clamping the day to the month's
 * length as java.time does (Jan 31 + 1 month = Feb 28/29).
 */
export function addMonths(value: number, months: number, isDate: boolean): number {
  const ms = isDate ? value * MS_PER_DAY : value;
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + months;
  const ty = y + Math.floor(m / 12);
  const tm = ((m % 12) + 12) % 12;
  const day = Math.min(d.getUTCDate(), daysInMonth(ty, tm));
  const dayStart = Date.UTC(ty, tm, day);
  const fixed = new Date(dayStart);
  fixed.setUTCFullYear(ty, tm, day);
  const startMs = fixed.getTime();
  const timeOfDay = ((ms % MS_PER_DAY) + MS_PER_DAY) % MS_PER_DAY;
  const out = startMs + timeOfDay;
  return isDate ? Math.floor(out / MS_PER_DAY) : out;
}

/** `addMonths` of a TIMESTAMP value of either form, keeping its digits below the millisecond. */
export function addMonthsToTimestamp(value: TimestampValue, months: number): TimestampValue {
  return mapMillis(value, (ms) => addMonths(ms, months, false));
}
