import { assertNever, isCharacterString } from '../../types/logical-type.js';
import type { LogicalType, RowType } from '../../types/logical-type.js';
import { typeToString } from '../../types/type-to-string.js';
import { ValidationError } from '../../errors/sluice-error.js';

/** An Avro schema as JSON (what Avro's `Schema.toString()` prints). */
export type AvroSchema = string | { readonly [key: string]: unknown } | readonly AvroSchema[];

/**
 * How TIMESTAMP and TIMESTAMP_LTZ columns map to Avro logical types:
 * - `legacy`: Flink's default (`'avro.timestamp_mapping.legacy' = 'true'`, and always in avro-confluent):
 *   TIMESTAMP(0..3) is `timestamp-millis`; a finer TIMESTAMP and every TIMESTAMP_LTZ are refused, as Flink's
 *   AvroSchemaConverter refuses them.
 * - `local`: Flink's mapping since 1.19 (`'avro.timestamp_mapping.legacy' = 'false'`): TIMESTAMP is
 *   `local-timestamp-millis` / `-micros`, TIMESTAMP_LTZ `timestamp-millis` / `-micros`, up to 6 digits.
 * - `micros`: the Pravega registry's (docs/pravega-catalog.md): both as `timestamp-millis` for 0..3 digits and
 *   `timestamp-micros` above, so a registered precision reads back.
 * The bytes are the same in all three (a long of milliseconds, or of microseconds above 3 digits).
 */
export type AvroTimestampMapping = 'legacy' | 'local' | 'micros';

/**
 * The Avro schema Flink's AvroSchemaConverter derives for a row type: nullable types become `["null", T]`,
 * DECIMAL is `bytes` with the decimal logical type, timestamps as `mapping` says, DATE `date`, TIME
 * `time-millis`, nested rows are records named after their path. The top-level record is not nullable.
 * @throws ValidationError for types Flink's Avro format cannot carry (intervals, non-string map keys,
 *   timestamps the mapping refuses), naming the column.
 */
export function avroSchemaOf(rowType: RowType, name = 'record', mapping: AvroTimestampMapping = 'legacy'): AvroSchema {
  return recordSchema(rowType, name, mapping, '');
}

/** `column` is the dotted path of the field being mapped, for errors ('' at the top). */
function recordSchema(t: RowType, name: string, mapping: AvroTimestampMapping, column: string): AvroSchema {
  return {
    type: 'record',
    name,
    fields: t.fields.map((f) => ({
      name: f.name,
      type: fieldSchema(f.type, `${name}_${f.name}`, mapping, column === '' ? f.name : `${column}.${f.name}`),
      ...(f.type.nullable ? { default: null } : {}),
    })),
  };
}

function fieldSchema(t: LogicalType, path: string, mapping: AvroTimestampMapping, column: string): AvroSchema {
  const s = baseSchema(t, path, mapping, column);
  return t.nullable && t.kind !== 'NULL' ? ['null', s] : s;
}

function baseSchema(t: LogicalType, path: string, mapping: AvroTimestampMapping, column: string): AvroSchema {
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
    case 'TIMESTAMP_LTZ':
      return { type: 'long', logicalType: timestampLogicalType(t.kind, t.precision, mapping, column) };
    case 'ARRAY':
      return { type: 'array', items: fieldSchema(t.element, path, mapping, column) };
    case 'MULTISET':
      requireStringKey(t, t.element);
      return { type: 'map', values: 'int' };
    case 'MAP':
      requireStringKey(t, t.key);
      return { type: 'map', values: fieldSchema(t.value, path, mapping, column) };
    case 'ROW':
      return recordSchema(t, path, mapping, column);
    case 'INTERVAL_YEAR_MONTH':
    case 'INTERVAL_DAY_TIME':
    case 'VARIANT':
      throw new ValidationError(`Unsupported to derive Schema for type: ${typeToString(t)}`);
    default:
      return assertNever(t, 'logical type');
  }
}

/** The logical type of a TIMESTAMP(p) or TIMESTAMP_LTZ(p) column under `mapping`; Flink's refusals as errors. */
function timestampLogicalType(kind: 'TIMESTAMP' | 'TIMESTAMP_LTZ', precision: number, mapping: AvroTimestampMapping, column: string): string {
  const unit = precision <= 3 ? 'millis' : 'micros';
  const type = `${kind}(${precision})`;
  switch (mapping) {
    case 'micros':
      return `timestamp-${unit}`;
    case 'legacy':
      if (kind === 'TIMESTAMP_LTZ') {
        throw new ValidationError(
          `Column '${column}' is ${type}, which Avro's legacy timestamp mapping cannot carry (Flink: "Unsupported to derive Schema for type"). ` +
            "With 'format' = 'avro', set 'avro.timestamp_mapping.legacy' = 'false' to write it as timestamp-millis or timestamp-micros.",
        );
      }
      if (precision > 3) {
        throw new ValidationError(
          `Column '${column}' is ${type}: Avro does not support TIMESTAMP type with precision ${precision} in the legacy timestamp mapping, only 0 to 3. ` +
            "With 'format' = 'avro', set 'avro.timestamp_mapping.legacy' = 'false' for up to 6 digits (local-timestamp-micros), or declare TIMESTAMP(3).",
        );
      }
      return 'timestamp-millis';
    case 'local':
      if (precision > 6) {
        throw new ValidationError(`Column '${column}' is ${type}: Avro does not support timestamps with precision ${precision}, only 0 to 6.`);
      }
      return kind === 'TIMESTAMP' ? `local-timestamp-${unit}` : `timestamp-${unit}`;
    default:
      return assertNever(mapping, 'Avro timestamp mapping');
  }
}

function requireStringKey(t: LogicalType, key: LogicalType): void {
  if (!isCharacterString(key)) {
    throw new ValidationError(`Avro format doesn't support non-string as key type of map. The type is: ${typeToString(t)}`);
  }
}
