import { describe, expect, it } from 'vitest';
import { explain } from '../../../src/planner/planner.js';
import { parseStatement } from '../../../src/sql/parse.js';
import { DataTypes } from '../../../src/types/data-types.js';
import { Columns, ResolvedSchema } from '../../../src/types/schema.js';
import { formatRows, runQuery } from '../harness.js';
import { FakeContext, type Verdict } from './pushdown-fake-source.js';

const schema = ResolvedSchema.of([Columns.physical('v', DataTypes.INT()), Columns.physical('dt', DataTypes.STRING()), Columns.physical('hr', DataTypes.INT())]);
const part = (dt: string, hr: string | null): ReadonlyMap<string, string | null> => new Map([['dt', dt], ['hr', hr]]);
const partitions = [part('2024-01-01', '9'), part('2024-01-01', '10'), part('2024-01-02', '10'), part('2024-01-02', null)];
const rows = [
  [1, '2024-01-01', 9],
  [2, '2024-01-01', 10],
  [3, '2024-01-02', 10],
  [4, '2024-01-02', null],
];
const partitionOf = (r: readonly unknown[]): string => `${r[1] as string}/${r[2] === null ? '' : String(r[2])}`;
const acceptAll = (): Verdict => 'accept';

function ctxWith(list: ReturnType<typeof part>[] | null, verdict: () => Verdict = acceptAll): FakeContext {
  return new FakeContext(schema, rows, verdict, { partitionKeys: ['dt', 'hr'], partitions: list, partitionOf });
}

async function scanLine(sql: string, ctx: FakeContext): Promise<{ scan: string; calc: string | undefined }> {
  const text = await explain(parseStatement(sql), ctx);
  const lines = text.split('== Optimized Physical Plan ==')[1]!.split('==')[0]!.split('\n');
  return { scan: lines.find((l) => l.includes('TableSourceScan'))!.trim().replace(/^\+- /, ''), calc: lines.find((l) => l.includes('Calc('))?.trim() };
}

describe('partition push-down', () => {
  it('prunes partitions in the planner, removes the decided conjuncts and prints partitions=[...]', async () => {
    const ctx = ctxWith(partitions);
    const sql = "SELECT v FROM t WHERE dt = '2024-01-01' AND hr >= 10 AND v > 0";
    const { scan, calc } = await scanLine(sql, ctx);
    expect(ctx.log.partitions).toEqual(['2024-01-01/10']);
    expect(ctx.log.offered).toEqual(['greaterThan(v#0, 0)']);
    expect(scan).toBe('TableSourceScan(table=[[default_catalog, default_database, t, partitions=[{dt=2024-01-01, hr=10}], filter=[>(v, 0)], project=[v], metadata=[]]], fields=[v])');
    expect(calc).toBeUndefined();
    const r = await runQuery(sql, ctxWith(partitions));
    expect(formatRows(r.rows, r.types)).toEqual(['+I[2]']);
  });

  it('reads the default partition as NULL', async () => {
    const ctx = ctxWith(partitions);
    const r = await runQuery('SELECT v, hr FROM t WHERE hr IS NULL', ctx);
    expect(ctx.log.partitions).toEqual(['2024-01-02/']);
    expect(formatRows(r.rows, r.types)).toEqual(['+I[4, NULL]']);
  });

  it('converts partition text to the column type before comparing (10 > 9 as INT, not as text)', async () => {
    const ctx = ctxWith(partitions);
    await scanLine('SELECT v FROM t WHERE hr > 9', ctx);
    expect(ctx.log.partitions).toEqual(['2024-01-01/10', '2024-01-02/10']);
  });

  it('keeps conjuncts mixing partition and other columns for filter push-down', async () => {
    const ctx = ctxWith(partitions, () => 'reject');
    const { calc } = await scanLine("SELECT v FROM t WHERE dt = '2024-01-02' OR v = 1", ctx);
    expect(ctx.log.listCalls).toBe(0);
    expect(ctx.log.offered).toEqual(["or(equals(dt#1, 2024-01-02), equals(v#0, 1))"]);
    expect(calc).toContain('OR(');
  });

  it('offers the partition predicates as filters when the source cannot list its partitions', async () => {
    const ctx = ctxWith(null);
    const sql = "SELECT v FROM t WHERE dt = '2024-01-02'";
    const { scan } = await scanLine(sql, ctx);
    expect(ctx.log.listCalls).toBe(1);
    expect(ctx.log.partitions).toBeUndefined();
    expect(ctx.log.offered).toEqual(['equals(dt#1, 2024-01-02)']);
    expect(scan).not.toContain('partitions=');
    const r = await runQuery(sql, ctxWith(null));
    expect(formatRows(r.rows, r.types).sort()).toEqual(['+I[3]', '+I[4]']);
  });

  it('does not list partitions for a query without partition predicates', async () => {
    const ctx = ctxWith(partitions);
    await scanLine('SELECT v FROM t WHERE v > 1', ctx);
    expect(ctx.log.listCalls).toBe(0);
    expect(ctx.log.partitions).toBeUndefined();
  });

  it('prints partitions=[] and reads nothing when every partition is pruned', async () => {
    const ctx = ctxWith(partitions);
    const { scan } = await scanLine("SELECT v FROM t WHERE dt = '2030-01-01'", ctx);
    expect(scan).toContain('partitions=[]');
    const r = await runQuery("SELECT v FROM t WHERE dt = '2030-01-01'", ctxWith(partitions));
    expect(r.rows).toEqual([]);
  });
});
