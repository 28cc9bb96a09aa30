import { describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';

async function explain(env: TableEnvironment, sql: string): Promise<string> {
  for await (const row of (await env.executeSql(sql)).collect()) return String(row.fields[0]);
  throw new Error('no row');
}

async function withClicks(mode: 'streaming' | 'batch' = 'streaming'): Promise<TableEnvironment> {
  const env = TableEnvironment.create({ mode });
  await env.executeSql("CREATE TABLE clicks (uid BIGINT, page STRING, dwell INT) WITH ('connector' = 'datagen')");
  return env;
}

const GROUP_BY = 'EXPLAIN PLAN_ADVICE SELECT page, COUNT(*) AS n FROM clicks GROUP BY page';

// Flink's GroupAggregationAnalyzer (flink-explain-goldens/group-by-advice.txt has Flink 2.3.0's whole text).
describe('EXPLAIN PLAN_ADVICE', () => {
  it('advises the local-global two phases for a streaming GROUP BY without mini-batch, naming the options still to set', async () => {
    const env = await withClicks();
    const text = await explain(env, GROUP_BY);
    expect(text).toContain('GroupAggregate(advice=[1], groupBy=[page], select=[page, COUNT(*) AS n])');
    expect(text).toContain(
      "advice[1]: [ADVICE] You might want to enable local-global two-phase optimization by configuring ('table.exec.mini-batch.enabled' to 'true', 'table.exec.mini-batch.allow-latency' to a positive long value, 'table.exec.mini-batch.size' to a positive long value).",
    );
    // The execution plan carries no advice.
    expect(text.split('== Optimized Execution Plan ==')[1]).not.toContain('advice');
    // With mini-batch set up Flink splits the aggregate (Local / GlobalGroupAggregate): nothing left to advise.
    await env.executeSql("SET 'table.exec.mini-batch.enabled' = 'true'");
    await env.executeSql("SET 'table.exec.mini-batch.allow-latency' = '1 s'");
    await env.executeSql("SET 'table.exec.mini-batch.size' = '1000'");
    expect(await explain(env, GROUP_BY)).toContain('No available advice...');
    await env.close();
  });

  // FIRST_VALUE: Flink 2.3.0's client prints "No available advice..." for this query.
  it('has no advice for an aggregate Flink cannot split, in one phase by choice, or in batch mode', async () => {
    const env = await withClicks();
    expect(await explain(env, 'EXPLAIN PLAN_ADVICE SELECT page, FIRST_VALUE(dwell) AS f FROM clicks GROUP BY page')).toContain('No available advice...');
    await env.executeSql("SET 'table.optimizer.agg-phase-strategy' = 'ONE_PHASE'");
    expect(await explain(env, GROUP_BY)).toContain('No available advice...');
    await env.close();
    const batch = await withClicks('batch');
    expect(await explain(batch, GROUP_BY)).toContain('No available advice...');
    await batch.close();
  });
});
