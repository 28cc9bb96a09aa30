import { describe, expect, it } from 'vitest';
import { builtinAggregate } from '../../src/table-runtime/aggregates/builtin-aggregates.js';
import { GroupAggregateOperator } from '../../src/table-runtime/group-aggregate-operator.js';
import { DataTypes } from '../../src/types/data-types.js';
import { Row } from '../../src/types/row.js';
import { RowKind, rowKindShortString } from '../../src/types/row-kind.js';
import { OperatorHarness } from './fake-context.js';

const show = (rows: readonly Row[]): string[] => rows.map((r) => `${rowKindShortString(r.kind)}${JSON.stringify(r.fields, (_k, v) => (typeof v === 'bigint' ? Number(v) : v))}`);
const count = () => ({ fn: builtinAggregate('COUNT', [], DataTypes.BIGINT()), args: [], distinct: false, filterArg: -1 });

describe('mini-batch group aggregate', () => {
  it('emits one change per group per batch: the difference across the batch', async () => {
    const h = await new OperatorHarness(new GroupAggregateOperator([0], [count()], 'streaming', 0, true)).open();
    h.push([Row.insert('a'), Row.insert('b'), Row.insert('a'), Row.insert('a')]);
    expect(show(h.out)).toEqual(['+I["a",3]', '+I["b",1]']);
    h.push([Row.insert('a'), new Row(RowKind.DELETE, ['b'])]);
    expect(show(h.out).slice(2)).toEqual(['-U["a",3]', '+U["a",4]', '-D["b",1]']);
  });

  it('emits nothing for a group whose result the batch leaves unchanged', async () => {
    const h = await new OperatorHarness(new GroupAggregateOperator([0], [count()], 'streaming', 0, true)).open();
    h.push([Row.insert('a')]);
    h.push([Row.insert('a'), new Row(RowKind.DELETE, ['a'])]);
    expect(show(h.out)).toEqual(['+I["a",1]']);
  });
});

describe('group aggregate without -U (every consumer takes updates by key)', () => {
  const max = () => ({ fn: builtinAggregate('MAX', [DataTypes.BIGINT()], DataTypes.BIGINT(), { retracts: true }), args: [1], distinct: false, filterArg: -1 });
  const countStar = () => ({ ...count(), countStar: true });

  for (const miniBatch of [false, true]) {
    it(`emits +U alone, and -D with the whole last row (${miniBatch ? 'mini-batch' : 'per row'})`, async () => {
      const h = await new OperatorHarness(new GroupAggregateOperator([0], [countStar(), max()], 'streaming', 0, miniBatch, false)).open();
      h.push([Row.insert('a', 5n)]);
      h.push([Row.insert('a', 7n)]);
      h.push([new Row(RowKind.DELETE, ['a', 5n])]);
      h.push([new Row(RowKind.UPDATE_BEFORE, ['a', 7n])]);
      expect(show(h.out)).toEqual(['+I["a",1,5]', '+U["a",2,7]', '+U["a",1,7]', '-D["a",1,7]']);
    });
  }

  it('still leaves out an update that changes no value (MAX alone, no COUNT(*))', async () => {
    const h = await new OperatorHarness(new GroupAggregateOperator([0], [max()], 'streaming', 0, false, false)).open();
    h.push([Row.insert('a', 5n), Row.insert('a', 3n), Row.insert('a', 9n)]);
    expect(show(h.out)).toEqual(['+I["a",5]', '+U["a",9]']);
  });
});
