import { ValidationError } from '../../errors/sluice-error.js';
import { MAX_LENGTH, assertNever, type LogicalType, type RowField, type RowType } from '../../types/logical-type.js';
import { typeToString } from '../../types/type-to-string.js';
import { avroSchemaOf } from '../avro/avro-schema.js';
import { AvroSchemaParseError, parseAvroSchema, type ParsedAvroSchema } from '../avro-confluent/avro-schema-model.js';
import type { RegistryFormat } from './pravega-registry-options.js';

/**
 * A registered schema cannot be a table: it is not a record/object, holds a type SQL has no equivalent for, or is
 * not valid. `path` is the field it happened at (empty for the whole schema).
 */
export class SchemaMappingError extends ValidationError {
  constructor(
    readonly path: readonly string[],
    detail: string,
  ) {
    super(path.length === 0 ? detail : `field '${path.join('.')}': ${detail}`);
  }
}

/** A schema as the registry holds it: the text, the format and the record's full name (`type`). */
export interface RegistrySchemaText {
  readonly serializationFormat: string;
  readonly schema: string;
  readonly type: string;
}

/** The table row type of a registered Avro or JSON schema; other formats are refused. */
export function rowTypeOfSchema(s: RegistrySchemaText): RowType {
  switch (s.serializationFormat) {
    case 'Avro': {
      let parsed: ParsedAvroSchema;
      try {
        parsed = parseAvroSchema(s.schema);
      } catch (e) {
        if (e instanceof AvroSchemaParseError) throw new SchemaMappingError([], `the Avro schema is not valid: ${e.message}`);
        throw e;
      }
      if (parsed.kind !== 'record') throw new SchemaMappingError([], `the Avro schema is a ${parsed.kind}, not a record.`);
      return avroRecordType(parsed, [], new Set());
    }
    case 'Json': {
      let json: unknown;
      try {
        json = JSON.parse(s.schema);
      } catch (e) {
        throw new SchemaMappingError([], `the JSON Schema is not JSON: ${(e as Error).message}`);
      }
      const t = jsonSchemaType(json, []);
      if (t.kind !== 'ROW') throw new SchemaMappingError([], `the JSON Schema describes ${typeToString(t)}, not an object with properties.`);
      return { ...t, nullable: false };
    }
    default:
      throw new SchemaMappingError([], `the schema is ${s.serializationFormat}; Sluice maps Avro and Json schemas to tables.`);
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// Avro -> SQL (as Flink's AvroSchemaConverter.convertToDataType: a union with null is the nullable type, any other
// type is NOT NULL).

function avroRecordType(r: Extract<ParsedAvroSchema, { kind: 'record' }>, path: readonly string[], open: Set<ParsedAvroSchema>): RowType {
  if (open.has(r)) throw new SchemaMappingError(path, `record '${r.name}' refers to itself; SQL row types cannot be recursive.`);
  open.add(r);
  const fields: RowField[] = r.fields.map((f) => ({ name: f.name, type: avroType(f.type, [...path, f.name], open) }));
  open.delete(r);
  return { kind: 'ROW', fields, nullable: false };
}

function avroType(s: ParsedAvroSchema, path: readonly string[], open: Set<ParsedAvroSchema>): LogicalType {
  switch (s.kind) {
    case 'null':
      return { kind: 'NULL', nullable: true };
    case 'boolean':
      return { kind: 'BOOLEAN', nullable: false };
    case 'int':
      if (s.logicalType === 'date') return { kind: 'DATE', nullable: false };
      if (s.logicalType === 'time-millis') return { kind: 'TIME', precision: 3, nullable: false };
      return { kind: 'INT', nullable: false };
    case 'long':
      if (s.logicalType === 'timestamp-millis' || s.logicalType === 'local-timestamp-millis') return { kind: 'TIMESTAMP', precision: 3, nullable: false };
      if (s.logicalType === 'timestamp-micros' || s.logicalType === 'local-timestamp-micros') return { kind: 'TIMESTAMP', precision: 6, nullable: false };
      if (s.logicalType === 'time-micros') return { kind: 'TIME', precision: 3, nullable: false };
      return { kind: 'BIGINT', nullable: false };
    case 'float':
      return { kind: 'FLOAT', nullable: false };
    case 'double':
      return { kind: 'DOUBLE', nullable: false };
    case 'string':
      return { kind: 'VARCHAR', length: MAX_LENGTH, nullable: false };
    case 'bytes':
      if (s.logicalType === 'decimal') return decimalType(s.precision, s.scale, path);
      return { kind: 'VARBINARY', length: MAX_LENGTH, nullable: false };
    case 'fixed':
      if (s.logicalType === 'decimal') return decimalType(s.precision, s.scale, path);
      return { kind: 'VARBINARY', length: s.size, nullable: false };
    case 'enum':
      return { kind: 'VARCHAR', length: MAX_LENGTH, nullable: false };
    case 'array':
      return { kind: 'ARRAY', element: avroType(s.items, path, open), nullable: false };
    case 'map':
      return { kind: 'MAP', key: { kind: 'VARCHAR', length: MAX_LENGTH, nullable: false }, value: avroType(s.values, path, open), nullable: false };
    case 'record':
      return avroRecordType(s, path, open);
    case 'union': {
      const others = s.branches.filter((b) => b.kind !== 'null');
      if (others.length === 1) {
        const t = avroType(others[0]!, path, open);
        return others.length < s.branches.length ? { ...t, nullable: true } : t;
      }
      if (others.length === 0) return { kind: 'NULL', nullable: true };
      throw new SchemaMappingError(path, `a union of ${others.map((b) => b.kind).join(', ')} has no SQL type; only a union of one type with null does.`);
    }
    default:
      return assertNever(s, 'Avro schema');
  }
}

function decimalType(precision: number | undefined, scale: number | undefined, path: readonly string[]): LogicalType {
  if (precision === undefined || precision < 1 || precision > 38) throw new SchemaMappingError(path, `a decimal needs a precision from 1 to 38, not ${precision}.`);
  return { kind: 'DECIMAL', precision, scale: scale ?? 0, nullable: false };
}

// ---------------------------------------------------------------------------------------------------------------------
// JSON Schema -> SQL. A property is NOT NULL when it is `required` and its type does not admit null. JSON numbers carry
// no width: "integer" reads as BIGINT and "number" as DOUBLE.

function jsonSchemaType(node: unknown, path: readonly string[], required = false): LogicalType {
  if (node === true || (typeof node === 'object' && node !== null && Object.keys(node).length === 0)) {
    throw new SchemaMappingError(path, 'an unconstrained schema (any JSON value) has no SQL type.');
  }
  if (typeof node !== 'object' || node === null || Array.isArray(node)) throw new SchemaMappingError(path, `not a JSON Schema: ${JSON.stringify(node)}.`);
  const o = node as Record<string, unknown>;
  for (const k of ['$ref', 'oneOf', 'anyOf', 'allOf']) {
    if (k in o) throw new SchemaMappingError(path, `'${k}' is not supported; give the property a plain "type".`);
  }
  const declared = o['type'];
  const types = Array.isArray(declared) ? declared.map(String) : typeof declared === 'string' ? [declared] : [];
  const nonNull = types.filter((t) => t !== 'null');
  const nullable = !required || nonNull.length < types.length;
  if (nonNull.length === 0 && types.length > 0) return { kind: 'NULL', nullable: true };
  if (nonNull.length !== 1) {
    if (types.length === 0 && typeof o['properties'] === 'object') return jsonSchemaType({ ...o, type: 'object' }, path, required);
    throw new SchemaMappingError(path, `a property of type ${JSON.stringify(declared ?? null)} has no SQL type; give one type (with "null" if it may be null).`);
  }
  const base = jsonBaseType(nonNull[0]!, o, path);
  return base.kind === 'NULL' ? base : { ...base, nullable };
}

function jsonBaseType(type: string, o: Record<string, unknown>, path: readonly string[]): LogicalType {
  switch (type) {
    case 'string':
      if (o['contentEncoding'] === 'base64') return { kind: 'VARBINARY', length: MAX_LENGTH, nullable: false };
      if (o['format'] === 'date-time') return { kind: 'TIMESTAMP', precision: 3, nullable: false };
      if (o['format'] === 'date') return { kind: 'DATE', nullable: false };
      if (o['format'] === 'time') return { kind: 'TIME', precision: 0, nullable: false };
      return { kind: 'VARCHAR', length: MAX_LENGTH, nullable: false };
    case 'integer':
      return { kind: 'BIGINT', nullable: false };
    case 'number':
      return { kind: 'DOUBLE', nullable: false };
    case 'boolean':
      return { kind: 'BOOLEAN', nullable: false };
    case 'array': {
      if (typeof o['items'] !== 'object' || o['items'] === null || Array.isArray(o['items'])) {
        throw new SchemaMappingError(path, 'an array needs one "items" schema to have a SQL type.');
      }
      // Array elements may be null unless the items schema says otherwise, as in Flink's JSON format.
      return { kind: 'ARRAY', element: jsonSchemaType(o['items'], path, jsonAdmitsNoNull(o['items'])), nullable: false };
    }
    case 'object': {
      const props = o['properties'];
      if (typeof props === 'object' && props !== null && !Array.isArray(props)) {
        const required = new Set(Array.isArray(o['required']) ? (o['required'] as unknown[]).map(String) : []);
        const fields: RowField[] = Object.entries(props as Record<string, unknown>).map(([name, p]) => ({
          name,
          type: jsonSchemaType(p, [...path, name], required.has(name)),
        }));
        if (fields.length === 0) throw new SchemaMappingError(path, 'an object with no properties has no SQL type.');
        return { kind: 'ROW', fields, nullable: false };
      }
      const extra = o['additionalProperties'];
      if (typeof extra === 'object' && extra !== null) {
        return {
          kind: 'MAP',
          key: { kind: 'VARCHAR', length: MAX_LENGTH, nullable: false },
          value: jsonSchemaType(extra, path, jsonAdmitsNoNull(extra)),
          nullable: false,
        };
      }
      throw new SchemaMappingError(path, 'an object needs "properties" (a ROW) or an "additionalProperties" schema (a MAP) to have a SQL type.');
    }
    default:
      throw new SchemaMappingError(path, `JSON Schema type '${type}' is not known.`);
  }
}

/** Whether a schema's "type" excludes null (for items and map values, which have no `required`). */
function jsonAdmitsNoNull(node: unknown): boolean {
  const t = (node as Record<string, unknown>)['type'];
  return Array.isArray(t) ? !t.includes('null') : typeof t === 'string' && t !== 'null';
}

/**
 * The full name of an Avro schema's top-level record, or 'record' (what Flink and Sluice name derived schemas) when
 * the schema is not an Avro record; new versions keep the name, so a group of one record type stays one type.
 */
export function avroRecordNameOf(s: RegistrySchemaText | undefined): string {
  if (s === undefined || s.serializationFormat !== 'Avro') return 'record';
  try {
    const parsed = parseAvroSchema(s.schema);
    return parsed.kind === 'record' ? parsed.name : 'record';
  } catch {
    return 'record';
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// SQL -> registry schema (what CREATE TABLE registers and what the format's writers register).

/** The schema registered for a table of `rowType` in a group of `format`; `name` is the Avro record's name. */
export function schemaOfRowType(rowType: RowType, format: RegistryFormat, name = 'record'): RegistrySchemaText {
  if (format === 'Avro') {
    const schema = avroSchemaOf(rowType, name, 'micros');
    return { serializationFormat: 'Avro', schema: JSON.stringify(schema), type: name };
  }
  const schema = { title: name, ...jsonSchemaOfRow(rowType) };
  return { serializationFormat: 'Json', schema: JSON.stringify(schema), type: '' };
}

function jsonSchemaOfRow(t: RowType): Record<string, unknown> {
  const required = t.fields.filter((f) => !f.type.nullable).map((f) => f.name);
  return {
    type: 'object',
    properties: Object.fromEntries(t.fields.map((f) => [f.name, jsonSchemaOf(f.type)])),
    ...(required.length === 0 ? {} : { required }),
  };
}

function jsonSchemaOf(t: LogicalType): Record<string, unknown> {
  const base = jsonBaseSchema(t);
  if (!t.nullable || t.kind === 'NULL') return base;
  return { ...base, type: [base['type'], 'null'] };
}

function jsonBaseSchema(t: LogicalType): Record<string, unknown> {
  switch (t.kind) {
    case 'NULL':
      return { type: 'null' };
    case 'BOOLEAN':
      return { type: 'boolean' };
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT':
    case 'BIGINT':
      return { type: 'integer' };
    case 'FLOAT':
    case 'DOUBLE':
    case 'DECIMAL':
      return { type: 'number' };
    case 'CHAR':
    case 'VARCHAR':
      return { type: 'string' };
    case 'BINARY':
    case 'VARBINARY':
      return { type: 'string', contentEncoding: 'base64' };
    case 'DATE':
      return { type: 'string', format: 'date' };
    case 'TIME':
      return { type: 'string', format: 'time' };
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ':
      return { type: 'string', format: 'date-time' };
    case 'ARRAY':
      return { type: 'array', items: jsonSchemaOf(t.element) };
    case 'MULTISET':
      return { type: 'object', additionalProperties: { type: 'integer' } };
    case 'MAP':
      return { type: 'object', additionalProperties: jsonSchemaOf(t.value) };
    case 'ROW':
      return jsonSchemaOfRow(t);
    case 'INTERVAL_YEAR_MONTH':
    case 'INTERVAL_DAY_TIME':
    case 'VARIANT':
      throw new ValidationError(`Type ${typeToString(t)} cannot be registered as a JSON Schema.`);
    default:
      return assertNever(t, 'logical type');
  }
}
