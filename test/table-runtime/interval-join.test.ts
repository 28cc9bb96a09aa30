import { describe, expect, it } from 'vitest';
import { intervalBounds } from '../../src/planner/logical/interval-bounds.js';
import { call, inputRef, literal } from '../../src/planner/rex/rex-node.js';
import { IntervalJoinOperator } from '../../src/table-runtime/interval-join-operator.js';
import { DataTypes } from '../../src/types/data-types.js';
import { Row } from '../../src/types/row.js';
import { RowKind, rowKindShortString } from '../../src/types/row-kind.js';
import { HeapKeyedStateBackend, type KeyedStateSnapshot } from '../../src/runtime/state/heap-state-backend.js';
import { decodeState, encodeState } from '../../src/runtime/state/state-codec.js';
import { hashFields } from '../../src/types/values/equality.js';
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
    expect(intervalBounds(cond, fields, 2)).toEqual({ leftTime: 1, rightTime: 1, lower: -10_000, upper: 5000, timeDomain: 'EVENT_TIME' });
  });

  it('mirrors a comparison written right side first, and needs both bounds', () => {
    const both = call('AND', [call('<=', [rt, lt], BOOL), call('>', [call('+', [rt, literal(2000, IV)], RT), lt], BOOL)], BOOL);
    expect(intervalBounds(both, fields, 2)).toEqual({ leftTime: 1, rightTime: 1, lower: 0, upper: 2000, timeDomain: 'EVENT_TIME' });
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
    // The left row at 12 000 and the right one at 11 500 remain.
    expect(op.retainedRows).toBe(2);
  });

  it('reads processing-time bounds from proctime attributes, and refuses mixing rowtime with proctime', () => {
    const PT = DataTypes.TIMESTAMP_LTZ(3, 'PROCTIME');
    const pf = [fields[0]!, { name: 'lt', type: PT }, fields[2]!, { name: 'rt', type: PT }];
    const l = inputRef(1, 'lt', PT);
    const r = inputRef(3, 'rt', PT);
    const cond = call('AND', [call('>=', [l, r], BOOL), call('<=', [l, call('+', [r, literal(1000, IV)], PT)], BOOL)], BOOL);
    expect(intervalBounds(cond, pf, 2)).toEqual({ leftTime: 1, rightTime: 1, lower: 0, upper: 1000, timeDomain: 'PROCESSING_TIME' });
    const mixed = [fields[0]!, { name: 'lt', type: PT }, fields[2]!, fields[3]!];
    const cond2 = call('AND', [call('>=', [l, rt], BOOL), call('<=', [l, call('+', [rt, literal(1000, IV)], RT)], BOOL)], BOOL);
    expect(intervalBounds(cond2, mixed, 2)).toBeUndefined();
  });
});

// l.lt BETWEEN r.rt AND r.rt + 1000 (lower 0, upper 1000); joined: 0 k, 1 lt, 2 k, 3 rt
const within = (f: readonly unknown[]): boolean => (f[1] as number) >= (f[3] as number) && (f[1] as number) <= (f[3] as number) + 1000;
const BOUNDS = { leftTime: 1, rightTime: 1, lower: 0, upper: 1000 };
const outerJoin = (joinType: 'LEFT' | 'RIGHT' | 'FULL'): IntervalJoinOperator =>
  new IntervalJoinOperator({ joinType, leftKeys: [0], rightKeys: [0], leftArity: 2, rightArity: 2, condition: within, mode: 'streaming' }, BOUNDS);

describe('outer interval join', () => {
  it('LEFT: pads a left row exactly once when the watermark passes its upper bound, and drops its state', async () => {
    const op = outerJoin('LEFT');
    const h = await new OperatorHarness(op).open();
    h.push([Row.insert(1, 10_000), Row.insert(2, 10_000), Row.insert(1, 20_000)], 0);
    expect(op.retainedRows).toBe(3);
    h.push([Row.insert(1, 9500)], 1);
    expect(show(h.out)).toEqual(['+I[1,10000,1,9500]']);
    expect(op.retainedRows).toBe(4);
    // A left row at tl can meet right rows up to tr = tl: at watermark 10 000 both left rows at 10 000 are done
    // (the matched one silently), the right row at 9 500 waits until 10 500.
    h.watermark(10_000);
    expect(show(h.out.slice(1))).toEqual(['+I[2,10000,null,null]']);
    expect(op.retainedRows).toBe(2);
    h.watermark(10_500);
    expect(op.retainedRows).toBe(1);
    h.watermark(15_000);
    expect(show(h.out.slice(2))).toEqual([]);
    h.push([Row.insert(1, 19_500)], 1);
    h.watermark(30_000);
    expect(show(h.out.slice(1))).toEqual(['+I[2,10000,null,null]', '+I[1,20000,1,19500]']);
    expect(op.retainedRows).toBe(0);
    expect(op.expiredRows).toBe(5);
    await h.finish();
    expect(h.out).toHaveLength(3);
  });

  it('RIGHT: pads unmatched right rows; a right row that arrives already expired is padded at once', async () => {
    const op = outerJoin('RIGHT');
    const h = await new OperatorHarness(op).open();
    h.push([Row.insert(1, 5000)], 0);
    h.push([Row.insert(1, 4500), Row.insert(1, 6000)], 1);
    expect(show(h.out)).toEqual(['+I[1,5000,1,4500]']);
    h.watermark(7000);
    expect(show(h.out)).toEqual(['+I[1,5000,1,4500]', '+I[null,null,1,6000]']);
    // tr + upper <= watermark: no future left row can match it; it still joins the stored left rows (none here).
    h.push([Row.insert(2, 5000)], 1);
    expect(show(h.out.slice(2))).toEqual(['+I[null,null,2,5000]']);
    expect(op.retainedRows).toBe(0);
  });

  it('FULL: pads both sides, and end of input pads what is still stored', async () => {
    const op = outerJoin('FULL');
    const h = await new OperatorHarness(op).open();
    h.push([Row.insert(1, 1000), Row.insert(3, 50_000)], 0);
    h.push([Row.insert(2, 1000), Row.insert(1, 500), Row.insert(4, 60_000)], 1);
    expect(show(h.out)).toEqual(['+I[1,1000,1,500]']);
    h.watermark(2000);
    expect(show(h.out.slice(1))).toEqual(['+I[null,null,2,1000]']);
    expect(op.retainedRows).toBe(2);
    await h.finish();
    expect(show(h.out.slice(2)).sort()).toEqual(['+I[3,50000,null,null]', '+I[null,null,4,60000]']);
    expect(op.retainedRows).toBe(0);
  });

  it('a row with a NULL time never joins; an outer side pads it at once and keeps no state', async () => {
    const op = outerJoin('LEFT');
    const h = await new OperatorHarness(op).open();
    h.push([Row.insert(1, 1000)], 1);
    h.push([Row.insert(1, null)], 0);
    expect(show(h.out)).toEqual(['+I[1,null,null,null]']);
    expect(op.retainedRows).toBe(1);
  });

  it('processing time: rows expire on processing-time timers', async () => {
    const op = new IntervalJoinOperator(
      { joinType: 'LEFT', leftKeys: [0], rightKeys: [0], leftArity: 2, rightArity: 2, condition: within, mode: 'streaming' },
      { ...BOUNDS, timeDomain: 'PROCESSING_TIME' },
    );
    const h = await new OperatorHarness(op).open();
    const now = Date.now();
    h.push([Row.insert(1, now + 60_000), Row.insert(2, now + 120_000)], 0);
    h.push([Row.insert(1, now + 59_500)], 1);
    expect(op.retainedRows).toBe(3);
    h.timers.fire('PROCESSING_TIME', now + 61_000, (t) => {
      h.keyed.setCurrentKey(t.key);
      op.onTimer(t);
    });
    expect(show(h.out)).toEqual([`+I[1,${now + 60_000},1,${now + 59_500}]`]);
    expect(op.retainedRows).toBe(1);
    h.timers.fire('PROCESSING_TIME', now + 120_000, (t) => {
      h.keyed.setCurrentKey(t.key);
      op.onTimer(t);
    });
    expect(show(h.out.slice(1))).toEqual([`+I[2,${now + 120_000},null,null]`]);
    expect(op.retainedRows).toBe(0);
  });

  it('window join (exclusive window ends): pads unmatched rows when the window fires, at end - 1', async () => {
    // Rows: k, window_end; joined on both.
    const op = new IntervalJoinOperator(
      { joinType: 'FULL', leftKeys: [0, 1], rightKeys: [0, 1], leftArity: 2, rightArity: 2, condition: null, mode: 'streaming' },
      { leftTime: 1, rightTime: 1, lower: 0, upper: 0, exclusiveEnd: true },
    );
    const h = await new OperatorHarness(op).open();
    h.push([Row.insert('a', 10_000), Row.insert('b', 10_000), Row.insert('a', 20_000)], 0);
    h.push([Row.insert('a', 10_000), Row.insert('c', 10_000)], 1);
    expect(show(h.out)).toEqual(['+I["a",10000,"a",10000]']);
    h.watermark(9998);
    expect(h.out).toHaveLength(1);
    h.watermark(9999);
    expect(show(h.out.slice(1)).sort()).toEqual(['+I["b",10000,null,null]', '+I[null,null,"c",10000]']);
    expect(op.retainedRows).toBe(1);
    h.watermark(19_999);
    expect(show(h.out.slice(3))).toEqual(['+I["a",20000,null,null]']);
    expect(op.retainedRows).toBe(0);
    // A row of a window that already fired is late: dropped, neither joined nor padded.
    h.push([Row.insert('a', 20_000)], 1);
    expect(h.out).toHaveLength(4);
    expect(op.lateRecordsDropped).toBe(1);
  });

  it('after a restore from a checkpoint, stored rows still expire and unmatched ones are padded once', async () => {
    const op = outerJoin('LEFT');
    const h = await new OperatorHarness(op).open();
    h.push([Row.insert(1, 10_000), Row.insert(2, 10_000)], 0);
    h.push([Row.insert(1, 9800)], 1);
    const keyed = h.keyed.snapshot();
    const timers = h.timers.snapshot();
    const op2 = outerJoin('LEFT');
    const h2 = new OperatorHarness(op2);
    h2.keyed.restore(keyed);
    h2.timers.restore(timers);
    await h2.open();
    expect(op2.retainedRows).toBe(3);
    h2.watermark(20_000);
    expect(show(h2.out)).toEqual(['+I[2,10000,null,null]']);
    expect(op2.retainedRows).toBe(0);
  });

  it('a retraction (-D) retracts its joins with the stored rows and forgets the row', async () => {
    const op = outerJoin('LEFT');
    const h = await new OperatorHarness(op).open();
    h.push([Row.insert(1, 5000)], 1);
    h.push([Row.insert(1, 5500), Row.insert(2, 5500)], 0);
    expect(op.retainedRows).toBe(3);
    h.push([new Row(RowKind.DELETE, [1, 5500]), new Row(RowKind.DELETE, [2, 5500])], 0);
    // The unmatched row 2 was never padded (still stored): it just goes.
    expect(show(h.out)).toEqual(['+I[1,5500,1,5000]', '-D[1,5500,1,5000]']);
    expect(op.retainedRows).toBe(1);
    h.watermark(10_000);
    expect(h.out).toHaveLength(2);
  });

  it('keeps rows flat, BIGINT values as numbers while safe, and emits them as bigints', async () => {
    const big = (f: readonly unknown[]): boolean => (f[1] as number) >= (f[4] as number) && (f[1] as number) <= (f[4] as number) + 1000;
    // left: k BIGINT, lt, v BIGINT; right: k BIGINT, rt (joined: 0 k, 1 lt, 2 v, 3 k, 4 rt)
    const spec = {
      joinType: 'FULL' as const, leftKeys: [0], rightKeys: [0], leftArity: 3, rightArity: 2, condition: big, mode: 'streaming' as const,
      leftBigints: [true, false, true], rightBigints: [true, false],
    };
    const op = new IntervalJoinOperator(spec, { leftTime: 1, rightTime: 1, lower: 0, upper: 1000 });
    const h = await new OperatorHarness(op).open();
    const text = (rows: readonly Row[]): string[] => rows.map((r) => `${rowKindShortString(r.kind)}${r.fields.map((v) => (typeof v === 'bigint' ? `${v}n` : String(v))).join(',')}`);
    h.push([Row.insert(7n, 10_000, 2n ** 60n), Row.insert(7n, 10_100, 5n)], 0);
    h.keyed.setCurrentKey(hashFields([7n], [0]));
    expect(h.keyed.getState<unknown[]>('left').value()).toEqual([7, 10_000, 2n ** 60n, 0, 7, 10_100, 5, 0]);
    h.push([Row.insert(7n, 9_500), Row.insert(8n, 9_000)], 1);
    expect(text(h.out)).toEqual(['+I7n,10000,1152921504606846976n,7n,9500', '+I7n,10100,5n,7n,9500']);
    // The matched flags of both left rows are set; the right row of key 8 pads once it expires.
    h.keyed.setCurrentKey(hashFields([7n], [0]));
    expect(h.keyed.getState<unknown[]>('left').value()).toEqual([7, 10_000, 2n ** 60n, 1, 7, 10_100, 5, 1]);
    h.push([new Row(RowKind.DELETE, [7n, 10_100, 5n])], 0);
    expect(text(h.out).slice(2)).toEqual(['-D7n,10100,5n,7n,9500']);
    h.watermark(30_000);
    expect(text(h.out).slice(3)).toEqual(['+Inull,null,null,8n,9000']);
    expect(op.retainedRows).toBe(0);
  });

  it('continues a checkpoint of an earlier release, whose rows are { fields, matched } objects', async () => {
    const old = new HeapKeyedStateBackend();
    old.setCurrentKey(hashFields([1], [0]));
    old.getState<unknown[]>('left').update([{ fields: [1, 10_000], matched: true }, { fields: [1, 10_400], matched: false }]);
    old.getState<unknown[]>('right').update([{ fields: [1, 9_800], matched: true }]);
    const op = outerJoin('FULL');
    const h = new OperatorHarness(op);
    h.keyed.restore(decodeState(encodeState(old.snapshot())) as KeyedStateSnapshot);
    await h.open();
    expect(op.retainedRows).toBe(3);
    h.push([Row.insert(1, 10_300)], 1);
    expect(show(h.out)).toEqual(['+I[1,10400,1,10300]']);
    // Every stored row has matched by now: the end of input pads none of them.
    await h.op.finish?.();
    expect(show(h.out)).toEqual(['+I[1,10400,1,10300]']);
    expect(op.retainedRows).toBe(0);
  });
});
