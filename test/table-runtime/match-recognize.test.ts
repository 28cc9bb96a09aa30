import { describe, expect, it } from 'vitest';
import { builtinAggregate } from '../../src/table-runtime/aggregates/builtin-aggregates.js';
import { MatchRecognizeOperator } from '../../src/table-runtime/match-recognize/match-recognize-operator.js';
import type { MatchExpr, MatchRecognizeSpec, MatchRef, PatternElement, SkipStrategy } from '../../src/table-runtime/match-recognize/match-spec.js';
import { DataTypes } from '../../src/types/data-types.js';
import { Row } from '../../src/types/row.js';
import { RowKind } from '../../src/types/row-kind.js';
import { OperatorHarness } from './fake-context.js';

// Input rows: [key, ts, price]. Expressions are written by hand (the planner compiles them in a real job).
const PRICE = (f: readonly unknown[]): unknown => f[2];
const TS = (f: readonly unknown[]): unknown => f[1];
const last = (variable: string | null, offset = 0, value = PRICE): MatchRef => ({ kind: 'nav', variable, from: 'last', offset, value });
const first = (variable: string | null, offset = 0, value = PRICE): MatchRef => ({ kind: 'nav', variable, from: 'first', offset, value });
/** PREV(price, n): the planner makes it LAST(*.price, n), the n-th row before the current one in the match. */
const prev = (n: number): MatchRef => last(null, n);
const sum = (variable: string | null): MatchRef => ({ kind: 'agg', variable, create: () => builtinAggregate('SUM', [DataTypes.INT()], DataTypes.INT()), args: [PRICE] });
const expr = (refs: MatchRef[], evaluate: (v: readonly unknown[]) => unknown): MatchExpr => ({ refs, evaluate });
/** `v.price op n` over the candidate row. */
const cmp = (v: string, op: '<' | '>' | '<=' | '>=', n: number): MatchExpr =>
  expr([last(v)], ([p]) => (p === null ? null : op === '<' ? (p as number) < n : op === '>' ? (p as number) > n : op === '<=' ? (p as number) <= n : (p as number) >= n));
/** Greedy by default where the planner makes it so: a range of more than one row. */
const el = (variable: string, min = 1, max: number | null = 1, greedy = max === null || (max > min && max > 1)): PatternElement => ({ variable, min, max, greedy });

function spec(over: Partial<MatchRecognizeSpec> & Pick<MatchRecognizeSpec, 'pattern'>): MatchRecognizeSpec {
  return {
    partitionKeys: [0],
    timeIndex: 1,
    time: 'event',
    order: [],
    skip: { kind: 'past-last-row' },
    withinMs: null,
    defines: new Map(),
    measures: [expr([first(null, 0, TS)], ([t]) => t), expr([last(null, 0, TS)], ([t]) => t)],
    ...over,
  };
}

const row = (k: string, ts: number, price: number): Row => new Row(RowKind.INSERT, [k, ts, price]);
const prices = (ps: readonly number[], k = 'x'): Row[] => ps.map((p, i) => row(k, i + 1, p));

/** Runs prices 1..n (ts = position) through the operator in event time; returns [key, first ts, last ts, ...] per match. */
async function run(s: MatchRecognizeSpec, ps: readonly number[]): Promise<unknown[][]> {
  const h = await new OperatorHarness(new MatchRecognizeOperator(s)).open();
  h.push(prices(ps)).watermark(1000);
  return h.out.map((r) => r.fields as unknown[]);
}

describe('MATCH_RECOGNIZE operator', () => {
  it('{n} takes exactly n rows, {n,m} greedily up to m', async () => {
    const defines = new Map([['A', cmp('A', '<', 5)]]);
    expect(await run(spec({ pattern: [el('A', 2, 2), el('B')], defines }), [1, 2, 3, 9, 1, 1, 9])).toEqual([
      ['x', 1, 3],
      ['x', 5, 7],
    ]);
    // Greedy as Flink compiles it: B may take only a row A refuses, even once A holds three rows. From 1, A is
    // full at 3 and 4 is A's, so that partial match dies; from 2, A takes 2 3 4 and B gets 9.
    expect(await run(spec({ pattern: [el('A', 1, 3), el('B')], defines }), [1, 2, 3, 4, 9])).toEqual([['x', 2, 5]]);
  });

  it('a reluctant {n,}? stops as soon as the next variable can take the row', async () => {
    const defines = new Map([
      ['A', cmp('A', '<', 5)],
      ['B', cmp('B', '<', 5)],
    ]);
    // Reluctant: 1 2 | 3 is a match; it leaves once the partial match from the same start (A taking 3, 4) dies at 9.
    expect(await run(spec({ pattern: [el('A', 2, null, false), el('B')], defines }), [1, 2, 3, 4, 9])).toEqual([['x', 1, 3]]);
    // Greedy: A keeps every row below 5, and 9 is no B.
    expect(await run(spec({ pattern: [el('A', 2, null, true), el('B')], defines }), [1, 2, 3, 4, 9])).toEqual([]);
  });

  it('? is not greedy: the match without the optional row ends first and wins (as in Flink 2.3.0)', async () => {
    const defines = new Map([
      ['A', cmp('A', '<', 5)],
      ['B', cmp('B', '>', 10)],
      ['C', cmp('C', '>', 5)],
    ]);
    // A B? C: 1 20 is A C (20 > 5) before 1 20 7 is A B C; 2 8 is A C.
    expect(await run(spec({ pattern: [el('A'), el('B', 0, 1), el('C')], defines }), [1, 20, 7, 2, 8])).toEqual([
      ['x', 1, 2],
      ['x', 4, 5],
    ]);
  });

  const skipData = [7, 9, 10, 5, 10, 7, 14];
  const skipSpec = (skip: SkipStrategy): MatchRecognizeSpec =>
    spec({ pattern: [el('A', 1, null), el('C')], skip, defines: new Map([['A', expr([sum('A')], ([s]) => (s as number) < 30)]]), measures: [expr([sum('A')], ([s]) => s), expr([first(null, 0, TS)], ([t]) => t)] });

  it.each<[SkipStrategy, unknown[][]]>([
    [{ kind: 'past-last-row' }, [['x', 26, 1], ['x', 17, 5]]],
    [{ kind: 'to-next-row' }, [['x', 26, 1], ['x', 24, 2], ['x', 25, 3], ['x', 22, 4], ['x', 17, 5]]],
    [{ kind: 'to-last', variable: 'A' }, [['x', 26, 1], ['x', 25, 3], ['x', 17, 5]]],
    // The next match may start at the first C (row 4): 5 10 7 | 14.
    [{ kind: 'to-first', variable: 'C' }, [['x', 26, 1], ['x', 22, 4]]],
  ])('AFTER MATCH %j gives the Flink docs rows', async (skip, expected) => {
    expect(await run(skipSpec(skip), skipData)).toEqual(expected);
  });

  it('SKIP TO FIRST of the first variable fails at run time (the next match would start where this one did)', async () => {
    await expect(run(skipSpec({ kind: 'to-first', variable: 'A' }), skipData)).rejects.toThrow('Could not skip to first element of a match.');
  });

  it('PREV reads the row before in the match, LAST(v, n) the n-th last row of v', async () => {
    // A+ rising by PREV, B falls below LAST(A.price, 1) (the second last A).
    const defines = new Map([
      ['A', expr([prev(1), last('A')], ([p, a]) => p === null || (a as number) > (p as number))],
      ['B', expr([last('B'), last('A', 1)], ([b, a1]) => a1 !== null && (b as number) < (a1 as number))],
    ]);
    const measures = [expr([first('A'), last('A'), last('B')], (v) => v.join('/'))];
    expect(await run(spec({ pattern: [el('A', 1, null), el('B')], defines, measures }), [1, 2, 5, 1, 9])).toEqual([['x', '1/5/1']]);
  });

  it('WITHIN drops a partial match whose rows span the interval or more', async () => {
    const defines = new Map([
      ['A', cmp('A', '<', 5)],
      ['B', cmp('B', '>', 5)],
    ]);
    const s = spec({ pattern: [el('A'), el('X', 0, null, false), el('B')], defines, withinMs: 3 });
    // From t1 (1) to t4 (9) spans 3 >= 3: dropped; from t2 (3) to t4 spans 2: found.
    expect(await run(s, [1, 3, 3, 9])).toEqual([['x', 2, 4]]);
  });

  it('a found match waits for an earlier partial match, and leaves when WITHIN times that one out', async () => {
    // A B+? C: the partial started at t1 keeps running (B takes anything), so the match from t2 must wait.
    const defines = new Map([
      ['A', cmp('A', '<', 5)],
      ['C', cmp('C', '>', 100)],
      ['B', expr([last('B'), first('A')], ([b, a]) => (a as number) === 1 || (b as number) < 50)],
    ]);
    const s = spec({ pattern: [el('A'), el('B', 1, null, false), el('C')], defines, withinMs: 10, skip: { kind: 'to-next-row' } });
    const h = await new OperatorHarness(new MatchRecognizeOperator(s)).open();
    h.push([row('x', 1, 1), row('x', 2, 2), row('x', 3, 60), row('x', 4, 7), row('x', 5, 200)]).watermark(5);
    // t1..t5 is a match, but the partial match from t1 (B takes 200 too, reluctantly) is still running.
    expect(h.out).toEqual([]);
    h.push([row('x', 6, 3), row('x', 7, 4), row('x', 8, 150)]).watermark(8);
    // The match t6..t8 (3, 4, 150) is found too; both wait for the partial match from t1.
    expect(h.out).toEqual([]);
    // It times out at t11 (WITHIN 10): both leave, in order of their first row.
    h.watermark(11);
    expect(h.out.map((r) => r.fields)).toEqual([
      ['x', 1, 5],
      ['x', 6, 8],
    ]);
  });

  it('orders rows by time before matching and drops rows behind the watermark', async () => {
    const defines = new Map([
      ['A', cmp('A', '<', 5)],
      ['B', cmp('B', '>', 5)],
    ]);
    const op = new MatchRecognizeOperator(spec({ pattern: [el('A'), el('B')], defines }));
    const h = await new OperatorHarness(op).open();
    h.push([row('x', 2, 9), row('x', 1, 1)]).watermark(2);
    h.push([row('x', 2, 1), row('x', 3, 1), row('x', 4, 8)]).watermark(10);
    expect(h.out.map((r) => r.fields)).toEqual([
      ['x', 1, 2],
      ['x', 3, 4],
    ]);
    expect(op.lateRecordsDropped).toBe(1);
  });

  it('keeps partitions apart', async () => {
    const defines = new Map([
      ['A', cmp('A', '<', 5)],
      ['B', cmp('B', '>', 5)],
    ]);
    const h = await new OperatorHarness(new MatchRecognizeOperator(spec({ pattern: [el('A'), el('B')], defines }))).open();
    h.push([row('x', 1, 1), row('y', 2, 1), row('x', 3, 9), row('y', 4, 2), row('y', 5, 9)]).watermark(10);
    expect(h.out.map((r) => r.fields)).toEqual([
      ['x', 1, 3],
      ['y', 4, 5],
    ]);
  });

  it('processing time feeds rows as they arrive', async () => {
    const defines = new Map([
      ['A', cmp('A', '<', 5)],
      ['B', cmp('B', '>', 5)],
    ]);
    const s = spec({ pattern: [el('A'), el('B')], defines, time: 'processing', measures: [expr([first('A'), last('B')], (v) => v.join('/'))] });
    const h = await new OperatorHarness(new MatchRecognizeOperator(s)).open();
    h.push([row('x', 9, 1)]);
    h.push([row('x', 1, 7)]);
    expect(h.out.map((r) => r.fields)).toEqual([['x', '1/7']]);
  });

  it('resumes from a snapshot of its keyed state and timers with the same result as a run without one', async () => {
    const defines = new Map([['A', expr([sum('A')], ([s]) => (s as number) < 30)]]);
    const s = (): MatchRecognizeSpec => spec({ pattern: [el('A', 1, null), el('C')], defines, skip: { kind: 'to-next-row' } });
    const input = prices(skipData);
    const whole = await new OperatorHarness(new MatchRecognizeOperator(s())).open();
    whole.push(input).watermark(1000);

    const before = await new OperatorHarness(new MatchRecognizeOperator(s())).open();
    before.push(input.slice(0, 3)).watermark(2);
    before.push(input.slice(3, 5));
    const keyed = structuredClone(before.keyed.snapshot());
    const timers = structuredClone(before.timers.snapshot());
    // The runtime restores state before `open`, as here.
    const after = new OperatorHarness(new MatchRecognizeOperator(s()));
    after.keyed.restore(keyed);
    after.timers.restore(timers);
    after.timers.watermark = 2;
    await after.open();
    after.push(input.slice(5)).watermark(1000);
    expect([...before.out, ...after.out].map((r) => r.fields)).toEqual(whole.out.map((r) => r.fields));
    expect(whole.out).toHaveLength(5);
  });
});
