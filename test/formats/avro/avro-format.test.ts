import { describe, expect, it } from 'vitest';
import { DataTypes, FIELD } from '../../../src/types/data-types.js';
import { notNull } from '../../../src/types/logical-type.js';
import type { RowType } from '../../../src/types/logical-type.js';
import { Decimal } from '../../../src/types/decimal.js';
import { PreciseTimestamp } from '../../../src/types/values/precise-timestamp.js';
import type { Row } from '../../../src/types/row.js';
import { Configuration } from '../../../src/config/configuration.js';
import { AvroRowDecoder, AvroRowEncoder } from '../../../src/formats/avro/avro-row-codec.js';
import { avroSchemaOf } from '../../../src/formats/avro/avro-schema.js';
import { AvroFormatFactory } from '../../../src/formats/avro/avro-format-factory.js';
import { FormatError } from '../../../src/formats/format-error.js';
import { ValidationError } from '../../../src/errors/sluice-error.js';
import { NULL_ROW, SCALAR_ROW, SCALAR_TYPE, expectFields, insert } from '../fixtures.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

function roundTrip(type: RowType, fields: unknown[]): string {
  const bytes = new AvroRowEncoder(type).serialize(insert(fields));
  const out: Row[] = [];
  new AvroRowDecoder(type).deserialize(bytes, out);
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
    roundTrip(SCALAR_TYPE, SCALAR_ROW);
    roundTrip(SCALAR_TYPE, NULL_ROW);
    const nested = DataTypes.ROW(
      FIELD('m', DataTypes.MAP(DataTypes.STRING(), DataTypes.BIGINT())),
      FIELD('ms', DataTypes.MULTISET(DataTypes.STRING())),
      FIELD('r', DataTypes.ROW(FIELD('x', DataTypes.INT()), FIELD('y', DataTypes.ARRAY(DataTypes.STRING())))),
      FIELD('ts', DataTypes.TIMESTAMP(6)),
    );
    roundTrip(nested, [new Map([['a', 1n], ['b', null]]), new Map([['x', 2]]), [7, ['p', null]], -1001]);
  });

  it('writes a TIMESTAMP(6) as the exact timestamp-micros and reads every microsecond back', () => {
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
    const bytes = roundTrip(type, [new PreciseTimestamp(1_704_103_200_123, 456_000), new PreciseTimestamp(-1, 999_000)]);
    expect(bytes).toBe(`02${micros(1_704_103_200_123_456n)}02${micros(-1n)}`);
    roundTrip(type, [1_704_103_200_123, -1]);
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
});
