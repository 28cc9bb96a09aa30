import { describe, expect, it } from 'vitest';
import { DataTypes, FIELD } from '../../../src/types/data-types.js';
import { Decimal } from '../../../src/types/decimal.js';
import type { Row } from '../../../src/types/row.js';
import { Configuration } from '../../../src/config/configuration.js';
import { JsonRowDecoder } from '../../../src/formats/json/json-row-decoder.js';
import { JsonRowEncoder } from '../../../src/formats/json/json-row-encoder.js';
import { DEFAULT_JSON_DECODE, DEFAULT_JSON_ENCODE } from '../../../src/formats/json/json-options.js';
import { JsonFormatFactory } from '../../../src/formats/json/json-format-factory.js';
import { FormatError } from '../../../src/formats/format-error.js';
import { ValidationError } from '../../../src/errors/sluice-error.js';
import { SCALAR_ROW, SCALAR_TYPE, NULL_ROW, TS_MS, bytes, expectFields, insert, text } from '../fixtures.js';

const GOLDEN =
  '{"b":true,"ti":-128,"si":32767,"i":-2147483648,"big":9007199254740993,"f":1.5,"d":0.1,' +
  '"dec":12345678901234567890.123456789012345678,"s":"a \\"quoted\\", text\\nwith ü","bytes":"awML",' +
  '"dt":"2020-01-01","tm":"12:34:56","ts":"2020-01-01 12:00:00.123","ltz":"2020-01-01 12:00:00.123Z"}';

function decodeAll(decoder: JsonRowDecoder, ...messages: string[]): Row[] {
  const out: Row[] = [];
  for (const m of messages) decoder.deserialize(bytes(m), out, () => 'test message');
  return out;
}

describe('json format', () => {
  it('writes every scalar type as Flink does (golden)', () => {
    const enc = new JsonRowEncoder(SCALAR_TYPE, DEFAULT_JSON_ENCODE);
    expect(text(enc.serialize(insert(SCALAR_ROW)))).toBe(GOLDEN);
  });

  it('round-trips every scalar type, BIGINT and DECIMAL exactly', () => {
    const rows = decodeAll(new JsonRowDecoder(SCALAR_TYPE, DEFAULT_JSON_DECODE), GOLDEN);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.fields[4]).toBe(9007199254740993n);
    expect((rows[0]!.fields[7] as Decimal).toString()).toBe('12345678901234567890.123456789012345678');
    expectFields(rows[0]!.fields, SCALAR_ROW);
  });

  it('round-trips NULLs and writes them as null', () => {
    const enc = new JsonRowEncoder(SCALAR_TYPE, DEFAULT_JSON_ENCODE);
    const msg = text(enc.serialize(insert(NULL_ROW)));
    expect(msg.startsWith('{"b":null,"ti":null')).toBe(true);
    const rows = decodeAll(new JsonRowDecoder(SCALAR_TYPE, DEFAULT_JSON_DECODE), msg);
    expectFields(rows[0]!.fields, NULL_ROW);
  });

  it('writes ISO-8601 timestamps and reads them back only under that standard', () => {
    const type = DataTypes.ROW(FIELD('ts', DataTypes.TIMESTAMP(3)), FIELD('ltz', DataTypes.TIMESTAMP_LTZ(3)));
    const enc = new JsonRowEncoder(type, { ...DEFAULT_JSON_ENCODE, timestampStandard: 'ISO-8601' });
    const msg = text(enc.serialize(insert([TS_MS, TS_MS - 123])));
    expect(msg).toBe('{"ts":"2020-01-01T12:00:00.123","ltz":"2020-01-01T12:00:00Z"}');
    const iso = new JsonRowDecoder(type, { ...DEFAULT_JSON_DECODE, timestampStandard: 'ISO-8601' });
    expectFields(decodeAll(iso, msg)[0]!.fields, [TS_MS, TS_MS - 123]);
    expect(() => decodeAll(new JsonRowDecoder(type, DEFAULT_JSON_DECODE), msg)).toThrow(/field 'ts'.*TIMESTAMP\(3\)/);
  });

  it('strips trailing zeros of the fraction as java.time does', () => {
    const type = DataTypes.ROW(FIELD('ts', DataTypes.TIMESTAMP(3)));
    const enc = new JsonRowEncoder(type, DEFAULT_JSON_ENCODE);
    expect(text(enc.serialize(insert([Date.UTC(2020, 0, 1, 0, 0, 0, 120)])))).toBe('{"ts":"2020-01-01 00:00:00.12"}');
    expect(text(enc.serialize(insert([Date.UTC(1969, 11, 31, 23, 59, 59, 0)])))).toBe('{"ts":"1969-12-31 23:59:59"}');
  });

  it('writes DECIMAL without trailing zeros as Flink does (Jackson numberNode), plain with its scale with encode.decimal-as-plain-number', () => {
    const type = DataTypes.ROW(FIELD('a', DataTypes.DECIMAL(10, 9)), FIELD('b', DataTypes.DECIMAL(10, 2)), FIELD('c', DataTypes.DECIMAL(10, 8)));
    const row = insert([Decimal.parse('0.000000027'), Decimal.parse('-1.50'), Decimal.of(0n, 8)]);
    expect(text(new JsonRowEncoder(type, DEFAULT_JSON_ENCODE).serialize(row))).toBe('{"a":2.7E-8,"b":-1.5,"c":0}');
    const plain = new JsonRowEncoder(type, { ...DEFAULT_JSON_ENCODE, encodeDecimalAsPlainNumber: true });
    // Flink 2.x (test/formats/flink-goldens/json-plain-decimal.json); 1.20 stripped the zeros here too.
    expect(text(plain.serialize(row))).toBe('{"a":0.000000027,"b":-1.50,"c":0.00000000}');
    const back = decodeAll(new JsonRowDecoder(type, DEFAULT_JSON_DECODE), '{"a":2.7E-8,"b":-1.50,"c":0E-8}');
    expectFields(back[0]!.fields, row.fields);
  });

  it('writes doubles as Java does, NaN quoted', () => {
    const type = DataTypes.ROW(FIELD('d', DataTypes.DOUBLE()), FIELD('e', DataTypes.DOUBLE()), FIELD('f', DataTypes.FLOAT()));
    const enc = new JsonRowEncoder(type, DEFAULT_JSON_ENCODE);
    expect(text(enc.serialize(insert([1e7, NaN, 1])))).toBe('{"d":1.0E7,"e":"NaN","f":1.0}');
    const back = decodeAll(new JsonRowDecoder(type, DEFAULT_JSON_DECODE), '{"d":1.0E7,"e":"NaN","f":1.0}');
    expectFields(back[0]!.fields, [1e7, NaN, 1]);
  });

  it('round-trips ARRAY, MAP, MULTISET and nested ROW', () => {
    const type = DataTypes.ROW(
      FIELD('arr', DataTypes.ARRAY(DataTypes.INT())),
      FIELD('m', DataTypes.MAP(DataTypes.STRING(), DataTypes.BIGINT())),
      FIELD('ms', DataTypes.MULTISET(DataTypes.STRING())),
      FIELD('r', DataTypes.ROW(FIELD('x', DataTypes.INT()), FIELD('y', DataTypes.ARRAY(DataTypes.DECIMAL(5, 2))))),
    );
    const row = insert([
      [1, null, 3],
      new Map<string, bigint | null>([['k', 12345678901234567n], ['n', null]]),
      new Map([['a', 2]]),
      [7, [Decimal.parse('1.25'), null]],
    ]);
    const msg = text(new JsonRowEncoder(type, DEFAULT_JSON_ENCODE).serialize(row));
    expect(msg).toBe('{"arr":[1,null,3],"m":{"k":12345678901234567,"n":null},"ms":{"a":2},"r":{"x":7,"y":[1.25,null]}}');
    expectFields(decodeAll(new JsonRowDecoder(type, DEFAULT_JSON_DECODE), msg)[0]!.fields, row.fields);
  });

  it('round-trips intervals, TIME(3) (whole seconds, as Flink writes), CHAR, BINARY and the NULL type', () => {
    const type = DataTypes.ROW(
      FIELD('ym', DataTypes.INTERVAL_YEAR_MONTH()),
      FIELD('dt', DataTypes.INTERVAL_DAY_TIME()),
      FIELD('t3', DataTypes.TIME(3)),
      FIELD('c', DataTypes.CHAR(3)),
      FIELD('bin', DataTypes.BINARY(2)),
      FIELD('n', DataTypes.NULL()),
    );
    const msg = text(new JsonRowEncoder(type, DEFAULT_JSON_ENCODE).serialize(insert([14, 90061001, 45296789, 'abc', new Uint8Array([255, 0]), null])));
    expect(msg).toBe('{"ym":14,"dt":90061001,"t3":"12:34:56","c":"abc","bin":"/wA=","n":null}');
    expectFields(decodeAll(new JsonRowDecoder(type, DEFAULT_JSON_DECODE), msg)[0]!.fields, [14, 90061001, 45296000, 'abc', new Uint8Array([255, 0]), null]);
  });

  it('handles NULL map keys by map-null-key.mode', () => {
    const type = DataTypes.ROW(FIELD('m', DataTypes.MAP(DataTypes.STRING(), DataTypes.INT())));
    const row = insert([new Map<string | null, number>([[null, 1], ['a', 2]])]);
    expect(() => new JsonRowEncoder(type, DEFAULT_JSON_ENCODE).serialize(row)).toThrow(FormatError);
    expect(text(new JsonRowEncoder(type, { ...DEFAULT_JSON_ENCODE, mapNullKeyMode: 'DROP' }).serialize(row))).toBe('{"m":{"a":2}}');
    const literal = new JsonRowEncoder(type, { ...DEFAULT_JSON_ENCODE, mapNullKeyMode: 'LITERAL', mapNullKeyLiteral: 'NIL' });
    expect(text(literal.serialize(row))).toBe('{"m":{"NIL":1,"a":2}}');
  });

  it('rejects maps with non-string keys when the codec is built', () => {
    const type = DataTypes.ROW(FIELD('m', DataTypes.MAP(DataTypes.INT(), DataTypes.INT())));
    expect(() => new JsonRowEncoder(type, DEFAULT_JSON_ENCODE)).toThrow(ValidationError);
    expect(() => new JsonRowDecoder(type, DEFAULT_JSON_DECODE)).toThrow(/non-string as key type of map/);
  });

  it('omits null fields with encode.ignore-null-fields', () => {
    const type = DataTypes.ROW(FIELD('a', DataTypes.INT()), FIELD('b', DataTypes.STRING()), FIELD('c', DataTypes.INT()));
    const enc = new JsonRowEncoder(type, { ...DEFAULT_JSON_ENCODE, encodeIgnoreNullFields: true });
    expect(text(enc.serialize(insert([null, 'x', null])))).toBe('{"b":"x"}');
  });

  it('reads what Flink reads leniently: numbers in strings, objects into STRING columns', () => {
    const type = DataTypes.ROW(FIELD('i', DataTypes.INT()), FIELD('big', DataTypes.BIGINT()), FIELD('s', DataTypes.STRING()), FIELD('b', DataTypes.BOOLEAN()));
    const rows = decodeAll(new JsonRowDecoder(type, DEFAULT_JSON_DECODE), '{"i":" 42 ","big":"-9223372036854775808","s":{"x":[1,2.5]},"b":"TRUE"}');
    expectFields(rows[0]!.fields, [42, -9223372036854775808n, '{"x":[1,2.5]}', true]);
  });

  it('reads missing fields as NULL, or fails with fail-on-missing-field', () => {
    const type = DataTypes.ROW(FIELD('a', DataTypes.INT()), FIELD('b', DataTypes.INT()));
    expectFields(decodeAll(new JsonRowDecoder(type, DEFAULT_JSON_DECODE), '{"a":1}')[0]!.fields, [1, null]);
    const strict = new JsonRowDecoder(type, { ...DEFAULT_JSON_DECODE, failOnMissingField: true });
    expect(() => decodeAll(strict, '{"a":1}')).toThrow(/field 'b': Could not find field with name 'b'/);
  });

  it('names the origin, the field and the value of a bad record', () => {
    const dec = new JsonRowDecoder(SCALAR_TYPE, DEFAULT_JSON_DECODE);
    let err: unknown;
    try {
      decodeAll(dec, '{"i":"abc"}');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(FormatError);
    const fe = err as FormatError;
    expect(fe.field).toBe('i');
    expect(fe.origin).toBe('test message');
    expect(fe.message).toContain('test message');
    expect(fe.message).toContain(`cannot read "abc" as INT`);
    expect(() => decodeAll(dec, '{"i":1')).toThrow(/Failed to deserialize JSON message \(test message\)/);
    expect(() => decodeAll(dec, '[1]')).toThrow(/expected a JSON object/);
    expect(() => decodeAll(dec, '{"ti":300}')).toThrow(/field 'ti'/);
  });

  it('reports the path into nested values', () => {
    const type = DataTypes.ROW(FIELD('r', DataTypes.ROW(FIELD('xs', DataTypes.ARRAY(DataTypes.DATE())))));
    expect(() => decodeAll(new JsonRowDecoder(type, DEFAULT_JSON_DECODE), '{"r":{"xs":["2020-01-01","2020-13-01"]}}')).toThrow(
      /field 'r\.xs\.\[1\]': cannot read "2020-13-01" as DATE/,
    );
  });

  it('with ignore-parse-errors nulls values that do not convert and skips only messages that are not JSON objects (as Flink)', () => {
    const dec = new JsonRowDecoder(SCALAR_TYPE, { ...DEFAULT_JSON_DECODE, ignoreParseErrors: true });
    const rows = decodeAll(dec, '{"i":"abc","s":"kept"}', 'not json', '{"i":5}', '', '[1]', '{"ts":"yesterday","big":1.5,"b":true}');
    expect(rows).toHaveLength(3);
    expect(rows[0]!.fields[3]).toBe(null);
    expect(rows[0]!.fields[8]).toBe('kept');
    expect(rows[1]!.fields[3]).toBe(5);
    expect([rows[2]!.fields[0], rows[2]!.fields[4], rows[2]!.fields[12]]).toEqual([true, null, null]);
    // 'not json' and the top-level array; the empty message is a tombstone, not an error.
    expect(dec.skippedRecords).toBe(2);
  });

  it('with ignore-parse-errors nulls bad array elements, map values and nested row fields', () => {
    const type = DataTypes.ROW(
      FIELD('xs', DataTypes.ARRAY(DataTypes.INT())),
      FIELD('m', DataTypes.MAP(DataTypes.STRING(), DataTypes.BIGINT())),
      FIELD('r', DataTypes.ROW(FIELD('p', DataTypes.INT()), FIELD('q', DataTypes.DATE()))),
      FIELD('r2', DataTypes.ROW(FIELD('p', DataTypes.INT()))),
    );
    const msg = '{"xs":[1,"x",3],"m":{"a":1,"b":"two"},"r":{"p":"n","q":"2020-01-01"},"r2":7}';
    expect(() => decodeAll(new JsonRowDecoder(type, DEFAULT_JSON_DECODE), msg)).toThrow(/field 'xs.\[1\]'/);
    const dec = new JsonRowDecoder(type, { ...DEFAULT_JSON_DECODE, ignoreParseErrors: true });
    const [row] = decodeAll(dec, msg);
    expect(row!.fields).toEqual([[1, null, 3], new Map<string, unknown>([['a', 1n], ['b', null]]), [null, 18262], null]);
    expect(dec.skippedRecords).toBe(0);
  });

  it('is exact for BIGINT beyond 2^53 nested and for long DECIMAL literals', () => {
    const type = DataTypes.ROW(FIELD('xs', DataTypes.ARRAY(DataTypes.BIGINT())), FIELD('d', DataTypes.DECIMAL(30, 20)));
    const rows = decodeAll(new JsonRowDecoder(type, DEFAULT_JSON_DECODE), '{"xs":[1,9223372036854775807,-9007199254740993],"d":0.10000000000000000001}');
    expect(rows[0]!.fields[0]).toEqual([1n, 9223372036854775807n, -9007199254740993n]);
    expect((rows[0]!.fields[1] as Decimal).toString()).toBe('0.10000000000000000001');
  });

  it('reads integral number literals the same on the fast and the exact path', () => {
    const type = DataTypes.ROW(FIELD('i', DataTypes.INT()), FIELD('b', DataTypes.BIGINT()), FIELD('d', DataTypes.DECIMAL(20, 0)));
    const dec = new JsonRowDecoder(type, DEFAULT_JSON_DECODE);
    // The 20-digit DECIMAL forces the exact parse for the whole record.
    expectFields(decodeAll(dec, '{"i":1e3,"b":5.0,"d":12345678901234567890}')[0]!.fields, [1000, 5n, Decimal.parse('12345678901234567890')]);
    expectFields(decodeAll(dec, '{"i":1e3,"b":5.0,"d":1}')[0]!.fields, [1000, 5n, Decimal.parse('1')]);
    expect(() => decodeAll(dec, '{"b":5.5,"d":12345678901234567890}')).toThrow(/field 'b'/);
  });

  it('reads a DECIMAL that does not fit as NULL, as Flink', () => {
    const type = DataTypes.ROW(FIELD('d', DataTypes.DECIMAL(3, 1)));
    expect(decodeAll(new JsonRowDecoder(type, DEFAULT_JSON_DECODE), '{"d":1234.5}')[0]!.fields[0]).toBeNull();
  });

  it('factory reads options and validates them', () => {
    const f = new JsonFormatFactory();
    expect(f.factoryIdentifier).toBe('json');
    expect(f.optionalOptions().map((o) => o.key)).toContain('timestamp-format.standard');
    const ctx = {} as never;
    const conf = new Configuration({ 'timestamp-format.standard': 'ISO-8601', 'encode.ignore-null-fields': 'true' });
    const type = DataTypes.ROW(FIELD('ts', DataTypes.TIMESTAMP(3)), FIELD('n', DataTypes.INT()));
    const enc = f.createEncodingFormat(ctx, conf).createRuntimeEncoder(type);
    expect(text(enc.serialize(insert([0, null])))).toBe('{"ts":"1970-01-01T00:00:00"}');
    const both = new Configuration({ 'fail-on-missing-field': 'true', 'ignore-parse-errors': 'true' });
    expect(() => f.createDecodingFormat(ctx, both)).toThrow(ValidationError);
    expect(f.createDecodingFormat(ctx, new Configuration()).getChangelogMode().isInsertOnly()).toBe(true);
  });
});
