import { describe, expect, it } from 'vitest';
import { DataTypes, FIELD } from '../../../src/types/data-types.js';
import { Decimal } from '../../../src/types/decimal.js';
import { Row } from '../../../src/types/row.js';
import { RowKind, rowKindShortString } from '../../../src/types/row-kind.js';
import { Configuration } from '../../../src/config/configuration.js';
import { CanalJsonFormatFactory } from '../../../src/formats/canal-json/canal-json-format-factory.js';
import { CanalJsonEncoder } from '../../../src/formats/canal-json/canal-json-encoder.js';
import type { DeserializationSchema } from '../../../src/factories/format.js';
import { DEFAULT_JSON_ENCODE } from '../../../src/formats/json/json-options.js';
import { ValidationError } from '../../../src/errors/sluice-error.js';
import { SCALAR_ROW, SCALAR_TYPE, bytes, expectFields, text } from '../fixtures.js';

const PRODUCTS = DataTypes.ROW(
  FIELD('id', DataTypes.INT()),
  FIELD('name', DataTypes.STRING()),
  FIELD('description', DataTypes.STRING()),
  FIELD('weight', DataTypes.DECIMAL(10, 2)),
);

const UPDATE =
  '{"data":[{"id":"111","name":"scooter","description":"Big 2-wheel scooter","weight":"5.18"}],"database":"inventory","es":1589373560000,"id":9,"isDdl":false,' +
  '"mysqlType":{"id":"int(11)","name":"varchar(255)","description":"varchar(512)","weight":"float"},"old":[{"weight":"5.15"}],"pkNames":["id"],"sql":"",' +
  '"sqlType":{"id":4,"name":12,"description":12,"weight":7},"table":"products","ts":1589373560798,"type":"UPDATE"}';
const INSERT = '{"data":[{"id":"1","name":"a","description":null,"weight":"1.5"},{"id":"2","name":"b","description":"x","weight":"2"}],"database":"inventory","table":"products","isDdl":false,"type":"INSERT"}';
const DELETE = '{"data":[{"id":"1","name":"a","description":null,"weight":"1.5"}],"database":"other","table":"products","isDdl":false,"type":"DELETE"}';
const DDL = '{"data":null,"database":"inventory","table":"products","isDdl":true,"sql":"CREATE TABLE ...","type":"CREATE"}';

const ctx = {} as never;

function decode(decoder: DeserializationSchema, ...messages: string[]): string[] {
  const out: Row[] = [];
  for (const m of messages) decoder.deserialize(bytes(m), out, () => 'topic canal, offset 1');
  return out.map((r) => `${rowKindShortString(r.kind)}${JSON.stringify(r.fields, (_k, v) => (v instanceof Decimal ? v.toString() : v))}`);
}

function decoder(options: Record<string, string> = {}, metadata: string[] = []): DeserializationSchema {
  const fmt = new CanalJsonFormatFactory().createDecodingFormat(ctx, new Configuration(options));
  fmt.applyReadableMetadata!(metadata);
  return fmt.createRuntimeDecoder(PRODUCTS);
}

describe('canal-json format', () => {
  it('decodes INSERT, UPDATE (before from old + unchanged fields) and DELETE; skips DDL', () => {
    expect(decode(decoder(), INSERT, UPDATE, DELETE, DDL)).toEqual([
      '+I[1,"a",null,"1.50"]',
      '+I[2,"b","x","2.00"]',
      '-U[111,"scooter","Big 2-wheel scooter","5.15"]',
      '+U[111,"scooter","Big 2-wheel scooter","5.18"]',
      '-D[1,"a",null,"1.50"]',
    ]);
  });

  it('filters by database.include and table.include (whole-match regexes)', () => {
    expect(decode(decoder({ 'database.include': 'inv.*' }), INSERT, DELETE)).toHaveLength(2);
    expect(decode(decoder({ 'database.include': 'inv' }), INSERT, DELETE)).toHaveLength(0);
    expect(decode(decoder({ 'table.include': 'prod.*' }), DELETE)).toHaveLength(1);
    expect(() => new CanalJsonFormatFactory().createDecodingFormat(ctx, new Configuration({ 'table.include': '(' }))).toThrow(ValidationError);
  });

  it('reads metadata of the last message', () => {
    const dec = decoder({}, ['database', 'table', 'sql-type', 'pk-names', 'ingestion-timestamp', 'event-timestamp']);
    decode(dec, UPDATE);
    const [db, table, sqlType, pk, ts, es] = dec.metadataValues!;
    expect([db, table, pk, ts, es]).toEqual(['inventory', 'products', ['id'], 1589373560798, 1589373560000]);
    expect((sqlType as Map<string, number>).get('weight')).toBe(7);
  });

  it('fails on unknown types and bad rows naming the path, or skips and counts them', () => {
    expect(() => decode(decoder(), '{"data":[],"type":"MERGE"}')).toThrow(/Unknown "type" value "MERGE"/);
    expect(() => decode(decoder(), '{"data":[{"id":"x"}],"type":"INSERT"}')).toThrow(/offset 1\): field 'data.\[0\].id': cannot read "x" as INT/);
    expect(() => decode(decoder(), '{"data":[{"id":"1"}],"type":"UPDATE"}')).toThrow(/"old" array/);
    const lenient = decoder({ 'ignore-parse-errors': 'true' });
    expect(decode(lenient, '{"data":[],"type":"MERGE"}', '{', INSERT)).toHaveLength(2);
    expect((lenient as { skippedRecords: number }).skippedRecords).toBe(2);
  });

  it('encodes a changelog as Flink does (golden) and reads it back', () => {
    const enc = new CanalJsonEncoder(PRODUCTS, DEFAULT_JSON_ENCODE);
    const fields = [1, 'a', null, Decimal.parse('1.50')];
    const msgs = [RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER, RowKind.DELETE].map((k) => text(enc.serialize(new Row(k, fields))));
    expect(msgs[0]).toBe('{"data":[{"id":1,"name":"a","description":null,"weight":1.5}],"type":"INSERT"}');
    expect(msgs[1]).toBe('{"data":[{"id":1,"name":"a","description":null,"weight":1.5}],"type":"DELETE"}');
    expect(decode(decoder(), ...msgs)).toEqual(['+I[1,"a",null,"1.50"]', '-D[1,"a",null,"1.50"]', '+I[1,"a",null,"1.50"]', '-D[1,"a",null,"1.50"]']);
  });

  it('round-trips every scalar type', () => {
    const enc = new CanalJsonEncoder(SCALAR_TYPE, DEFAULT_JSON_ENCODE);
    const dec = new CanalJsonFormatFactory().createDecodingFormat(ctx, new Configuration()).createRuntimeDecoder(SCALAR_TYPE);
    const out: Row[] = [];
    dec.deserialize(enc.serialize(new Row(RowKind.INSERT, SCALAR_ROW)), out);
    expectFields(out[0]!.fields, SCALAR_ROW);
  });
});
