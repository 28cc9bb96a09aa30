import { describe, expect, expectTypeOf, it } from 'vitest';
import { ValidationError } from '../../src/errors/sluice-error.js';
import { ConfigOptions } from '../../src/config/config-options.js';
import type { ConfigOption } from '../../src/config/config-option.js';
import { Configuration } from '../../src/config/configuration.js';
import { isSecretKey, maskSecrets } from '../../src/config/secrets.js';

const MODE = ConfigOptions.key('scan.startup.mode')
  .enumType(['earliest-offset', 'latest-offset', 'group-offsets'] as const)
  .defaultValue('group-offsets')
  .withDescription('where to start');
const INTERVAL = ConfigOptions.key('execution.checkpointing.interval').durationType().noDefaultValue();
const TIMEOUT = ConfigOptions.key('t.timeout').durationType().defaultValue(600_000);
const MEM = ConfigOptions.key('t.mem').memoryType().defaultValue(64 * 1024);
const PAR = ConfigOptions.key('parallelism.default').intType().defaultValue(1);
const BIG = ConfigOptions.key('t.long').longType().noDefaultValue();
const RATIO = ConfigOptions.key('t.ratio').doubleType().defaultValue(1.5);
const FLAG = ConfigOptions.key('table.dml-sync').booleanType().defaultValue(false);
const NAMES = ConfigOptions.key('t.names').stringType().asList().defaultValues('a');
const INTS = ConfigOptions.key('t.ints').intType().asList().noDefaultValue();
const PROPS = ConfigOptions.key('t.props').mapType().noDefaultValue();
const PASSWORD = ConfigOptions.key('properties.sasl.password').intType().noDefaultValue();

function conf(entries: Record<string, string>): Configuration {
  return new Configuration(entries, { logger: { warn: () => undefined } });
}

function errorOf(f: () => unknown): ValidationError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationError);
    return e as ValidationError;
  }
  throw new Error('expected a ValidationError');
}

describe('ConfigOptions builder', () => {
  it('infers value types', () => {
    expectTypeOf(MODE).toEqualTypeOf<ConfigOption<'earliest-offset' | 'latest-offset' | 'group-offsets'>>();
    expectTypeOf(INTERVAL).toEqualTypeOf<ConfigOption<number | undefined>>();
    expectTypeOf(PAR).toEqualTypeOf<ConfigOption<number>>();
    expectTypeOf(NAMES).toEqualTypeOf<ConfigOption<readonly string[]>>();
    expect(MODE.key).toBe('scan.startup.mode');
    expect(MODE.description).toBe('where to start');
    expect(MODE.defaultValue).toBe('group-offsets');
    expect(MODE.typeDescriptor).toEqual({ kind: 'enum', values: ['earliest-offset', 'latest-offset', 'group-offsets'] });
    expect(INTERVAL.hasDefaultValue).toBe(false);
    expect(INTS.typeDescriptor).toEqual({ kind: 'list', element: { kind: 'int' } });
  });

  it('marks secret keys', () => {
    expect(PASSWORD.secret).toBe(true);
    expect(MODE.secret).toBe(false);
    for (const k of ['properties.sasl.jaas.config', 'security.auth-token', 'my.secret', 'api.token', 'Password']) {
      expect(isSecretKey(k)).toBe(true);
    }
    expect(isSecretKey('topic')).toBe(false);
    expect(maskSecrets({ topic: 't', 'properties.sasl.jaas.config': 'x' })).toEqual({
      topic: 't',
      'properties.sasl.jaas.config': '******',
    });
  });
});

describe('option value parsing', () => {
  it('parses durations to ms', () => {
    const cases: Array<[string, number]> = [
      ['30 s', 30_000],
      ['5 min', 300_000],
      ['500ms', 500],
      ['1 h', 3_600_000],
      ['2 d', 172_800_000],
      ['250', 250],
      ['10 SECONDS', 10_000],
      ['3m', 180_000],
    ];
    for (const [text, ms] of cases) expect(conf({ 't.timeout': text }).get(TIMEOUT)).toBe(ms);
    const e = errorOf(() => conf({ 't.timeout': '1.5 s' }).get(TIMEOUT));
    expect(e.message).toBe(
      "Invalid value for option 't.timeout': '1.5 s'. Expected a duration such as '10 s', '5 min', '500 ms', '1 h' or '2 d' (a bare number is milliseconds).",
    );
    expect(() => conf({ 't.timeout': '5 fortnights' }).get(TIMEOUT)).toThrow(ValidationError);
  });

  it('parses memory sizes to bytes', () => {
    expect(conf({ 't.mem': '128 mb' }).get(MEM)).toBe(128 * 1024 * 1024);
    expect(conf({ 't.mem': '1g' }).get(MEM)).toBe(1024 ** 3);
    expect(conf({ 't.mem': '64kb' }).get(MEM)).toBe(65_536);
    expect(conf({ 't.mem': '100' }).get(MEM)).toBe(100);
    expect(() => conf({ 't.mem': 'lots' }).get(MEM)).toThrow(/Expected a memory size such as '64 kb'/);
  });

  it('parses enums case-insensitively to the canonical value', () => {
    expect(conf({ 'scan.startup.mode': 'EARLIEST-Offset' }).get(MODE)).toBe('earliest-offset');
    expect(conf({}).get(MODE)).toBe('group-offsets');
    const e = errorOf(() => conf({ 'scan.startup.mode': 'newest' }).get(MODE));
    expect(e.message).toBe(
      "Invalid value for option 'scan.startup.mode': 'newest'. Expected one of [earliest-offset, latest-offset, group-offsets].",
    );
  });

  it('parses booleans, ints, longs, doubles with range checks', () => {
    expect(conf({ 'table.dml-sync': 'TRUE' }).get(FLAG)).toBe(true);
    expect(conf({ 'table.dml-sync': 'false' }).get(FLAG)).toBe(false);
    expect(() => conf({ 'table.dml-sync': 'yes' }).get(FLAG)).toThrow(/Expected 'true' or 'false'/);
    expect(conf({ 'parallelism.default': ' 4 ' }).get(PAR)).toBe(4);
    expect(() => conf({ 'parallelism.default': '2147483648' }).get(PAR)).toThrow(/between -2147483648 and 2147483647/);
    expect(() => conf({ 'parallelism.default': '1.5' }).get(PAR)).toThrow(ValidationError);
    expect(conf({ 't.long': '9007199254740991' }).get(BIG)).toBe(9007199254740991);
    expect(() => conf({ 't.long': '9007199254740993' }).get(BIG)).toThrow(ValidationError);
    expect(conf({ 't.ratio': '2.5e1' }).get(RATIO)).toBe(25);
    expect(() => conf({ 't.ratio': 'abc' }).get(RATIO)).toThrow(/Expected a number/);
  });

  it('parses lists and maps, with quoting', () => {
    expect(conf({ 't.names': 'a;b; c' }).get(NAMES)).toEqual(['a', 'b', 'c']);
    expect(conf({ 't.names': "'x;y';z" }).get(NAMES)).toEqual(['x;y', 'z']);
    expect(conf({}).get(NAMES)).toEqual(['a']);
    expect(conf({ 't.ints': '1;2;3' }).get(INTS)).toEqual([1, 2, 3]);
    expect(() => conf({ 't.ints': '1;x' }).get(INTS)).toThrow(/a list separated by ';' of an integer/);
    expect(conf({ 't.props': 'k1:v1,k2:v2' }).get(PROPS)).toEqual({ k1: 'v1', k2: 'v2' });
    expect(() => conf({ 't.props': 'k1' }).get(PROPS)).toThrow(/Expected a map such as 'k1:v1,k2:v2'/);
  });

  it('masks secret values in errors', () => {
    const e = errorOf(() => conf({ 'properties.sasl.password': 'hunter2' }).get(PASSWORD));
    expect(e.message).toContain("'******'");
    expect(e.message).not.toContain('hunter2');
  });
});

describe('Configuration', () => {
  it('stores typed values canonically and reads them back', () => {
    const c = conf({});
    c.set(TIMEOUT, 30_000).set(MEM, 128 * 1024 * 1024).set(NAMES, ['a;b', 'c']).set(MODE, 'latest-offset');
    c.set(PROPS, { a: '1', 'b:c': 'd,e' });
    expect(c.toMap()).toMatchObject({ 't.timeout': '30 s', 't.mem': '128 mb', 't.names': "'a;b';c", 'scan.startup.mode': 'latest-offset' });
    expect(c.get(TIMEOUT)).toBe(30_000);
    expect(c.get(NAMES)).toEqual(['a;b', 'c']);
    expect(c.get(PROPS)).toEqual({ a: '1', 'b:c': 'd,e' });
    expect(() => c.set(PAR, 1.5)).toThrow(ValidationError);
  });

  it('applies defaults only in get, not getOptional', () => {
    const c = conf({});
    expect(c.get(PAR)).toBe(1);
    expect(c.getOptional(PAR)).toBeUndefined();
    expect(c.get(INTERVAL)).toBeUndefined();
    c.set('parallelism.default', '3');
    expect(c.getOptional(PAR)).toBe(3);
  });

  it('reads fallback keys silently and deprecated keys with one warning naming the new key', () => {
    const DIR = ConfigOptions.key('execution.checkpointing.dir').stringType().noDefaultValue().withFallbackKeys('state.checkpoints.dir');
    const PATH = ConfigOptions.key('execution.state-recovery.path').stringType().noDefaultValue().withDeprecatedKeys('execution.savepoint.path');
    const warnings: string[] = [];
    const c = new Configuration(
      { 'state.checkpoints.dir': '/chk', 'execution.savepoint.path': '/sp' },
      { logger: { warn: (m) => warnings.push(m) } },
    );
    expect(c.get(DIR)).toBe('/chk');
    expect(warnings).toEqual([]);
    expect(c.get(PATH)).toBe('/sp');
    expect(c.get(PATH)).toBe('/sp');
    expect(warnings).toEqual([
      "Config uses deprecated configuration key 'execution.savepoint.path' instead of proper key 'execution.state-recovery.path'",
    ]);
    c.set(PATH, '/new');
    expect(c.get(PATH)).toBe('/new');
    expect(c.contains(DIR)).toBe(true);
    expect(c.remove(DIR)).toBe(true);
    expect(c.contains(DIR)).toBe(false);
  });

  it('names the key the bad value was found under', () => {
    const OPT = ConfigOptions.key('new.key').intType().defaultValue(1).withDeprecatedKeys('old.key');
    expect(() => conf({ 'old.key': 'x' }).get(OPT)).toThrow(/Invalid value for option 'old.key': 'x'/);
  });

  it('clones, merges, lists keys and takes sub-configurations', () => {
    const a = conf({ x: '1', 'json.fail-on-missing-field': 'true' });
    const b = a.clone();
    b.set('y', '2');
    expect(a.keys()).toEqual(['x', 'json.fail-on-missing-field']);
    expect(b.keys()).toEqual(['x', 'json.fail-on-missing-field', 'y']);
    a.addAll({ z: '3' }, 'p.');
    a.addAll(b);
    expect(a.toMap()).toEqual({ x: '1', 'json.fail-on-missing-field': 'true', 'p.z': '3', y: '2' });
    expect(a.subConfiguration('json.').toMap()).toEqual({ 'fail-on-missing-field': 'true' });
    expect(a.remove('nope')).toBe(false);
    expect(conf({ 'a.password': 'p' }).toMaskedMap()).toEqual({ 'a.password': '******' });
  });
});
