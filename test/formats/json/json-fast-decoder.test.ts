import { describe, expect, it } from 'vitest';
import { DataTypes, FIELD } from '../../../src/types/data-types.js';
import type { RowType } from '../../../src/types/logical-type.js';
import { Decimal } from '../../../src/types/decimal.js';
import { createJsonFastDecoder } from '../../../src/formats/json/json-fast-decoder.js';
import { containsDecimal, createJsonRowConverter } from '../../../src/formats/json/json-to-row.js';
import type { JsonDecodeSettings } from '../../../src/formats/json/json-to-row.js';
import { readJson } from '../../../src/formats/json/json-tree.js';
import { DEFAULT_JSON_DECODE } from '../../../src/formats/json/json-options.js';
import { bytes, expectFields } from '../fixtures.js';

const TYPE = DataTypes.ROW(
  FIELD('id', DataTypes.BIGINT()),
  FIELD('n', DataTypes.INT()),
  FIELD('name', DataTypes.STRING()),
  FIELD('ok', DataTypes.BOOLEAN()),
  FIELD('x', DataTypes.DOUBLE()),
  FIELD('ts', DataTypes.TIMESTAMP(3)),
  FIELD('dec', DataTypes.DECIMAL(10, 2)),
);

/** The general path's result, or the error it throws. */
function general(type: RowType, settings: JsonDecodeSettings, text: string): unknown[] | Error {
  try {
    return readJson(text, containsDecimal(type), createJsonRowConverter(type, settings));
  } catch (e) {
    return e as Error;
  }
}

/** Runs the fast path; it must either decline (undefined / a throw) or agree with the general path. */
function fastAgrees(type: RowType, settings: JsonDecodeSettings, text: string): 'fast' | 'declined' {
  const fast = createJsonFastDecoder(type, settings)!;
  let got: unknown[] | undefined;
  try {
    got = fast(bytes(text));
  } catch {
    got = undefined;
  }
  if (got === undefined) return 'declined';
  const expected = general(type, settings, text);
  if (expected instanceof Error) throw new Error(`fast path read ${text} although the general path fails: ${expected.message}`);
  expectFields(got, expected);
  return 'fast';
}

describe('json fast decoder', () => {
  it('reads the common shape itself, exactly as the general path', () => {
    const common = [
      '{"id":1,"n":-2,"name":"abc","ok":true,"x":1.5,"ts":"2020-01-01 12:00:00.123","dec":"12.30"}',
      ' { "id" : 9007199254740991 , "n" : 0 , "name" : "" , "ok" : false , "x" : -1e-3 , "ts" : "2020-02-29 23:59:59" , "dec" : 1.5 } \n',
      '{"id":null,"n":null,"name":null,"ok":null,"x":null,"ts":null,"dec":null}',
      '{"id":-0,"n":"7","name":"ü \\"quoted\\" \\u00e9","ok":"TRUE","x":"NaN","ts":"2020-01-01 00:00:00.1","dec":0}',
      '{"id":1,"n":2}',
      '{}',
      '{"id":"12","n":1e3,"name":"x","ok":1,"x":12345678901234567890,"ts":"1999-12-31 00:00:00.5","dec":-0.5}',
    ];
    for (const m of common) expect(fastAgrees(TYPE, DEFAULT_JSON_DECODE, m), m).toBe('fast');
    const [first] = [createJsonFastDecoder(TYPE, DEFAULT_JSON_DECODE)!(bytes(common[0]!))!];
    expectFields(first, [1n, -2, 'abc', true, 1.5, Date.UTC(2020, 0, 1, 12, 0, 0, 123), Decimal.parse('12.30')]);
  });

  it('declines what it does not read itself, and never accepts what the general path rejects', () => {
    const unusual = [
      '{"n":1,"id":2}', // another key order
      '{"id":1,"extra":2}', // an unknown key
      '{"id":1,"id":2}', // a duplicate key
      '{"id":9007199254740993}', // beyond 2^53: exact parse
      '{"id":1,"n":2,"name":3}', // a number in a STRING column
      '{"id":1,"n":2,"name":"a","ok":true,"x":1,"ts":"2020-01-01 00:00:00","dec":1234567890.1234567}', // long DECIMAL
      '{"id":[1]}',
      '{"id":1,}',
      '{"id":01}',
      '{"id":1.}',
      '{"id":-}',
      '{"id":1} x',
      '{"name":"a\u0001"}',
      '{"id":1',
      '[1]',
      '{"n":3000000000}',
      '{"n":1.5}',
      '{"ts":"2020-02-30 00:00:00"}',
      '{"ts":"2020-01-01 24:00:00"}',
      '{"ts":"2020-01-01T00:00:00"}', // ISO text under the SQL standard
      '{"id":tru}',
      '',
    ];
    for (const m of unusual) fastAgrees(TYPE, DEFAULT_JSON_DECODE, m);
    expect(fastAgrees(TYPE, DEFAULT_JSON_DECODE, '{"n":1,"id":2}')).toBe('declined');
    expect(fastAgrees(TYPE, DEFAULT_JSON_DECODE, '{"id":01}')).toBe('declined');
    expect(fastAgrees(TYPE, DEFAULT_JSON_DECODE, '{"ts":"2020-02-30 00:00:00"}')).toBe('declined');
  });

  it('leaves missing fields to the general path under fail-on-missing-field and nulls bad values under ignore-parse-errors', () => {
    expect(fastAgrees(TYPE, { ...DEFAULT_JSON_DECODE, failOnMissingField: true }, '{"id":1}')).toBe('declined');
    const lenient = { ...DEFAULT_JSON_DECODE, ignoreParseErrors: true };
    expect(fastAgrees(TYPE, lenient, '{"id":1,"n":"abc","name":"a","ok":true,"x":1,"ts":"yesterday","dec":"x"}')).toBe('fast');
  });

  it('agrees with the general path on random messages', () => {
    let seed = 42;
    const rnd = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const values = ['1', '-12', '0', '1.25', '"s"', '"2020-01-01 00:00:00.001"', 'null', 'true', 'false', '"12"', '1e2', '{"a":1}', '"é"', '"\\n"', '99999999999999999'];
    const names = TYPE.fields.map((f) => f.name);
    let fast = 0;
    for (let k = 0; k < 400; k++) {
      const count = rnd(names.length + 1);
      const parts: string[] = [];
      for (let i = 0; i < count; i++) parts.push(`${JSON.stringify(rnd(10) === 0 ? names[rnd(names.length)] : names[i])}:${values[rnd(values.length)]}`);
      if (fastAgrees(TYPE, DEFAULT_JSON_DECODE, `{${parts.join(rnd(2) === 0 ? ',' : ' , ')}}`) === 'fast') fast++;
    }
    expect(fast).toBeGreaterThan(10);
  });
});
