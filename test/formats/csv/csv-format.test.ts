import { describe, expect, it } from 'vitest';
import { DataTypes, FIELD } from '../../../src/types/data-types.js';
import type { LogicalType } from '../../../src/types/logical-type.js';
import { Decimal } from '../../../src/types/decimal.js';
import type { Row } from '../../../src/types/row.js';
import { Configuration } from '../../../src/config/configuration.js';
import { CsvRowDecoder } from '../../../src/formats/csv/csv-row-decoder.js';
import { CsvRowEncoder } from '../../../src/formats/csv/csv-row-encoder.js';
import { DEFAULT_CSV } from '../../../src/formats/csv/csv-options.js';
import type { CsvSettings } from '../../../src/formats/csv/csv-options.js';
import { CsvFormatFactory } from '../../../src/formats/csv/csv-format-factory.js';
import { FormatError } from '../../../src/formats/format-error.js';
import { ValidationError } from '../../../src/errors/sluice-error.js';
import { NULL_ROW, SCALAR_ROW, SCALAR_TYPE, bytes, expectFields, insert, text } from '../fixtures.js';

function decodeAll(decoder: CsvRowDecoder, ...messages: string[]): Row[] {
  const out: Row[] = [];
  for (const m of messages) decoder.deserialize(bytes(m), out, () => 'file a.csv, line 3');
  return out;
}

const NULL_LITERAL: CsvSettings = { ...DEFAULT_CSV, nullLiteral: 'null' };

/** Flink's CsvRowDataSerDeSchemaTest: the row (BEGIN, value, END) with null literal 'null'. */
function roundTripField(type: LogicalType, csvValue: string, value: unknown): void {
  const rowType = DataTypes.ROW(FIELD('f0', DataTypes.STRING()), FIELD('f1', type), FIELD('f2', DataTypes.STRING()));
  const line = `BEGIN,${csvValue},END\n`;
  expect(text(new CsvRowEncoder(rowType, NULL_LITERAL).serialize(insert(['BEGIN', value, 'END'])))).toBe(line);
  expectFields(decodeAll(new CsvRowDecoder(rowType, NULL_LITERAL), line)[0]!.fields, ['BEGIN', value, 'END']);
}

describe('csv format', () => {
  it('writes fields exactly as Flink does (golden values from CsvRowDataSerDeSchemaTest)', () => {
    roundTripField(DataTypes.BIGINT(), 'null', null);
    roundTripField(DataTypes.STRING(), '"This is a test."', 'This is a test.');
    roundTripField(DataTypes.STRING(), '"This is a test\n\r."', 'This is a test\n\r.');
    roundTripField(DataTypes.BOOLEAN(), 'true', true);
    roundTripField(DataTypes.TINYINT(), '124', 124);
    roundTripField(DataTypes.SMALLINT(), '10000', 10000);
    roundTripField(DataTypes.INT(), '1234567', 1234567);
    roundTripField(DataTypes.BIGINT(), '12345678910', 12345678910n);
    roundTripField(DataTypes.FLOAT(), '0.33333334', Math.fround(0.33333334));
    roundTripField(DataTypes.DOUBLE(), '0.33333333332', 0.33333333332);
    // Flink 2.x writes a DECIMAL as a number, never quoted (1.20 quoted long ones and those with a '+').
    roundTripField(DataTypes.DECIMAL(38, 25), '1234.0000000000000000000000001', Decimal.parse('1234.0000000000000000000000001'));
    // Flink's encoder strips trailing zeros (Jackson's numberNode), so the value is written in scientific notation
    // (checked against a file written by Flink 2.3.0: `1.234E+29`, unquoted).
    roundTripField(DataTypes.DECIMAL(38, 0), '1.234E+29', Decimal.parse('123400000000000000000000000000'));
    roundTripField(DataTypes.DATE(), '2018-10-12', 17816);
    roundTripField(DataTypes.TIME(0), '12:12:12', 43932000);
    roundTripField(DataTypes.TIME(3), '12:12:12.232', 43932232);
    roundTripField(DataTypes.TIME(2), '12:12:12.23', 43932230);
    roundTripField(DataTypes.TIMESTAMP(0), '"2018-10-12 12:12:12"', Date.UTC(2018, 9, 12, 12, 12, 12));
    roundTripField(DataTypes.TIMESTAMP(3), '"2018-10-12 12:12:12.123"', Date.UTC(2018, 9, 12, 12, 12, 12, 123));
    roundTripField(DataTypes.ROW(FIELD('f0', DataTypes.STRING()), FIELD('f1', DataTypes.INT()), FIELD('f2', DataTypes.BOOLEAN())), 'Hello;42;false', ['Hello', 42, false]);
    roundTripField(DataTypes.ARRAY(DataTypes.STRING()), 'a;b;c', ['a', 'b', 'c']);
    roundTripField(DataTypes.ARRAY(DataTypes.TINYINT()), '12;4;null', [12, 4, null]);
    roundTripField(DataTypes.BYTES(), 'awML', new Uint8Array([107, 3, 11]));
  });

  it('round-trips every scalar type and writes the golden line', () => {
    const enc = new CsvRowEncoder(SCALAR_TYPE, DEFAULT_CSV);
    const line = text(enc.serialize(insert(SCALAR_ROW)));
    expect(line).toBe(
      'true,-128,32767,-2147483648,9007199254740993,1.5,0.1,12345678901234567890.123456789012345678,' +
        '"a ""quoted"", text\nwith ü",awML,2020-01-01,12:34:56,"2020-01-01 12:00:00.123","2020-01-01 12:00:00.123Z"\n',
    );
    expectFields(decodeAll(new CsvRowDecoder(SCALAR_TYPE, DEFAULT_CSV), line)[0]!.fields, SCALAR_ROW);
  });

  it('writes NULL as an empty field and reads empty non-string fields as NULL (BOOLEAN as FALSE, as Flink)', () => {
    const line = text(new CsvRowEncoder(SCALAR_TYPE, DEFAULT_CSV).serialize(insert(NULL_ROW)));
    expect(line).toBe(`${','.repeat(13)}\n`);
    const fields = decodeAll(new CsvRowDecoder(SCALAR_TYPE, DEFAULT_CSV), line)[0]!.fields;
    expect(fields[8]).toBe(''); // STRING: an empty field is the empty string, as in Flink
    expect(fields[0]).toBe(false); // BOOLEAN: Flink's Boolean.parseBoolean("") is false
    expectFields(fields.filter((_, i) => i !== 0 && i !== 8 && i !== 9), NULL_ROW.slice(1, 12));
  });

  it('honours field-delimiter, quote-character, escape-character and disable-quote-character', () => {
    const type = DataTypes.ROW(FIELD('a', DataTypes.STRING()), FIELD('b', DataTypes.INT()));
    const pipe: CsvSettings = { ...DEFAULT_CSV, fieldDelimiter: '|', quoteCharacter: "'" };
    expect(text(new CsvRowEncoder(type, pipe).serialize(insert(["it's", 1])))).toBe("'it''s'|1\n");
    expectFields(decodeAll(new CsvRowDecoder(type, pipe), "'a|b'|2")[0]!.fields, ['a|b', 2]);
    const esc: CsvSettings = { ...DEFAULT_CSV, escapeCharacter: '\\' };
    expectFields(decodeAll(new CsvRowDecoder(type, esc), 'a\\,b,3')[0]!.fields, ['a,b', 3]);
    const noQuote: CsvSettings = { ...DEFAULT_CSV, quoteCharacter: undefined };
    expect(text(new CsvRowEncoder(type, noQuote).serialize(insert(['x y', 1])))).toBe('x y,1\n');
    expectFields(decodeAll(new CsvRowDecoder(type, noQuote), '"x",4')[0]!.fields, ['"x"', 4]);
  });

  it('skips comment lines with allow-comments', () => {
    const type = DataTypes.ROW(FIELD('a', DataTypes.STRING()), FIELD('b', DataTypes.INT()));
    const dec = new CsvRowDecoder(type, { ...DEFAULT_CSV, allowComments: true });
    expect(decodeAll(dec, '# header', 'x,1')).toHaveLength(1);
    expect(() => decodeAll(new CsvRowDecoder(type, DEFAULT_CSV), '# header')).toThrow(FormatError);
  });

  it('fails on bad records naming origin and field', () => {
    const type = DataTypes.ROW(FIELD('a', DataTypes.STRING()), FIELD('b', DataTypes.INT()));
    const dec = new CsvRowDecoder(type, DEFAULT_CSV);
    expect(() => decodeAll(dec, 'x,abc')).toThrow(/Failed to deserialize CSV line \(file a.csv, line 3\): field 'b': cannot read 'abc' as INT/);
    expect(() => decodeAll(dec, 'x,1,2')).toThrow(/Row length mismatch. 2 fields expected but was 3/);
    expect(() => decodeAll(dec, 'x')).toThrow(/Row length mismatch. 2 fields expected but was 1/);
    expect(() => decodeAll(dec, '"x,1')).toThrow(/unterminated quoted field/);
  });

  it('with ignore-parse-errors nulls bad fields and keeps the row, skipping only lines it cannot split (as Flink)', () => {
    const type = DataTypes.ROW(FIELD('a', DataTypes.STRING()), FIELD('b', DataTypes.INT()), FIELD('ts', DataTypes.TIMESTAMP(3)));
    const lenient = new CsvRowDecoder(type, { ...DEFAULT_CSV, ignoreParseErrors: true });
    const rows = decodeAll(lenient, 'x,abc,2020-01-01 00:00:00', 'y,2,not a time', 'z', '"unterminated,1,', 'w,1,,extra', 'v,3,');
    expect(rows.map((r) => r.fields)).toEqual([
      ['x', null, Date.UTC(2020, 0, 1)],
      ['y', 2, null],
      // Too few fields: the missing ones are NULL (Flink checks the arity only without ignore-parse-errors).
      ['z', null, null],
      ['v', 3, null],
    ]);
    // The unterminated quote and the extra field (Jackson's "Too many entries") cannot be mapped to the row.
    expect(lenient.skippedRecords).toBe(2);
  });

  it('with ignore-parse-errors nulls bad ARRAY elements and nested ROW fields', () => {
    const type = DataTypes.ROW(FIELD('xs', DataTypes.ARRAY(DataTypes.INT())), FIELD('r', DataTypes.ROW(FIELD('p', DataTypes.INT()), FIELD('q', DataTypes.BOOLEAN()))));
    const strict = new CsvRowDecoder(type, DEFAULT_CSV);
    expect(() => decodeAll(strict, '1;x;3,5')).toThrow(/field 'xs.\[1\]'/);
    expect(() => decodeAll(strict, '1,5')).toThrow(/Row length mismatch. 2 fields expected but was 1/);
    const lenient = new CsvRowDecoder(type, { ...DEFAULT_CSV, ignoreParseErrors: true });
    expect(decodeAll(lenient, '1;x;3,y;true', '2,5').map((r) => r.fields)).toEqual([
      [[1, null, 3], [null, true]],
      [[2], [5, null]],
    ]);
    expect(lenient.skippedRecords).toBe(0);
  });

  it('rejects MAP and nested collections when the codec is built', () => {
    expect(() => new CsvRowEncoder(DataTypes.ROW(FIELD('m', DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()))), DEFAULT_CSV)).toThrow(ValidationError);
    expect(() => new CsvRowDecoder(DataTypes.ROW(FIELD('a', DataTypes.ARRAY(DataTypes.ARRAY(DataTypes.INT())))), DEFAULT_CSV)).toThrow(ValidationError);
  });

  it('factory validates options as Flink', () => {
    const f = new CsvFormatFactory();
    const ctx = {} as never;
    expect(() => f.createDecodingFormat(ctx, new Configuration({ 'field-delimiter': ';;' }))).toThrow(/single character/);
    expect(() => f.createEncodingFormat(ctx, new Configuration({ 'disable-quote-character': 'true', 'quote-character': "'" }))).toThrow(ValidationError);
    const type = DataTypes.ROW(FIELD('a', DataTypes.STRING()), FIELD('b', DataTypes.DECIMAL(10, 9)));
    const enc = f.createEncodingFormat(ctx, new Configuration({ 'field-delimiter': '\\t', 'null-literal': 'N', 'write-bigdecimal-in-scientific-notation': 'false' })).createRuntimeEncoder(type);
    expect(text(enc.serialize(insert([null, Decimal.parse('0.000000027')])))).toBe('N\t0.000000027\n');
    expect(text(new CsvRowEncoder(type, DEFAULT_CSV).serialize(insert(['', Decimal.parse('0.000000027')])))).toBe(',2.7E-8\n');
  });
});

describe('splitCsvRecords', () => {
  it('keeps quoted line breaks inside a record and returns the unterminated tail', async () => {
    const { splitCsvRecords } = await import('../../../src/formats/csv/csv-record-splitter.js');
    expect(splitCsvRecords('a,1\r\n"x\ny",2\n"q""\n",3\ntail', DEFAULT_CSV)).toEqual({ records: ['a,1', '"x\ny",2', '"q""\n",3'], rest: 'tail' });
    expect(splitCsvRecords('a,1\nb,2\n', DEFAULT_CSV)).toEqual({ records: ['a,1', 'b,2'], rest: '' });
    expect(splitCsvRecords('a\\\nb,1\n', { ...DEFAULT_CSV, escapeCharacter: '\\' })).toEqual({ records: ['a\\\nb,1'], rest: '' });
    const rows = decodeAll(new CsvRowDecoder(DataTypes.ROW(FIELD('s', DataTypes.STRING()), FIELD('n', DataTypes.INT())), DEFAULT_CSV), ...splitCsvRecords('"x\ny",2\n', DEFAULT_CSV).records);
    expectFields(rows[0]!.fields, ['x\ny', 2]);
  });
});
