import { ValidationError } from '../../errors/sluice-error.js';
import { DataTypes } from '../../types/data-types.js';
import { withNullability } from '../../types/logical-type.js';
import type { DayTimeResolution, LogicalType, YearMonthResolution } from '../../types/logical-type.js';
import type { DataType, IntervalQualifier } from '../../sql/ast/data-types.js';

/** The LogicalType of a type written in SQL (CAST targets, typed literals). */
export function logicalTypeOf(t: DataType): LogicalType {
  return withNullability(baseType(t), !t.notNull);
}

function baseType(t: DataType): LogicalType {
  switch (t.kind) {
    case 'simple':
      return t.name === 'STRING' ? DataTypes.STRING() : t.name === 'BYTES' ? DataTypes.BYTES() : DataTypes[t.name]();
    case 'char':
      return t.name === 'CHAR' ? DataTypes.CHAR(t.length ?? 1) : DataTypes.VARCHAR(t.length ?? 1);
    case 'binary':
      return t.name === 'BINARY' ? DataTypes.BINARY(t.length ?? 1) : DataTypes.VARBINARY(t.length ?? 1);
    case 'decimal':
      return DataTypes.DECIMAL(t.precision ?? 10, t.scale ?? 0);
    case 'time':
      return DataTypes.TIME(t.precision ?? 0);
    case 'timestamp':
      return t.withLocalTimeZone ? DataTypes.TIMESTAMP_LTZ(t.precision ?? 6) : DataTypes.TIMESTAMP(t.precision ?? 6);
    case 'interval':
      return intervalType(t.qualifier);
    case 'array':
      return DataTypes.ARRAY(logicalTypeOf(t.element));
    case 'multiset':
      return DataTypes.MULTISET(logicalTypeOf(t.element));
    case 'map':
      return DataTypes.MAP(logicalTypeOf(t.key), logicalTypeOf(t.value));
    case 'row':
      return DataTypes.ROW(...t.fields.map((f) => DataTypes.FIELD(f.name, logicalTypeOf(f.type))));
    case 'raw':
    case 'user-defined':
      throw new ValidationError(`Unsupported data type in this position: ${t.kind}`);
    default: {
      const never: never = t;
      return never;
    }
  }
}

/** The interval type of a qualifier: YEAR/MONTH ranges are months, everything else milliseconds. */
export function intervalType(q: IntervalQualifier): LogicalType {
  const key = q.end === null ? q.start : `${q.start}_TO_${q.end}`;
  if (key === 'YEAR' || key === 'MONTH' || key === 'YEAR_TO_MONTH') {
    return { kind: 'INTERVAL_YEAR_MONTH', resolution: key as YearMonthResolution, yearPrecision: q.startPrecision ?? 2, nullable: true };
  }
  return {
    kind: 'INTERVAL_DAY_TIME',
    resolution: key as DayTimeResolution,
    dayPrecision: q.startPrecision ?? 2,
    fractionalPrecision: q.fractionalPrecision ?? (q.start === 'SECOND' || q.end === 'SECOND' ? 6 : 0),
    nullable: true,
  };
}

const UNIT_MS: Readonly<Record<string, number>> = { DAY: 86_400_000, HOUR: 3_600_000, MINUTE: 60_000, SECOND: 1000 };

/**
 * The value of `INTERVAL 'text' qualifier`: months for YEAR/MONTH, else milliseconds.
 * @throws ValidationError when the text does not match the qualifier.
 */
export function intervalValue(text: string, q: IntervalQualifier, negative: boolean): number {
  const sign = negative ? -1 : 1;
  const s = text.trim();
  const neg = s.startsWith('-') ? -1 : 1;
  const body = s.replace(/^[+-]/, '');
  const bad = (): never => {
    throw new ValidationError(`Illegal interval literal format '${text}' for INTERVAL ${q.start}${q.end === null ? '' : ` TO ${q.end}`}`);
  };
  if (q.start === 'YEAR' || q.start === 'MONTH') {
    if (q.end === 'MONTH') {
      const m = /^(\d+)-(\d+)$/.exec(body) ?? bad();
      return sign * neg * (Number(m[1]) * 12 + Number(m[2]));
    }
    if (!/^\d+$/.test(body)) bad();
    return sign * neg * Number(body) * (q.start === 'YEAR' ? 12 : 1);
  }
  if (q.end === null) {
    if (!/^\d+(\.\d+)?$/.test(body)) bad();
    const unit = UNIT_MS[q.start] ?? (q.start === 'MILLISECOND' ? 1 : undefined) ?? bad();
    return sign * neg * Math.round(Number(body) * unit);
  }
  // Multi-field: 'd hh:mm:ss.fff' and its sub-ranges; parse the numbers in order of the units.
  const units = ['DAY', 'HOUR', 'MINUTE', 'SECOND'];
  const from = units.indexOf(q.start);
  const to = units.indexOf(q.end);
  if (from < 0 || to < from) bad();
  const parts = body.split(/[ :]/);
  if (parts.length !== to - from + 1) bad();
  let ms = 0;
  parts.forEach((p, i) => {
    if (!/^\d+(\.\d+)?$/.test(p)) bad();
    ms += Number(p) * UNIT_MS[units[from + i]!]!;
  });
  return sign * neg * Math.round(ms);
}
