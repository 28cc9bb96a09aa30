import { describe, expect, it } from 'vitest';
import { RowtimeFirstRowOperator } from '../../src/table-runtime/rowtime-first-row-operator.js';
import { Row } from '../../src/types/row.js';
import { RowKind } from '../../src/types/row-kind.js';
import { OperatorHarness } from './fake-context.js';

const T0 = Date.UTC(2024, 0, 1, 10, 0, 0);
const at = (s: number): number => T0 + s * 1000;
const row = (k: number, v: string, s: number): Row => Row.insert(k, v, at(s));
const shown = (rows: readonly Row[]): string[] => rows.map((r) => `${r.kind === RowKind.INSERT ? '+I' : r.kind}:${r.fields[0]},${r.fields[1]}`);

describe('event-time first row per key, insert-only (Flink 2.x RowTimeDeduplicateKeepFirstRowFunction)', () => {
  it('emits the earliest row of each key once the watermark passes it, and drops rows behind the watermark', async () => {
    // The rows and the watermarks (rowtime - 2 s, emitted as it advances) of a real Flink 2.3.0 run, which printed
    // +I[1, b] and +I[2, c]: d, f and g come behind the watermark and are dropped.
    const op = new RowtimeFirstRowOperator({ partitionKeys: [0], rowtimeIndex: 2 });
    const h = await new OperatorHarness(op).open();
    h.push([row(1, 'a', 5)]).watermark(at(3));
    h.push([row(1, 'b', 3)]);
    expect(h.out).toEqual([]);
    h.push([row(2, 'c', 10)]).watermark(at(8));
    expect(shown(h.out)).toEqual(['+I:1,b']);
    h.push([row(1, 'd', 1)]);
    h.push([row(2, 'e', 20)]).watermark(at(18));
    h.push([row(3, 'f', 4), row(1, 'g', 0)]);
    await h.finish();
    expect(shown(h.out)).toEqual(['+I:1,b', '+I:2,c']);
    expect(op.lateRecordsDropped).toBe(3);
  });

  it('keeps the first of rows with the same rowtime, emits nothing more for a key once emitted, and emits what waits at the end of input', async () => {
    const op = new RowtimeFirstRowOperator({ partitionKeys: [0], rowtimeIndex: 2 });
    const h = await new OperatorHarness(op).open();
    h.push([row(1, 'first', 5), row(1, 'tie', 5), row(2, 'x', 7)]).watermark(at(5));
    expect(shown(h.out)).toEqual(['+I:1,first']);
    h.push([row(1, 'later', 6), row(1, 'on-time-but-done', 5)]);
    h.push([row(2, 'earlier', 6)]);
    await h.finish();
    expect(shown(h.out)).toEqual(['+I:1,first', '+I:2,earlier']);
  });

  it('keeps keys whose hashes share a state slot apart', async () => {
    // 'k32728' and 'k261234' have the same hashFields value (found by search), so they share one keyed-state slot.
    const op = new RowtimeFirstRowOperator({ partitionKeys: [0], rowtimeIndex: 2 });
    const h = await new OperatorHarness(op).open();
    const r = (k: string, v: string, s: number): Row => Row.insert(k, v, at(s));
    h.push([r('k32728', 'a-late', 9), r('k261234', 'b', 4), r('k32728', 'a', 2)]).watermark(at(3));
    expect(shown(h.out)).toEqual(['+I:k32728,a']);
    h.push([r('k261234', 'b-earlier', 3), r('k32728', 'a-again', 3)]);
    await h.finish();
    expect(shown(h.out)).toEqual(['+I:k32728,a', '+I:k261234,b-earlier']);
  });
});
