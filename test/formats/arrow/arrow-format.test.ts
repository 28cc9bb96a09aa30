import { describe, expect, it } from 'vitest';
import * as A from 'apache-arrow';
import { DataTypes, FIELD } from '../../../src/types/data-types.js';
import { Decimal } from '../../../src/types/decimal.js';
import { Configuration } from '../../../src/config/configuration.js';
import { ArrowBulkDecoder } from '../../../src/formats/arrow/arrow-bulk-decoder.js';
import { ArrowBulkEncoder } from '../../../src/formats/arrow/arrow-bulk-encoder.js';
import { ArrowFormatFactory } from '../../../src/formats/arrow/arrow-format-factory.js';
import { FormatError } from '../../../src/formats/format-error.js';
import { SCALAR_ROW, SCALAR_TYPE, NULL_ROW, expectFields, insert } from '../fixtures.js';

const NESTED = DataTypes.ROW(
  FIELD('arr', DataTypes.ARRAY(DataTypes.BIGINT())),
  FIELD('m', DataTypes.MAP(DataTypes.STRING(), DataTypes.DECIMAL(5, 2))),
  FIELD('ms', DataTypes.MULTISET(DataTypes.STRING())),
  FIELD('r', DataTypes.ROW(FIELD('x', DataTypes.INT()), FIELD('d', DataTypes.DATE()))),
  FIELD('ts6', DataTypes.TIMESTAMP(6)),
  FIELD('iym', DataTypes.INTERVAL_YEAR_MONTH()),
  FIELD('idt', DataTypes.INTERVAL_DAY_TIME()),
  FIELD('tm3', DataTypes.TIME(3)),
  FIELD('n', DataTypes.NULL()),
  FIELD('f', DataTypes.FLOAT()),
);

const NESTED_ROW = [
  [1n, null, -9007199254740993n],
  new Map([['a', Decimal.parse('-1.25')], ['b', null]]),
  new Map([['x', 3]]),
  [7, 18262],
  -1234,
  14,
  90061001,
  45296789,
  null,
  Math.fround(0.1),
];

describe('arrow format', () => {
  it('round-trips every scalar type exactly through an IPC stream and file', () => {
    for (const ipcFormat of ['stream', 'file'] as const) {
      const enc = new ArrowBulkEncoder(SCALAR_TYPE, { ipcFormat, batchSize: 2 });
      const data = enc.encode([insert(SCALAR_ROW), insert(NULL_ROW), insert(SCALAR_ROW)]);
      const rows = new ArrowBulkDecoder(SCALAR_TYPE).decode(data);
      expect(rows).toHaveLength(3);
      expectFields(rows[0]!.fields, SCALAR_ROW);
      expectFields(rows[1]!.fields, NULL_ROW);
      expectFields(rows[2]!.fields, SCALAR_ROW);
    }
  });

  it('writes the Arrow types of the mapping (Int64, Decimal128, Timestamp ms/us, Date32)', () => {
    const data = new ArrowBulkEncoder(SCALAR_TYPE, { ipcFormat: 'stream', batchSize: 10 }).encode([insert(SCALAR_ROW)]);
    const table = A.tableFromIPC(data);
    const t = (name: string): string => String(table.schema.fields.find((f) => f.name === name)!.type);
    expect(t('big')).toBe('Int64');
    expect(t('dec')).toBe('Decimal[38e+18]');
    expect(t('dt')).toBe('Date32<DAY>');
    expect(t('ts')).toBe('Timestamp<MILLISECOND>');
    expect(t('ltz')).toBe('Timestamp<MILLISECOND, UTC>');
    expect(table.getChild('big')!.get(0)).toBe(9007199254740993n);
    const nested = A.tableFromIPC(new ArrowBulkEncoder(NESTED, { ipcFormat: 'stream', batchSize: 10 }).encode([insert(NESTED_ROW)]));
    expect(String(nested.schema.fields.find((f) => f.name === 'ts6')!.type)).toBe('Timestamp<MICROSECOND>');
  });

  it('round-trips ARRAY, MAP, MULTISET, ROW, TIMESTAMP(6), intervals and TIME(3)', () => {
    const data = new ArrowBulkEncoder(NESTED, { ipcFormat: 'file', batchSize: 10 }).encode([insert(NESTED_ROW), insert(NESTED_ROW.map(() => null))]);
    const rows = new ArrowBulkDecoder(NESTED).decode(data);
    expectFields(rows[0]!.fields, NESTED_ROW);
    expectFields(rows[1]!.fields, NESTED_ROW.map(() => null));
  });

  it('reads columns by name, in the order of the physical type', () => {
    const data = new ArrowBulkEncoder(SCALAR_TYPE, { ipcFormat: 'stream', batchSize: 10 }).encode([insert(SCALAR_ROW)]);
    const projected = DataTypes.ROW(FIELD('s', DataTypes.STRING()), FIELD('big', DataTypes.BIGINT()));
    expectFields(new ArrowBulkDecoder(projected).decode(data)[0]!.fields, [SCALAR_ROW[8], SCALAR_ROW[4]]);
  });

  it('reads non-ASCII strings and an empty file', () => {
    const type = DataTypes.ROW(FIELD('s', DataTypes.STRING()));
    const enc = new ArrowBulkEncoder(type, { ipcFormat: 'stream', batchSize: 10 });
    expectFields(new ArrowBulkDecoder(type).decode(enc.encode([insert(['ü€']), insert(['a'])]))[1]!.fields, ['a']);
    expect(new ArrowBulkDecoder(type).decode(enc.encode([]))).toEqual([]);
  });

  it('fails with a FormatError naming the origin for garbage and for a missing column', () => {
    const dec = new ArrowBulkDecoder(DataTypes.ROW(FIELD('nope', DataTypes.INT())));
    expect(() => dec.decode(new Uint8Array([1, 2, 3]), () => 'file /data/x.arrow')).toThrow(FormatError);
    const data = new ArrowBulkEncoder(SCALAR_TYPE, { ipcFormat: 'stream', batchSize: 10 }).encode([insert(SCALAR_ROW)]);
    expect(() => dec.decode(data, () => 'file /data/x.arrow')).toThrow(/file \/data\/x.arrow.*column 'nope' is missing/);
  });

  it('factory builds bulk formats from options', () => {
    const f = new ArrowFormatFactory();
    const ctx = {} as never;
    const enc = f.createBulkEncodingFormat(ctx, new Configuration({ 'ipc-format': 'file', 'batch-size': '1' })).createBulkEncoder(SCALAR_TYPE);
    expect(enc.fileExtension).toBe('arrow');
    const data = enc.encode([insert(SCALAR_ROW), insert(SCALAR_ROW)]);
    expect(A.tableFromIPC(data).batches).toHaveLength(2);
    expect(f.createBulkDecodingFormat(ctx, new Configuration()).createBulkDecoder(SCALAR_TYPE).decode(data)).toHaveLength(2);
    expect(() => f.createBulkEncodingFormat(ctx, new Configuration({ 'batch-size': '0' }))).toThrow(/batch-size/);
  });
});
