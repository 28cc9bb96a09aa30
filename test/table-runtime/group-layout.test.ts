import { describe, expect, it } from 'vitest';
import type { KeyedStateSnapshot } from '../../src/runtime/state/heap-state-backend.js';
import { decodeState, encodeState } from '../../src/runtime/state/state-codec.js';
import { builtinAggregate } from '../../src/table-runtime/aggregates/builtin-aggregates.js';
import { type AggregateSpec, GroupAggregateOperator } from '../../src/table-runtime/group-aggregate-operator.js';
import { DataTypes } from '../../src/types/data-types.js';
import { Row } from '../../src/types/row.js';
import { RowKind } from '../../src/types/row-kind.js';
import { hashFields } from '../../src/types/values/equality.js';
import { OperatorHarness } from './fake-context.js';

const BIGINT = DataTypes.BIGINT();
const countStar = (): AggregateSpec => ({ fn: builtinAggregate('COUNT', [], BIGINT), args: [], distinct: false, filterArg: -1, countStar: true });
const sum = (arg = 1): AggregateSpec => ({ fn: builtinAggregate('SUM', [BIGINT], BIGINT), args: [arg], distinct: false, filterArg: -1 });

/** The table a changelog describes: key -> the latest row (insertions and deletions applied in order). */
function materialize(rows: readonly Row[], keyCount: number): Map<string, unknown[]> {
  const table = new Map<string, unknown[]>();
  const id = (f: readonly unknown[]) => JSON.stringify(f.slice(0, keyCount), (_k, v) => (typeof v === 'bigint' ? `${v}n` : v));
  for (const r of rows) {
    if (r.kind === RowKind.INSERT || r.kind === RowKind.UPDATE_AFTER) table.set(id(r.fields), r.fields);
    else {
      expect(table.get(id(r.fields))).toEqual(r.fields);
      table.delete(id(r.fields));
    }
  }
  return table;
}

describe('group aggregate state layout', () => {
  it('keeps groups whose keys collide on the hash apart, and frees the slot as they go', async () => {
    const [a, b] = ['k32728', 'k261234'];
    expect(hashFields([a], [0])).toBe(hashFields([b], [0]));
    const h = await new OperatorHarness(new GroupAggregateOperator([0], [countStar(), sum()], 'streaming')).open();
    h.push([Row.insert(a, 1n), Row.insert(b, 10n), Row.insert(a, 2n), Row.insert(b, 20n)]);
    const table = materialize(h.out, 1);
    expect(table.get('["k32728"]')).toEqual([a, 2n, 3n]);
    expect(table.get('["k261234"]')).toEqual([b, 2n, 30n]);
    h.push([new Row(RowKind.DELETE, [a, 1n]), new Row(RowKind.DELETE, [a, 2n]), Row.insert(b, 5n)]);
    const after = materialize(h.out, 1);
    expect([...after.values()]).toEqual([[b, 3n, 35n]]);
    // One group left under the hash: a single group again, not a list of one.
    const entries = [...h.keyed.snapshot().states[0]!.entries];
    expect(entries).toHaveLength(1);
    expect(typeof (entries[0]![1] as unknown[])[0]).toBe('number');
  });

  it('gives BIGINT keys back exactly, beyond 2^53 included, and never merges neighbours there', async () => {
    const big = 2n ** 53n;
    const h = await new OperatorHarness(new GroupAggregateOperator([0], [countStar()], 'streaming')).open();
    h.push([Row.insert(big), Row.insert(big + 1n), Row.insert(-7n), Row.insert(big + 1n), Row.insert(-7n), Row.insert(0n)]);
    const table = materialize(h.out, 1);
    expect(new Map([...table.values()].map((f) => [f[0], f[1]]))).toEqual(
      new Map<unknown, unknown>([
        [big, 1n],
        [big + 1n, 2n],
        [-7n, 2n],
        [0n, 1n],
      ]),
    );
    for (const f of table.values()) expect(typeof f[0]).toBe('bigint');
  });

  it('matches a recomputation over a random changelog (COUNT(*), FILTER, DISTINCT, SUM, AVG, MAX with retraction)', async () => {
    const INT = DataTypes.INT();
    const aggs: AggregateSpec[] = [
      countStar(),
      { ...countStar(), filterArg: 3 },
      { fn: builtinAggregate('COUNT', [BIGINT], BIGINT), args: [1], distinct: true, filterArg: -1 },
      sum(),
      { fn: builtinAggregate('AVG', [INT], INT), args: [2], distinct: false, filterArg: -1 },
      { fn: builtinAggregate('MAX', [INT], INT), args: [2], distinct: false, filterArg: -1 },
    ];
    let seed = 7;
    const rnd = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    for (const miniBatch of [false, true]) {
      const h = await new OperatorHarness(new GroupAggregateOperator([0], aggs, 'streaming', 0, miniBatch)).open();
      const live: unknown[][] = [];
      for (let batch = 0; batch < 40; batch++) {
        const rows: Row[] = [];
        for (let i = 0; i < 25; i++) {
          if (live.length > 0 && rnd(3) === 0) {
            const [f] = live.splice(rnd(live.length), 1);
            rows.push(new Row(RowKind.DELETE, f!));
          } else {
            const f = [BigInt(rnd(6)), rnd(4) === 0 ? null : BigInt(rnd(5)), rnd(100) - 50, rnd(2) === 0];
            live.push(f);
            rows.push(Row.insert(...f));
          }
        }
        h.push(rows);
      }
      const expected = new Map<string, unknown[]>();
      for (const k of new Set(live.map((f) => f[0] as bigint))) {
        const g = live.filter((f) => f[0] === k);
        const xs = g.map((f) => f[1]).filter((x): x is bigint => x !== null);
        const ys = g.map((f) => f[2] as number);
        const avg = Math.trunc(ys.reduce((s, y) => s + y, 0) / ys.length);
        expected.set(`["${k}n"]`, [
          k,
          BigInt(g.length),
          BigInt(g.filter((f) => f[3] === true).length),
          BigInt(new Set(xs).size),
          xs.length === 0 ? null : xs.reduce((s, x) => s + x, 0n),
          avg === 0 ? 0 : avg,
          Math.max(...ys),
        ]);
      }
      expect(materialize(h.out, 1)).toEqual(expected);
    }
  });

  it('restores from a checkpoint and continues as a run without one', async () => {
    const make = () => new GroupAggregateOperator([0, 1], [countStar(), sum(2)], 'streaming');
    const first = [Row.insert(1n, 'x', 5n), Row.insert(1n, 'y', 6n), Row.insert(2n, 'x', 7n), Row.insert(1n, 'x', 8n)];
    const second = [new Row(RowKind.DELETE, [1n, 'x', 5n]), Row.insert(2n, 'x', 1n), new Row(RowKind.DELETE, [1n, 'y', 6n])];
    const straight = await new OperatorHarness(make()).open();
    straight.push(first).push(second);
    const before = await new OperatorHarness(make()).open();
    before.push(first);
    const after = new OperatorHarness(make());
    after.keyed.restore(decodeState(encodeState(before.keyed.snapshot())) as KeyedStateSnapshot);
    await after.open();
    after.push(second);
    expect([...before.out, ...after.out]).toEqual(straight.out);
  });
});

describe('group aggregate with a state TTL', () => {
  it('frees groups that expired without being read again, as other groups are written', async () => {
    // The clock the operator's state measures the TTL by: expiry is deterministic, however slow the machine.
    let now = 0;
    const h = await new OperatorHarness(new GroupAggregateOperator([0], [countStar(), sum()], 'streaming', 40), () => now).open();
    const keys = (from: number, n: number) => Array.from({ length: n }, (_, i) => Row.insert(BigInt(from + i), 1n));
    h.push(keys(0, 2_000));
    expect([...h.keyed.keys('groups')]).toHaveLength(2_000);
    now = 80;
    // None of keys 0..1999 is touched again; writing 500 new keys frees them all.
    h.push(keys(10_000, 500));
    const left = new Set(h.keyed.keys('groups'));
    expect(left.size).toBe(500);
    for (let i = 0; i < 500; i++) expect(left.has(hashFields([BigInt(10_000 + i)], [0]))).toBe(true);
  });
});
