import { describe, expect, it } from 'vitest';
import { builtinAggregate } from '../../src/table-runtime/aggregates/builtin-aggregates.js';
import { CalcOperator } from '../../src/table-runtime/calc-operator.js';
import { GroupAggregateOperator } from '../../src/table-runtime/group-aggregate-operator.js';
import { JoinOperator } from '../../src/table-runtime/join-operator.js';
import { assignWindows } from '../../src/table-runtime/window-assigner-operator.js';
import { WindowAggregateOperator } from '../../src/table-runtime/window-aggregate-operator.js';
import { DataTypes } from '../../src/types/data-types.js';
import { Decimal } from '../../src/types/decimal.js';
import { Row } from '../../src/types/row.js';
import { RowKind, rowKindShortString } from '../../src/types/row-kind.js';
import { OperatorHarness } from './fake-context.js';

const show = (rows: readonly Row[]): string[] => rows.map((r) => `${rowKindShortString(r.kind)}${JSON.stringify(r.fields, (_k, v) => (typeof v === 'bigint' ? Number(v) : v))}`);

describe('CalcOperator', () => {
  it('filters on TRUE only and keeps row kinds', async () => {
    const h = await new OperatorHarness(new CalcOperator([(f) => (f[0] as number) * 2], (f) => (f[0] === null ? null : (f[0] as number) > 1))).open();
    h.push([Row.insert(1), Row.insert(null), new Row(RowKind.DELETE, [3])]);
    expect(show(h.out)).toEqual(['-D[6]']);
  });
});

describe('GroupAggregateOperator', () => {
  const count = () => ({ fn: builtinAggregate('COUNT', [], DataTypes.BIGINT()), args: [], distinct: false, filterArg: -1 });
  const max = () => ({ fn: builtinAggregate('MAX', [DataTypes.INT()], DataTypes.INT()), args: [1], distinct: false, filterArg: -1 });

  it('emits -U/+U and -D when the last row of a group is retracted', async () => {
    const h = await new OperatorHarness(new GroupAggregateOperator([0], [count(), max()], 'streaming')).open();
    h.push([Row.insert('a', 1), Row.insert('a', 5)]);
    h.push([new Row(RowKind.DELETE, ['a', 5])]);
    h.push([new Row(RowKind.DELETE, ['a', 1])]);
    expect(show(h.out)).toEqual(['+I["a",1,1]', '-U["a",1,1]', '+U["a",2,5]', '-U["a",2,5]', '+U["a",1,1]', '-D["a",1,1]']);
  });

  it('does not emit when the result is unchanged', async () => {
    const h = await new OperatorHarness(new GroupAggregateOperator([0], [max()], 'streaming')).open();
    h.push([Row.insert('a', 5), Row.insert('a', 1)]);
    expect(show(h.out)).toEqual(['+I["a",5]']);
  });

  it('counts distinct values with retraction', async () => {
    const d = { fn: builtinAggregate('COUNT', [DataTypes.INT()], DataTypes.BIGINT()), args: [1], distinct: true, filterArg: -1 };
    const h = await new OperatorHarness(new GroupAggregateOperator([0], [d], 'batch')).open();
    h.push([Row.insert('a', 1), Row.insert('a', 1), Row.insert('a', 2), new Row(RowKind.DELETE, ['a', 2])]);
    await h.finish();
    expect(show(h.out)).toEqual(['+I["a",1]']);
  });
});

describe('builtin aggregates', () => {
  it('sums DECIMAL exactly and averages integers with integer division', () => {
    const sum = builtinAggregate('SUM', [DataTypes.DECIMAL(10, 2)], DataTypes.DECIMAL(38, 2));
    const acc = sum.createAccumulator();
    sum.accumulate(acc, Decimal.parse('0.10'));
    sum.accumulate(acc, Decimal.parse('0.20'));
    expect(String(sum.getValue(acc))).toBe('0.30');
    const avg = builtinAggregate('AVG', [DataTypes.INT()], DataTypes.INT());
    const a = avg.createAccumulator();
    avg.accumulate(a, 1);
    avg.accumulate(a, 2);
    expect(avg.getValue(a)).toBe(1);
  });

  it('MIN recomputes after its minimum is retracted', () => {
    const min = builtinAggregate('MIN', [DataTypes.INT()], DataTypes.INT());
    const acc = min.createAccumulator();
    for (const v of [3, 1, 2]) min.accumulate(acc, v);
    min.retract!(acc, 1);
    expect(min.getValue(acc)).toBe(2);
  });
});

describe('JoinOperator', () => {
  it('left join retracts the null-padded row when a match arrives', async () => {
    const h = await new OperatorHarness(
      new JoinOperator({ joinType: 'LEFT', leftKeys: [0], rightKeys: [0], leftArity: 2, rightArity: 2, condition: null, mode: 'streaming' }),
    ).open();
    h.push([Row.insert(1, 'l')], 0);
    h.push([Row.insert(1, 'r')], 1);
    h.push([new Row(RowKind.DELETE, [1, 'r'])], 1);
    expect(show(h.out)).toEqual(['+I[1,"l",null,null]', '-D[1,"l",null,null]', '+I[1,"l",1,"r"]', '-D[1,"l",1,"r"]', '+I[1,"l",null,null]']);
  });
});

describe('windows', () => {
  it('assigns HOP and CUMULATE windows', () => {
    expect(assignWindows(7, { kind: 'HOP', slide: 5, size: 10, offset: 0 })).toEqual([[0, 10], [5, 15]]);
    expect(assignWindows(7, { kind: 'CUMULATE', step: 5, size: 10, offset: 0 })).toEqual([[0, 10]]);
    expect(assignWindows(-3, { kind: 'TUMBLE', size: 10, offset: 0 })).toEqual([[-10, 0]]);
  });

  it('fires when the watermark passes window_end and drops late rows', async () => {
    const sum = () => ({ fn: builtinAggregate('SUM', [DataTypes.INT()], DataTypes.INT()), args: [1], distinct: false, filterArg: -1 });
    const op = new WindowAggregateOperator({ input: { kind: 'fields', startField: -1, endField: 2 }, keys: [{ kind: 'field', index: 0 }, { kind: 'end' }], output: null }, [sum()]);
    const h = await new OperatorHarness(op).open();
    // fields: k, v, window_end
    h.push([Row.insert('a', 1, 10), Row.insert('a', 2, 10), Row.insert('a', 4, 20)]);
    h.watermark(8);
    expect(h.out).toEqual([]);
    h.watermark(9);
    expect(show(h.out)).toEqual(['+I["a",10,3]']);
    h.push([Row.insert('a', 100, 10)]);
    expect(op.lateRecordsDropped).toBe(1);
    h.watermark(25);
    expect(show(h.out)).toEqual(['+I["a",10,3]', '+I["a",20,4]']);
  });
});
