import { assertNever } from '../logical-type.js';
import type { LogicalType, YearMonthResolution } from '../logical-type.js';
import type { Decimal } from '../decimal.js';
import { rowKindShortString } from '../row-kind.js';
import type { Row } from '../row.js';
import { formatDouble, formatFloat } from './number-format.js';
import {
  formatDate,
  formatIntervalDayTime,
  formatIntervalYearMonth,
  formatTime,
  formatTimestamp,
  formatTimestampLtz,
  MS_PER_DAY,
} from './temporal.js';
import { millisOf, nanoOfMilliOf } from './precise-timestamp.js';
import type { TimestampValue } from './precise-timestamp.js';

export interface FormatOptions {
  /** Zone TIMESTAMP_LTZ values are shown in (`table.local-time-zone`); default UTC. */
  readonly timeZone?: string;
}

/**
 * A value as Flink's CAST(value AS STRING), the form the SQL client's tableau view prints:
 * `TRUE`, `1.0` (DOUBLE), `1.50` (DECIMAL(p, 2)), `2024-01-01 12:00:00.000` (TIMESTAMP(3)), `2024-01-01`,
 * `12:00:00` (TIME(0)), `x'0aff'` (bytes), `[1, 2]`, `{a=1, b=2}`, `(1, a)` (ROW), `+1 00:00:00.000`.
 * NULL, also nested, prints as `NULL`; the tableau renderer shows a top-level null as `<NULL>` itself.
 * Values must follow docs/values.md; this is for display, not a hot path.
 */
export function formatValue(value: unknown, type: LogicalType, options: FormatOptions = {}): string {
  if (value === null || value === undefined) return 'NULL';
  switch (type.kind) {
    case 'BOOLEAN':
      return value ? 'TRUE' : 'FALSE';
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT':
    case 'BIGINT':
      return String(value);
    case 'FLOAT':
      return formatFloat(value as number);
    case 'DOUBLE':
      return formatDouble(value as number);
    case 'DECIMAL':
      return (value as Decimal).toString();
    case 'CHAR':
    case 'VARCHAR':
      return value as string;
    case 'BINARY':
    case 'VARBINARY':
      return `x'${Buffer.from(value as Uint8Array).toString('hex')}'`;
    case 'DATE':
      return formatDate(value as number);
    case 'TIME':
      // Flink holds a TIME in milliseconds whatever its precision: a real Flink 2.3 casts a TIME(5) 12:34:56.123 to the
      // STRING 12:34:56.123 (CastFunctionITCase), not 12:34:56.12300.
      return formatTime(value as number, Math.min(type.precision, 3));
    case 'TIMESTAMP':
      return formatTimestamp(value as TimestampValue, type.precision);
    case 'TIMESTAMP_LTZ':
      return formatTimestampLtz(value as TimestampValue, type.precision, options.timeZone ?? 'UTC');
    case 'INTERVAL_YEAR_MONTH':
      return formatIntervalYearMonth(value as number);
    case 'INTERVAL_DAY_TIME':
      return formatIntervalDayTime(value as number);
    case 'ARRAY':
      return `[${(value as unknown[]).map((v) => formatValue(v, type.element, options)).join(', ')}]`;
    case 'MULTISET':
      return `{${[...(value as Map<unknown, number>)].map(([k, n]) => `${formatValue(k, type.element, options)}=${n}`).join(', ')}}`;
    case 'MAP':
      return `{${[...(value as Map<unknown, unknown>)]
        .map(([k, v]) => `${formatValue(k, type.key, options)}=${formatValue(v, type.value, options)}`)
        .join(', ')}}`;
    case 'ROW':
      return `(${type.fields.map((f, i) => formatValue((value as unknown[])[i], f.type, options)).join(', ')})`;
    case 'NULL':
      return 'NULL';
    case 'VARIANT':
      // Its canonical JSON text, as Flink prints a VARIANT ({"a":1}, "str", null, Infinity).
      return value as string;
    default:
      return assertNever(type, 'logical type');
  }
}

/**
 * A value as Java's `toString()` of Flink's external class, the form the `print` connector writes inside
 * `+I[...]`: `true`, `2024-01-01T12:00` (LocalDateTime), `2024-01-01T12:00:00Z` (Instant), `12:30`
 * (LocalTime), `[1, -1]` (byte[]), `P1Y2M` (Period), `PT1H30M` (Duration), `null`.
 */
export function formatValueJava(value: unknown, type: LogicalType): string {
  if (value === null || value === undefined) return 'null';
  switch (type.kind) {
    case 'BOOLEAN':
      return value ? 'true' : 'false';
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT':
    case 'BIGINT':
      return String(value);
    case 'FLOAT':
      return formatFloat(value as number);
    case 'DOUBLE':
      return formatDouble(value as number);
    case 'DECIMAL':
      return bigDecimalToString(value as Decimal);
    case 'CHAR':
    case 'VARCHAR':
      return value as string;
    case 'BINARY':
    case 'VARBINARY':
      return `[${Array.from(value as Uint8Array, (b) => (b > 127 ? b - 256 : b)).join(', ')}]`;
    case 'DATE':
      return formatDate(value as number);
    case 'TIME':
      return javaLocalTime(value as number);
    case 'TIMESTAMP': {
      const ms = millisOf(value as TimestampValue);
      const days = Math.floor(ms / MS_PER_DAY);
      return `${formatDate(days)}T${javaLocalTime(ms - days * MS_PER_DAY, nanoOfMilliOf(value as TimestampValue))}`;
    }
    case 'TIMESTAMP_LTZ': {
      // Instant.toString: the seconds always, the fraction in groups of three digits as needed.
      const text = formatTimestamp(value as TimestampValue, 9).replace(' ', 'T');
      return `${text.slice(0, 19)}${javaFraction(text.slice(20))}Z`;
    }
    case 'INTERVAL_YEAR_MONTH':
      return javaPeriod(value as number, type.resolution);
    case 'INTERVAL_DAY_TIME':
      return javaDuration(value as number);
    case 'ARRAY':
      return `[${(value as unknown[]).map((v) => formatValueJava(v, type.element)).join(', ')}]`;
    case 'MULTISET':
      return `{${[...(value as Map<unknown, number>)].map(([k, n]) => `${formatValueJava(k, type.element)}=${n}`).join(', ')}}`;
    case 'MAP':
      return `{${[...(value as Map<unknown, unknown>)]
        .map(([k, v]) => `${formatValueJava(k, type.key)}=${formatValueJava(v, type.value)}`)
        .join(', ')}}`;
    case 'ROW':
      return `+I[${type.fields.map((f, i) => formatValueJava((value as unknown[])[i], f.type)).join(', ')}]`;
    case 'NULL':
      return 'null';
    case 'VARIANT':
      return value as string;
    default:
      return assertNever(type, 'logical type');
  }
}

/**
 * A row as the `print` connector and Flink's `Row.toString()` show it: `+I[1, a]`, `-U[2, null]`.
 * `types` are the field types by position.
 */
export function rowToString(row: Row, types: readonly LogicalType[]): string {
  const parts: string[] = new Array<string>(row.fields.length);
  for (let i = 0; i < row.fields.length; i++) {
    const t = types[i];
    const v = row.fields[i];
    parts[i] = t === undefined ? String(v ?? 'null') : formatValueJava(v, t);
  }
  return `${rowKindShortString(row.kind)}[${parts.join(', ')}]`;
}

/** Java's BigDecimal.toString: plain unless the adjusted exponent is below -6 (then `1E-7` style). */
function bigDecimalToString(d: Decimal): string {
  const adjusted = d.precision() - 1 - d.scale;
  if (d.scale === 0 || adjusted >= -6) return d.toString();
  const digits = (d.unscaled < 0n ? -d.unscaled : d.unscaled).toString();
  const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${d.unscaled < 0n ? '-' : ''}${mantissa}E${adjusted}`;
}

/** java.time.LocalTime.toString: `HH:mm`, `HH:mm:ss`, `HH:mm:ss.SSS`, `.SSSSSS`, `.SSSSSSSSS`. */
function javaLocalTime(msOfDay: number, nanoOfMilli = 0): string {
  const full = formatTime(msOfDay, 3) + String(nanoOfMilli).padStart(6, '0');
  const fraction = javaFraction(full.slice(9));
  if (fraction === '' && full.slice(6, 8) === '00') return full.slice(0, 5);
  return full.slice(0, 8) + fraction;
}

/** A fraction of a second (9 digits) as java.time prints it: none, or 3, 6 or 9 digits, the fewest that are exact. */
function javaFraction(nineDigits: string): string {
  if (/^0*$/.test(nineDigits)) return '';
  if (nineDigits.endsWith('000000')) return `.${nineDigits.slice(0, 3)}`;
  if (nineDigits.endsWith('000')) return `.${nineDigits.slice(0, 6)}`;
  return `.${nineDigits}`;
}

/**
 * java.time.Period.toString of a month count as Flink's PeriodIntervalConverter builds the Period for the type's
 * resolution: `P1Y2M` (YEAR TO MONTH), `P14M` (MONTH: Period.ofMonths, as a real Flink 2.3 prints INTERVAL MONTH
 * values), `P1Y` (YEAR: Period.ofYears of the whole years), `P0D`.
 */
function javaPeriod(months: number, resolution: YearMonthResolution = 'YEAR_TO_MONTH'): string {
  if (months === 0) return 'P0D';
  if (resolution === 'MONTH') return `P${months}M`;
  if (resolution === 'YEAR') return Math.trunc(months / 12) === 0 ? 'P0D' : `P${Math.trunc(months / 12)}Y`;
  const y = Math.trunc(months / 12);
  const m = months % 12;
  return `P${y !== 0 ? `${y}Y` : ''}${m !== 0 ? `${m}M` : ''}`;
}

/** java.time.Duration.toString of milliseconds: `PT1H30M`, `PT0.5S`, `PT-1.5S`, `PT0S`. */
function javaDuration(ms: number): string {
  if (ms === 0) return 'PT0S';
  const neg = ms < 0;
  const a = Math.abs(ms);
  const h = Math.floor(a / 3_600_000);
  const m = Math.floor(a / 60_000) % 60;
  const s = Math.floor(a / 1000) % 60;
  const frac = a % 1000;
  const sign = neg ? '-' : '';
  let out = 'PT';
  if (h !== 0) out += `${sign}${h}H`;
  if (m !== 0) out += `${sign}${m}M`;
  if (s !== 0 || frac !== 0) {
    const fracText = frac === 0 ? '' : `.${String(frac).padStart(3, '0').replace(/0+$/, '')}`;
    out += `${sign}${s}${fracText}S`;
  }
  return out;
}
