import { serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { ExecutionError } from '../../../src/errors/sluice-error.js';
import { decodeState, encodeState, encodeStateInPieces, registerStateClass } from '../../../src/runtime/state/state-codec.js';
import { StreamedMap } from '../../../src/runtime/state/state-encoder.js';
import { Decimal } from '../../../src/types/decimal.js';
import { Row } from '../../../src/types/row.js';
import { RowKind } from '../../../src/types/row-kind.js';

class Money {
  constructor(readonly cents: bigint) {}
}
registerStateClass('test.codec.Money', Money, (m) => m.cents, (v) => new Money(v as bigint));

class Unregistered {
  x = 1;
}

/**
 * Exact structural equality: Object.is for primitives (so -0 and NaN count), same prototype, same key
 * and entry order. Vitest's toEqual ignores prototypes and key order, which are what a codec can lose.
 */
function same(a: unknown, b: unknown, path = 'value'): void {
  if (typeof a !== 'object' || a === null) {
    if (!Object.is(a, b)) throw new Error(`${path}: expected ${String(a)} (${typeof a}), got ${String(b)} (${typeof b})`);
    return;
  }
  if (typeof b !== 'object' || b === null) throw new Error(`${path}: expected an object, got ${String(b)}`);
  const pa = Object.getPrototypeOf(a) as object | null;
  const pb = Object.getPrototypeOf(b) as object | null;
  // A Buffer comes back as a plain Uint8Array, a null-prototype object as a plain object (documented).
  const expectedProto = a instanceof Uint8Array ? Uint8Array.prototype : pa === null ? Object.prototype : pa;
  if (expectedProto !== pb) throw new Error(`${path}: prototype differs (${a.constructor?.name} vs ${b.constructor?.name})`);
  if (a instanceof Map) {
    const ea = [...a];
    const eb = [...(b as Map<unknown, unknown>)];
    if (ea.length !== eb.length) throw new Error(`${path}: map size ${ea.length} vs ${eb.length}`);
    ea.forEach(([k, v], i) => {
      same(k, eb[i]![0], `${path}.key#${i}`);
      same(v, eb[i]![1], `${path}.get#${i}`);
    });
  } else if (a instanceof Set) {
    same([...a], [...(b as Set<unknown>)], `${path}.values`);
  } else if (a instanceof Row) {
    if (a.kind !== (b as Row).kind) throw new Error(`${path}: row kind ${a.kind} vs ${(b as Row).kind}`);
    same(a.fields, (b as Row).fields, `${path}.fields`);
  } else if (a instanceof Uint8Array) {
    if (Buffer.compare(a, b as Uint8Array) !== 0) throw new Error(`${path}: bytes differ`);
  } else if (a instanceof Date) {
    same(a.getTime(), (b as Date).getTime(), `${path}.time`);
  } else if (a instanceof Decimal) {
    same(a.unscaled, (b as Decimal).unscaled, `${path}.unscaled`);
    same(a.scale, (b as Decimal).scale, `${path}.scale`);
  } else if (Array.isArray(a)) {
    const bb = b as unknown[];
    if (a.length !== bb.length) throw new Error(`${path}: length ${a.length} vs ${bb.length}`);
    for (let i = 0; i < a.length; i++) same(a[i], bb[i], `${path}[${i}]`);
  } else {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.join('\u0000') !== kb.join('\u0000')) throw new Error(`${path}: keys [${ka.join()}] vs [${kb.join()}]`);
    for (const k of ka) same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
  }
}

function roundTrip(v: unknown): unknown {
  const back = decodeState(encodeState(v));
  same(v, back);
  return back;
}

function errorOf(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('state codec: round trips', () => {
  it('keeps undefined, null and booleans', () => {
    for (const v of [undefined, null, true, false]) roundTrip(v);
  });

  it('keeps every number exactly: -0, NaN, ±Infinity, integers at the varint limits, doubles', () => {
    const numbers = [
      0, -0, 1, -1, 63, -64, 127, 128, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, 2 ** 32 + 5, 2 ** 52 - 1, -(2 ** 52 - 1), 2 ** 52, -(2 ** 52),
      Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 2 ** 60, 0.1, -2.5, 1e300, 5e-324, Number.MAX_VALUE, NaN, Infinity, -Infinity,
      1_700_000_000_123, Math.fround(1.1),
    ];
    for (const n of numbers) roundTrip(n);
    roundTrip(numbers);
  });

  it('writes small integers compactly (tag and one varint byte) and doubles as float64', () => {
    const header = encodeState(null).length - 1;
    expect(encodeState(5).length - header).toBe(2);
    expect(encodeState(-64).length - header).toBe(2);
    expect(encodeState(1_700_000_000_123).length - header).toBe(7);
    expect(encodeState(0.5).length - header).toBe(9);
    expect(encodeState(-0).length - header).toBe(9);
    expect(encodeState(42n).length - header).toBe(2);
  });

  it('keeps bigints of any size and sign', () => {
    const big = [0n, 1n, -1n, 2n ** 52n - 1n, -(2n ** 52n - 1n), 2n ** 52n, -(2n ** 52n), 2n ** 63n, 2n ** 64n - 1n, 2n ** 64n, -(2n ** 64n)];
    big.push(-(2n ** 200n + 12_345n), 10n ** 38n - 1n, 3n ** 500n);
    for (const b of big) roundTrip(b);
  });

  it('keeps strings: ASCII, UTF-8 of every width, long ones, and lone surrogates', () => {
    const strings = ['', 'a', 'hello world', 'x'.repeat(63), 'y'.repeat(64), 'z'.repeat(100_000), 'héllo', 'Grüße, 世界', '😀 emoji', 'é'.repeat(5000)];
    strings.push('\ud800', 'a\udc00b', '\udbff\udfff', 'ok \ud83d', `${'long '.repeat(100)}\udfff`, '\u0000nul', '\u007f\u0080');
    for (const s of strings) roundTrip(s);
    // Well-formed strings are UTF-8: 'é' takes 2 bytes, not 2 UTF-16 bytes plus a marker.
    expect(encodeState('é'.repeat(100)).length).toBe(encodeState('').length + 1 + 200);
  });

  it('keeps arrays, reading holes of a sparse array back as undefined', () => {
    roundTrip([]);
    roundTrip([1, 'two', [3n, [null, [undefined]]]]);
    // biome-ignore lint/suspicious/noSparseArray: the hole is what this test stores
    const sparse = [1, , 3];
    const back = decodeState(encodeState(sparse)) as unknown[];
    expect(back).toHaveLength(3);
    expect(1 in back).toBe(true);
    expect(back[1]).toBeUndefined();
  });

  it('keeps plain objects with their key order, undefined properties and a __proto__ key', () => {
    roundTrip({});
    roundTrip({ b: 1, a: 2, z: { y: [1], x: undefined }, 10: 'ten', 2: 'two', 'with space': true, '': 0 });
    const withProto = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const back = decodeState(encodeState(withProto)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.keys(back)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const nullProto = Object.assign(Object.create(null) as object, { k: 1n });
    roundTrip(nullProto);
  });

  it('keeps Map and Set with their insertion order and keys of any kind', () => {
    roundTrip(new Map());
    roundTrip(new Map<unknown, unknown>([[2n, 'b'], [1n, 'a'], ['s', new Map([[1, [1, 2]]])], [null, undefined], [[1, 2], new Set([3])]]));
    roundTrip(new Set<unknown>(['b', 'a', 1n, 2.5, null]));
  });

  it('writes a StreamedMap as the bytes of a Map of its entries, drawing them once, at any count', () => {
    for (const n of [0, 1, 127, 128, 16_384, 20_000]) {
      const entries = Array.from({ length: n }, (_, i): [unknown, unknown] => [i % 3 === 0 ? BigInt(i) : `k${i}`, i % 5 === 0 ? new Money(BigInt(i)) : [i]]);
      let drawn = 0;
      const streamed = new StreamedMap(
        (function* () {
          for (const e of entries) {
            drawn++;
            yield e;
          }
        })(),
      );
      const value = { before: new Money(1n), states: [{ name: 's', entries: streamed }, { name: 't', entries: new Map([[1, 2]]) }], after: 'x' };
      const bytes = encodeState(value);
      expect(drawn).toBe(n);
      expect(Buffer.from(bytes).equals(Buffer.from(encodeState({ ...value, states: [{ name: 's', entries: new Map(entries) }, value.states[1]] })))).toBe(true);
      const back = decodeState(bytes) as { states: Array<{ entries: Map<unknown, unknown> }> };
      expect(back.states[0]!.entries).toBeInstanceOf(Map);
      expect(back.states[0]!.entries.size).toBe(n);
    }
  });

  it('encodes in pieces to the same bytes, large byte arrays as pieces of their own, not copied', () => {
    const big = new Uint8Array(1000).fill(7);
    const value = { a: [big, new Uint8Array([1, 2]), new Money(3n)], b: big.subarray(10), c: new Uint8Array(0), d: new Money(4n) };
    const pieces = encodeStateInPieces(value, 100);
    expect(pieces.filter((p) => p === big)).toHaveLength(1);
    expect(pieces).toHaveLength(5);
    expect(Buffer.concat(pieces).equals(Buffer.from(encodeState(value)))).toBe(true);
    expect(Buffer.concat(encodeStateInPieces(value, Infinity)).equals(Buffer.from(encodeState(value)))).toBe(true);
    expect(() => encodeStateInPieces({ f: () => 1 }, 100)).toThrow(ExecutionError);
  });

  it('encodes a large byte array inside a StreamedMap in place: its count is patched after its entries, so no piece is cut there', () => {
    const big = new Uint8Array(1000).fill(7);
    const entries: [unknown, unknown][] = [['a', big], ['b', 2]];
    const value = { m: new StreamedMap(entries), after: big };
    const pieces = encodeStateInPieces(value, 100);
    expect(Buffer.concat(pieces).equals(Buffer.from(encodeState({ m: new Map(entries), after: big })))).toBe(true);
    expect(pieces.filter((p) => p === big)).toHaveLength(1);
  });

  it('encodes state larger than its 8 MB chunks to the bytes of one buffer: streamed Maps, nested, across chunk ends', () => {
    // About 30 MB: the encoder sets full buffers aside instead of doubling one, and a streamed Map's count
    // patched into a chunk set aside must leave exactly the bytes of a Map.
    const n = 250_000;
    const entries = (from: number): [unknown, unknown][] => Array.from({ length: n }, (_, i): [unknown, unknown] => [`key-${from + i}`, [from + i, 'v'.repeat(i % 40)]]);
    const outer = entries(0);
    const inner = entries(n);
    const streamed = { a: new StreamedMap(outer), nested: new StreamedMap([['in', new StreamedMap(inner)], ['after', 1]]), b: 'end' };
    const plain = { a: new Map(outer), nested: new Map<unknown, unknown>([['in', new Map(inner)], ['after', 1]]), b: 'end' };
    const expected = Buffer.from(encodeState(plain));
    expect(expected.length).toBeGreaterThan(2 * (8 << 20));
    const bytes = Buffer.from(encodeState(streamed));
    expect(bytes.equals(expected)).toBe(true);
    const streamedAgain = { ...streamed, a: new StreamedMap(outer), nested: new StreamedMap([['in', new StreamedMap(inner)], ['after', 1]]) };
    const pieces = encodeStateInPieces(streamedAgain, 1 << 20);
    // Pieces are not copies of a scratch buffer the next encode reuses: they hold their bytes after it.
    encodeState({ overwrite: 'x'.repeat(1 << 20), m: new Map(entries(7)) });
    expect(Buffer.concat(pieces).equals(expected)).toBe(true);
    const back = decodeState(bytes) as { a: Map<string, unknown>; nested: Map<string, Map<string, unknown> | number> };
    expect(back.a.size).toBe(n);
    expect((back.nested.get('in') as Map<string, unknown>).get(`key-${2 * n - 1}`)).toEqual([2 * n - 1, 'v'.repeat((n - 1) % 40)]);
    expect(back.nested.get('after')).toBe(1);
  }, 60_000);

  it('keeps byte arrays; a Buffer comes back as a Uint8Array that does not alias the input', () => {
    roundTrip(new Uint8Array(0));
    roundTrip(new Uint8Array([0, 1, 254, 255]));
    const slice = new Uint8Array([9, 8, 7, 6, 5]).subarray(1, 4);
    roundTrip(slice);
    const bytes = encodeState(Buffer.from('buffer bytes'));
    const back = decodeState(bytes) as Uint8Array;
    expect(back.constructor).toBe(Uint8Array);
    expect(Buffer.from(back).toString()).toBe('buffer bytes');
    bytes.fill(0);
    expect(Buffer.from(back).toString()).toBe('buffer bytes');
  });

  it('keeps Rows with their kind, Decimals, Dates and registered classes, also nested', () => {
    const d = Decimal.parse('-12345678901234567890.125');
    roundTrip(new Row(RowKind.UPDATE_BEFORE, [1n, 'a', null, d, [d, Decimal.parse('0.00')], new Row(RowKind.DELETE, [])]));
    for (const kind of [RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER, RowKind.DELETE]) roundTrip(new Row(kind, [kind]));
    roundTrip([new Date(0), new Date(1_700_000_000_123), new Date(NaN), new Date(-8.64e15)]);
    const back = roundTrip({ m: new Money(-5n), list: [new Money(1n), d, new Money(2n)], map: new Map([['k', d]]) }) as { m: unknown };
    expect(back.m).toBeInstanceOf(Money);
  });

  it('round-trips one value of every SQL type as docs/values.md represents it', () => {
    const row = new Row(RowKind.UPDATE_AFTER, [
      true, // BOOLEAN
      -128, // TINYINT
      32_767, // SMALLINT
      -2_147_483_648, // INT
      -9_223_372_036_854_775_808n, // BIGINT (its minimum: beyond the varint range)
      9_007_199_254_740_993n, // BIGINT beyond 2^53
      Math.fround(3.14), // FLOAT
      -1.7976931348623157e308, // DOUBLE
      Decimal.parse('12345678901234567890123456.789012345678'), // DECIMAL(38, 12)
      Decimal.parse('-0.01'), // DECIMAL(3, 2)
      'fixed     ', // CHAR(10)
      'varchar é 世', // VARCHAR / STRING
      new Uint8Array([0xde, 0xad]), // BINARY
      new Uint8Array(300).fill(7), // VARBINARY / BYTES
      19_723, // DATE: days since epoch
      45_296_789, // TIME(3): ms of day
      -62_135_596_800_000, // TIMESTAMP(3): 0001-01-01
      1_700_000_000_123, // TIMESTAMP_LTZ(3)
      -14, // INTERVAL YEAR TO MONTH: months
      90_061_001, // INTERVAL DAY TO SECOND: ms
      [1, null, 3], // ARRAY<INT>
      [[['deep']]], // ARRAY<ARRAY<ARRAY<STRING>>>
      new Map<unknown, unknown>([[1n, 'a'], [2n, null]]), // MAP<BIGINT, STRING>
      new Map<unknown, unknown>([['x', 2], [null, 1]]), // MULTISET<STRING>
      [1, 'nested', [2n, Decimal.of(5n, 1)]], // ROW<INT, STRING, ROW<BIGINT, DECIMAL>>
      null, // NULL of any type
    ]);
    roundTrip(row);
  });

  it('keeps a realistic keyed-state snapshot', () => {
    const entries: Array<[unknown, unknown]> = [];
    for (let i = 0; i < 1000; i++) entries.push([BigInt(i), [i % 7, BigInt(i) * 99n, new Row(RowKind.INSERT, [BigInt(i), `k${i}`, Decimal.of(BigInt(i), 2)])]]);
    roundTrip({ states: [{ name: 'acc', kind: 'value', entries }, { name: 'm', kind: 'map', entries: [['k', new Map([['a', 'b']])]] }] });
  });

  it('expands a shared reference into copies (identity is not kept: state values are trees)', () => {
    const shared = [1, 2];
    const back = roundTrip({ a: shared, b: shared }) as { a: unknown[]; b: unknown[] };
    expect(back.a).not.toBe(back.b);
  });

  it('handles nesting a few hundred levels deep (nested ROW / ARRAY types)', () => {
    let v: unknown = 'leaf';
    for (let i = 0; i < 600; i++) v = i % 3 === 0 ? new Row(RowKind.INSERT, [v, i]) : i % 3 === 1 ? [v] : { v };
    roundTrip(v);
  });

  it('survives seeded random trees of every kind', () => {
    let seed = 20261202;
    const rand = (): number => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const int = (n: number): number => Math.floor(rand() * n);
    const str = (): string => {
      const alphabet = ['a', 'Z', ' ', 'é', '世', '😀', '\ud800', '\udc00', '\u0000', '~'];
      const n = int(4) === 0 ? int(200) : int(12);
      let s = '';
      for (let i = 0; i < n; i++) s += int(3) === 0 ? alphabet[int(alphabet.length)]! : String.fromCharCode(32 + int(95));
      return s;
    };
    const leaf = (): unknown => {
      switch (int(10)) {
        case 0: return [undefined, null, true, false][int(4)];
        case 1: return int(2 ** 20) - 2 ** 19;
        case 2: return [0, -0, NaN, Infinity, -Infinity, 2 ** 52, -(2 ** 53)][int(7)];
        case 3: return (rand() - 0.5) * 10 ** int(300);
        case 4: return BigInt(int(2 ** 30)) * BigInt(int(2 ** 30)) ** BigInt(int(6)) * (int(2) === 0 ? -1n : 1n);
        case 5: return str();
        case 6: return Uint8Array.from({ length: int(40) }, () => int(256));
        case 7: return Decimal.of(BigInt(int(2 ** 40)) ** BigInt(1 + int(3)) * (int(2) === 0 ? -1n : 1n), int(38));
        case 8: return new Date(int(2 ** 42));
        default: return new Money(BigInt(int(1000)));
      }
    };
    const tree = (depth: number): unknown => {
      if (depth === 0 || int(3) === 0) return leaf();
      const n = int(6);
      const kids = (): unknown[] => Array.from({ length: n }, () => tree(depth - 1));
      switch (int(5)) {
        case 0: return kids();
        case 1: return new Row(int(4) as RowKind, kids());
        case 2: return Object.fromEntries(kids().map((k, i) => [int(2) === 0 ? str() : `k${i}`, k]));
        case 3: return new Map(kids().map((k) => [int(2) === 0 ? str() : BigInt(int(100)), k]));
        default: return new Set(kids());
      }
    };
    for (let i = 0; i < 400; i++) roundTrip(tree(5));
  });
});

describe('state codec: format and compatibility', () => {
  it('writes the SLST header and format version 1, and pins the bytes of a sample value', () => {
    const bytes = encodeState({ a: [1, -1n, 'x', null], r: new Row(RowKind.DELETE, [Decimal.of(5n, 1)]) });
    // 'SLST' 01 | OBJECT 2 | "a" ARRAY 4 INT(1) BIGINT(-1) "x" NULL | "r" ROW kind 3, 1 field, CLASS_DEF "Decimal" ARRAY 2 BIGINT(5) INT(1)
    expect(hex(bytes)).toBe(
      '534c535401' + '1102' + '090161' + '1004' + '0402' + '0601' + '090178' + '01' + '090172' + '150301' + '170907' + Buffer.from('Decimal').toString('hex') + '1002' + '060a' + '0402',
    );
  });

  it('reads state written by earlier releases with node:v8 (fixed bytes, and what serialize writes today)', () => {
    // v8 serialize of the old codec's plain form: Row as { $row, f }, Decimal as { $cls, v }.
    const legacy =
      'ff0f6f220673746174657341016f22046e616d65220361636322046b696e64220576616c75652207656e7472696573410141025a100700000000000000410349065a11d20a1feb8ca954ab6f220424726f77490422016641055a100100000000000000220568e96c6c6f306f220424636c732207446563696d616c22017641025a11393000000000000049042400027b025c01030102ff2400057b022400032400022400017b0324000122016d3b22016b274e000000000000f83f49004e000000000000f87f2c033a022201755f7b03';
    const expected = {
      states: [{ name: 'acc', kind: 'value', entries: [[7n, [3, -12345678901234567890n, new Row(RowKind.UPDATE_AFTER, [1n, 'héllo', null, Decimal.of(-12345n, 2), new Uint8Array([1, 2, 255])])]]] }],
      m: new Map([['k', new Set([1.5, 0, NaN])]]),
      u: undefined,
    };
    same(expected, decodeState(Buffer.from(legacy, 'hex')));
    const plainNow = { $row: 3, f: [{ $cls: 'test.codec.Money', v: 7n }, 'x'] };
    same(new Row(RowKind.DELETE, [new Money(7n), 'x']), decodeState(serialize(plainNow)));
  });

  it('refuses state of a newer format version, naming both versions', () => {
    const future = Buffer.from([0x53, 0x4c, 0x53, 0x54, 0x02, 0x01]);
    const e = errorOf(() => decodeState(future));
    expect(e).toBeInstanceOf(ExecutionError);
    expect(e.message).toContain('state written by a newer Sluice (format version 2); this version reads up to 1');
    expect(errorOf(() => decodeState(Buffer.from([0x53, 0x4c, 0x53, 0x54, 0xac, 0x02]))).message).toContain('format version 300');
  });

  it('gives a clear ExecutionError for every truncation of a state file, never a RangeError', () => {
    const bytes = encodeState({
      n: [1, 2 ** 40, 0.5, -3n, 2n ** 100n, 'héllo', 'ascii', '\ud800', new Uint8Array([1, 2, 3])],
      m: new Map([[1, new Set([new Row(RowKind.INSERT, [Decimal.of(1n, 1), Decimal.of(2n, 0)])])]]),
      d: new Date(5),
    });
    for (let len = 0; len < bytes.length; len++) {
      const e = errorOf(() => decodeState(bytes.subarray(0, len)));
      expect(e, `prefix of ${len} bytes`).toBeInstanceOf(ExecutionError);
      expect(e.message, `prefix of ${len} bytes`).toMatch(/truncated/);
    }
  });

  it('reports corrupt bytes clearly: unknown tag, bad row kind, trailing bytes, a foreign file, an absurd length', () => {
    const head = '534c535401';
    const bad = (h: string): string => errorOf(() => decodeState(Buffer.from(h, 'hex'))).message;
    expect(bad(`${head}7f`)).toMatch(/unknown value tag 0x7f at byte 5; the state file is corrupt/);
    expect(bad(`${head}150900`)).toMatch(/row kind 9/);
    expect(bad(`${head}0101`)).toMatch(/1 bytes after the end of the value/);
    expect(bad(`${head}1801`)).toMatch(/class #1, which was never defined/);
    expect(bad('7b226a736f6e223a317d')).toMatch(/not a Sluice state file/);
    expect(bad(`${head}10ffffffff0f`)).toMatch(/length of 4294967295 but only 0 bytes follow/);
    expect(bad(`${head}1101040001`)).toMatch(/where a string belongs/);
    expect(bad(`${head}17${'0905'}${Buffer.from('Nope!').toString('hex')}01`)).toMatch(/class 'Nope!' .* not registered with registerStateClass/);
    expect(bad(`${head}170907${Buffer.from('Decimal').toString('hex')}01`)).toMatch(/class 'Decimal' at byte 5 cannot be rebuilt/);
  });

  it('refuses values it cannot store, naming the class and where it is, instead of writing {}', () => {
    const state = { states: [{ name: 'acc', entries: [[1n, new Row(RowKind.INSERT, [1, new Unregistered()])]] }] };
    const e = errorOf(() => encodeState(state));
    expect(e).toBeInstanceOf(ExecutionError);
    expect(e.message).toContain("an instance of class 'Unregistered' at state.states[0].entries[0][1].fields[1]");
    expect(e.message).toContain('registerStateClass');
    expect(errorOf(() => encodeState(new Map([['k', function accumulate() {}]]))).message).toContain("a function 'accumulate' at state.get(\"k\")");
    expect(errorOf(() => encodeState([Symbol('s')])).message).toContain('a symbol (Symbol(s)) at state[0]');
    expect(errorOf(() => encodeState({ t: new Int32Array(2) })).message).toContain("class 'Int32Array' at state.t");
    expect(errorOf(() => encodeState(new Set([/re/]))).message).toContain("class 'RegExp'");
  });

  it('refuses a cycle with a clear error instead of overflowing the stack', () => {
    const a: unknown[] = [1];
    const o = { list: [a] };
    a.push(o);
    const e = errorOf(() => encodeState({ root: o }));
    expect(e).toBeInstanceOf(ExecutionError);
    expect(e.message).toMatch(/contains a cycle at state\.root/);
  });

  it('refuses absurd nesting with an ExecutionError, not a RangeError', () => {
    let v: unknown = 1;
    for (let i = 0; i < 200_000; i++) v = [v];
    const e = errorOf(() => encodeState(v));
    expect(e).toBeInstanceOf(ExecutionError);
    expect(e.message).toMatch(/nested too deeply/);
    const deep = Buffer.concat([Buffer.from('534c535401', 'hex'), Buffer.alloc(400_000, Buffer.from('1001', 'hex')), Buffer.from([1])]);
    const d = errorOf(() => decodeState(deep));
    expect(d).toBeInstanceOf(ExecutionError);
    expect(d.message).toMatch(/nested too deeply/);
  });
});

describe('state codec: output', () => {
  it('returns bytes that own their whole ArrayBuffer (not a slice of a shared pool)', () => {
    const a = encodeState({ small: 1 });
    const b = encodeState('x'.repeat(100_000));
    for (const bytes of [a, b]) {
      expect(bytes.byteOffset).toBe(0);
      expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
    }
    // The encoder reuses its scratch space: earlier results must not change.
    expect(decodeState(a)).toEqual({ small: 1 });
  });
});
