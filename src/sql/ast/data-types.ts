import type { SourcePosition } from '../position.js';

/** Units of INTERVAL qualifiers, EXTRACT, FLOOR/CEIL ... TO and TIMESTAMPADD/TIMESTAMPDIFF. */
export type TimeUnit =
  | 'MILLENNIUM'
  | 'CENTURY'
  | 'DECADE'
  | 'YEAR'
  | 'QUARTER'
  | 'MONTH'
  | 'WEEK'
  | 'DAY'
  | 'HOUR'
  | 'MINUTE'
  | 'SECOND'
  | 'MILLISECOND'
  | 'MICROSECOND'
  | 'NANOSECOND'
  | 'DOW'
  | 'DOY'
  | 'ISODOW'
  | 'ISOYEAR'
  | 'EPOCH';

/** `DAY(2) TO SECOND(3)`, `MINUTE`, `SECOND(2, 3)`. Plural spellings (MINUTES) are normalised. */
export interface IntervalQualifier {
  readonly start: TimeUnit;
  /** Leading field precision, e.g. the 2 of DAY(2); null when not written. */
  readonly startPrecision: number | null;
  readonly end: TimeUnit | null;
  /** Fractional second precision (SECOND(3) at the end, or SECOND(p, f) alone); null when not written. */
  readonly fractionalPrecision: number | null;
}

interface TypeBase {
  readonly pos: SourcePosition;
  /** True when the type was written with NOT NULL. */
  readonly notNull: boolean;
}

/** Types without parameters. Synonyms are normalised: INTEGER -> INT, REAL -> FLOAT, DOUBLE PRECISION -> DOUBLE. */
export interface SimpleDataType extends TypeBase {
  readonly kind: 'simple';
  readonly name: 'BOOLEAN' | 'TINYINT' | 'SMALLINT' | 'INT' | 'BIGINT' | 'FLOAT' | 'DOUBLE' | 'DATE' | 'VARIANT' | 'STRING' | 'BYTES';
}

/** CHAR(n) / VARCHAR(n); length null when omitted. */
export interface CharDataType extends TypeBase {
  readonly kind: 'char';
  readonly name: 'CHAR' | 'VARCHAR';
  readonly length: number | null;
}

/** BINARY(n) / VARBINARY(n); length null when omitted. */
export interface BinaryDataType extends TypeBase {
  readonly kind: 'binary';
  readonly name: 'BINARY' | 'VARBINARY';
  readonly length: number | null;
}

/** DECIMAL / DEC / NUMERIC (p, s). */
export interface DecimalDataType extends TypeBase {
  readonly kind: 'decimal';
  readonly precision: number | null;
  readonly scale: number | null;
}

/** TIME(p) [WITHOUT TIME ZONE]. */
export interface TimeDataType extends TypeBase {
  readonly kind: 'time';
  readonly precision: number | null;
}

/** TIMESTAMP(p) [WITHOUT TIME ZONE], and TIMESTAMP_LTZ(p) = TIMESTAMP(p) WITH LOCAL TIME ZONE. */
export interface TimestampDataType extends TypeBase {
  readonly kind: 'timestamp';
  readonly precision: number | null;
  readonly withLocalTimeZone: boolean;
}

export interface IntervalDataType extends TypeBase {
  readonly kind: 'interval';
  readonly qualifier: IntervalQualifier;
}

/** ARRAY<T> and the postfix form `T ARRAY`. */
export interface ArrayDataType extends TypeBase {
  readonly kind: 'array';
  readonly element: DataType;
}

/** MULTISET<T> and `T MULTISET`. */
export interface MultisetDataType extends TypeBase {
  readonly kind: 'multiset';
  readonly element: DataType;
}

export interface MapDataType extends TypeBase {
  readonly kind: 'map';
  readonly key: DataType;
  readonly value: DataType;
}

export interface RowField {
  readonly name: string;
  readonly type: DataType;
  readonly description: string | null;
  readonly pos: SourcePosition;
}

/** ROW<a INT, b STRING 'desc'> and ROW(a INT, b STRING). */
export interface RowDataType extends TypeBase {
  readonly kind: 'row';
  readonly fields: readonly RowField[];
}

/** RAW('class', 'serializer snapshot'). */
export interface RawDataType extends TypeBase {
  readonly kind: 'raw';
  readonly className: string;
  readonly serializerSnapshot: string | null;
}

/** A name the parser does not know as a built-in type; the catalog may resolve it. */
export interface UserDefinedDataType extends TypeBase {
  readonly kind: 'user-defined';
  readonly names: readonly string[];
}

/** A data type as written in DDL, CAST and literals. */
export type DataType =
  | SimpleDataType
  | CharDataType
  | BinaryDataType
  | DecimalDataType
  | TimeDataType
  | TimestampDataType
  | IntervalDataType
  | ArrayDataType
  | MultisetDataType
  | MapDataType
  | RowDataType
  | RawDataType
  | UserDefinedDataType;
