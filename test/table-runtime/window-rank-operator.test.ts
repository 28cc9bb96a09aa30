import { describe, expect, it } from 'vitest';
import { WindowRankOperator } from '../../src/table-runtime/window-rank-operator.js';
import type { WindowRankSpec } from '../../src/table-runtime/window-rank-operator.js';
import { decodeValue, encodeValue } from '../../src/types/values/state-codec.js';
import { Row } from '../../src/types/row.js';
import { rowKindShortString } from '../../src/types/row-kind.js';
import { OperatorHarness } from './fake-context.js';

// Rows as a TUMBLE(5 s) window TVF emits them: (name, score, rowtime s, window_start, window_end).
const T0 = Date.UTC(2020, 9, 10);
const s = (sec: number): number => T0 + sec * 1000;
const row = (name: string, score: number, sec: number): Row => {
  const start = Math.floor(sec / 5) * 5;
  return Row.insert(name, score, s(sec), s(start), s(start + 5));
};
const show = (rows: readonly Row[]): string[] => rows.map((r) => `${rowKindShortString(r.kind)}${r.fields[0]},${r.fields[1]},${(Number(r.fields[2]) - T0) / 1000}${r.fields.length > 5 ? `#${r.fields[5]}` : ''}`);

const topN = (n: number, extra: Partial<WindowRankSpec> = {}): WindowRankSpec => ({
  partitionKeys: [0],
  windowEndField: 4,
  orderKeys: [{ index: 1, descending: true, nullsFirst: false }],
  rankStart: 1,
  rankEnd: n,
  outputRankNumber: false,
  newestFirstAmongTies: false,
  ...extra,
});

describe('window Top-N and deduplication (Flink WindowRank / WindowDeduplicate)', () => {
  it("emits each window's top rows once, when the watermark reaches window_end - 1, and nothing before", async () => {
    const h = await new OperatorHarness(new WindowRankOperator(topN(2))).open();
    h.push([row('a', 1, 1), row('a', 5, 2), row('b', 3, 3), row('a', 4, 4), row('a', 9, 6)]);
    h.watermark(s(4) - 2);
    expect(h.out).toEqual([]);
    h.watermark(s(5) - 1);
    expect(show(h.out).sort()).toEqual(['+Ia,4,4', '+Ia,5,2', '+Ib,3,3']);
    await h.finish();
    // The window [5, 10) was still open: the end of input fires it.
    expect(show(h.out.slice(3))).toEqual(['+Ia,9,6']);
  });

  it('numbers the rows when asked and keeps ties in arrival order (ROW_NUMBER)', async () => {
    const h = await new OperatorHarness(new WindowRankOperator(topN(2, { outputRankNumber: true }))).open();
    h.push([row('a', 2, 1), row('a', 7, 2), row('a', 2, 3), row('a', 2, 4)]);
    await h.finish();
    expect(show(h.out)).toEqual(['+Ia,7,2#1', '+Ia,2,1#2']);
  });

  it('keeps the later of two rows that tie, for a keep-last-row deduplication', async () => {
    const op = new WindowRankOperator(topN(1, { orderKeys: [{ index: 2, descending: true, nullsFirst: false }], newestFirstAmongTies: true }));
    const h = await new OperatorHarness(op).open();
    h.push([Row.insert('a', 1, s(3), s(0), s(5)), Row.insert('a', 2, s(3), s(0), s(5)), Row.insert('a', 3, s(1), s(0), s(5))]);
    await h.finish();
    expect(show(h.out)).toEqual(['+Ia,2,3']);
  });

  it('emits ranks rankStart..rankEnd only', async () => {
    const h = await new OperatorHarness(new WindowRankOperator(topN(3, { rankStart: 2, outputRankNumber: true }))).open();
    h.push([row('a', 1, 1), row('a', 2, 1), row('a', 3, 1), row('a', 4, 1)]);
    await h.finish();
    expect(show(h.out)).toEqual(['+Ia,3,1#2', '+Ia,2,1#3']);
  });

  it('drops rows of a window that already fired, counting them, and keeps rows behind the watermark whose window is open', async () => {
    const op = new WindowRankOperator(topN(2));
    const h = await new OperatorHarness(op).open();
    h.push([row('a', 1, 1), row('a', 2, 7)]).watermark(s(8));
    expect(show(h.out)).toEqual(['+Ia,1,1']);
    // 3 s is in the fired window [0, 5): late. 6 s is behind the watermark, but [5, 10) has not fired.
    h.push([row('a', 10, 3), row('a', 8, 6)]);
    await h.finish();
    expect(show(h.out)).toEqual(['+Ia,1,1', '+Ia,8,6', '+Ia,2,7']);
    expect(op.lateRecordsDropped).toBe(1);
  });

  it("frees a window's state when it fires", async () => {
    const h = await new OperatorHarness(new WindowRankOperator(topN(1))).open();
    h.push([row('a', 1, 1), row('b', 1, 2), row('a', 1, 7)]).watermark(s(5));
    expect([...h.keyed.keys('window-rank')].length).toBe(1);
    h.watermark(s(10));
    expect([...h.keyed.keys('window-rank')].length).toBe(0);
  });

  it('keeps keys whose hashes share a state slot apart', async () => {
    // 'k32728' and 'k261234' have the same hashFields value, so they share one keyed-state slot.
    const h = await new OperatorHarness(new WindowRankOperator(topN(1))).open();
    h.push([row('k32728', 1, 1), row('k261234', 2, 2), row('k32728', 3, 3)]);
    await h.finish();
    expect(show(h.out).sort()).toEqual(['+Ik261234,2,2', '+Ik32728,3,3']);
  });

  it('goes on from a checkpoint of its keyed state and timers as if it had not stopped', async () => {
    const before = await new OperatorHarness(new WindowRankOperator(topN(2))).open();
    before.push([row('a', 1, 1), row('a', 5, 2), row('a', 3, 6)]).watermark(s(1));
    const keyed = decodeValue(encodeValue(before.keyed.snapshot())) as ReturnType<typeof before.keyed.snapshot>;
    const timers = before.timers.snapshot();

    const after = new OperatorHarness(new WindowRankOperator(topN(2)));
    after.keyed.restore(keyed);
    after.timers.restore(timers);
    await after.open();
    after.push([row('a', 4, 3), row('a', 9, 8)]).watermark(s(5));
    expect(show(after.out)).toEqual(['+Ia,5,2', '+Ia,4,3']);
    await after.finish();
    expect(show(after.out.slice(2))).toEqual(['+Ia,9,8', '+Ia,3,6']);
  });
});
