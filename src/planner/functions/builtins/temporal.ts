import { ExecutionError } from '../../../errors/sluice-error.js';
import { DataTypes } from '../../../types/data-types.js';
import { withNullability } from '../../../types/logical-type.js';
import type { LogicalType } from '../../../types/logical-type.js';
import { MS_PER_DAY, formatTimestamp, tryParseTimestamp, wallClockToEpochMs, zoneOffsetMs } from '../../../types/values/temporal.js';
import { millisOf, nanoOfMilliOf, PreciseTimestamp, timestampOf, timestampOfEpochNanos } from '../../../types/values/precise-timestamp.js';
import type { TimestampValue } from '../../../types/values/precise-timestamp.js';
import { cannotApply, isNumeric, isTimestamp } from '../../expressions/type-rules.js';
import { constantOperand, scalar } from '../define.js';
import type { CallBinding, ScalarCodegen, ScalarFunctionDefinition } from '../function-definition.js';
import { numericFloorCeilCode, numericFloorCeilType } from './arithmetic.js';
import { formatWithPattern, parseWithPattern } from './date-format.js';
import { addMonths } from './temporal-math.js';

/**
 * Temporal functions. TIMESTAMP values are UTC wall-clock ms; TIMESTAMP_LTZ instants are shown and
 * split into fields in `table.local-time-zone` (CompileOptions.timeZone).
 */

const DEFAULT_FORMAT = 'yyyy-MM-dd HH:mm:ss';

/**
 * Wall-clock ms of a DATE / TIMESTAMP / TIMESTAMP_LTZ value (of a PreciseTimestamp its millisecond: the functions
 * that need the digits below read them with nanoOfMilliOf).
 */
function toWall(v: number | PreciseTimestamp, kind: string, tz: string): number {
  if (kind === 'DATE') return (v as number) * MS_PER_DAY;
  const ms = millisOf(v);
  if (kind === 'TIMESTAMP_LTZ') return ms + zoneOffsetMs(ms, tz);
  return ms;
}

function fromWall(wall: number, kind: string, tz: string): number {
  if (kind === 'DATE') return Math.floor(wall / MS_PER_DAY);
  if (kind === 'TIMESTAMP_LTZ') return wallClockToEpochMs(wall, tz);
  return wall;
}

/** Strict codegen calling `f(...args, kindOfFirstTemporalOperand, timeZone)`. */
function withZone(f: (...args: never[]) => unknown, kindOperand = 0): ScalarCodegen {
  return {
    kind: 'strict',
    expr: (args, call, g) => `${g.constant(f)}(${[...args, JSON.stringify(call.operands[kindOperand]?.type.kind ?? ''), JSON.stringify(g.options.timeZone ?? 'UTC')].join(', ')})`,
  };
}

function extractField(unit: string, wall: number, nanoOfMilli = 0): bigint {
  const d = new Date(wall);
  switch (unit) {
    case 'YEAR':
      return BigInt(d.getUTCFullYear());
    case 'QUARTER':
      return BigInt(Math.floor(d.getUTCMonth() / 3) + 1);
    case 'MONTH':
      return BigInt(d.getUTCMonth() + 1);
    case 'WEEK':
      return BigInt(isoWeek(d)[1]);
    case 'ISOYEAR':
      return BigInt(isoWeek(d)[0]);
    case 'DAY':
      return BigInt(d.getUTCDate());
    case 'DOY':
      return BigInt(Math.floor((wall - Date.UTC(d.getUTCFullYear(), 0, 1)) / MS_PER_DAY) + 1);
    case 'DOW':
      return BigInt(d.getUTCDay() + 1);
    case 'ISODOW':
      return BigInt(d.getUTCDay() === 0 ? 7 : d.getUTCDay());
    case 'HOUR':
      return BigInt(d.getUTCHours());
    case 'MINUTE':
      return BigInt(d.getUTCMinutes());
    case 'SECOND':
      return BigInt(d.getUTCSeconds());
    // The fraction of the second only (not Calcite's seconds * 1000 + millis): a real Flink 2.3 answers
    // EXTRACT(MILLISECOND FROM TIMESTAMP '2024-02-29 13:45:30.123') with 123, and its TimeFunctionsITCase's
    // MILLISECOND / MICROSECOND / NANOSECOND cases so, and 123456 / 123456789 of TIMESTAMP '... 10:00:00.123456789'.
    case 'MILLISECOND':
      return BigInt(d.getUTCMilliseconds());
    case 'MICROSECOND':
      return BigInt(d.getUTCMilliseconds() * 1000 + Math.floor(nanoOfMilli / 1000));
    case 'NANOSECOND':
      return BigInt(d.getUTCMilliseconds() * 1_000_000 + nanoOfMilli);
    case 'EPOCH':
      return BigInt(Math.floor(wall / 1000));
    case 'DECADE':
      return BigInt(Math.floor(d.getUTCFullYear() / 10));
    case 'CENTURY':
      return BigInt(Math.ceil(d.getUTCFullYear() / 100));
    case 'MILLENNIUM':
      return BigInt(Math.ceil(d.getUTCFullYear() / 1000));
    default:
      throw new ExecutionError(`EXTRACT does not support the unit ${unit}.`);
  }
}

function isoWeek(d: Date): [number, number] {
  const t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const day = t.getUTCDay() === 0 ? 7 : t.getUTCDay();
  t.setUTCDate(t.getUTCDate() + 4 - day);
  const yearStart = Date.UTC(t.getUTCFullYear(), 0, 1);
  return [t.getUTCFullYear(), Math.ceil(((t.getTime() - yearStart) / MS_PER_DAY + 1) / 7)];
}

function extract(unit: string, v: number | PreciseTimestamp, kind: string, tz: string): bigint {
  if (kind === 'INTERVAL_DAY_TIME') {
    const div: Record<string, number> = { DAY: MS_PER_DAY, HOUR: 3_600_000, MINUTE: 60_000, SECOND: 1000, MILLISECOND: 1 };
    const mod: Record<string, number> = { DAY: Infinity, HOUR: 24, MINUTE: 60, SECOND: 60, MILLISECOND: 60_000 };
    const q = Math.trunc((v as number) / div[unit]!);
    return BigInt(mod[unit] === Infinity ? q : q % mod[unit]!);
  }
  if (kind === 'INTERVAL_YEAR_MONTH') return BigInt(unit === 'YEAR' ? Math.trunc((v as number) / 12) : (v as number) % 12);
  if (kind === 'TIME') return extractField(unit, v as number);
  // Flink refuses it ("NANOSECOND can not be applied" to a DATE).
  if (kind === 'DATE' && unit === 'NANOSECOND') throw new ExecutionError('EXTRACT: NANOSECOND can not be applied to a DATE.');
  return extractField(unit, toWall(v, kind, tz), nanoOfMilliOf(v));
}

const UNIT_MS: Record<string, number> = { WEEK: 7 * MS_PER_DAY, DAY: MS_PER_DAY, HOUR: 3_600_000, MINUTE: 60_000, SECOND: 1000, MILLISECOND: 1 };
const UNIT_MONTHS: Record<string, number> = { YEAR: 12, QUARTER: 3, MONTH: 1 };

function floorWall(wall: number, unit: string, ceil: boolean): number {
  let f: number;
  if (UNIT_MONTHS[unit] !== undefined) {
    const d = new Date(wall);
    const step = UNIT_MONTHS[unit]!;
    const m = Math.floor(d.getUTCMonth() / step) * step;
    f = Date.UTC(d.getUTCFullYear(), m, 1);
    if (ceil && f !== wall) f = addMonths(f, step, false);
    return f;
  }
  const years = { DECADE: 10, CENTURY: 100, MILLENNIUM: 1000 }[unit];
  if (years !== undefined) {
    // Calcite's DateTimeUtils: decades start in years divisible by 10, centuries and millennia in the year after
    // (1901, 2001, 1001): a real Flink 2.3 floors 1990-10-14 to 1990-01-01, 1901-01-01 and 1001-01-01.
    const y = new Date(wall).getUTCFullYear();
    const start = unit === 'DECADE' ? Math.floor(y / years) * years : Math.floor((y - 1) / years) * years + 1;
    f = Date.UTC(start, 0, 1);
    if (start < 100) f = new Date(f).setUTCFullYear(start);
    return ceil && f !== wall ? new Date(f).setUTCFullYear(start + years) : f;
  }
  if (unit === 'WEEK') {
    // Calcite floors weeks to Sunday.
    const days = Math.floor(wall / MS_PER_DAY);
    const dow = ((days + 4) % 7 + 7) % 7;
    f = (days - dow) * MS_PER_DAY;
    return ceil && f !== wall ? f + UNIT_MS.WEEK! : f;
  }
  const u = UNIT_MS[unit];
  if (u === undefined) throw new ExecutionError(`FLOOR/CEIL does not support the unit ${unit}.`);
  f = Math.floor(wall / u) * u;
  return ceil && f !== wall ? f + u : f;
}

function floorCeil(ceil: boolean): ScalarFunctionDefinition {
  const name = ceil ? 'CEIL' : 'FLOOR';
  // CEIL of a DATE to DAY is the next day even for a date (which is always a whole day), as Flink 2.3 answers
  // CEIL(DATE '1990-10-14' TO DAY) with 1990-10-15 (its TimeFunctionsITCase expects that too).
  // The result is always a whole millisecond. A value between two milliseconds floors as its millisecond; CEIL reads
  // its digits below the millisecond only TO MILLISECOND: a real Flink 2.3 ceils ... 10:00:00.123456789 TO MILLISECOND
  // to .124 but ... 10:00:00.000000001 TO SECOND to 10:00:00 (its other units ceil the millisecond alone).
  const temporal = (v: number | PreciseTimestamp, unit: string, kind: string, tz: string): number => {
    if (ceil && kind === 'DATE' && unit === 'DAY') return (v as number) + 1;
    const above = ceil && unit === 'MILLISECOND' && v instanceof PreciseTimestamp ? 1 : 0;
    return fromWall(floorWall(toWall(v, kind, tz) + above, unit, ceil), kind, tz);
  };
  return {
    kind: 'scalar',
    name,
    deterministic: true,
    inferType(ts) {
      const t = ts[0]!;
      if (ts.length === 1 && (isNumeric(t) || t.kind === 'NULL')) return numericFloorCeilType(t.kind === 'NULL' ? DataTypes.DOUBLE() : t);
      if (ts.length === 2 && (isTimestamp(t) || t.kind === 'DATE' || t.kind === 'TIME')) return t;
      throw cannotApply(name, ts, [`${name}(<NUMERIC>)`, `${name}(<DATETIME> TO <TIME_UNIT>)`]);
    },
    codegen: {
      kind: 'strict',
      expr(args, call, g) {
        const t = call.operands[0]!.type;
        if (args.length === 1) return numericFloorCeilCode(args[0]!, t, ceil);
        return `${g.constant(temporal)}(${args[0]}, ${args[1]}, ${JSON.stringify(t.kind)}, ${JSON.stringify(g.options.timeZone ?? 'UTC')})`;
      },
    },
  };
}

function timestampAdd(unit: string, n: number, v: number | PreciseTimestamp, kind: string, tz: string): TimestampValue {
  const wall = toWall(v, kind, tz);
  let out: number;
  if (UNIT_MONTHS[unit] !== undefined) out = addMonths(wall, n * UNIT_MONTHS[unit]!, false);
  else if (UNIT_MS[unit] !== undefined) out = wall + n * UNIT_MS[unit]!;
  else throw new ExecutionError(`TIMESTAMPADD does not support the unit ${unit}.`);
  if (kind === 'DATE' && UNIT_MS[unit] !== undefined && UNIT_MS[unit]! < MS_PER_DAY) return out;
  // The digits below the millisecond stay (a real Flink 2.3: TIMESTAMPADD(HOUR, 1, ... 10:00:00.123456789) is 11:00:00.123456789).
  return timestampOf(fromWall(out, kind, tz), nanoOfMilliOf(v));
}

/**
 * TIMESTAMPDIFF on the values' milliseconds, as Flink computes it: a real Flink 2.3 answers TIMESTAMPDIFF(SECOND,
 * ... 10:00:00.000001, ... 10:00:01) with 1 and MICROSECOND with 1000000, the digits below the millisecond unread.
 * NANOSECOND is a BIGINT of whole seconds times 10^9 there (1 s gives 1000000000, 10 s 10000000000, 100 ms 0).
 */
function timestampDiff(unit: string, a: number | PreciseTimestamp, b: number | PreciseTimestamp, kindA: string, tz: string, kindB: string): number | bigint {
  const wa = toWall(a, kindA, tz);
  const wb = toWall(b, kindB, tz);
  // The result is an INT computed as a long: Java's (int) keeps the low 32 bits (a real Flink 2.3 gives -474100096
  // for 3820867200 seconds; differential harness, seed 101).
  if (UNIT_MONTHS[unit] !== undefined) return Math.trunc(subtractMonths(wb, wa) / UNIT_MONTHS[unit]!) | 0;
  if (unit === 'MICROSECOND') return Number(BigInt.asIntN(32, BigInt(wb - wa) * 1000n));
  if (unit === 'NANOSECOND') return BigInt.asIntN(64, BigInt(Math.trunc((wb - wa) / 1000)) * 1_000_000_000n);
  const u = UNIT_MS[unit];
  if (u === undefined) throw new ExecutionError(`TIMESTAMPDIFF does not support the unit ${unit}.`);
  return Math.trunc((wb - wa) / u) | 0;
}

/** Days since the epoch plus `m` months, the day of month clamped to the month's last day (2024-02-29 + 12 = 2025-02-28). */
function addMonthsToDay(day: number, m: number): number {
  const d = new Date(day * MS_PER_DAY);
  const months = d.getUTCFullYear() * 12 + d.getUTCMonth() + m;
  const y = Math.floor(months / 12);
  const mo = months - y * 12;
  const last = new Date(Date.UTC(2000, mo + 1, 0)).getUTCDate() - (mo === 1 && !isLeap(y) ? 1 : 0);
  const at = new Date(0);
  at.setUTCFullYear(y, mo, Math.min(d.getUTCDate(), last));
  return Math.floor(at.getTime() / MS_PER_DAY);
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

/**
 * Whole months from wall-clock ms `t1` to `t0`, as Calcite's DateTimeUtils.subtractMonths (which Flink runs): the
 * most months that, added to t1's day with the day clamped to the month's end, do not pass t0's day; one less when
 * they land on t0's day but t1's time of day is later. So 2000-02-29 12:00 to 2023-02-28 12:00 is 276 months.
 */
function subtractMonths(t0: number, t1: number): number {
  const ms0 = ((t0 % MS_PER_DAY) + MS_PER_DAY) % MS_PER_DAY;
  const ms1 = ((t1 % MS_PER_DAY) + MS_PER_DAY) % MS_PER_DAY;
  const d0 = (t0 - ms0) / MS_PER_DAY;
  const d1 = (t1 - ms1) / MS_PER_DAY;
  let x = subtractDayMonths(d0, d1);
  if (addMonthsToDay(d1, x) === d0 && ms0 < ms1) x--;
  return x;
}

function subtractDayMonths(d0: number, d1: number): number {
  if (d0 < d1) return -subtractDayMonths(d1, d0);
  let m = Math.trunc((d0 - d1) / 31);
  for (;;) {
    if (addMonthsToDay(d1, m) >= d0) return m;
    if (addMonthsToDay(d1, m + 1) > d0) return m;
    m++;
  }
}

function dateFormat(v: unknown, fmt: string, kind: string, tz: string): string {
  const wall = typeof v === 'string' ? tryParseTimestamp(v) : toWall(v as number | PreciseTimestamp, kind, tz);
  if (wall === undefined) throw new ExecutionError(`DATE_FORMAT cannot parse '${String(v)}' as a timestamp.`);
  return formatWithPattern(wall, fmt, typeof v === 'string' ? 0 : nanoOfMilliOf(v as TimestampValue));
}

function toTimestamp(s: string, fmt?: string): number | null {
  const r = fmt === undefined ? tryParseTimestamp(s) : parseWithPattern(s, fmt);
  return r === undefined ? null : r;
}

/**
 * TO_TIMESTAMP_LTZ(epoch, p): epoch seconds (p 0), milliseconds (3), microseconds (6) or nanoseconds (9). A real Flink
 * 2.3 answers TO_TIMESTAMP_LTZ(1704103200123456789, 9) with 2024-01-01T10:00:00.123456789Z; micro- and nanoseconds
 * are read exactly from an integer (they pass 2^53).
 */
function toTimestampLtz(v: unknown, precision?: number): TimestampValue | null {
  const p = precision ?? 3;
  if (p === 6 || p === 9) {
    const unit = p === 6 ? 1000n : 1n;
    if (typeof v === 'bigint') return timestampOfEpochNanos(v * unit);
    const x = typeof v === 'number' ? v : (v as { toNumber(): number }).toNumber();
    return timestampOfEpochNanos(BigInt(Math.trunc(x)) * unit);
  }
  const n = typeof v === 'bigint' ? Number(v) : typeof v === 'number' ? v : (v as { toNumber(): number }).toNumber();
  if (p !== 0 && p !== 3) throw new ExecutionError(`The precision of TO_TIMESTAMP_LTZ must be 0, 3, 6 or 9, but was ${p}.`);
  return Math.trunc(p === 0 ? n * 1000 : n);
}

/** TIMESTAMP_LTZ(3) for epoch seconds and milliseconds, TIMESTAMP_LTZ(6) / (9) for micro- and nanoseconds. */
function toTimestampLtzType(ts: readonly LogicalType[], binding: CallBinding): LogicalType {
  const p = ts.length > 1 ? Number(constantOperand(binding, 1) ?? 3) : 3;
  return DataTypes.TIMESTAMP_LTZ(p === 6 || p === 9 ? p : 3);
}

function toDate(s: string, fmt?: string): number | null {
  const r = fmt === undefined ? tryParseTimestamp(s) : parseWithPattern(s, fmt);
  return r === undefined ? null : Math.floor(r / MS_PER_DAY);
}

function unixTimestamp(s: string, fmt: string | undefined, _kind: string, tz: string): bigint | null {
  const wall = fmt === undefined || fmt === '' ? tryParseTimestamp(s) : parseWithPattern(s, fmt);
  return wall === undefined ? null : BigInt(Math.floor(wallClockToEpochMs(wall, tz) / 1000));
}

function fromUnixtime(sec: unknown, fmt: string | undefined, _kind: string, tz: string): string {
  const ms = Number(sec) * 1000;
  return formatWithPattern(ms + zoneOffsetMs(ms, tz), fmt ?? DEFAULT_FORMAT);
}

function convertTz(s: string, from: string, to: string): string | null {
  const wall = tryParseTimestamp(s);
  if (wall === undefined) return null;
  const instant = wallClockToEpochMs(wall, from);
  return formatTimestamp(instant + zoneOffsetMs(instant, to), 0);
}

function niladic(name: string, type: LogicalType, code: (tz: string, g: { constant(v: unknown): string }) => string): ScalarFunctionDefinition {
  return scalar({ name, signatures: [[]], result: type, nulls: 'type', deterministic: false, codegen: { kind: 'custom', gen: (_c, g) => code(g.options.timeZone ?? 'UTC', g) } });
}

const localNow = (tz: string): number => {
  const now = Date.now();
  return now + zoneOffsetMs(now, tz);
};

function extractFn(name: string, unit: string): ScalarFunctionDefinition {
  const f = (v: number, kind: string, tz: string): bigint => extract(unit, v, kind, tz);
  return scalar({ name, signatures: [['DATETIME']], result: DataTypes.BIGINT(), codegen: withZone(f) });
}

export function temporalFunctions(): ScalarFunctionDefinition[] {
  const ltz3 = withNullability(DataTypes.TIMESTAMP_LTZ(3), false);
  return [
    niladic('CURRENT_TIMESTAMP', ltz3, () => 'Date.now()'),
    niladic('NOW', ltz3, () => 'Date.now()'),
    niladic('CURRENT_ROW_TIMESTAMP', ltz3, () => 'Date.now()'),
    niladic('PROCTIME', withNullability(DataTypes.TIMESTAMP_LTZ(3, 'PROCTIME'), false), () => 'Date.now()'),
    niladic('LOCALTIMESTAMP', withNullability(DataTypes.TIMESTAMP(3), false), (tz, g) => `${g.constant(localNow)}(${JSON.stringify(tz)})`),
    niladic('CURRENT_DATE', withNullability(DataTypes.DATE(), false), (tz, g) => `Math.floor(${g.constant(localNow)}(${JSON.stringify(tz)}) / ${MS_PER_DAY})`),
    niladic('CURRENT_TIME', withNullability(DataTypes.TIME(0), false), (tz, g) => `(Math.floor(${g.constant(localNow)}(${JSON.stringify(tz)}) / 1000) * 1000 % ${MS_PER_DAY})`),
    niladic('LOCALTIME', withNullability(DataTypes.TIME(0), false), (tz, g) => `(Math.floor(${g.constant(localNow)}(${JSON.stringify(tz)}) / 1000) * 1000 % ${MS_PER_DAY})`),
    scalar({
      name: 'EXTRACT',
      signatures: [['SYMBOL', 'DATETIME'], ['SYMBOL', 'INTERVAL']],
      result: DataTypes.BIGINT(),
      codegen: withZone(extract as (...a: never[]) => unknown, 1),
    }),
    extractFn('YEAR', 'YEAR'),
    extractFn('QUARTER', 'QUARTER'),
    extractFn('MONTH', 'MONTH'),
    extractFn('WEEK', 'WEEK'),
    extractFn('DAYOFYEAR', 'DOY'),
    extractFn('DAYOFMONTH', 'DAY'),
    extractFn('DAYOFWEEK', 'DOW'),
    extractFn('HOUR', 'HOUR'),
    extractFn('MINUTE', 'MINUTE'),
    extractFn('SECOND', 'SECOND'),
    floorCeil(false),
    floorCeil(true),
    scalar({
      name: 'TIMESTAMPADD',
      signatures: [['SYMBOL', 'INTEGER', 'DATETIME']],
      coerce: (ts) => [ts[0]!, DataTypes.INT(), ts[2]!],
      result: (ts, b) => {
        const unit = b.operands[0]?.kind === 'symbol' ? b.operands[0].value : '';
        const t = ts[2]!;
        return t.kind === 'DATE' && UNIT_MS[unit] !== undefined && UNIT_MS[unit]! < MS_PER_DAY ? DataTypes.TIMESTAMP(3) : t;
      },
      codegen: withZone(timestampAdd as (...a: never[]) => unknown, 2),
    }),
    scalar({
      name: 'TIMESTAMPDIFF',
      signatures: [['SYMBOL', 'DATETIME', 'DATETIME']],
      result: (_ts, b) => (constantOperand(b, 0) === 'NANOSECOND' ? DataTypes.BIGINT() : DataTypes.INT()),
      codegen: {
        kind: 'strict',
        expr: (args, call, g) =>
          `${g.constant(timestampDiff)}(${args.join(', ')}, ${JSON.stringify(call.operands[1]!.type.kind)}, ${JSON.stringify(g.options.timeZone ?? 'UTC')}, ${JSON.stringify(call.operands[2]!.type.kind)})`,
      },
    }),
    scalar({ name: 'DATE_FORMAT', signatures: [['TIMESTAMP', 'STRING'], ['DATE', 'STRING'], ['STRING', 'STRING']], result: DataTypes.STRING(), codegen: withZone(dateFormat as (...a: never[]) => unknown) }),
    scalar({ name: 'TO_TIMESTAMP', signatures: [['STRING'], ['STRING', 'STRING']], result: DataTypes.TIMESTAMP(3), nulls: 'nullable', codegen: { kind: 'runtime-strict', fn: toTimestamp as (...a: never[]) => unknown } }),
    scalar({ name: 'TO_TIMESTAMP_LTZ', signatures: [['NUMERIC'], ['NUMERIC', 'INTEGER']], result: toTimestampLtzType, codegen: { kind: 'runtime-strict', fn: toTimestampLtz as (...a: never[]) => unknown } }),
    scalar({ name: 'TO_DATE', signatures: [['STRING'], ['STRING', 'STRING']], result: DataTypes.DATE(), nulls: 'nullable', codegen: { kind: 'runtime-strict', fn: toDate as (...a: never[]) => unknown } }),
    scalar({
      name: 'UNIX_TIMESTAMP',
      signatures: [[], ['STRING'], ['STRING', 'STRING']],
      result: DataTypes.BIGINT(),
      nulls: 'nullable',
      deterministic: false,
      codegen: {
        kind: 'strict',
        expr: (args, _c, g) =>
          args.length === 0
            ? 'BigInt(Math.floor(Date.now() / 1000))'
            : `${g.constant(unixTimestamp)}(${args[0]}, ${args[1] ?? 'undefined'}, "", ${JSON.stringify(g.options.timeZone ?? 'UTC')})`,
      },
    }),
    scalar({
      name: 'FROM_UNIXTIME',
      signatures: [['INTEGER'], ['INTEGER', 'STRING']],
      result: DataTypes.STRING(),
      codegen: { kind: 'strict', expr: (args, _c, g) => `${g.constant(fromUnixtime)}(${args[0]}, ${args[1] ?? 'undefined'}, "", ${JSON.stringify(g.options.timeZone ?? 'UTC')})` },
    }),
    scalar({ name: 'CONVERT_TZ', signatures: [['STRING', 'STRING', 'STRING']], result: DataTypes.STRING(), nulls: 'nullable', codegen: { kind: 'runtime-strict', fn: convertTz as (...a: never[]) => unknown } }),
  ];
}
