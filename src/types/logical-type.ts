/**
 * Sluice's logical types, named and shaped as Flink's `LogicalType` hierarchy.
 *
 * A type is an immutable plain object discriminated on `kind`. STRING is VARCHAR(2147483647) and BYTES is
 * VARBINARY(2147483647), exactly as in Flink, so `typesEqual(STRING, VARCHAR(MAX_LENGTH))` holds.
 * Build types with `DataTypes` (data-types.ts), print them with `typeToString`, parse them with
 * `parseLogicalType`.
 */

/** Kinds that carry nothing but nullability. */
export type SimpleTypeKind = 'BOOLEAN' | 'TINYINT' | 'SMALLINT' | 'INT' | 'BIGINT' | 'FLOAT' | 'DOUBLE' | 'DATE' | 'VARIANT' | 'NULL';

export type CharacterStringKind = 'CHAR' | 'VARCHAR';
export type BinaryStringKind = 'BINARY' | 'VARBINARY';

export type YearMonthResolution = 'YEAR' | 'YEAR_TO_MONTH' | 'MONTH';

export type DayTimeResolution =
  | 'DAY'
  | 'DAY_TO_HOUR'
  | 'DAY_TO_MINUTE'
  | 'DAY_TO_SECOND'
  | 'HOUR'
  | 'HOUR_TO_MINUTE'
  | 'HOUR_TO_SECOND'
  | 'MINUTE'
  | 'MINUTE_TO_SECOND'
  | 'SECOND';

/** Marks a TIMESTAMP / TIMESTAMP_LTZ column as event time (ROWTIME) or processing time (PROCTIME). */
export type TimeAttribute = 'ROWTIME' | 'PROCTIME';

export type LogicalType =
  | { readonly kind: SimpleTypeKind; readonly nullable: boolean }
  | { readonly kind: 'DECIMAL'; readonly precision: number; readonly scale: number; readonly nullable: boolean }
  | { readonly kind: CharacterStringKind | BinaryStringKind; readonly length: number; readonly nullable: boolean }
  | { readonly kind: 'TIME'; readonly precision: number; readonly nullable: boolean }
  | {
      readonly kind: 'TIMESTAMP' | 'TIMESTAMP_LTZ';
      readonly precision: number;
      readonly nullable: boolean;
      readonly timeAttribute?: TimeAttribute;
    }
  | {
      readonly kind: 'INTERVAL_YEAR_MONTH';
      readonly resolution: YearMonthResolution;
      readonly yearPrecision: number;
      readonly nullable: boolean;
    }
  | {
      readonly kind: 'INTERVAL_DAY_TIME';
      readonly resolution: DayTimeResolution;
      readonly dayPrecision: number;
      readonly fractionalPrecision: number;
      readonly nullable: boolean;
    }
  | { readonly kind: 'ARRAY' | 'MULTISET'; readonly element: LogicalType; readonly nullable: boolean }
  | { readonly kind: 'MAP'; readonly key: LogicalType; readonly value: LogicalType; readonly nullable: boolean }
  | { readonly kind: 'ROW'; readonly fields: readonly RowField[]; readonly nullable: boolean };

/** One field of a ROW type. */
export interface RowField {
  readonly name: string;
  readonly type: LogicalType;
  readonly description?: string;
}

export type LogicalTypeKind = LogicalType['kind'];

/** Narrow a `LogicalType` to the member with the given kind. */
export type LogicalTypeOf<K extends LogicalTypeKind> = NarrowKind<LogicalType, K>;

// Distributes over the union; members whose kind is itself a union (CHAR | VARCHAR | ...) are narrowed to K.
type NarrowKind<T, K> = T extends { readonly kind: infer TK }
  ? [K & TK] extends [never]
    ? never
    : T & { readonly kind: K & TK }
  : never;

export type DecimalType = LogicalTypeOf<'DECIMAL'>;
export type TimestampType = LogicalTypeOf<'TIMESTAMP'>;
export type RowType = LogicalTypeOf<'ROW'>;
export type ArrayType = LogicalTypeOf<'ARRAY'>;
export type MapType = LogicalTypeOf<'MAP'>;

/** Length of STRING / BYTES: Java's Integer.MAX_VALUE, as Flink. */
export const MAX_LENGTH = 2147483647;
export const DECIMAL_MAX_PRECISION = 38;
export const DECIMAL_DEFAULT_PRECISION = 10;
export const DECIMAL_DEFAULT_SCALE = 0;
export const TIMESTAMP_DEFAULT_PRECISION = 6;
export const TIMESTAMP_MAX_PRECISION = 9;
export const TIME_DEFAULT_PRECISION = 0;
export const CHAR_DEFAULT_LENGTH = 1;
export const INTERVAL_DEFAULT_YEAR_PRECISION = 2;
export const INTERVAL_DEFAULT_DAY_PRECISION = 2;
export const INTERVAL_DEFAULT_FRACTIONAL_PRECISION = 6;

/** Report an unhandled union member at compile time (exhaustive switches) and at run time. */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`Unexpected ${what}: ${JSON.stringify(value)}`);
}

/**
 * The same type with the given nullability. Returns `t` itself when nothing changes. The NULL type stays
 * nullable, as Flink's NullType cannot be NOT NULL.
 */
export function withNullability<T extends LogicalType>(t: T, nullable: boolean): T {
  if (t.nullable === nullable || t.kind === 'NULL') return t;
  return { ...t, nullable };
}

/** Shorthand for `withNullability(t, false)`, Flink's `.notNull()`. */
export function notNull<T extends LogicalType>(t: T): T {
  return withNullability(t, false);
}

/** Shorthand for `withNullability(t, true)`, Flink's `.nullable()`. */
export function nullable<T extends LogicalType>(t: T): T {
  return withNullability(t, true);
}

/** The type without its time attribute mark (Flink's behaviour when a time attribute is materialized). */
export function withoutTimeAttribute<T extends LogicalType>(t: T): T {
  if ((t.kind === 'TIMESTAMP' || t.kind === 'TIMESTAMP_LTZ') && t.timeAttribute !== undefined) {
    const { timeAttribute: _dropped, ...rest } = t;
    return rest as T;
  }
  return t;
}

/**
 * Structural equality including nullability, time attributes and ROW field names and descriptions
 * (Flink's `LogicalType.equals`). Use `typesEqualIgnoringNullability` to compare shapes only.
 */
export function typesEqual(a: LogicalType, b: LogicalType): boolean {
  return equalTypes(a, b, true);
}

/** As `typesEqual` but ignores nullability at every level, and time attributes. */
export function typesEqualIgnoringNullability(a: LogicalType, b: LogicalType): boolean {
  return equalTypes(a, b, false);
}

function equalTypes(a: LogicalType, b: LogicalType, strict: boolean): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind) return false;
  if (strict && a.nullable !== b.nullable) return false;
  switch (a.kind) {
    case 'BOOLEAN':
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT':
    case 'BIGINT':
    case 'FLOAT':
    case 'DOUBLE':
    case 'DATE':
    case 'VARIANT':
    case 'NULL':
      return true;
    case 'DECIMAL': {
      const o = b as DecimalType;
      return a.precision === o.precision && a.scale === o.scale;
    }
    case 'CHAR':
    case 'VARCHAR':
    case 'BINARY':
    case 'VARBINARY':
      return a.length === (b as typeof a).length;
    case 'TIME':
      return a.precision === (b as typeof a).precision;
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ': {
      const o = b as typeof a;
      return a.precision === o.precision && (!strict || a.timeAttribute === o.timeAttribute);
    }
    case 'INTERVAL_YEAR_MONTH': {
      const o = b as typeof a;
      return a.resolution === o.resolution && a.yearPrecision === o.yearPrecision;
    }
    case 'INTERVAL_DAY_TIME': {
      const o = b as typeof a;
      return (
        a.resolution === o.resolution &&
        a.dayPrecision === o.dayPrecision &&
        a.fractionalPrecision === o.fractionalPrecision
      );
    }
    case 'ARRAY':
    case 'MULTISET':
      return equalTypes(a.element, (b as typeof a).element, strict);
    case 'MAP': {
      const o = b as typeof a;
      return equalTypes(a.key, o.key, strict) && equalTypes(a.value, o.value, strict);
    }
    case 'ROW': {
      const o = b as typeof a;
      if (a.fields.length !== o.fields.length) return false;
      return a.fields.every((f, i) => {
        const g = o.fields[i]!;
        return f.name === g.name && (!strict || f.description === g.description) && equalTypes(f.type, g.type, strict);
      });
    }
    default:
      return assertNever(a, 'logical type');
  }
}

// ---- families (Flink's LogicalTypeFamily) ----

const INTEGER_KINDS: ReadonlySet<LogicalTypeKind> = new Set(['TINYINT', 'SMALLINT', 'INT', 'BIGINT']);
const APPROXIMATE_KINDS: ReadonlySet<LogicalTypeKind> = new Set(['FLOAT', 'DOUBLE']);

/** TINYINT, SMALLINT, INT, BIGINT. */
export function isIntegerType(t: LogicalType): boolean {
  return INTEGER_KINDS.has(t.kind);
}

/** Integers and DECIMAL (Flink's EXACT_NUMERIC family). */
export function isExactNumeric(t: LogicalType): boolean {
  return INTEGER_KINDS.has(t.kind) || t.kind === 'DECIMAL';
}

/** FLOAT and DOUBLE. */
export function isApproximateNumeric(t: LogicalType): boolean {
  return APPROXIMATE_KINDS.has(t.kind);
}

/** Every numeric kind: integers, DECIMAL, FLOAT, DOUBLE. */
export function isNumeric(t: LogicalType): boolean {
  return isExactNumeric(t) || isApproximateNumeric(t);
}

/** CHAR, VARCHAR (and so STRING). */
export function isCharacterString(t: LogicalType): t is LogicalTypeOf<CharacterStringKind> {
  return t.kind === 'CHAR' || t.kind === 'VARCHAR';
}

/** BINARY, VARBINARY (and so BYTES). */
export function isBinaryString(t: LogicalType): t is LogicalTypeOf<BinaryStringKind> {
  return t.kind === 'BINARY' || t.kind === 'VARBINARY';
}

/** DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ (Flink's DATETIME family). */
export function isDatetime(t: LogicalType): boolean {
  return t.kind === 'DATE' || t.kind === 'TIME' || t.kind === 'TIMESTAMP' || t.kind === 'TIMESTAMP_LTZ';
}

/** TIMESTAMP and TIMESTAMP_LTZ. */
export function isTimestamp(t: LogicalType): t is LogicalTypeOf<'TIMESTAMP' | 'TIMESTAMP_LTZ'> {
  return t.kind === 'TIMESTAMP' || t.kind === 'TIMESTAMP_LTZ';
}

export function isInterval(t: LogicalType): boolean {
  return t.kind === 'INTERVAL_YEAR_MONTH' || t.kind === 'INTERVAL_DAY_TIME';
}

/** ARRAY, MULTISET, MAP, ROW. */
export function isConstructed(t: LogicalType): boolean {
  return t.kind === 'ARRAY' || t.kind === 'MULTISET' || t.kind === 'MAP' || t.kind === 'ROW';
}

/** True for a TIMESTAMP / TIMESTAMP_LTZ marked as ROWTIME or PROCTIME. */
export function isTimeAttribute(t: LogicalType): boolean {
  return isTimestamp(t) && t.timeAttribute !== undefined;
}

export function isRowtimeAttribute(t: LogicalType): boolean {
  return isTimestamp(t) && t.timeAttribute === 'ROWTIME';
}

export function isProctimeAttribute(t: LogicalType): boolean {
  return isTimestamp(t) && t.timeAttribute === 'PROCTIME';
}

/** Precision of types that have one (DECIMAL, TIME, TIMESTAMP*, integer digits of integers), else undefined. */
export function getPrecision(t: LogicalType): number | undefined {
  switch (t.kind) {
    case 'TINYINT':
      return 3;
    case 'SMALLINT':
      return 5;
    case 'INT':
      return 10;
    case 'BIGINT':
      return 19;
    case 'DECIMAL':
    case 'TIME':
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ':
      return t.precision;
    default:
      return undefined;
  }
}

/** Field names of a ROW type. */
export function fieldNames(t: RowType): string[] {
  return t.fields.map((f) => f.name);
}

/** Field types of a ROW type. */
export function fieldTypes(t: RowType): LogicalType[] {
  return t.fields.map((f) => f.type);
}
