import { assertNever, isCharacterString } from '../../types/logical-type.js';
import type { LogicalType, RowType } from '../../types/logical-type.js';
import { typeToString } from '../../types/type-to-string.js';
import { ValidationError } from '../../errors/sluice-error.js';

/** An Avro schema as JSON (what Avro's `Schema.toString()` prints). */
export type AvroSchema = string | { readonly [key: string]: unknown } | readonly AvroSchema[];

/**
 * The Avro schema Flink's AvroSchemaConverter derives for a row type (legacy timestamp mapping, the
 * default): nullable types become `["null", T]`, DECIMAL is `bytes` with the decimal logical type,
 * TIMESTAMP(p<=3) and TIMESTAMP_LTZ timestamp-millis, TIMESTAMP(p>3) timestamp-micros, DATE `date`,
 * TIME `time-millis`, nested rows are records named after their path. The top-level record is not nullable.
 * @throws ValidationError for types Flink's Avro format cannot carry (intervals, non-string map keys).
 */
export function avroSchemaOf(rowType: RowType, name = 'record'): AvroSchema {
  return recordSchema(rowType, name);
}

function recordSchema(t: RowType, name: string): AvroSchema {
  return {
    type: 'record',
    name,
    fields: t.fields.map((f) => ({ name: f.name, type: fieldSchema(f.type, `${name}_${f.name}`), ...(f.type.nullable ? { default: null } : {}) })),
  };
}

function fieldSchema(t: LogicalType, path: string): AvroSchema {
  const s = baseSchema(t, path);
  return t.nullable && t.kind !== 'NULL' ? ['null', s] : s;
}

function baseSchema(t: LogicalType, path: string): AvroSchema {
  switch (t.kind) {
    case 'NULL':
      return 'null';
    case 'BOOLEAN':
      return 'boolean';
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT':
      return 'int';
    case 'BIGINT':
      return 'long';
    case 'FLOAT':
      return 'float';
    case 'DOUBLE':
      return 'double';
    case 'CHAR':
    case 'VARCHAR':
      return 'string';
    case 'BINARY':
    case 'VARBINARY':
      return 'bytes';
    case 'DECIMAL':
      return { type: 'bytes', logicalType: 'decimal', precision: t.precision, scale: t.scale };
    case 'DATE':
      return { type: 'int', logicalType: 'date' };
    case 'TIME':
      return { type: 'int', logicalType: 'time-millis' };
    case 'TIMESTAMP':
      return { type: 'long', logicalType: t.precision <= 3 ? 'timestamp-millis' : 'timestamp-micros' };
    case 'TIMESTAMP_LTZ':
      return { type: 'long', logicalType: t.precision <= 3 ? 'timestamp-millis' : 'timestamp-micros' };
    case 'ARRAY':
      return { type: 'array', items: fieldSchema(t.element, path) };
    case 'MULTISET':
      requireStringKey(t, t.element);
      return { type: 'map', values: 'int' };
    case 'MAP':
      requireStringKey(t, t.key);
      return { type: 'map', values: fieldSchema(t.value, path) };
    case 'ROW':
      return recordSchema(t, path);
    case 'INTERVAL_YEAR_MONTH':
    case 'INTERVAL_DAY_TIME':
    case 'VARIANT':
      throw new ValidationError(`Unsupported to derive Schema for type: ${typeToString(t)}`);
    default:
      return assertNever(t, 'logical type');
  }
}

function requireStringKey(t: LogicalType, key: LogicalType): void {
  if (!isCharacterString(key)) {
    throw new ValidationError(`Avro format doesn't support non-string as key type of map. The type is: ${typeToString(t)}`);
  }
}
