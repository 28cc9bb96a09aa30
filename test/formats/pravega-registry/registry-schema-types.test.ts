import { describe, expect, it } from 'vitest';
import { SchemaMappingError, rowTypeOfSchema, schemaOfRowType } from '../../../src/formats/pravega-registry/registry-schema-types.js';
import { parseLogicalType } from '../../../src/types/parse-logical-type.js';
import type { RowType } from '../../../src/types/logical-type.js';
import { typeToString } from '../../../src/types/type-to-string.js';

const avro = (schema: unknown): string => typeToString(rowTypeOfSchema({ serializationFormat: 'Avro', type: 'x', schema: JSON.stringify(schema) }));
const json = (schema: unknown): string => typeToString(rowTypeOfSchema({ serializationFormat: 'Json', type: '', schema: JSON.stringify(schema) }));
const row = (text: string): RowType => parseLogicalType(text) as RowType;

describe('registry schemas as table row types', () => {
  it('maps Avro: a union with null is nullable, everything else NOT NULL, logical types to their SQL types', () => {
    expect(
      avro({
        type: 'record',
        name: 'R',
        fields: [
          { name: 's', type: 'string' },
          { name: 'n', type: ['null', 'long'] },
          { name: 'e', type: { type: 'enum', name: 'E', symbols: ['A', 'B'] } },
          { name: 'f', type: { type: 'fixed', name: 'F', size: 4 } },
          { name: 'd', type: { type: 'int', logicalType: 'date' } },
          { name: 't', type: { type: 'long', logicalType: 'timestamp-micros' } },
          { name: 'm', type: { type: 'map', values: ['null', 'double'] } },
          { name: 'r', type: { type: 'record', name: 'Inner', fields: [{ name: 'b', type: 'boolean' }] } },
        ],
      }),
    ).toBe(
      'ROW<`s` STRING NOT NULL, `n` BIGINT, `e` STRING NOT NULL, `f` VARBINARY(4) NOT NULL, `d` DATE NOT NULL, `t` TIMESTAMP(6) NOT NULL, ' +
        '`m` MAP<STRING NOT NULL, DOUBLE> NOT NULL, `r` ROW<`b` BOOLEAN NOT NULL> NOT NULL> NOT NULL',
    );
  });

  it('refuses Avro shapes SQL has no type for, naming the field', () => {
    expect(() => avro({ type: 'record', name: 'R', fields: [{ name: 'u', type: ['int', 'string'] }] })).toThrow(SchemaMappingError);
    expect(() => avro({ type: 'record', name: 'R', fields: [{ name: 'u', type: ['int', 'string'] }] })).toThrow("field 'u': a union of int, string has no SQL type");
    expect(() => avro({ type: 'record', name: 'Node', fields: [{ name: 'next', type: ['null', 'Node'] }] })).toThrow("field 'next': record 'Node' refers to itself");
    expect(() => avro('string')).toThrow('the Avro schema is a string, not a record.');
    expect(() => rowTypeOfSchema({ serializationFormat: 'Protobuf', type: '', schema: '' })).toThrow('the schema is Protobuf; Sluice maps Avro and Json schemas to tables.');
  });

  it('maps JSON Schema: required and non-null is NOT NULL, formats and encodings to their SQL types', () => {
    expect(
      json({
        type: 'object',
        required: ['id', 'maybe'],
        properties: {
          id: { type: 'integer' },
          maybe: { type: ['number', 'null'] },
          name: { type: 'string' },
          at: { type: 'string', format: 'date-time' },
          raw: { type: 'string', contentEncoding: 'base64' },
          tags: { type: 'array', items: { type: 'string' } },
          attrs: { type: 'object', additionalProperties: { type: 'boolean' } },
          inner: { type: 'object', properties: { x: { type: 'string', format: 'date' } } },
        },
      }),
    ).toBe(
      'ROW<`id` BIGINT NOT NULL, `maybe` DOUBLE, `name` STRING, `at` TIMESTAMP(3), `raw` BYTES, `tags` ARRAY<STRING NOT NULL>, ' +
        '`attrs` MAP<STRING NOT NULL, BOOLEAN NOT NULL>, `inner` ROW<`x` DATE>> NOT NULL',
    );
    expect(() => json({ type: 'object', properties: { a: { $ref: '#/defs/a' } } })).toThrow("field 'a': '$ref' is not supported");
    expect(() => json({ type: 'object', properties: { a: { type: 'object' } } })).toThrow("field 'a': an object needs \"properties\"");
    expect(() => json({ type: 'string' })).toThrow('not an object with properties');
  });

  it('derives schemas from table types that map back to the same types (Avro) or their JSON equivalents', () => {
    const t = row('ROW<id INT NOT NULL, name STRING, price DECIMAL(10, 2), ts TIMESTAMP(3), tags ARRAY<STRING>, m MAP<STRING NOT NULL, BIGINT>, r ROW<a DOUBLE>>');
    expect(typeToString(rowTypeOfSchema(schemaOfRowType(t, 'Avro')))).toBe(typeToString({ ...t, nullable: false }));
    const j = schemaOfRowType(t, 'Json');
    expect(j.type).toBe('');
    expect(typeToString(rowTypeOfSchema(j))).toBe(
      'ROW<`id` BIGINT NOT NULL, `name` STRING, `price` DOUBLE, `ts` TIMESTAMP(3), `tags` ARRAY<STRING>, `m` MAP<STRING NOT NULL, BIGINT>, `r` ROW<`a` DOUBLE>> NOT NULL',
    );
    expect(() => schemaOfRowType(row('ROW<i INTERVAL DAY>'), 'Json')).toThrow('cannot be registered as a JSON Schema');
  });
});
