import { describe, expect, it } from 'vitest';
import { explain } from '../../../src/planner/planner.js';
import { parseStatement } from '../../../src/sql/parse.js';
import { DataTypes } from '../../../src/types/data-types.js';
import { Row } from '../../../src/types/row.js';
import { Columns, ResolvedSchema } from '../../../src/types/schema.js';
import { materialize, runQuery, TestContext, testTable } from '../harness.js';

// Flink's TwoStageOptimizedWindowAggregateRule as Sluice applies it (src/planner/rules/two-phase-window.ts); shapes
// from Flink's plan/stream/sql/agg/WindowAggregateTest.xml ([aggPhaseEnforcer=TWO_PHASE] cases).
const schema = ResolvedSchema.of(
  [
    Columns.physical('a', DataTypes.INT()),
    Columns.physical('b', DataTypes.BIGINT()),
    Columns.physical('c', DataTypes.STRING()),
    Columns.physical('ts', DataTypes.TIMESTAMP(3)),
  ],
  [{ rowtimeAttribute: 'ts', expression: "ts - INTERVAL '1' SECOND" }],
);

function rows(): Row[] {
  const out: Row[] = [];
  for (let i = 0; i < 300; i++) out.push(Row.insert(i % 7, BigInt((i * 37) % 101) - 20n, `c${i % 4}`, 1_700_000_000_000 + i * 250 + ((i * 13) % 900)));
  return out;
}

function ctx(config: Record<string, string> = {}, mode: 'streaming' | 'batch' = 'streaming'): TestContext {
  return new TestContext(mode, config).add('T', testTable(schema, rows()));
}

async function plan(sql: string, config: Record<string, string> = {}, mode: 'streaming' | 'batch' = 'streaming'): Promise<string> {
  const text = await explain(parseStatement(sql), ctx(config, mode));
  return text.split('== Optimized Execution Plan ==')[1]!;
}

const tumble = (aggs: string, window = "TUMBLE(TABLE T, DESCRIPTOR(ts), INTERVAL '10' SECOND)", keys = 'c'): string =>
  `SELECT ${keys}, window_start, window_end, ${aggs} FROM TABLE(${window}) GROUP BY ${keys}, window_start, window_end`;

describe('two-phase window aggregation planning', () => {
  it('splits a TUMBLE aggregate into local and global phases, naming accumulators as Flink does', async () => {
    const text = await plan(tumble('COUNT(*) AS n, SUM(b) AS s, MAX(b) FILTER (WHERE a > 2) AS m, AVG(b) AS av'));
    expect(text).toContain(
      "GlobalWindowAggregate(groupBy=[c], window=[TUMBLE(slice_end=[$slice_end], size=[10 s])], select=[c, COUNT(count1$0) AS n, SUM(sum$1) AS s, MAX(max$2) AS m, AVG((sum$3, count$4)) AS av, start('w$) AS window_start, end('w$) AS window_end])",
    );
    expect(text).toContain('+- Exchange(distribution=[hash[c]])\n');
    expect(text).toContain(
      "LocalWindowAggregate(groupBy=[c], window=[TUMBLE(time_col=[ts], size=[10 s])], select=[c, COUNT(*) AS count1$0, SUM(b) AS sum$1, MAX(b) FILTER $f4 AS max$2, AVG(b) AS (sum$3, count$4), slice_end('w$) AS $slice_end])",
    );
  });

  it('splits HOP and CUMULATE, whose global phase names the slices', async () => {
    const hop = await plan(tumble('COUNT(*) AS n', "HOP(TABLE T, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND)"));
    expect(hop).toContain('GlobalWindowAggregate(groupBy=[c], window=[HOP(slice_end=[$slice_end], size=[10 s], slide=[5 s])]');
    expect(hop).toContain('LocalWindowAggregate(groupBy=[c], window=[HOP(time_col=[ts], size=[10 s], slide=[5 s])]');
    const cumulate = await plan(tumble('SUM(b) AS s', "CUMULATE(TABLE T, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '20' SECOND)"));
    expect(cumulate).toContain('GlobalWindowAggregate(groupBy=[c], window=[CUMULATE(slice_end=[$slice_end], max_size=[20 s], step=[5 s])]');
  });

  it('sends a window aggregate without keys to one subtask', async () => {
    const text = await plan("SELECT window_start, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE T, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end");
    expect(text).toContain("GlobalWindowAggregate(window=[TUMBLE(slice_end=[$slice_end], size=[10 s])], select=[COUNT(count1$0) AS n, start('w$) AS window_start, end('w$) AS window_end])");
    expect(text).toContain('Exchange(distribution=[single])');
  });

  it("keeps one phase with table.optimizer.agg-phase-strategy = 'ONE_PHASE'", async () => {
    const text = await plan(tumble('COUNT(*) AS n'), { 'table.optimizer.agg-phase-strategy': 'ONE_PHASE' });
    expect(text).toContain('WindowAggregate(groupBy=[c], window=[TUMBLE(time_col=[ts], size=[10 s])]');
    expect(text).not.toContain('LocalWindowAggregate');
    expect(await plan(tumble('COUNT(*) AS n'), { 'table.optimizer.agg-phase-strategy': 'TWO_PHASE' })).toContain('LocalWindowAggregate');
  });

  it('keeps one phase where Flink does or where accumulators cannot merge', async () => {
    const onePhase = async (sql: string, mode: 'streaming' | 'batch' = 'streaming'): Promise<void> => {
      const text = await plan(sql, {}, mode);
      expect(text, sql).not.toContain('LocalWindowAggregate');
    };
    // SESSION windows are not cut into slices.
    await onePhase(tumble('COUNT(*) AS n', "SESSION(TABLE T PARTITION BY c, DESCRIPTOR(ts), INTERVAL '10' SECOND)"));
    // FIRST_VALUE and LISTAGG have no merge; DISTINCT values do not merge across slices in Sluice.
    await onePhase(tumble('FIRST_VALUE(b) AS f'));
    await onePhase(tumble('LISTAGG(c) AS l'));
    await onePhase(tumble('COUNT(DISTINCT b) AS d'));
    // Batch plans have no watermarks to flush at.
    await onePhase(tumble('COUNT(*) AS n'), 'batch');
  });

  it('gives the one-phase results at parallelism 2, for each window kind', async () => {
    for (const w of [
      "TUMBLE(TABLE T, DESCRIPTOR(ts), INTERVAL '10' SECOND)",
      "HOP(TABLE T, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '10' SECOND)",
      "CUMULATE(TABLE T, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '15' SECOND)",
    ]) {
      const sql = tumble('COUNT(*) AS n, SUM(b) AS s, MIN(b) AS lo, MAX(b) FILTER (WHERE a > 2) AS hi, AVG(b) AS av, COUNT(a) AS na', w);
      const two = await runQuery(sql, ctx({ 'parallelism.default': '2' }));
      const one = await runQuery(sql, ctx({ 'parallelism.default': '2', 'table.optimizer.agg-phase-strategy': 'ONE_PHASE' }));
      expect(materialize(two.rows, two.types), w).toEqual(materialize(one.rows, one.types));
      expect(two.rows.length, w).toBeGreaterThan(20);
    }
  });
});
