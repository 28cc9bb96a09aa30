import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { explain } from '../../src/planner/planner.js';
import { parseStatement } from '../../src/sql/parse.js';
import { Columns, ResolvedSchema } from '../../src/types/schema.js';
import { DataTypes } from '../../src/types/data-types.js';
import { Row } from '../../src/types/row.js';
import { formatRows, runInsert, runQuery, testTable, TestContext } from './harness.js';

// Flink plans the first row per key by processing time insert-only (FlinkChangelogModeInferenceProgram: "only proctime
// first row deduplicate does not produce UPDATE changes"). Sluice keeps the first row by event time updating, as Flink
// 1.20 did; Flink 2.x plans that one insert-only too (docs/differences-from-flink.md).
const clicks = ResolvedSchema.of(
  [
    Columns.physical('uid', DataTypes.BIGINT()),
    Columns.physical('page', DataTypes.STRING()),
    Columns.physical('ts', DataTypes.TIMESTAMP(3)),
    Columns.computed('pt', { ...DataTypes.TIMESTAMP_LTZ(3), nullable: false, timeAttribute: 'PROCTIME' }, 'PROCTIME()'),
  ],
  [{ rowtimeAttribute: 'ts', expression: 'ts' }],
);
const out = ResolvedSchema.of([Columns.physical('uid', DataTypes.BIGINT()), Columns.physical('page', DataTypes.STRING()), Columns.physical('rn', DataTypes.BIGINT())]);
const outNoRn = ResolvedSchema.of([Columns.physical('uid', DataTypes.BIGINT()), Columns.physical('page', DataTypes.STRING())]);

function ctx(): TestContext {
  const rows = [Row.insert(1n, 'home', 1000), Row.insert(2n, 'cart', 2000), Row.insert(1n, 'cart', 3000), Row.insert(2n, 'home', 500)];
  return new TestContext('streaming').add('clicks', testTable(clicks, rows)).add('append_sink', testTable(out)).add('append_sink2', testTable(outNoRn));
}

const proctimeFirst = 'SELECT uid, page, rn FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY uid ORDER BY pt ASC) AS rn FROM clicks) WHERE rn = 1';
const rowtimeFirst = 'SELECT uid, page FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY uid ORDER BY ts ASC) AS rn FROM clicks) WHERE rn = 1';

async function physical(sql: string): Promise<string> {
  const text = await explain(parseStatement(sql), ctx(), ['CHANGELOG_MODE']);
  return text.split('== Optimized Physical Plan ==\n')[1]!.split('\n\n')[0]!;
}

describe('first-row deduplication changelog', () => {
  it('plans proctime first row insert-only, with a selected rn as the literal 1, as a real Flink prints it', async () => {
    const p = await physical(`INSERT INTO append_sink ${proctimeFirst}`);
    const golden = readFileSync(fileURLToPath(new URL('./flink-explain-goldens/dedup-proctime-first-row.changelog.txt', import.meta.url)), 'utf8');
    const flinkPhysical = golden.split('== Optimized Physical Plan ==\n')[1]!.split('\n');
    // Sink, Calc with the literal rn, the deduplicating Rank and its Exchange: the four lines are Flink's, word for
    // word (but for the names: first_pages and ptime there), except the Rank's select: Flink prunes ts below it.
    const top = flinkPhysical.slice(0, 4).map((l) => l.replace('first_pages', 'append_sink').replaceAll('ptime', 'pt'));
    const lines = p.split('\n').slice(0, 4);
    const untilSelect = (l: string): string => l.slice(0, l.indexOf('select='));
    expect([lines[0], lines[1], untilSelect(lines[2]!), lines[3]]).toEqual([top[0], top[1], untilSelect(top[2]!), top[3]]);
    expect(p).toContain('Rank(strategy=[AppendFastStrategy], rankType=[ROW_NUMBER], rankRange=[rankStart=1, rankEnd=1], partitionBy=[uid], orderBy=[pt ASC]');
    const exec = (await explain(parseStatement(`INSERT INTO append_sink ${proctimeFirst}`), ctx(), [])).split('== Optimized Execution Plan ==\n')[1]!;
    expect(exec).toContain('Deduplicate(keep=[FirstRow], key=[uid], order=[PROCTIME], outputInsertOnly=[true])');
  });

  it('writes proctime first rows into an append-only sink: one +I per key, never changed', async () => {
    const c = ctx();
    await runInsert(`INSERT INTO append_sink ${proctimeFirst}`, c);
    expect(formatRows(c.tables.get('append_sink')!.written, out.columnTypes())).toEqual(['+I[1, home, 1]', '+I[2, cart, 1]']);
    const { rows, types } = await runQuery(proctimeFirst, ctx());
    expect(formatRows(rows, types)).toEqual(['+I[1, home, 1]', '+I[2, cart, 1]']);
  });

  it('plans event-time first row over inserts insert-only, as Flink 2.x: an append-only sink takes it', async () => {
    const p = await physical(rowtimeFirst);
    expect(p).toContain('orderBy=[ROWTIME ts ASC], select=[uid, page, ts], changelogMode=[I])');
    await runInsert(`INSERT INTO append_sink2 ${rowtimeFirst}`, ctx());
  });

  it('keeps the rank number of any other Top-N (rn <= 2 is not a constant)', async () => {
    const p = await physical('SELECT uid, page, rn FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY uid ORDER BY pt ASC) AS rn FROM clicks) WHERE rn <= 2');
    expect(p).toContain('rankEnd=2');
    expect(p).not.toContain('1:BIGINT');
  });
});
