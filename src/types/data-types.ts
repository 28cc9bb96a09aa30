import { ValidationError } from '../errors/sluice-error.js';
import {
  CHAR_DEFAULT_LENGTH,
  DECIMAL_DEFAULT_PRECISION,
  DECIMAL_DEFAULT_SCALE,
  DECIMAL_MAX_PRECISION,
  INTERVAL_DEFAULT_DAY_PRECISION,
  INTERVAL_DEFAULT_FRACTIONAL_PRECISION,
  INTERVAL_DEFAULT_YEAR_PRECISION,
  MAX_LENGTH,
  TIME_DEFAULT_PRECISION,
  TIMESTAMP_DEFAULT_PRECISION,
  TIMESTAMP_MAX_PRECISION,
} from './logical-type.js';
import type {
  DayTimeResolution,
  LogicalType,
  LogicalTypeOf,
  RowField,
  RowType,
  SimpleTypeKind,
  TimeAttribute,
  YearMonthResolution,
} from './logical-type.js';

function checkRange(what: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ValidationError(`${what} must be between ${min} and ${max} (both inclusive), but was ${value}.`);
  }
}

function simple<K extends SimpleTypeKind>(kind: K, nullable = true): { readonly kind: K; readonly nullable: boolean } {
  return { kind, nullable };
}

/** A field for `DataTypes.ROW`. */
export function FIELD(name: string, type: LogicalType, description?: string): RowField {
  return description === undefined ? { name, type } : { name, type, description };
}

/**
 * Constructors for logical types, named as Flink's `DataTypes`. Every type is nullable; use
 * `notNull(t)` / `withNullability(t, false)` for NOT NULL. Arguments are range-checked as Flink does and
 * bad ones throw `ValidationError`.
 *
 * @example
 * const t = DataTypes.ROW(FIELD('id', notNull(DataTypes.BIGINT())), FIELD('price', DataTypes.DECIMAL(10, 2)));
 */
export const DataTypes = {
  BOOLEAN: () => simple('BOOLEAN'),
  TINYINT: () => simple('TINYINT'),
  SMALLINT: () => simple('SMALLINT'),
  INT: () => simple('INT'),
  BIGINT: () => simple('BIGINT'),
  FLOAT: () => simple('FLOAT'),
  DOUBLE: () => simple('DOUBLE'),
  DATE: () => simple('DATE'),
  /** Flink 2.1+'s semi-structured VARIANT (PARSE_JSON); values are their canonical JSON text (json-variant.ts). */
  VARIANT: () => simple('VARIANT'),
  /** The type of an untyped NULL literal; always nullable. */
  NULL: () => simple('NULL'),

  DECIMAL(precision = DECIMAL_DEFAULT_PRECISION, scale = DECIMAL_DEFAULT_SCALE): LogicalTypeOf<'DECIMAL'> {
    checkRange('Decimal precision', precision, 1, DECIMAL_MAX_PRECISION);
    checkRange('Decimal scale', scale, 0, precision);
    return { kind: 'DECIMAL', precision, scale, nullable: true };
  },

  CHAR(length = CHAR_DEFAULT_LENGTH): LogicalTypeOf<'CHAR'> {
    checkRange('Character string length', length, 1, MAX_LENGTH);
    return { kind: 'CHAR', length, nullable: true };
  },
  VARCHAR(length = 1): LogicalTypeOf<'VARCHAR'> {
    checkRange('Variable character string length', length, 1, MAX_LENGTH);
    return { kind: 'VARCHAR', length, nullable: true };
  },
  /** VARCHAR(2147483647). */
  STRING(): LogicalTypeOf<'VARCHAR'> {
    return { kind: 'VARCHAR', length: MAX_LENGTH, nullable: true };
  },
  BINARY(length = 1): LogicalTypeOf<'BINARY'> {
    checkRange('Binary string length', length, 1, MAX_LENGTH);
    return { kind: 'BINARY', length, nullable: true };
  },
  VARBINARY(length = 1): LogicalTypeOf<'VARBINARY'> {
    checkRange('Variable binary string length', length, 1, MAX_LENGTH);
    return { kind: 'VARBINARY', length, nullable: true };
  },
  /** VARBINARY(2147483647). */
  BYTES(): LogicalTypeOf<'VARBINARY'> {
    return { kind: 'VARBINARY', length: MAX_LENGTH, nullable: true };
  },

  TIME(precision = TIME_DEFAULT_PRECISION): LogicalTypeOf<'TIME'> {
    checkRange('Time precision', precision, 0, TIMESTAMP_MAX_PRECISION);
    return { kind: 'TIME', precision, nullable: true };
  },
  TIMESTAMP(precision = TIMESTAMP_DEFAULT_PRECISION, timeAttribute?: TimeAttribute): LogicalTypeOf<'TIMESTAMP'> {
    checkRange('Timestamp precision', precision, 0, TIMESTAMP_MAX_PRECISION);
    return timeAttribute === undefined
      ? { kind: 'TIMESTAMP', precision, nullable: true }
      : { kind: 'TIMESTAMP', precision, nullable: true, timeAttribute };
  },
  /** TIMESTAMP(p) WITH LOCAL TIME ZONE. */
  TIMESTAMP_LTZ(precision = TIMESTAMP_DEFAULT_PRECISION, timeAttribute?: TimeAttribute): LogicalTypeOf<'TIMESTAMP_LTZ'> {
    checkRange('Timestamp with local time zone precision', precision, 0, TIMESTAMP_MAX_PRECISION);
    return timeAttribute === undefined
      ? { kind: 'TIMESTAMP_LTZ', precision, nullable: true }
      : { kind: 'TIMESTAMP_LTZ', precision, nullable: true, timeAttribute };
  },

  INTERVAL_YEAR_MONTH(
    resolution: YearMonthResolution = 'YEAR_TO_MONTH',
    yearPrecision = INTERVAL_DEFAULT_YEAR_PRECISION,
  ): LogicalTypeOf<'INTERVAL_YEAR_MONTH'> {
    checkRange('Year precision of interval', yearPrecision, 1, 4);
    return { kind: 'INTERVAL_YEAR_MONTH', resolution, yearPrecision, nullable: true };
  },
  INTERVAL_DAY_TIME(
    resolution: DayTimeResolution = 'DAY_TO_SECOND',
    dayPrecision = INTERVAL_DEFAULT_DAY_PRECISION,
    fractionalPrecision = INTERVAL_DEFAULT_FRACTIONAL_PRECISION,
  ): LogicalTypeOf<'INTERVAL_DAY_TIME'> {
    checkRange('Day precision of interval', dayPrecision, 1, 6);
    checkRange('Fractional precision of interval', fractionalPrecision, 0, 9);
    return { kind: 'INTERVAL_DAY_TIME', resolution, dayPrecision, fractionalPrecision, nullable: true };
  },

  ARRAY(element: LogicalType): LogicalTypeOf<'ARRAY'> {
    return { kind: 'ARRAY', element, nullable: true };
  },
  MULTISET(element: LogicalType): LogicalTypeOf<'MULTISET'> {
    return { kind: 'MULTISET', element, nullable: true };
  },
  MAP(key: LogicalType, value: LogicalType): LogicalTypeOf<'MAP'> {
    return { kind: 'MAP', key, value, nullable: true };
  },
  /** A ROW of the given fields; names must be unique and non-empty, as Flink requires. */
  ROW(...fields: RowField[]): RowType {
    const seen = new Set<string>();
    for (const f of fields) {
      if (f.name.trim() === '') throw new ValidationError('Field names of a ROW type must not be empty.');
      if (seen.has(f.name)) throw new ValidationError(`Field names of a ROW type must be unique, but '${f.name}' repeats.`);
      seen.add(f.name);
    }
    return { kind: 'ROW', fields, nullable: true };
  },
  FIELD,
} as const;
