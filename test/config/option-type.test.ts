// The option value types' edge cases, as the zod schemas they replaced decided them (option-type.ts parses
// with plain code since start-up stopped loading zod): typed values given to `Configuration.set`, blanks,
// non-finite numbers, and objects for maps.
import { describe, expect, it } from 'vitest';
import { OptionTypes } from '../../src/config/option-type.js';

const ok = (value: unknown) => ({ ok: true, value });
const bad = { ok: false };

describe('OptionTypes', () => {
  it('takes a value already of the type, but only a finite number for the numeric types', () => {
    expect(OptionTypes.boolean.parse(true)).toEqual(ok(true));
    expect(OptionTypes.int.parse(7)).toEqual(ok(7));
    expect(OptionTypes.int.parse(1.5)).toEqual(bad);
    expect(OptionTypes.int.parse(2 ** 31)).toEqual(bad);
    expect(OptionTypes.long.parse(2 ** 53)).toEqual(bad);
    expect(OptionTypes.double.parse(0.25)).toEqual(ok(0.25));
    for (const n of [Number.NaN, Number.POSITIVE_INFINITY]) expect(OptionTypes.double.parse(n)).toEqual(bad);
    expect(OptionTypes.duration.parse(1500)).toEqual(ok(1500));
    expect(OptionTypes.duration.parse(-1)).toEqual(bad);
    expect(OptionTypes.memory.parse(1.5)).toEqual(bad);
    expect(OptionTypes.string.parse(5)).toEqual(bad);
    expect(OptionTypes.int.parse(5n)).toEqual(bad);
  });

  it("reads a local directory written as a path or as Flink's file: URI, and refuses other file systems", () => {
    expect(OptionTypes.localPath.parse('file:///tmp/checkpoints')).toEqual(ok('/tmp/checkpoints'));
    expect(OptionTypes.localPath.parse('file:/tmp/a%20b')).toEqual(ok('/tmp/a b'));
    expect(OptionTypes.localPath.parse('/var/sluice/chk')).toEqual(ok('/var/sluice/chk'));
    expect(OptionTypes.localPath.parse('relative/chk')).toEqual(ok('relative/chk'));
    for (const uri of ['s3://bucket/chk', 'hdfs://namenode:8020/flink/chk', 'file://remote-host/chk']) expect(OptionTypes.localPath.parse(uri)).toEqual(bad);
    expect(OptionTypes.localPath.expectation()).toContain("'file:///...' URI");
  });

  it('reads text: blanks around numbers and booleans, Infinity and NaN spelled out for doubles', () => {
    expect(OptionTypes.boolean.parse(' True ')).toEqual(ok(true));
    expect(OptionTypes.int.parse('+5')).toEqual(ok(5));
    expect(OptionTypes.int.parse('-2147483648')).toEqual(ok(-(2 ** 31)));
    expect(OptionTypes.int.parse('1e3')).toEqual(bad);
    expect(OptionTypes.long.parse('99999999999999999999')).toEqual(bad);
    expect(OptionTypes.double.parse(' -Infinity ')).toEqual(ok(Number.NEGATIVE_INFINITY));
    expect(OptionTypes.double.parse('NaN')).toEqual(ok(Number.NaN));
    expect(OptionTypes.double.parse('.5')).toEqual(ok(0.5));
    expect(OptionTypes.double.parse('5.')).toEqual(ok(5));
    expect(OptionTypes.double.parse('')).toEqual(bad);
  });

  it('takes a plain object of strings as a map, and nothing else', () => {
    expect(OptionTypes.map.parse({ a: 'b' })).toEqual(ok({ a: 'b' }));
    expect(OptionTypes.map.parse(Object.assign(Object.create(null) as object, { a: 'b' }))).toEqual(ok({ a: 'b' }));
    for (const v of [{ a: 1 }, ['a:b'], new Map([['a', 'b']]), null]) expect(OptionTypes.map.parse(v)).toEqual(bad);
  });

  it('matches enum text ignoring case and blanks, and no other type', () => {
    const mode = OptionTypes.enumOf(['EXACTLY_ONCE', 'AT_LEAST_ONCE'] as const);
    expect(mode.parse(' exactly_once ')).toEqual(ok('EXACTLY_ONCE'));
    expect(mode.parse(1)).toEqual(bad);
  });

  it('parses list elements with the element type, from text or an array', () => {
    const ints = OptionTypes.listOf(OptionTypes.int);
    expect(ints.parse('1;2')).toEqual(ok([1, 2]));
    expect(ints.parse(['1', 2])).toEqual(ok([1, 2]));
    expect(ints.parse('1;x')).toEqual(bad);
  });
});
