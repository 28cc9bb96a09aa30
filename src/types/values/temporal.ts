import { ValidationError } from '../../errors/sluice-error.js';
import { millisOf, nanoOfMilliOf, plusMillis, timestampOf, truncateTimestamp } from './precise-timestamp.js';
import type { TimestampValue } from './precise-timestamp.js';

/**
 * DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ and INTERVAL values: parse from and format to Flink's SQL strings.
 * Representation (docs/values.md): DATE days since epoch, TIME ms of day, TIMESTAMP epoch ms of the
 * wall-clock read as UTC, TIMESTAMP_LTZ epoch ms of the instant (both a PreciseTimestamp when finer than a
 * millisecond, precise-timestamp.ts), intervals months or ms.
 */

export const MS_PER_DAY = 86_400_000;

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function floorDiv(a: number, b: number): number {
  return Math.floor(a / b);
}

function floorMod(a: number, b: number): number {
  return ((a % b) + b) % b;
}

/** `yyyy-MM-dd` of days since 1970-01-01 (proleptic Gregorian, as java.time). */
export function formatDate(days: number): string {
  const d = new Date(days * MS_PER_DAY);
  return formatYmd(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
}

function formatYmd(y: number, m: number, d: number): string {
  const year = y < 0 ? `-${pad(-y, 4)}` : y > 9999 ? `+${y}` : pad(y, 4);
  return `${year}-${pad(m, 2)}-${pad(d, 2)}`;
}

/**
 * `HH:mm:ss` plus exactly `precision` fraction digits (TIME(3): `12:00:00.123`); digits beyond
 * milliseconds print as zeros since Sluice keeps milliseconds only.
 */
export function formatTime(msOfDay: number, precision = 0): string {
  const ms = floorMod(Math.trunc(msOfDay), MS_PER_DAY);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  return `${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}${fraction(ms % 1000, precision)}`;
}

function fraction(millis: number, precision: number, nanoOfMilli = 0): string {
  if (precision <= 0) return '';
  return '.' + (pad(millis, 3) + pad(nanoOfMilli, 6)).slice(0, precision);
}

/**
 * `yyyy-MM-dd HH:mm:ss` plus exactly `precision` fraction digits (up to 9, the digits below the millisecond
 * from a PreciseTimestamp), of a TIMESTAMP value read as UTC.
 */
export function formatTimestamp(value: TimestampValue, precision = 6): string {
  const epochMs = millisOf(value);
  const days = floorDiv(epochMs, MS_PER_DAY);
  const ms = epochMs - days * MS_PER_DAY;
  const time = formatTime(ms - (ms % 1000), 0);
  return `${formatDate(days)} ${time}${fraction(ms % 1000, precision, nanoOfMilliOf(value))}`;
}

/** A TIMESTAMP_LTZ instant as the wall-clock time in `timeZone` (IANA name, `UTC`, `+08:00`, `GMT+8`). */
export function formatTimestampLtz(value: TimestampValue, precision = 6, timeZone = 'UTC'): string {
  return formatTimestamp(plusMillis(value, zoneOffsetMs(millisOf(value), timeZone)), precision);
}

const DATE_RE = /^([+-]?\d{4,})-(\d{1,2})-(\d{1,2})$/;
const TIME_RE = /^(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,9}))?)?$/;
const TS_RE =
  /^([+-]?\d{4,}-\d{1,2}-\d{1,2})(?:[ T](\d{1,2}:\d{1,2}(?::\d{1,2}(?:\.\d{1,9})?)?))?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

function daysFromCivil(y: number, m: number, d: number): number {
  const t = Date.UTC(2000, m - 1, d);
  const date = new Date(t);
  date.setUTCFullYear(y);
  return Math.round(date.getTime() / MS_PER_DAY);
}

function parseDateParts(text: string): [number, number, number] | undefined {
  const m = DATE_RE.exec(text);
  if (m === null) return undefined;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return undefined;
  return [y, mo, d];
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(m) ? 30 : 31;
}

/** Days since epoch of `yyyy-MM-dd` (one-digit month and day allowed, as Flink). @throws ValidationError */
export function parseDate(text: string): number {
  const parts = parseDateParts(text.trim());
  if (parts === undefined) throw new ValidationError(`Invalid DATE value '${text}'; expected 'yyyy-MM-dd'.`);
  return daysFromCivil(...parts);
}

/**
 * Days since epoch of a string CAST to DATE, read as Flink's cast reads it: whatever follows the first space is
 * ignored (a timestamp's text gives its day), and a missing day or month is the first (`'123'` is 0123-01-01,
 * `'2024-3'` 2024-03-01). @throws ValidationError
 */
export function castStringToDate(text: string): number {
  const space = text.indexOf(' ');
  const date = (space > 0 ? text.slice(0, space) : text).trim();
  const fields = date.split('-');
  const valid = fields.length <= 3 && fields.every((f) => /^\d+$/.test(f));
  const [y, mo = 1, d = 1] = fields.map(Number);
  if (!valid || y === undefined || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return parseDate(text);
  return daysFromCivil(y, mo, d);
}

/** [ms of the day, nanoseconds within the millisecond] of `HH:mm[:ss[.fffffffff]]`. */
function parseTimeNanos(text: string): [number, number] | undefined {
  const m = TIME_RE.exec(text);
  if (m === null) return undefined;
  const h = Number(m[1]);
  const mi = Number(m[2]);
  const s = m[3] === undefined ? 0 : Number(m[3]);
  if (h > 23 || mi > 59 || s > 59) return undefined;
  const digits = (m[4] ?? '').padEnd(9, '0');
  return [((h * 60 + mi) * 60 + s) * 1000 + Number(digits.slice(0, 3)), Number(digits.slice(3))];
}

function parseTimeParts(text: string): number | undefined {
  return parseTimeNanos(text)?.[0];
}

/** Milliseconds of the day of `HH:mm[:ss[.fffffffff]]`; digits beyond ms are truncated. @throws ValidationError */
export function parseTime(text: string): number {
  const ms = parseTimeParts(text.trim());
  if (ms === undefined) throw new ValidationError(`Invalid TIME value '${text}'; expected 'HH:mm:ss'.`);
  return ms;
}

/**
 * Epoch ms of a TIMESTAMP string read as UTC wall-clock: `2024-01-01 12:00:00.123`, ISO-8601
 * `2024-01-01T12:00:00.123`, a bare date (midnight). A trailing `Z` or offset (`+02:00`) is converted to
 * UTC, so ISO instants parse too. Fraction digits beyond ms are truncated. @throws ValidationError
 */
export function parseTimestamp(text: string): number {
  const ms = tryParseTimestamp(text);
  if (ms === undefined) {
    throw new ValidationError(`Invalid TIMESTAMP value '${text}'; expected 'yyyy-MM-dd HH:mm:ss[.SSS]' or ISO-8601.`);
  }
  return ms;
}

/** As `parseTimestamp`, undefined instead of throwing. */
export function tryParseTimestamp(text: string): number | undefined {
  const v = tryParseTimestampValue(text);
  return v === undefined ? undefined : millisOf(v);
}

/**
 * As `tryParseTimestamp` keeping up to 9 fraction digits (a PreciseTimestamp when they go below the
 * millisecond), then truncated to `precision` digits as Flink's cast truncates.
 */
export function tryParseTimestampValue(text: string, precision = 9): TimestampValue | undefined {
  const m = TS_RE.exec(text.trim());
  if (m === null) return undefined;
  const date = parseDateParts(m[1]!);
  if (date === undefined) return undefined;
  const time = m[2] === undefined ? [0, 0] : parseTimeNanos(m[2]);
  if (time === undefined) return undefined;
  let ms = daysFromCivil(...date) * MS_PER_DAY + time[0];
  if (m[3] !== undefined && m[3].toUpperCase() !== 'Z') ms -= parseOffset(m[3])!;
  return truncateTimestamp(timestampOf(ms, time[1]), precision);
}

/** As `parseTimestamp` keeping `precision` (up to 9) fraction digits. @throws ValidationError */
export function parseTimestampValue(text: string, precision = 9): TimestampValue {
  const v = tryParseTimestampValue(text, precision);
  if (v === undefined) {
    throw new ValidationError(`Invalid TIMESTAMP value '${text}'; expected 'yyyy-MM-dd HH:mm:ss[.SSS]' or ISO-8601.`);
  }
  return v;
}

/** As `parseTimestampLtz` keeping `precision` (up to 9) fraction digits. @throws ValidationError */
export function parseTimestampLtzValue(text: string, timeZone = 'UTC', precision = 9): TimestampValue {
  const trimmed = text.trim();
  const wall = parseTimestampValue(trimmed, precision);
  if (/(Z|[+-]\d{2}(:?\d{2})?)$/i.test(trimmed) && /[ T]/.test(trimmed)) return wall;
  return wallClockToInstant(wall, timeZone);
}

/** TIMESTAMP wall clock (either form) -> the TIMESTAMP_LTZ instant, reading it in `timeZone`. */
export function wallClockToInstant(wall: TimestampValue, timeZone: string): TimestampValue {
  const ms = millisOf(wall);
  return plusMillis(wall, wallClockToEpochMs(ms, timeZone) - ms);
}

/** TIMESTAMP_LTZ instant (either form) -> the TIMESTAMP wall clock in `timeZone`. */
export function instantToWallClock(instant: TimestampValue, timeZone: string): TimestampValue {
  return plusMillis(instant, zoneOffsetMs(millisOf(instant), timeZone));
}

/**
 * Epoch ms of the instant that `text` (a wall-clock timestamp string) denotes in `timeZone`; an explicit
 * offset or `Z` in the text wins over the zone. @throws ValidationError
 */
export function parseTimestampLtz(text: string, timeZone = 'UTC'): number {
  const trimmed = text.trim();
  const wall = parseTimestamp(trimmed);
  if (/(Z|[+-]\d{2}(:?\d{2})?)$/i.test(trimmed) && /[ T]/.test(trimmed)) return wall;
  return wallClockToEpochMs(wall, timeZone);
}

// ---- time zones ----

const OFFSET_RE = /^(?:UTC|GMT)?([+-])(\d{1,2})(?::?(\d{2}))?$/i;

function parseOffset(text: string): number | undefined {
  const m = OFFSET_RE.exec(text);
  if (m === null) return undefined;
  const sign = m[1] === '-' ? -1 : 1;
  return sign * (Number(m[2]) * 60 + Number(m[3] ?? 0)) * 60_000;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
        era: 'short',
      });
    } catch {
      throw new ValidationError(`Invalid time zone '${zone}'; use an IANA name such as 'Europe/Berlin', 'UTC' or an offset such as 'GMT+08:00'.`);
    }
    formatters.set(zone, f);
  }
  return f;
}

/** True when `zone` is a time zone Sluice understands. */
export function isValidTimeZone(zone: string): boolean {
  if (/^(UTC|GMT|Z)$/i.test(zone) || parseOffset(zone) !== undefined) return true;
  try {
    formatterFor(zone);
    return true;
  } catch {
    return false;
  }
}

/** Offset of `timeZone` from UTC at the instant, in ms (wall clock = instant + offset). */
export function zoneOffsetMs(epochMs: number, timeZone: string): number {
  if (/^(UTC|GMT|Z)$/i.test(timeZone)) return 0;
  const fixed = parseOffset(timeZone);
  if (fixed !== undefined) return fixed;
  const parts = formatterFor(timeZone).formatToParts(new Date(epochMs));
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
  let year = get('year');
  if (parts.find((p) => p.type === 'era')?.value === 'BC') year = 1 - year;
  const wall = daysFromCivil(year, get('month'), get('day')) * MS_PER_DAY + ((get('hour') * 60 + get('minute')) * 60 + get('second')) * 1000;
  return wall - (epochMs - floorMod(epochMs, 1000));
}

/** The instant at which the wall clock in `timeZone` shows `wallMs` (earlier offset on DST overlaps). */
export function wallClockToEpochMs(wallMs: number, timeZone: string): number {
  const first = wallMs - zoneOffsetMs(wallMs, timeZone);
  const second = wallMs - zoneOffsetMs(first, timeZone);
  return second;
}

// ---- intervals ----

/** INTERVAL YEAR TO MONTH as Flink prints it: `+1-00`, `-0-03`. */
export function formatIntervalYearMonth(months: number): string {
  const sign = months < 0 ? '-' : '+';
  const a = Math.abs(months);
  return `${sign}${Math.floor(a / 12)}-${pad(a % 12, 2)}`;
}

/** INTERVAL DAY TO SECOND as Flink prints it: `+1 00:00:00.000`, `-0 00:00:01.500`. */
export function formatIntervalDayTime(ms: number): string {
  const sign = ms < 0 ? '-' : '+';
  const a = Math.abs(ms);
  const days = Math.floor(a / MS_PER_DAY);
  return `${sign}${days} ${formatTime(a - days * MS_PER_DAY, 3)}`;
}

/** TIMESTAMP_LTZ instant -> TIMESTAMP wall clock in `timeZone` (CAST(ltz AS TIMESTAMP)). */
export function ltzToTimestamp(epochMs: number, timeZone: string): number {
  return epochMs + zoneOffsetMs(epochMs, timeZone);
}

/** TIMESTAMP wall clock -> TIMESTAMP_LTZ instant, reading the wall clock in `timeZone`. */
export function timestampToLtz(wallMs: number, timeZone: string): number {
  return wallClockToEpochMs(wallMs, timeZone);
}

/** Days since epoch of an epoch-ms timestamp (floor), e.g. CAST(ts AS DATE). */
export function timestampToDate(epochMs: number): number {
  return floorDiv(epochMs, MS_PER_DAY);
}

/** Ms of the day of an epoch-ms timestamp, e.g. CAST(ts AS TIME). */
export function timestampToTime(epochMs: number): number {
  return floorMod(epochMs, MS_PER_DAY);
}
