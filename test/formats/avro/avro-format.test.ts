import { describe, expect, it } from 'vitest';
import { DataTypes, FIELD } from '../../../src/types/data-types.js';
import { notNull } from '../../../src/types/logical-type.js';
import type { RowType } from '../../../src/types/logical-type.js';
import { Decimal } from '../../../src/types/decimal.js';
import { PreciseTimestamp } from '../../../src/types/values/precise-timestamp.js';
import type { Row } from '../../../src/types/row.js';
import { Configuration } from '../../../src/config/configuration.js';
import { AvroRowDecoder, AvroRowEncoder } from '../../../src/formats/avro/avro-row-codec.js';
import { type AvroTimestampMapping, avroSchemaOf } from '../../../src/formats/avro/avro-schema.js';
import { AvroFormatFactory } from '../../../src/formats/avro/avro-format-factory.js';
import { FormatError } from '../../../src/formats/format-error.js';
import { ValidationError } from '../../../src/errors/sluice-error.js';
import { NULL_ROW, SCALAR_ROW, SCALAR_TYPE, expectFields, insert } from '../fixtures.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

function roundTrip(type: RowType, fields: unknown[], mapping: AvroTimestampMapping = 'legacy'): string {
  const bytes = new AvroRowEncoder(type, mapping).serialize(insert(fields));
  const out: Row[] = [];
  new AvroRowDecoder(type, mapping).deserialize(bytes, out);
  expectFields(out[0]!.fields, fields);
  return hex(bytes);
}

describe('avro format', () => {
  it('writes the Avro binary encoding (zig-zag varints, null unions, decimal bytes)', () => {
    const type = DataTypes.ROW(FIELD('id', notNull(DataTypes.INT())), FIELD('name', DataTypes.STRING()), FIELD('price', DataTypes.DECIMAL(5, 2)));
    expect(roundTrip(type, [1, 'ab', Decimal.parse('1.50')])).toBe('02020461620204' + '0096');
    expect(roundTrip(type, [-1, null, Decimal.parse('-0.01')])).toBe('01' + '00' + '0202ff');
  });

  it('writes longs beyond 32 bits and arrays in blocks', () => {
    const type = DataTypes.ROW(FIELD('l', notNull(DataTypes.BIGINT())), FIELD('a', notNull(DataTypes.ARRAY(notNull(DataTypes.INT())))));
    expect(roundTrip(type, [-9223372036854775808n, [1, 2]])).toBe('ffffffffffffffffff01' + '04020400');
    expect(roundTrip(type, [9007199254740993n, []])).toBe('8280808080808020' + '00');
  });

  it('round-trips every scalar type, NULLs, maps, multisets, nested rows and TIMESTAMP(6)', () => {
    roundTrip(SCALAR_TYPE, SCALAR_ROW, 'local');
    roundTrip(SCALAR_TYPE, NULL_ROW, 'local');
    const nested = DataTypes.ROW(
      FIELD('m', DataTypes.MAP(DataTypes.STRING(), DataTypes.BIGINT())),
      FIELD('ms', DataTypes.MULTISET(DataTypes.STRING())),
      FIELD('r', DataTypes.ROW(FIELD('x', DataTypes.INT()), FIELD('y', DataTypes.ARRAY(DataTypes.STRING())))),
      FIELD('ts', DataTypes.TIMESTAMP(6)),
    );
    roundTrip(nested, [new Map([['a', 1n], ['b', null]]), new Map([['x', 2]]), [7, ['p', null]], -1001], 'local');
  });

  it('writes a TIMESTAMP(6) as the exact local-timestamp-micros and reads every microsecond back', () => {
    const type = DataTypes.ROW(FIELD('ts', DataTypes.TIMESTAMP(6)), FIELD('ltz', DataTypes.TIMESTAMP_LTZ(6)));
    // 2024-01-01 10:00:00.123456 is 1704103200123456 us; -1 us is 1969-12-31 23:59:59.999999.
    const micros = (v: bigint): string => {
      let z = (v << 1n) ^ (v >> 63n);
      let out = '';
      do {
        const b = Number(z & 0x7fn);
        z >>= 7n;
        out += (z > 0n ? b | 0x80 : b).toString(16).padStart(2, '0');
      } while (z > 0n);
      return out;
    };
    const bytes = roundTrip(type, [new PreciseTimestamp(1_704_103_200_123, 456_000), new PreciseTimestamp(-1, 999_000)], 'local');
    expect(bytes).toBe(`02${micros(1_704_103_200_123_456n)}02${micros(-1n)}`);
    roundTrip(type, [1_704_103_200_123, -1], 'local');
  });

  it('derives the Avro schema Flink derives', () => {
    const type = DataTypes.ROW(FIELD('id', notNull(DataTypes.BIGINT())), FIELD('ts', DataTypes.TIMESTAMP(3)), FIELD('d', DataTypes.DECIMAL(10, 2)));
    expect(avroSchemaOf(type)).toEqual({
      type: 'record',
      name: 'record',
      fields: [
        { name: 'id', type: 'long' },
        { name: 'ts', type: ['null', { type: 'long', logicalType: 'timestamp-millis' }], default: null },
        { name: 'd', type: ['null', { type: 'bytes', logicalType: 'decimal', precision: 10, scale: 2 }], default: null },
      ],
    });
    expect(() => avroSchemaOf(DataTypes.ROW(FIELD('i', DataTypes.INTERVAL_DAY_TIME())))).toThrow(ValidationError);
  });

  it("refuses, as Flink's legacy mapping does, a TIMESTAMP finer than milliseconds and any TIMESTAMP_LTZ, naming the column", () => {
    const nested = DataTypes.ROW(FIELD('r', DataTypes.ROW(FIELD('ts', DataTypes.TIMESTAMP(6)))));
    expect(() => avroSchemaOf(nested)).toThrow(ValidationError);
    expect(() => avroSchemaOf(nested)).toThrow(/Column 'r\.ts' is TIMESTAMP\(6\).*'avro\.timestamp_mapping\.legacy' = 'false'/);
    expect(() => new AvroRowEncoder(DataTypes.ROW(FIELD('ltz', DataTypes.TIMESTAMP_LTZ(3))))).toThrow(/Column 'ltz' is TIMESTAMP_LTZ\(3\)/);
    expect(() => new AvroRowDecoder(DataTypes.ROW(FIELD('a', DataTypes.ARRAY(DataTypes.TIMESTAMP_LTZ(6)))))).toThrow(/Column 'a' is TIMESTAMP_LTZ\(6\)/);
  });

  it("derives Flink's non-legacy mapping: local-timestamp for TIMESTAMP, timestamp for TIMESTAMP_LTZ, up to 6 digits", () => {
    const type = DataTypes.ROW(
      FIELD('t3', notNull(DataTypes.TIMESTAMP(3))),
      FIELD('t6', notNull(DataTypes.TIMESTAMP(6))),
      FIELD('l3', notNull(DataTypes.TIMESTAMP_LTZ(3))),
      FIELD('l6', notNull(DataTypes.TIMESTAMP_LTZ(6))),
    );
    expect(avroSchemaOf(type, 'record', 'local')).toEqual({
      type: 'record',
      name: 'record',
      fields: [
        { name: 't3', type: { type: 'long', logicalType: 'local-timestamp-millis' } },
        { name: 't6', type: { type: 'long', logicalType: 'local-timestamp-micros' } },
        { name: 'l3', type: { type: 'long', logicalType: 'timestamp-millis' } },
        { name: 'l6', type: { type: 'long', logicalType: 'timestamp-micros' } },
      ],
    });
    expect(() => avroSchemaOf(DataTypes.ROW(FIELD('n', DataTypes.TIMESTAMP(9))), 'record', 'local')).toThrow(/Column 'n' is TIMESTAMP\(9\).*only 0 to 6/);
  });

  it('fails on truncated or oversized messages naming the origin', () => {
    const type = DataTypes.ROW(FIELD('name', DataTypes.STRING()));
    const dec = new AvroRowDecoder(type);
    expect(() => dec.deserialize(new Uint8Array([2, 10, 97]), [], () => 'topic t, offset 3')).toThrow(FormatError);
    expect(() => dec.deserialize(new Uint8Array([2, 10, 97]), [], () => 'topic t, offset 3')).toThrow(/topic t, offset 3.*field 'name'.*unexpected end/);
    expect(() => dec.deserialize(new Uint8Array([0, 0]), [])).toThrow(/1 bytes left after the record/);
    expect(() => dec.deserialize(new Uint8Array([4]), [])).toThrow(/union branch 2/);
  });

  it('factory accepts only binary encoding', () => {
    const f = new AvroFormatFactory();
    expect(() => f.createDecodingFormat({} as never, new Configuration({ encoding: 'json' }))).toThrow(/binary/);
    const enc = f.createEncodingFormat({} as never, new Configuration()).createRuntimeEncoder(DataTypes.ROW(FIELD('b', notNull(DataTypes.BOOLEAN()))));
    expect(hex(enc.serialize(insert([true])))).toBe('01');
  });

  it("factory follows 'timestamp_mapping.legacy': refuses TIMESTAMP(6) by default, writes its microseconds when false", () => {
    const f = new AvroFormatFactory();
    const type = DataTypes.ROW(FIELD('ts', notNull(DataTypes.TIMESTAMP(6))));
    const legacy = f.createEncodingFormat({} as never, new Configuration());
    expect(() => legacy.createRuntimeEncoder(type)).toThrow(/legacy timestamp mapping/);
    const local = f.createEncodingFormat({} as never, new Configuration({ 'timestamp_mapping.legacy': 'false' }));
    const bytes = local.createRuntimeEncoder(type).serialize(insert([new PreciseTimestamp(0, 1_000)]));
    expect(hex(bytes)).toBe('02');
    const out: Row[] = [];
    f.createDecodingFormat({} as never, new Configuration({ 'timestamp_mapping.legacy': 'false' })).createRuntimeDecoder(type).deserialize(bytes, out);
    expectFields(out[0]!.fields, [new PreciseTimestamp(0, 1_000)]);
  });
});
