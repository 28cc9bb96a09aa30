/**
 * Fast formatting and parsing of the date-time strings Flink's text formats write (TimeFormats.java):
 * SQL `2020-01-01 12:00:00.123`, ISO-8601 `2020-01-01T12:00:00.123`, an optional trailing `Z` for
 * TIMESTAMP_LTZ. Fraction digits are written as java.time does with `appendFraction(NANO, 0, 9, true)`:
 * trailing zeros stripped, none at all for a whole second. Hand-rolled on char codes because these run
 * once per field on the decode hot path, where a regex per value costs more than JSON.parse itself.
 */

import { millisOf, nanoOfMilliOf, timestampOf } from '../../types/values/precise-timestamp.js';
import type { TimestampValue } from '../../types/values/precise-timestamp.js';

export const MS_PER_DAY = 86_400_000;

/** Which separator between date and time: Flink's `timestamp-format.standard`. */
export type TimestampStandard = 'SQL' | 'ISO-8601';

// Howard Hinnant's civil-from-days / days-from-civil, exact for the proleptic Gregorian calendar.
function civilFromDays(z0: number): [number, number, number] {
  const z = z0 + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const y = yoe + era * 400;
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [m <= 2 ? y + 1 : y, m, d];
}

/** Days since 1970-01-01 of a civil date. */
export function daysFromCivil(y0: number, m: number, d: number): number {
  const y = m <= 2 ? y0 - 1 : y0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : `${n}`;
}

// Timestamps in a stream mostly fall on the same day: remember the last date both ways.
let lastFormattedDays = NaN;
let lastFormattedDate = '';
/** `y * 10000 + m * 100 + d` of the last date `parseFlinkTimestamp` read, and its days since epoch. */
let lastParsedKey = -1;
let lastParsedDays = 0;

/** `yyyy-MM-dd` as java.time's ISO_LOCAL_DATE (`+10000-01-01` beyond year 9999). */
export function formatIsoDate(days: number): string {
  if (days === lastFormattedDays) return lastFormattedDate;
  const text = formatIsoDateUncached(days);
  lastFormattedDays = days;
  lastFormattedDate = text;
  return text;
}

function formatIsoDateUncached(days: number): string {
  const [y, m, d] = civilFromDays(days);
  let year: string;
  if (y >= 0 && y <= 9999) year = y < 1000 ? String(y).padStart(4, '0') : String(y);
  else year = y > 9999 ? `+${y}` : `-${String(-y).padStart(4, '0')}`;
  return `${year}-${pad2(m)}-${pad2(d)}`;
}

/** `.1`, `.12`, `.123` or nothing: milliseconds with trailing zeros stripped. */
function strippedMillis(ms: number): string {
  if (ms === 0) return '';
  if (ms % 100 === 0) return `.${ms / 100}`;
  if (ms % 10 === 0) return `.${String(ms / 10).padStart(2, '0')}`;
  return `.${String(ms).padStart(3, '0')}`;
}

/** `HH:mm:ss` followed by stripped milliseconds, when `withFraction`; ms of day in [0, 86400000). */
export function formatTimeOfDay(msOfDay: number, withFraction: boolean): string {
  const s = Math.floor(msOfDay / 1000);
  const text = `${pad2(Math.floor(s / 3600))}:${pad2(Math.floor(s / 60) % 60)}:${pad2(s % 60)}`;
  return withFraction ? text + strippedMillis(msOfDay % 1000) : text;
}

/**
 * A TIMESTAMP (or, with `zulu`, TIMESTAMP_LTZ in UTC) as Flink's JSON/CSV formats write it: the fraction up to
 * nine digits (a PreciseTimestamp's below the millisecond too), trailing zeros stripped.
 */
export function formatFlinkTimestamp(value: TimestampValue, standard: TimestampStandard, zulu: boolean): string {
  const epochMs = millisOf(value);
  const days = Math.floor(epochMs / MS_PER_DAY);
  const msOfDay = epochMs - days * MS_PER_DAY;
  const nano = nanoOfMilliOf(value);
  let time: string;
  if (nano === 0) time = formatTimeOfDay(msOfDay, true);
  else time = `${formatTimeOfDay(msOfDay, false)}.${(String(msOfDay % 1000).padStart(3, '0') + String(nano).padStart(6, '0')).replace(/0+$/, '')}`;
  return `${formatIsoDate(days)}${standard === 'SQL' ? ' ' : 'T'}${time}${zulu ? 'Z' : ''}`;
}

const C0 = 48;

function digits(text: string, start: number, count: number): number {
  let v = 0;
  for (let i = start; i < start + count; i++) {
    const c = text.charCodeAt(i) - C0;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const dim = m === 2 ? ((y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
  return d <= dim;
}

/** Days since epoch of a strict `yyyy-MM-dd` at `start`, or NaN. */
function parseDateAt(text: string, start: number): number {
  if (text.charCodeAt(start + 4) !== 45 || text.charCodeAt(start + 7) !== 45) return NaN;
  const y = digits(text, start, 4);
  const m = digits(text, start + 5, 2);
  const d = digits(text, start + 8, 2);
  if (y < 0 || m < 0 || d < 0 || !validDate(y, m, d)) return NaN;
  return daysFromCivil(y, m, d);
}

/** Ms of day of `HH:mm:ss[.f{1,9}]` from `start` to `end`, or NaN. Digits beyond ms are truncated. */
function parseTimeAt(text: string, start: number, end: number): number {
  if (end - start < 8 || text.charCodeAt(start + 2) !== 58 || text.charCodeAt(start + 5) !== 58) return NaN;
  const h = digits(text, start, 2);
  const mi = digits(text, start + 3, 2);
  const s = digits(text, start + 6, 2);
  if (h < 0 || mi < 0 || s < 0 || h > 23 || mi > 59 || s > 59) return NaN;
  let ms = 0;
  let i = start + 8;
  if (i < end) {
    if (text.charCodeAt(i) !== 46 || end - i < 2 || end - i > 10) return NaN;
    i++;
    for (let k = 0; i < end; i++, k++) {
      const c = text.charCodeAt(i) - C0;
      if (c < 0 || c > 9) return NaN;
      if (k < 3) ms += c * (k === 0 ? 100 : k === 1 ? 10 : 1);
    }
  }
  return ((h * 60 + mi) * 60 + s) * 1000 + ms;
}

/** Days since epoch of `yyyy-MM-dd`, or NaN. */
export function parseIsoDate(text: string): number {
  return text.length === 10 ? parseDateAt(text, 0) : NaN;
}

/** Ms of day of `HH:mm:ss[.fffffffff]`, or NaN. */
export function parseSqlTime(text: string): number {
  return parseTimeAt(text, 0, text.length);
}

/**
 * Epoch ms of a timestamp in the given standard (`zulu`: a trailing `Z` is allowed, as for TIMESTAMP_LTZ),
 * or NaN when the text does not match.
 */
export function parseFlinkTimestamp(text: string, standard: TimestampStandard, zulu: boolean): number {
  return parseFlinkTimestampAt(text, 0, text.length, standard, zulu);
}

/**
 * `parseFlinkTimestamp` of `text[start, end)`, read in place: the CSV decoder passes a field of the record
 * this way instead of a sliced string (whose every char read goes through the slice to its parent).
 */
export function parseFlinkTimestampAt(text: string, start: number, end: number, standard: TimestampStandard, zulu: boolean): number {
  if (zulu && end > start && text.charCodeAt(end - 1) === 90) end--;
  const o = start;
  if (end - o < 19 || text.charCodeAt(o + 10) !== (standard === 'SQL' ? 32 : 84)) return NaN;
  if (end - o === 23) {
    const ms = timestamp23At(text, o);
    if (ms === ms) return ms;
  }
  // The date is compared with the last one as a number read from its digits, not as a prefix string:
  // this function runs once per timestamp field and used to cost a tenth of a whole JSON row decode.
  const key = digitAt(text, o) * 1e7 + digitAt(text, o + 1) * 1e6 + digitAt(text, o + 2) * 1e5 + digitAt(text, o + 3) * 1e4 +
    digitAt(text, o + 5) * 1000 + digitAt(text, o + 6) * 100 + digitAt(text, o + 8) * 10 + digitAt(text, o + 9);
  let days: number;
  if (key === lastParsedKey && text.charCodeAt(o + 4) === 45 && text.charCodeAt(o + 7) === 45) days = lastParsedDays;
  else {
    days = parseDateAt(text, o);
    if (Number.isNaN(days)) return NaN;
    lastParsedKey = key;
    lastParsedDays = days;
  }
  // `HH:mm:ss.SSS`, what Sluice and Flink write for TIMESTAMP(3), read without a loop; the rest in general.
  if (end - o !== 23 || text.charCodeAt(o + 19) !== 46) return days * MS_PER_DAY + parseTimeAt(text, o + 11, end);
  if (text.charCodeAt(o + 13) !== 58 || text.charCodeAt(o + 16) !== 58) return NaN;
  const h = digitAt(text, o + 11) * 10 + digitAt(text, o + 12);
  const mi = digitAt(text, o + 14) * 10 + digitAt(text, o + 15);
  const sec = digitAt(text, o + 17) * 10 + digitAt(text, o + 18);
  const ms = digitAt(text, o + 20) * 100 + digitAt(text, o + 21) * 10 + digitAt(text, o + 22);
  // A non-digit made one of them NaN, which fails every comparison: test for the good case.
  if (!(h <= 23 && mi <= 59 && sec <= 59 && ms >= 0)) return NaN;
  return days * MS_PER_DAY + ((h * 60 + mi) * 60 + sec) * 1000 + ms;
}

/**
 * `parseFlinkTimestamp` for a TIMESTAMP(p) / TIMESTAMP_LTZ(p) of any precision: when p > 3 every digit of the
 * fraction is kept, so the value may be a PreciseTimestamp; NaN when the text does not match. Not truncated to p, as
 * Flink's JSON and CSV formats do not: a real Flink 2.3 reads "10:00:00.1234567" into a TIMESTAMP(6) column as
 * 10:00:00.123456700 and writes it back as ".1234567".
 */
export function parseFlinkTimestampValue(text: string, standard: TimestampStandard, zulu: boolean, precision: number): TimestampValue {
  const ms = parseFlinkTimestampAt(text, 0, text.length, standard, zulu);
  if (precision <= 3 || Number.isNaN(ms)) return ms;
  let end = text.length;
  if (zulu && text.charCodeAt(end - 1) === 90) end--;
  // The fraction starts at index 20 (after `yyyy-MM-dd HH:mm:ss.`); parseFlinkTimestampAt checked its digits.
  if (end - 20 <= 3) return ms;
  const nanos = Number(text.slice(23, Math.min(end, 29)).padEnd(6, '0'));
  return timestampOf(ms, nanos);
}

/**
 * Epoch ms of `yyyy-MM-dd?HH:mm:ss.SSS` at `o` (the separator `?` checked by the caller), what Sluice and Flink
 * write for TIMESTAMP(3), or NaN for any other text (the caller then reads it in general, with the same result or
 * NaN). The watermark makes every CSV row read its timestamp, so this is on every row's path: each char is read
 * once, as an integer, and checked as an unsigned comparison, instead of a NaN-carrying sum per digit (a call was
 * about 80 ns).
 */
function timestamp23At(text: string, o: number): number {
  const y0 = text.charCodeAt(o) - C0;
  const y1 = text.charCodeAt(o + 1) - C0;
  const y2 = text.charCodeAt(o + 2) - C0;
  const y3 = text.charCodeAt(o + 3) - C0;
  const m0 = text.charCodeAt(o + 5) - C0;
  const m1 = text.charCodeAt(o + 6) - C0;
  const d0 = text.charCodeAt(o + 8) - C0;
  const d1 = text.charCodeAt(o + 9) - C0;
  const h0 = text.charCodeAt(o + 11) - C0;
  const h1 = text.charCodeAt(o + 12) - C0;
  const i0 = text.charCodeAt(o + 14) - C0;
  const i1 = text.charCodeAt(o + 15) - C0;
  const s0 = text.charCodeAt(o + 17) - C0;
  const s1 = text.charCodeAt(o + 18) - C0;
  const f0 = text.charCodeAt(o + 20) - C0;
  const f1 = text.charCodeAt(o + 21) - C0;
  const f2 = text.charCodeAt(o + 22) - C0;
  // `x >>> 0 > 9` is true for anything but a digit (a char below '0' wraps to a large unsigned number).
  if (
    y0 >>> 0 > 9 || y1 >>> 0 > 9 || y2 >>> 0 > 9 || y3 >>> 0 > 9 || m0 >>> 0 > 9 || m1 >>> 0 > 9 || d0 >>> 0 > 9 ||
    d1 >>> 0 > 9 || h0 >>> 0 > 9 || h1 >>> 0 > 9 || i0 >>> 0 > 9 || i1 >>> 0 > 9 || s0 >>> 0 > 9 || s1 >>> 0 > 9 ||
    f0 >>> 0 > 9 || f1 >>> 0 > 9 || f2 >>> 0 > 9 || text.charCodeAt(o + 4) !== 45 || text.charCodeAt(o + 7) !== 45 ||
    text.charCodeAt(o + 13) !== 58 || text.charCodeAt(o + 16) !== 58 || text.charCodeAt(o + 19) !== 46
  ) {
    return NaN;
  }
  const h = h0 * 10 + h1;
  const mi = i0 * 10 + i1;
  const sec = s0 * 10 + s1;
  if (h > 23 || mi > 59 || sec > 59) return NaN;
  // The same date key as parseFlinkTimestampAt's, so both share the last date's day number.
  const key = (((y0 * 10 + y1) * 10 + y2) * 10 + y3) * 10000 + (m0 * 10 + m1) * 100 + d0 * 10 + d1;
  if (key !== lastParsedKey) {
    const y = ((y0 * 10 + y1) * 10 + y2) * 10 + y3;
    const m = m0 * 10 + m1;
    const d = d0 * 10 + d1;
    if (!validDate(y, m, d)) return NaN;
    lastParsedKey = key;
    lastParsedDays = daysFromCivil(y, m, d);
  }
  return lastParsedDays * MS_PER_DAY + ((h * 60 + mi) * 60 + sec) * 1000 + (f0 * 100 + f1 * 10 + f2);
}

/** The digit at `i`, or NaN (which poisons any sum it enters) when the char is not 0-9. */
function digitAt(text: string, i: number): number {
  const c = text.charCodeAt(i) - C0;
  return c >= 0 && c <= 9 ? c : NaN;
}
