import { describe, expect, it } from 'vitest';
import type { KeyedStateSnapshot } from '../../src/runtime/state/heap-state-backend.js';
import { decodeState, encodeState } from '../../src/runtime/state/state-codec.js';
import { builtinAggregate } from '../../src/table-runtime/aggregates/builtin-aggregates.js';
import { GroupAggregateOperator } from '../../src/table-runtime/group-aggregate-operator.js';
import { DataTypes } from '../../src/types/data-types.js';
import { Row } from '../../src/types/row.js';
import { RowKind } from '../../src/types/row-kind.js';
import { hashFields } from '../../src/types/values/equality.js';
import { OperatorHarness } from './fake-context.js';

const BIGINT = DataTypes.BIGINT();
const SAFE = BigInt(Number.MAX_SAFE_INTEGER); // 2^53 - 1

describe('COUNT and SUM keep numbers while exact, bigint past 2^53', () => {
  it('SUM of BIGINT is exact across 2^53 and wraps at 2^63 as a Java long', () => {
    const sum = builtinAggregate('SUM', [BIGINT], BIGINT);
    const acc = sum.createAccumulator();
    sum.accumulate(acc, SAFE);
    expect(sum.getValue(acc)).toBe(SAFE);
    sum.accumulate(acc, 2n);
    sum.accumulate(acc, 1n);
    expect(sum.getValue(acc)).toBe(SAFE + 3n);
    sum.retract?.(acc, 3n);
    expect(sum.getValue(acc)).toBe(SAFE);
    sum.accumulate(acc, 2n ** 63n - 1n - SAFE);
    sum.accumulate(acc, 1n);
    expect(sum.getValue(acc)).toBe(-(2n ** 63n));
    // A single addend beyond 2^53 is not rounded on its way in.
    const big = sum.createAccumulator();
    sum.accumulate(big, 2n ** 60n + 1n);
    sum.accumulate(big, 1n);
    expect(sum.getValue(big)).toBe(2n ** 60n + 2n);
  });

  it('COUNT counts exactly past 2^53 and answers BIGINT', () => {
    for (const args of [[], [BIGINT]]) {
      const count = builtinAggregate('COUNT', args, BIGINT);
      const acc = count.createAccumulator() as unknown[];
      expect(count.getValue(acc)).toBe(0n);
      acc[0] = Number.MAX_SAFE_INTEGER - 1;
      for (let i = 0; i < 3; i++) count.accumulate(acc, ...args.map(() => 7n));
      expect(count.getValue(acc)).toBe(SAFE + 2n);
      count.retract?.(acc, ...args.map(() => 7n));
      expect(count.getValue(acc)).toBe(SAFE + 1n);
      const other = count.createAccumulator() as unknown[];
      other[0] = Number.MAX_SAFE_INTEGER;
      count.merge?.(acc, other);
      expect(count.getValue(acc)).toBe(SAFE * 2n + 1n);
    }
  });

  it('AVG of BIGINT divides the exact sum', () => {
    const avg = builtinAggregate('AVG', [BIGINT], BIGINT);
    const acc = avg.createAccumulator();
    avg.accumulate(acc, SAFE);
    avg.accumulate(acc, SAFE);
    expect(avg.getValue(acc)).toBe(SAFE);
  });

  it('MIN / MAX over insert-only input keep only the best value and merge', () => {
    const max = builtinAggregate('MAX', [BIGINT], BIGINT, { retracts: false });
    const a = max.createAccumulator();
    for (const v of [3n, 9n, null, 4n]) max.accumulate(a, v);
    expect(max.getValue(a)).toBe(9n);
    expect((a as unknown[])[0]).toBeNull();
    const b = max.createAccumulator();
    max.accumulate(b, 11n);
    max.merge?.(a, b);
    expect(max.getValue(a)).toBe(11n);
    const min = builtinAggregate('MIN', [DataTypes.STRING()], DataTypes.STRING(), { retracts: false });
    const m = min.createAccumulator();
    for (const v of ['b', 'a', 'c']) min.accumulate(m, v);
    expect(min.getValue(m)).toBe('a');
  });
});

describe('group aggregate state written before numbers (bigint COUNT / SUM, MAX multiset)', () => {
  const specs = (retracts: boolean) => [
    { fn: builtinAggregate('COUNT', [], BIGINT), args: [], distinct: false, filterArg: -1, countStar: true },
    { fn: builtinAggregate('MAX', [BIGINT], BIGINT, { retracts }), args: [1], distinct: false, filterArg: -1 },
    { fn: builtinAggregate('SUM', [BIGINT], BIGINT), args: [1], distinct: false, filterArg: -1 },
  ];
  /** The checkpoint an earlier version wrote after +I(a, 5) and +I(a, 2^53 - 2): accumulators as bigint and Map. */
  const oldCheckpoint = (): Uint8Array => {
    const group = {
      key: ['a'],
      accs: [[2n], [new Map<unknown, [unknown, number]>([[5n, [5n, 1]], [SAFE - 1n, [SAFE - 1n, 1]]]), SAFE - 1n], [SAFE + 4n, 2]],
      count: 2,
      seen: [null, null, null],
    };
    const keyed: KeyedStateSnapshot = { states: [{ name: 'groups', kind: 'value', entries: [[hashFields(['a'], [0]), [group]]] }] };
    return encodeState(keyed);
  };
  const restored = async (retracts: boolean) => {
    const h = new OperatorHarness(new GroupAggregateOperator([0], specs(retracts), 'streaming'));
    h.keyed.restore(decodeState(oldCheckpoint()) as KeyedStateSnapshot);
    return h.open();
  };

  it('continues from it over insert-only input', async () => {
    const h = await restored(false);
    h.push([Row.insert('a', SAFE)]);
    expect(h.out.map((r) => [r.kind, ...r.fields])).toEqual([
      [RowKind.UPDATE_BEFORE, 'a', 2n, SAFE - 1n, SAFE + 4n],
      [RowKind.UPDATE_AFTER, 'a', 3n, SAFE, 2n * SAFE + 4n],
    ]);
  });

  it('continues from it with retractions, the multiset still finding the next best', async () => {
    const h = await restored(true);
    h.push([new Row(RowKind.DELETE, ['a', SAFE - 1n])]);
    expect(h.out.map((r) => [r.kind, ...r.fields])).toEqual([
      [RowKind.UPDATE_BEFORE, 'a', 2n, SAFE - 1n, SAFE + 4n],
      [RowKind.UPDATE_AFTER, 'a', 1n, 5n, 5n],
    ]);
  });

  it('writes a checkpoint that restores again', async () => {
    const h = await restored(false);
    h.push([Row.insert('a', 1n)]);
    const again = new OperatorHarness(new GroupAggregateOperator([0], specs(false), 'streaming'));
    again.keyed.restore(decodeState(encodeState(h.keyed.snapshot())) as KeyedStateSnapshot);
    await again.open();
    again.push([Row.insert('a', 1n)]);
    expect(again.out.at(-1)?.fields).toEqual(['a', 4n, SAFE - 1n, SAFE + 6n]);
  });
});
