import { describe, expect, it } from 'vitest';
import { intervalBounds } from '../../src/planner/lowering/interval-bounds.js';
import { call, inputRef, literal } from '../../src/planner/rex/rex-node.js';
import { IntervalJoinOperator } from '../../src/table-runtime/interval-join-operator.js';
import { DataTypes } from '../../src/types/data-types.js';
import { Row } from '../../src/types/row.js';
import { rowKindShortString } from '../../src/types/row-kind.js';
import { OperatorHarness } from './fake-context.js';

const show = (rows: readonly Row[]): string[] => rows.map((r) => `${rowKindShortString(r.kind)}${JSON.stringify(r.fields)}`);
const RT = DataTypes.TIMESTAMP(3, 'ROWTIME');
const INT = DataTypes.INT();
const BOOL = DataTypes.BOOLEAN();
const IV = DataTypes.INTERVAL_DAY_TIME();
// left: k, lt; right: k, rt  (joined: 0 k, 1 lt, 2 k, 3 rt)
const fields = [
  { name: 'k', type: INT },
  { name: 'lt', type: RT },
  { name: 'k0', type: INT },
  { name: 'rt', type: RT },
];
const lt = inputRef(1, 'lt', RT);
const rt = inputRef(3, 'rt', RT);

describe('interval join', () => {
  it('reads the bounds of l.t BETWEEN r.t - 10 s AND r.t + 5 s', () => {
    const cond = call('AND', [call('>=', [lt, call('-', [rt, literal(10_000, IV)], RT)], BOOL), call('<=', [lt, call('+', [rt, literal(5000, IV)], RT)], BOOL)], BOOL);
    expect(intervalBounds(cond, fields, 2)).toEqual({ leftTime: 1, rightTime: 1, lower: -10_000, upper: 5000 });
  });

  it('mirrors a comparison written right side first, and needs both bounds', () => {
    const both = call('AND', [call('<=', [rt, lt], BOOL), call('>', [call('+', [rt, literal(2000, IV)], RT), lt], BOOL)], BOOL);
    expect(intervalBounds(both, fields, 2)).toEqual({ leftTime: 1, rightTime: 1, lower: 0, upper: 2000 });
    expect(intervalBounds(call('<=', [rt, lt], BOOL), fields, 2)).toBeUndefined();
  });

  it('joins within the interval and drops rows the watermark has passed', async () => {
    const cond = (f: readonly unknown[]): boolean => (f[1] as number) >= (f[3] as number) && (f[1] as number) <= (f[3] as number) + 1000;
    const spec = { joinType: 'INNER' as const, leftKeys: [0], rightKeys: [0], leftArity: 2, rightArity: 2, condition: cond, mode: 'streaming' as const };
    const op = new IntervalJoinOperator(spec, { leftTime: 1, rightTime: 1, lower: 0, upper: 1000 });
    const h = await new OperatorHarness(op).open();
    h.push([Row.insert(1, 10_000)], 1);
    h.push([Row.insert(1, 10_500), Row.insert(1, 12_000)], 0);
    expect(show(h.out)).toEqual(['+I[1,10500,1,10000]']);
    h.watermark(11_000);
    // The right row at 10 000 can match left rows up to 11 000 only: gone; the left rows wait for right rows.
    expect(op.expiredRows).toBe(2);
    h.push([Row.insert(1, 11_500)], 1);
    expect(show(h.out)).toEqual(['+I[1,10500,1,10000]', '+I[1,12000,1,11500]']);
    expect(h.watermarks).toEqual([11_000]);
  });
});
