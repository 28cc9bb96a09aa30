import { describe, expect, it } from 'vitest';
import { SessionWindowOperator } from '../../src/table-runtime/session-window-operator.js';
import { builtinAggregate } from '../../src/table-runtime/aggregates/builtin-aggregates.js';
import { Columns, ResolvedSchema } from '../../src/types/schema.js';
import { DataTypes } from '../../src/types/data-types.js';
import { Row } from '../../src/types/row.js';
import { rowKindShortString } from '../../src/types/row-kind.js';
import { formatRows, runQuery, testTable, TestContext } from '../planner/harness.js';
import { OperatorHarness } from './fake-context.js';

const show = (rows: readonly Row[]): string[] => rows.map((r) => `${rowKindShortString(r.kind)}${JSON.stringify(r.fields, (_k, v) => (typeof v === 'bigint' ? Number(v) : v))}`);

const events = ResolvedSchema.of(
  [Columns.physical('k', DataTypes.STRING()), Columns.physical('v', DataTypes.INT()), Columns.physical('ts', DataTypes.TIMESTAMP(3))],
  [{ rowtimeAttribute: 'ts', expression: 'ts' }],
);

function ctx(rows: Row[]): TestContext {
  return new TestContext('streaming').add('ev', testTable(events, rows));
}

describe('DISTINCT in OVER windows (streaming)', () => {
  it('counts the distinct values of each ROWS frame, a value leaving the frame no longer counting', async () => {
    const rows = [Row.insert('a', 1, 1000), Row.insert('a', 1, 2000), Row.insert('a', 2, 3000), Row.insert('a', 2, 4000), Row.insert('a', 2, 5000), Row.insert('b', 9, 5500), Row.insert('a', 1, 6000)];
    const r = await runQuery(
      'SELECT k, v, COUNT(DISTINCT v) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS d, MAX(v) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS m FROM ev',
      ctx(rows),
    );
    // Per partition the rows come out in time order.
    expect(formatRows(r.rows, r.types).filter((x) => x.startsWith('+I[a'))).toEqual(['+I[a, 1, 1, 1]', '+I[a, 1, 1, 1]', '+I[a, 2, 2, 2]', '+I[a, 2, 2, 2]', '+I[a, 2, 1, 2]', '+I[a, 1, 2, 2]']);
    expect(formatRows(r.rows, r.types).filter((x) => x.startsWith('+I[b'))).toEqual(['+I[b, 9, 1, 9]']);
  });

  it('RANGE frames count distinct values by time distance; unbounded frames remember every value', async () => {
    const rows = [Row.insert('a', 1, 1000), Row.insert('a', 2, 2000), Row.insert('a', 1, 4000), Row.insert('a', 3, 4500)];
    const r = await runQuery(
      "SELECT v, COUNT(DISTINCT v) OVER (ORDER BY ts RANGE BETWEEN INTERVAL '2' SECOND PRECEDING AND CURRENT ROW) AS d, SUM(DISTINCT v) OVER (ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS s FROM ev",
      ctx(rows),
    );
    expect(formatRows(r.rows, r.types)).toEqual(['+I[1, 1, 1]', '+I[2, 2, 3]', '+I[1, 2, 3]', '+I[3, 2, 6]']);
  });
});

describe('DISTINCT in SESSION windows (streaming)', () => {
  it('a window TVF session counts each value once, also across the sessions a late-arriving row merges', async () => {
    const rows = [Row.insert('a', 1, 0), Row.insert('a', 1, 8 * 60_000), Row.insert('a', 2, 8 * 60_000 + 1), Row.insert('a', 1, 4 * 60_000), Row.insert('a', 5, 40 * 60_000)];
    const schema = ResolvedSchema.of(events.columns.map((c) => Columns.physical(c.name, c.type)), [{ rowtimeAttribute: 'ts', expression: "ts - INTERVAL '10' MINUTE" }]);
    const r = await runQuery(
      "SELECT window_start, window_end, COUNT(DISTINCT v) AS d, COUNT(*) AS c, SUM(DISTINCT v) FILTER (WHERE v > 1) AS f FROM TABLE(SESSION(TABLE ev PARTITION BY k, DESCRIPTOR(ts), INTERVAL '5' MINUTES)) GROUP BY window_start, window_end, k",
      new TestContext('streaming').add('ev', testTable(schema, rows)),
    );
    expect(formatRows(r.rows, r.types)).toEqual(['+I[1970-01-01 00:00:00.000, 1970-01-01 00:13:00.001, 2, 4, 2]', '+I[1970-01-01 00:40:00.000, 1970-01-01 00:45:00.000, 1, 1, 5]']);
  });

  it('legacy GROUP BY SESSION(...) with DISTINCT and FILTER', async () => {
    const rows = [Row.insert('u', 1, 60_000), Row.insert('v', 1, 120_000), Row.insert('u', 2, 180_000), Row.insert('u', 3, 30 * 60_000)];
    const r = await runQuery(
      "SELECT SESSION_START(ts, INTERVAL '5' MINUTE) AS s, COUNT(DISTINCT k) AS d, COUNT(DISTINCT v) FILTER (WHERE k = 'u') AS f FROM ev GROUP BY SESSION(ts, INTERVAL '5' MINUTE)",
      ctx(rows),
    );
    expect(formatRows(r.rows, r.types)).toEqual(['+I[1970-01-01 00:01:00.000, 2, 2]', '+I[1970-01-01 00:30:00.000, 1, 1]']);
  });

  it('merges the distinct values of two sessions bridged by a row (operator, exact output)', async () => {
    const INT = DataTypes.INT();
    const count = (distinct: boolean, filterArg: number) => ({ fn: builtinAggregate('COUNT', [INT], DataTypes.BIGINT()), args: [1], distinct, filterArg });
    // Input fields: k, v, window_start proto, window_end proto, filter flag.
    const op = new SessionWindowOperator({ groupKeys: [0, 2, 3], windowStartField: 2, windowEndField: 3, gap: 10 }, [count(true, -1), count(false, -1), count(true, 4)]);
    const h = await new OperatorHarness(op).open();
    const row = (v: number | null, ts: number, flag: boolean): Row => Row.insert('k', v, ts, ts, flag);
    h.push([row(1, 0, true), row(1, 15, false), row(null, 16, true), row(5, 100, true)]);
    expect(h.out).toEqual([]);
    // Sessions [0, 10) and [15, 26) both saw 1; the row at 8 bridges them into [0, 26).
    h.push([row(2, 8, true)]);
    h.watermark(24);
    expect(show(h.out)).toEqual([]);
    h.watermark(25);
    expect(show(h.out)).toEqual(['+I["k",0,26,2,3,2]']);
    h.watermark(200);
    expect(show(h.out.slice(1))).toEqual(['+I["k",100,110,1,1,1]']);
  });
});
