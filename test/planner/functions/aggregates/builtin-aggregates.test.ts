import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../../src/errors/sluice-error.js';
import { DataTypes as T } from '../../../../src/types/data-types.js';
import { Decimal } from '../../../../src/types/decimal.js';
import type { LogicalType } from '../../../../src/types/logical-type.js';
import { typeToString } from '../../../../src/types/type-to-string.js';
import { decodeValue, encodeValue } from '../../../../src/types/values/state-codec.js';
import { createBuiltinRegistry } from '../../../../src/planner/functions/builtin-registry.js';
import type { AggregateCallOptions, AggregateFunctionDefinition } from '../../../../src/planner/functions/function-definition.js';

const registry = createBuiltinRegistry();

function agg(name: string, types: LogicalType[], options: Partial<AggregateCallOptions> = {}) {
  const def = registry.lookup(name) as AggregateFunctionDefinition;
  const opts = { distinct: false, ...options };
  const f = def.create(types, opts);
  const acc = f.createAccumulator();
  return {
    type: typeToString(def.inferType(types, opts)),
    add: (...vs: unknown[][]) => { for (const v of vs) f.accumulate(acc, ...v); },
    remove: (...vs: unknown[][]) => { for (const v of vs) f.retract!(acc, ...v); },
    value: () => f.getValue(acc),
    f,
    acc,
  };
}

const d = (s: string): Decimal => Decimal.parse(s);

describe('built-in aggregates', () => {
  it('COUNT(*) and COUNT(x) with retraction (DISTINCT is the operators\' part: test/api/distinct-aggregates.test.ts)', () => {
    const star = agg('COUNT', [], { star: true });
    star.add([], [], []);
    star.remove([]);
    expect(star.value()).toBe(2n);
    expect(star.type).toBe('BIGINT NOT NULL');
    const c = agg('COUNT', [T.INT()]);
    c.add([1], [null], [2]);
    expect(c.value()).toBe(2n);
  });
  it('SUM keeps the input type (INT wraps), DECIMAL(38, s), NULL when empty; SUM0 gives 0', () => {
    const s = agg('SUM', [T.INT()]);
    expect(s.type).toBe('INT');
    expect(s.value()).toBe(null);
    s.add([1], [null], [2]);
    expect(s.value()).toBe(3);
    s.remove([1], [2]);
    expect(s.value()).toBe(null);
    const b = agg('SUM', [T.BIGINT()]);
    b.add([9007199254740993n], [1n]);
    expect(b.value()).toBe(9007199254740994n);
    const dec = agg('SUM', [T.DECIMAL(10, 2)]);
    expect(dec.type).toBe('DECIMAL(38, 2)');
    dec.add([d('0.10')], [d('0.20')]);
    expect(String(dec.value())).toBe('0.30');
    const z = agg('$SUM0', [T.INT()]);
    expect(z.value()).toBe(0);
    expect(z.type).toBe('INT NOT NULL');
  });
  it('AVG of integers stays integral; DECIMAL uses Flink avg type', () => {
    const a = agg('AVG', [T.INT()]);
    expect(a.type).toBe('INT');
    a.add([1], [2]);
    expect(a.value()).toBe(1);
    a.add([2147483647]);
    expect(a.value()).toBe(715827883);
    const ad = agg('AVG', [T.DECIMAL(10, 2)]);
    expect(ad.type).toBe('DECIMAL(38, 6)');
    ad.add([d('1.00')], [d('2.00')], [d('2.00')]);
    expect(String(ad.value())).toBe('1.666667');
    const dbl = agg('AVG', [T.DOUBLE()]);
    dbl.add([1], [2]);
    expect(dbl.value()).toBe(1.5);
  });
  it('MIN / MAX retract through a sorted count list', () => {
    const mx = agg('MAX', [T.INT()]);
    mx.add([3], [7], [7], [1], [null]);
    expect(mx.value()).toBe(7);
    mx.remove([7]);
    expect(mx.value()).toBe(7);
    mx.remove([7]);
    expect(mx.value()).toBe(3);
    const mn = agg('MIN', [T.STRING()]);
    mn.add(['b'], ['a'], ['c']);
    mn.remove(['a']);
    expect(mn.value()).toBe('b');
    const md = agg('MIN', [T.DECIMAL(5, 2)]);
    md.add([d('1.50')], [d('1.25')]);
    expect(String(md.value())).toBe('1.25');
    mn.remove(['b'], ['c']);
    expect(mn.value()).toBe(null);
  });
  it('LISTAGG, FIRST_VALUE, LAST_VALUE, ARRAY_AGG, COLLECT', () => {
    const l = agg('LISTAGG', [T.STRING()]);
    l.add(['a'], [null], ['b']);
    expect(l.value()).toBe('a,b');
    const l2 = agg('LISTAGG', [T.STRING(), T.STRING()]);
    l2.add(['a', '|'], ['b', '|']);
    l2.remove(['a', '|']);
    l2.add(['c', '|']);
    expect(l2.value()).toBe('b|c');
    const fv = agg('FIRST_VALUE', [T.INT()]);
    fv.add([null], [5], [6]);
    expect(fv.value()).toBe(5);
    fv.remove([5]);
    expect(fv.value()).toBe(6);
    const lv = agg('LAST_VALUE', [T.INT()]);
    lv.add([5], [6], [null]);
    expect(lv.value()).toBe(6);
    const aa = agg('ARRAY_AGG', [T.INT()]);
    aa.add([1], [null], [2]);
    expect(aa.value()).toEqual([1, null, 2]);
    const co = agg('COLLECT', [T.STRING()]);
    co.add(['x'], ['y'], ['x']);
    expect(co.value()).toEqual(new Map([['x', 2], ['y', 1]]));
    expect(co.type).toBe('MULTISET<STRING> NOT NULL');
  });
  it('variance family', () => {
    const vp = agg('VAR_POP', [T.DOUBLE()]);
    vp.add([2], [4], [4], [4], [5], [5], [7], [9]);
    expect(vp.value()).toBe(4);
    const sp = agg('STDDEV_POP', [T.DOUBLE()]);
    sp.add([2], [4], [4], [4], [5], [5], [7], [9]);
    expect(sp.value()).toBe(2);
    const vs = agg('VAR_SAMP', [T.DOUBLE()]);
    vs.add([1]);
    expect(vs.value()).toBe(null);
    vs.add([3]);
    expect(vs.value()).toBe(2);
    vs.remove([3]);
    expect(vs.value()).toBe(null);
    expect(agg('STDDEV_SAMP', [T.INT()]).type).toBe('INT');
  });
  it('merges accumulators and survives the state codec', () => {
    const def = registry.lookup('SUM') as AggregateFunctionDefinition;
    const f = def.create([T.BIGINT()], { distinct: false });
    const a = f.createAccumulator();
    const b = f.createAccumulator();
    f.accumulate(a, 1n);
    f.accumulate(b, 2n);
    f.merge!(a, b);
    const restored = decodeValue(encodeValue(a));
    expect(f.getValue(restored)).toBe(3n);
    const mx = (registry.lookup('MAX') as AggregateFunctionDefinition).create([T.DECIMAL(5, 2)], { distinct: false });
    const m = mx.createAccumulator();
    mx.accumulate(m, d('2.50'));
    expect(String(mx.getValue(decodeValue(encodeValue(m))))).toBe('2.50');
  });
  it('restores the accumulator of a DISTINCT ARRAY_AGG, COLLECT or variance call from a checkpoint that wrapped it', () => {
    // The layout earlier releases wrote: the definition applied DISTINCT itself, as { seen, inner }.
    const wrapped = (inner: unknown, seen: [unknown, number][]) => decodeValue(encodeValue({ seen: new Map(seen), inner }));
    const aa = agg('ARRAY_AGG', [T.INT()]).f;
    const a = wrapped({ items: [1, 2] }, [[1, 1], [2, 1]]);
    aa.accumulate(a, 3);
    aa.retract!(a, 1);
    expect(aa.getValue(a)).toEqual([2, 3]);
    const co = agg('COLLECT', [T.STRING()]).f;
    const c = wrapped({ counts: new Map([['x', ['x', 1]]]) }, [['x', 1]]);
    co.accumulate(c, 'y');
    expect(co.getValue(c)).toEqual(new Map([['x', 1], ['y', 1]]));
    const vp = agg('VAR_POP', [T.DOUBLE()]).f;
    const v = wrapped({ n: 2, sum: 6, sumSq: 20 }, [[2, 1], [4, 1]]);
    vp.accumulate(v, 6);
    expect(vp.getValue(v)).toBeCloseTo(8 / 3, 12);
    const fresh = vp.createAccumulator();
    vp.merge!(fresh, v);
    expect(vp.getValue(fresh)).toBeCloseTo(8 / 3, 12);
  });
  it('re-keys a COLLECT accumulator that a checkpoint holds with the older key form, so a value keeps one count', () => {
    // Releases before keyed COLLECT's entries as d:<decimal>, b:<hex>, j:<json>; a restored map is re-keyed once.
    const co = agg('COLLECT', [T.DECIMAL(5, 2)]).f;
    const old = decodeValue(encodeValue({ counts: new Map<unknown, [unknown, number]>([['d:1.5', [d('1.50'), 2]], ['d:2', [d('2.00'), 1]]]) })) as ReturnType<typeof co.createAccumulator>;
    co.accumulate(old, d('1.5'));
    co.retract!(old, d('2'));
    const counts = [...(co.getValue(old) as Map<Decimal, number>)].map(([v, n]) => [v.toString(), n]);
    expect(counts).toEqual([['1.50', 3]]);
    const restoredAgain = decodeValue(encodeValue(old)) as ReturnType<typeof co.createAccumulator>;
    co.accumulate(restoredAgain, d('1.500'));
    expect([...(co.getValue(restoredAgain) as Map<Decimal, number>).values()]).toEqual([4]);
  });
  it('rejects wrong argument types with the message a query gets', () => {
    expect(() => (registry.lookup('SUM') as AggregateFunctionDefinition).inferType([T.STRING()], { distinct: false })).toThrow(ValidationError);
    expect(() => (registry.lookup('SUM') as AggregateFunctionDefinition).inferType([T.STRING()], { distinct: false })).toThrow("Cannot apply 'SUM' to arguments of type 'SUM(<VARCHAR(2147483647)>)'");
  });
});
