import { describe, expect, it } from 'vitest';
import { explain } from '../../../src/planner/planner.js';
import { parseStatement } from '../../../src/sql/parse.js';
import { DataTypes } from '../../../src/types/data-types.js';
import { Columns, ResolvedSchema } from '../../../src/types/schema.js';
import { formatRows, runQuery } from '../harness.js';
import { FakeContext, filterText, type Verdict } from './pushdown-fake-source.js';
import type { SourceExpression } from '../../../src/factories/source-filter.js';

const schema = ResolvedSchema.of([
  Columns.physical('a', DataTypes.INT()),
  Columns.physical('b', DataTypes.STRING()),
  Columns.physical('c', DataTypes.INT()),
  Columns.computed('d', DataTypes.INT(), 'a + 1'),
  Columns.metadata('m', DataTypes.INT()),
]);
const rows = [
  [1, 'x', 10, 100],
  [4, 'y', 20, 200],
  [5, 'z', 30, 300],
  [7, 'x', 40, 400],
];

const acceptAll = (): Verdict => 'accept';

/** The optimized plan's TableSourceScan and Calc lines of EXPLAIN. */
async function planLines(sql: string, ctx: FakeContext): Promise<{ scan: string; calc: string | undefined }> {
  const text = await explain(parseStatement(sql), ctx);
  const optimized = text.split('== Optimized Physical Plan ==')[1]!.split('==')[0]!;
  const lines = optimized.split('\n');
  return { scan: lines.find((l) => l.includes('TableSourceScan'))!.trim().replace(/^\+- /, ''), calc: lines.find((l) => l.includes('Calc('))?.trim() };
}

async function rowsOf(sql: string, ctx: FakeContext): Promise<string[]> {
  const r = await runQuery(sql, ctx);
  return formatRows(r.rows, r.types).sort();
}

describe('filter push-down into scans', () => {
  it('removes a fully accepted filter from the Calc and prints it in the table digest', async () => {
    const ctx = new FakeContext(schema, rows, acceptAll);
    const { scan, calc } = await planLines('SELECT a, b FROM t WHERE a > 3', ctx);
    expect(scan).toBe('TableSourceScan(table=[[default_catalog, default_database, t, filter=[>(a, 3)], project=[a, b], metadata=[]]], fields=[a, b])');
    expect(calc).toBeUndefined();
    expect(await rowsOf('SELECT a, b FROM t WHERE a > 3', new FakeContext(schema, rows, acceptAll))).toEqual(['+I[4, y]', '+I[5, z]', '+I[7, x]']);
  });

  it("folds several accepted filters pairwise into and(...) as Flink's FilterPushDownSpec prints them", async () => {
    const ctx = new FakeContext(schema, rows, acceptAll);
    const { scan } = await planLines("SELECT a FROM t WHERE a > 3 AND b = 'x' AND c < 100", ctx);
    expect(scan).toContain("filter=[and(and(>(a, 3), =(b, _UTF-16LE'x')), <(c, 100))], project=[a]");
    expect(await rowsOf("SELECT a FROM t WHERE a > 3 AND b = 'x' AND c < 100", new FakeContext(schema, rows, acceptAll))).toEqual(['+I[7]']);
  });

  it('keeps a best-effort filter (accepted and remaining) in the Calc too', async () => {
    const ctx = new FakeContext(schema, rows, () => 'both');
    const { scan, calc } = await planLines('SELECT a, b FROM t WHERE a > 3', ctx);
    expect(scan).toContain('filter=[>(a, 3)]');
    expect(calc).toContain('where=[');
    expect(calc).toContain('>(a, 3)');
  });

  it('keeps rejected filters in the Calc and prints filter=[] as Flink does', async () => {
    const ctx = new FakeContext(schema, rows, () => 'reject');
    const { scan, calc } = await planLines('SELECT a, b FROM t WHERE a > 3', ctx);
    expect(scan).toContain('t, filter=[], project=[a, b]');
    expect(calc).toContain('>(a, 3)');
    expect(await rowsOf('SELECT a, b FROM t WHERE a > 3', new FakeContext(schema, rows, () => 'reject'))).toEqual(['+I[4, y]', '+I[5, z]', '+I[7, x]']);
  });

  it('splits accepted and remaining conjuncts', async () => {
    const verdict = (e: SourceExpression): Verdict => (filterText(e).startsWith('greaterThan') ? 'accept' : 'reject');
    const ctx = new FakeContext(schema, rows, verdict);
    const sql = "SELECT a FROM t WHERE a > 3 AND b <> 'y'";
    const { scan, calc } = await planLines(sql, ctx);
    expect(scan).toContain('filter=[>(a, 3)]');
    expect(calc).toMatch(/<>\(b, .*'y'/);
    expect(calc).not.toContain('>(a, 3)');
    expect(await rowsOf(sql, new FakeContext(schema, rows, verdict))).toEqual(['+I[5]', '+I[7]']);
  });

  it('offers filters written above a projection with the physical column index, once', async () => {
    const ctx = new FakeContext(schema, rows, acceptAll);
    const sql = 'SELECT * FROM (SELECT c, a FROM t WHERE c > 15) WHERE a < 7';
    expect(await rowsOf(sql, ctx)).toEqual(['+I[20, 4]', '+I[30, 5]']);
    expect(ctx.log.offered).toEqual(['greaterThan(c#2, 15)', 'lessThan(a#0, 7)']);
    expect(ctx.log.projection).toEqual([0, 2]);
  });

  it('does not offer non-deterministic conjuncts nor conjuncts over metadata columns', async () => {
    const ctx = new FakeContext(schema, rows, acceptAll);
    const sql = 'SELECT a FROM t WHERE a > 3 AND m > 250 AND RAND() < 2';
    const { calc } = await planLines(sql, ctx);
    expect(ctx.log.offered).toEqual(['greaterThan(a#0, 3)']);
    expect(calc).toContain('RAND()');
    expect(calc).toContain('>(m, 250)');
    expect(await rowsOf('SELECT a FROM t WHERE a > 3 AND m > 250', new FakeContext(schema, rows, acceptAll))).toEqual(['+I[5]', '+I[7]']);
  });

  it('offers only the metadata-free conjuncts when all others read metadata', async () => {
    const ctx = new FakeContext(schema, rows, acceptAll);
    await planLines('SELECT a FROM t WHERE m > 250', ctx);
    expect(ctx.log.offered).toBeUndefined();
  });

  it('offers a filter over a deterministic computed column as its expression over physical columns (as Flink)', async () => {
    const ctx = new FakeContext(schema, rows, acceptAll);
    expect(await rowsOf('SELECT a, d FROM t WHERE d > 5', ctx)).toEqual(['+I[5, 6]', '+I[7, 8]']);
    expect(ctx.log.offered).toEqual(['greaterThan(plus(a#0, 1), 5)']);
  });

  it('passes IN lists as one in(...) call', async () => {
    const ctx = new FakeContext(schema, rows, acceptAll);
    expect(await rowsOf('SELECT a FROM t WHERE a IN (1, 5)', ctx)).toEqual(['+I[1]', '+I[5]']);
    expect(ctx.log.offered).toEqual(['in(a#0, 1, 5)']);
  });
});
