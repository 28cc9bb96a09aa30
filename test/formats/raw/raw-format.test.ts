import { describe, expect, it } from 'vitest';
import { DataTypes, FIELD } from '../../../src/types/data-types.js';
import type { LogicalType } from '../../../src/types/logical-type.js';
import type { Row } from '../../../src/types/row.js';
import { Configuration } from '../../../src/config/configuration.js';
import { RawRowDecoder, RawRowEncoder } from '../../../src/formats/raw/raw-codec.js';
import { DEFAULT_RAW } from '../../../src/formats/raw/raw-options.js';
import type { RawSettings } from '../../../src/formats/raw/raw-options.js';
import { RawFormatFactory } from '../../../src/formats/raw/raw-format-factory.js';
import { FormatError } from '../../../src/formats/format-error.js';
import { ValidationError } from '../../../src/errors/sluice-error.js';
import { expectFields, insert } from '../fixtures.js';

function roundTrip(type: LogicalType, value: unknown, settings: RawSettings, hex: string): void {
  const row = DataTypes.ROW(FIELD('v', type));
  const bytes = new RawRowEncoder(row, settings).serialize(insert([value]));
  expect(Buffer.from(bytes).toString('hex')).toBe(hex);
  const out: Row[] = [];
  new RawRowDecoder(row, settings).deserialize(bytes, out);
  expectFields(out[0]!.fields, [value]);
}

describe('raw format', () => {
  it('round-trips every supported type in both byte orders', () => {
    const le: RawSettings = { ...DEFAULT_RAW, bigEndian: false };
    roundTrip(DataTypes.STRING(), 'hé', DEFAULT_RAW, '68c3a9');
    roundTrip(DataTypes.BYTES(), new Uint8Array([1, 2]), DEFAULT_RAW, '0102');
    roundTrip(DataTypes.BOOLEAN(), true, DEFAULT_RAW, '01');
    roundTrip(DataTypes.TINYINT(), -2, DEFAULT_RAW, 'fe');
    roundTrip(DataTypes.SMALLINT(), 258, DEFAULT_RAW, '0102');
    roundTrip(DataTypes.SMALLINT(), 258, le, '0201');
    roundTrip(DataTypes.INT(), 1, DEFAULT_RAW, '00000001');
    roundTrip(DataTypes.INT(), 1, le, '01000000');
    roundTrip(DataTypes.BIGINT(), 9007199254740993n, DEFAULT_RAW, '0020000000000001');
    roundTrip(DataTypes.FLOAT(), 1.5, DEFAULT_RAW, '3fc00000');
    roundTrip(DataTypes.DOUBLE(), 1.5, le, '000000000000f83f');
  });

  it('encodes strings in the configured charset', () => {
    roundTrip(DataTypes.STRING(), 'hé', { ...DEFAULT_RAW, charset: 'UTF-16BE' }, '006800e9');
    roundTrip(DataTypes.STRING(), 'hé', { ...DEFAULT_RAW, charset: 'UTF-16LE' }, '6800e900');
    roundTrip(DataTypes.STRING(), 'hé', { ...DEFAULT_RAW, charset: 'UTF-16' }, 'feff006800e9');
    roundTrip(DataTypes.STRING(), 'hé', { ...DEFAULT_RAW, charset: 'ISO-8859-1' }, '68e9');
  });

  it('reads an empty message as NULL for numbers and writes NULL as an empty message', () => {
    const row = DataTypes.ROW(FIELD('v', DataTypes.INT()));
    expect(new RawRowEncoder(row, DEFAULT_RAW).serialize(insert([null])).length).toBe(0);
    const out: Row[] = [];
    new RawRowDecoder(row, DEFAULT_RAW).deserialize(new Uint8Array(0), out);
    expect(out[0]!.fields).toEqual([null]);
  });

  it('fails on a message of the wrong size, naming the origin', () => {
    const row = DataTypes.ROW(FIELD('v', DataTypes.INT()));
    expect(() => new RawRowDecoder(row, DEFAULT_RAW).deserialize(new Uint8Array(3), [], () => 'topic t, offset 5')).toThrow(FormatError);
    expect(() => new RawRowDecoder(row, DEFAULT_RAW).deserialize(new Uint8Array(3), [], () => 'topic t, offset 5')).toThrow(
      /topic t, offset 5.*Size of the given byte array is 3, but expected 4/,
    );
  });

  it('accepts exactly one column of a supported type', () => {
    expect(() => new RawRowDecoder(DataTypes.ROW(FIELD('a', DataTypes.INT()), FIELD('b', DataTypes.INT())), DEFAULT_RAW)).toThrow(/single physical column/);
    expect(() => new RawRowEncoder(DataTypes.ROW(FIELD('a', DataTypes.DATE())), DEFAULT_RAW)).toThrow(ValidationError);
  });

  it('factory validates charset and endianness', () => {
    const f = new RawFormatFactory();
    const ctx = {} as never;
    expect(() => f.createDecodingFormat(ctx, new Configuration({ charset: 'EBCDIC' }))).toThrow(/Unsupported 'raw.charset' name: EBCDIC/);
    expect(() => f.createDecodingFormat(ctx, new Configuration({ endianness: 'middle' }))).toThrow(/big-endian/);
    const enc = f.createEncodingFormat(ctx, new Configuration({ endianness: 'little-endian' })).createRuntimeEncoder(DataTypes.ROW(FIELD('v', DataTypes.SMALLINT())));
    expect(Array.from(enc.serialize(insert([1])))).toEqual([1, 0]);
  });
});
