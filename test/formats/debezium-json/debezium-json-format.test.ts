import { describe, expect, it } from 'vitest';
import { DataTypes, FIELD } from '../../../src/types/data-types.js';
import { Decimal } from '../../../src/types/decimal.js';
import { PreciseTimestamp } from '../../../src/types/values/precise-timestamp.js';
import type { Row } from '../../../src/types/row.js';
import { RowKind, rowKindShortString } from '../../../src/types/row-kind.js';
import { Configuration } from '../../../src/config/configuration.js';
import { DebeziumJsonFormatFactory } from '../../../src/formats/debezium-json/debezium-json-format-factory.js';
import { DebeziumJsonDecoder } from '../../../src/formats/debezium-json/debezium-json-decoder.js';
import { DebeziumJsonEncoder } from '../../../src/formats/debezium-json/debezium-json-encoder.js';
import { DEFAULT_JSON_ENCODE } from '../../../src/formats/json/json-options.js';
import { FormatError } from '../../../src/formats/format-error.js';
import { ValidationError } from '../../../src/errors/sluice-error.js';
import { SCALAR_ROW, SCALAR_TYPE, bytes, expectFields, text } from '../fixtures.js';
import { Row as SluiceRow } from '../../../src/types/row.js';

const PRODUCTS = DataTypes.ROW(
  FIELD('id', DataTypes.INT()),
  FIELD('name', DataTypes.STRING()),
  FIELD('description', DataTypes.STRING()),
  FIELD('weight', DataTypes.DECIMAL(10, 2)),
);

const SOURCE =
  '{"version":"1.1.1.Final","connector":"mysql","name":"dbserver1","ts_ms":1589362330000,"snapshot":"false","db":"inventory","table":"products","server_id":223344,"file":"mysql-bin.000003","pos":2090,"row":0}';
const UPDATE = `{"before":{"id":111,"name":"scooter","description":"Big 2-wheel scooter","weight":5.18},"after":{"id":111,"name":"scooter","description":"Big 2-wheel scooter","weight":5.15},"source":${SOURCE},"op":"u","ts_ms":1589362330904,"transaction":null}`;
const INSERT = '{"before":null,"after":{"id":101,"name":"scooter","description":"Small 2-wheel scooter","weight":3.14},"op":"c","ts_ms":1}';
const READ = '{"before":null,"after":{"id":102,"name":"car battery","description":"12V","weight":8.1},"op":"r"}';
const DELETE = '{"before":{"id":111,"name":"scooter","description":"Big 2-wheel scooter","weight":5.15},"after":null,"op":"d"}';

const ctx = {} as never;

function decode(decoder: { deserialize: DebeziumJsonDecoder['deserialize'] }, ...messages: string[]): Row[] {
  const out: Row[] = [];
  for (const m of messages) decoder.deserialize(bytes(m), out, () => 'topic products, partition 0, offset 9');
  return out;
}

function show(rows: Row[]): string[] {
  return rows.map((r) => `${rowKindShortString(r.kind)}${JSON.stringify(r.fields, (_k, v) => (v instanceof Decimal ? v.toString() : v))}`);
}

describe('debezium-json format', () => {
  it('decodes c, r, u and d into +I, +I, -U/+U and -D', () => {
    const dec = new DebeziumJsonFormatFactory().createDecodingFormat(ctx, new Configuration()).createRuntimeDecoder(PRODUCTS);
    expect(show(decode(dec, INSERT, READ, UPDATE, DELETE, ''))).toEqual([
      '+I[101,"scooter","Small 2-wheel scooter","3.14"]',
      '+I[102,"car battery","12V","8.10"]',
      '-U[111,"scooter","Big 2-wheel scooter","5.18"]',
      '+U[111,"scooter","Big 2-wheel scooter","5.15"]',
      '-D[111,"scooter","Big 2-wheel scooter","5.15"]',
    ]);
  });

  it('keeps the microseconds of a TIMESTAMP(6) and the nanoseconds of a TIMESTAMP_LTZ(9) in before and after', () => {
    const type = DataTypes.ROW(FIELD('id', DataTypes.INT()), FIELD('ts', DataTypes.TIMESTAMP(6)), FIELD('ltz', DataTypes.TIMESTAMP_LTZ(9)));
    const dec = new DebeziumJsonFormatFactory().createDecodingFormat(ctx, new Configuration()).createRuntimeDecoder(type);
    const before = '{"id":1,"ts":"2024-01-01 10:00:00.123456","ltz":"2024-01-01 10:00:00.123456789Z"}';
    const after = '{"id":1,"ts":"2024-01-01 10:00:00.123457","ltz":"2024-01-01 10:00:00Z"}';
    const rows = decode(dec, `{"before":${before},"after":${after},"op":"u"}`);
    expect(rows.map((r) => [r.kind, ...r.fields])).toEqual([
      [RowKind.UPDATE_BEFORE, 1, new PreciseTimestamp(1_704_103_200_123, 456_000), new PreciseTimestamp(1_704_103_200_123, 456_789)],
      [RowKind.UPDATE_AFTER, 1, new PreciseTimestamp(1_704_103_200_123, 457_000), 1_704_103_200_000],
    ]);
  });

  it('reads the schema envelope with schema-include and hints at it without', () => {
    const wrapped = `{"schema":{"type":"struct","optional":false},"payload":${INSERT}}`;
    const f = new DebeziumJsonFormatFactory();
    const withSchema = f.createDecodingFormat(ctx, new Configuration({ 'schema-include': 'true' }));
    withSchema.applyReadableMetadata!(['schema']);
    const dec = withSchema.createRuntimeDecoder(PRODUCTS);
    expect(show(decode(dec, wrapped))).toEqual(['+I[101,"scooter","Small 2-wheel scooter","3.14"]']);
    expect(dec.metadataValues).toEqual(['{"type":"struct","optional":false}']);
    const plain = f.createDecodingFormat(ctx, new Configuration()).createRuntimeDecoder(PRODUCTS);
    expect(() => decode(plain, wrapped)).toThrow(/schema-include' = 'true'/);
  });

  it('exposes Flink’s metadata keys and reads them per message', () => {
    const fmt = new DebeziumJsonFormatFactory().createDecodingFormat(ctx, new Configuration());
    expect([...fmt.listReadableMetadata!().keys()]).toEqual([
      'schema',
      'ingestion-timestamp',
      'source.timestamp',
      'source.database',
      'source.schema',
      'source.table',
      'source.properties',
    ]);
    fmt.applyReadableMetadata!(['source.table', 'ingestion-timestamp', 'source.timestamp', 'source.database', 'source.properties']);
    const dec = fmt.createRuntimeDecoder(PRODUCTS);
    decode(dec, UPDATE);
    const values = dec.metadataValues!;
    expect(values.slice(0, 4)).toEqual(['products', 1589362330904, 1589362330000, 'inventory']);
    expect((values[4] as Map<string, string>).get('server_id')).toBe('223344');
  });

  it('fails on an update without before (REPLICA IDENTITY hint), an unknown op, bad fields; or skips them', () => {
    const dec = new DebeziumJsonFormatFactory().createDecodingFormat(ctx, new Configuration()).createRuntimeDecoder(PRODUCTS);
    expect(() => decode(dec, '{"before":null,"after":{"id":1},"op":"u"}')).toThrow(/REPLICA IDENTITY to FULL/);
    expect(() => decode(dec, '{"op":"x"}')).toThrow(/Unknown "op" value "x"/);
    expect(() => decode(dec, '{"after":{"id":"one"},"op":"c"}')).toThrow(/offset 9\): field 'after.id': cannot read "one" as INT/);
    expect(() => decode(dec, '{"after":{"id":"one"},"op":"c"}')).toThrow(FormatError);
    const lenient = new DebeziumJsonFormatFactory().createDecodingFormat(ctx, new Configuration({ 'ignore-parse-errors': 'true' })).createRuntimeDecoder(PRODUCTS);
    expect(decode(lenient, '{"op":"x"}', 'garbage', INSERT)).toHaveLength(1);
    expect(lenient.skippedRecords).toBe(2);
  });

  it('encodes a changelog as Flink does (golden) and decodes it back', () => {
    const enc = new DebeziumJsonEncoder(PRODUCTS, DEFAULT_JSON_ENCODE);
    const fields = [1, 'a', null, Decimal.parse('1.50')];
    const kinds = [RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER, RowKind.DELETE];
    const msgs = kinds.map((k) => text(enc.serialize(new SluiceRow(k, fields))));
    expect(msgs).toEqual([
      '{"before":null,"after":{"id":1,"name":"a","description":null,"weight":1.5},"op":"c"}',
      '{"before":{"id":1,"name":"a","description":null,"weight":1.5},"after":null,"op":"d"}',
      '{"before":null,"after":{"id":1,"name":"a","description":null,"weight":1.5},"op":"c"}',
      '{"before":{"id":1,"name":"a","description":null,"weight":1.5},"after":null,"op":"d"}',
    ]);
    const dec = new DebeziumJsonFormatFactory().createDecodingFormat(ctx, new Configuration()).createRuntimeDecoder(PRODUCTS);
    expect(decode(dec, ...msgs).map((r) => r.kind)).toEqual([RowKind.INSERT, RowKind.DELETE, RowKind.INSERT, RowKind.DELETE]);
  });

  it('round-trips every scalar type', () => {
    const enc = new DebeziumJsonEncoder(SCALAR_TYPE, DEFAULT_JSON_ENCODE);
    const dec = new DebeziumJsonFormatFactory().createDecodingFormat(ctx, new Configuration()).createRuntimeDecoder(SCALAR_TYPE);
    const rows = decode(dec, text(enc.serialize(new SluiceRow(RowKind.INSERT, SCALAR_ROW))));
    expectFields(rows[0]!.fields, SCALAR_ROW);
  });

  it('refuses schema-include for encoding, as Flink', () => {
    expect(() => new DebeziumJsonFormatFactory().createEncodingFormat(ctx, new Configuration({ 'schema-include': 'true' }))).toThrow(ValidationError);
  });
});
