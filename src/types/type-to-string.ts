import { assertNever, MAX_LENGTH } from './logical-type.js';
import type { LogicalType, LogicalTypeOf } from './logical-type.js';

/**
 * Print a type exactly as Flink's `LogicalType.asSummaryString()`: `BIGINT NOT NULL`, `STRING`,
 * `DECIMAL(10, 2)`, `TIMESTAMP(3) *ROWTIME*`, `ROW<\`a\` INT, \`b\` STRING>`, `INTERVAL DAY(2) TO SECOND(3)`.
 * The output parses back with `parseLogicalType` to an equal type.
 */
export function typeToString(t: LogicalType): string {
  const base = baseString(t, 'summary');
  const withNull = t.nullable || t.kind === 'NULL' ? base : `${base} NOT NULL`;
  if ((t.kind === 'TIMESTAMP' || t.kind === 'TIMESTAMP_LTZ') && t.timeAttribute !== undefined) {
    return `${withNull} *${t.timeAttribute}*`;
  }
  return withNull;
}

/**
 * Print a type as Flink's `LogicalType.asSerializableString()`, the form SHOW CREATE TABLE writes: no short names
 * (`VARCHAR(2147483647)` for STRING, `VARBINARY(2147483647)` for BYTES, `TIMESTAMP(3) WITH LOCAL TIME ZONE` for
 * TIMESTAMP_LTZ(3)), nested types alike, and no time attribute marker (it is not part of the type's SQL).
 */
export function typeToSerializableString(t: LogicalType): string {
  const base = baseString(t, 'serializable');
  return t.nullable || t.kind === 'NULL' ? base : `${base} NOT NULL`;
}

/** Flink's two spellings of a type: `asSummaryString` (short names, markers) and `asSerializableString`. */
type Spelling = 'summary' | 'serializable';

/** Quote an identifier with backticks, doubling inner backticks (Flink's `EncodingUtils.escapeIdentifier`). */
export function quoteIdentifier(name: string): string {
  return '`' + name.replaceAll('`', '``') + '`';
}

/** Quote a string literal with single quotes, doubling inner quotes. */
export function quoteString(text: string): string {
  return "'" + text.replaceAll("'", "''") + "'";
}

function baseString(t: LogicalType, spelling: Spelling): string {
  const nested = spelling === 'summary' ? typeToString : typeToSerializableString;
  switch (t.kind) {
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
      return t.kind;
    case 'DECIMAL':
      return `DECIMAL(${t.precision}, ${t.scale})`;
    case 'CHAR':
    case 'BINARY':
      return `${t.kind}(${t.length})`;
    case 'VARCHAR':
      return t.length === MAX_LENGTH && spelling === 'summary' ? 'STRING' : `VARCHAR(${t.length})`;
    case 'VARBINARY':
      return t.length === MAX_LENGTH && spelling === 'summary' ? 'BYTES' : `VARBINARY(${t.length})`;
    case 'TIME':
    case 'TIMESTAMP':
      return `${t.kind}(${t.precision})`;
    case 'TIMESTAMP_LTZ':
      return spelling === 'summary' ? `TIMESTAMP_LTZ(${t.precision})` : `TIMESTAMP(${t.precision}) WITH LOCAL TIME ZONE`;
    case 'INTERVAL_YEAR_MONTH':
      return yearMonthString(t);
    case 'INTERVAL_DAY_TIME':
      return dayTimeString(t);
    case 'ARRAY':
    case 'MULTISET':
      return `${t.kind}<${nested(t.element)}>`;
    case 'MAP':
      return `MAP<${nested(t.key)}, ${nested(t.value)}>`;
    case 'ROW':
      return `ROW<${t.fields
        .map((f) => {
          const head = `${quoteIdentifier(f.name)} ${nested(f.type)}`;
          return f.description === undefined ? head : `${head} ${quoteString(f.description)}`;
        })
        .join(', ')}>`;
    default:
      return assertNever(t, 'logical type');
  }
}

function yearMonthString(t: LogicalTypeOf<'INTERVAL_YEAR_MONTH'>): string {
  switch (t.resolution) {
    case 'YEAR':
      return `INTERVAL YEAR(${t.yearPrecision})`;
    case 'YEAR_TO_MONTH':
      return `INTERVAL YEAR(${t.yearPrecision}) TO MONTH`;
    case 'MONTH':
      return 'INTERVAL MONTH';
    default:
      return assertNever(t.resolution, 'interval resolution');
  }
}

function dayTimeString(t: LogicalTypeOf<'INTERVAL_DAY_TIME'>): string {
  const d = t.dayPrecision;
  const f = t.fractionalPrecision;
  switch (t.resolution) {
    case 'DAY':
      return `INTERVAL DAY(${d})`;
    case 'DAY_TO_HOUR':
      return `INTERVAL DAY(${d}) TO HOUR`;
    case 'DAY_TO_MINUTE':
      return `INTERVAL DAY(${d}) TO MINUTE`;
    case 'DAY_TO_SECOND':
      return `INTERVAL DAY(${d}) TO SECOND(${f})`;
    case 'HOUR':
      return 'INTERVAL HOUR';
    case 'HOUR_TO_MINUTE':
      return 'INTERVAL HOUR TO MINUTE';
    case 'HOUR_TO_SECOND':
      return `INTERVAL HOUR TO SECOND(${f})`;
    case 'MINUTE':
      return 'INTERVAL MINUTE';
    case 'MINUTE_TO_SECOND':
      return `INTERVAL MINUTE TO SECOND(${f})`;
    case 'SECOND':
      return `INTERVAL SECOND(${f})`;
    default:
      return assertNever(t.resolution, 'interval resolution');
  }
}
