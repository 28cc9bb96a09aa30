import { describe, expect, it } from 'vitest';
import { parseStatement } from '../../src/sql/parse.js';
import { explain } from '../../src/planner/planner.js';
import { Columns, ResolvedSchema } from '../../src/types/schema.js';
import { DataTypes } from '../../src/types/data-types.js';
import type { CatalogTable } from '../../src/catalog/catalog-table.js';
import type { ObjectIdentifier } from '../../src/catalog/object-identifier.js';
import type { DynamicTableSource } from '../../src/factories/dynamic-table-source.js';
import { testTable, TestContext } from './harness.js';

// Goldens from Apache Flink's planner test resources (flink-table/flink-table-planner/src/test/resources),
// adapted only where Sluice's tables differ (new-source TableSourceScan instead of LegacyTableSourceScan).
const abc = ResolvedSchema.of([Columns.physical('a', DataTypes.INT()), Columns.physical('b', DataTypes.BIGINT()), Columns.physical('c', DataTypes.STRING())]);
const words = ResolvedSchema.of([Columns.physical('count', DataTypes.BIGINT()), Columns.physical('word', DataTypes.VARCHAR(256))]);
const withWatermark = ResolvedSchema.of(
  [Columns.physical('a', DataTypes.INT()), Columns.physical('b', DataTypes.BIGINT()), Columns.physical('c', DataTypes.STRING()), Columns.physical('ts', DataTypes.TIMESTAMP(3))],
  [{ rowtimeAttribute: 'ts', expression: "ts - INTERVAL '1' SECOND" }],
);

// SourceWatermarkTest's VirtualTable: a computed rowtime, read through Flink's `values` test source, which takes
// watermarks, projections and filters (accepting none of these: `filter=[]`).
const virtual = ResolvedSchema.of(
  [
    Columns.physical('a', DataTypes.INT()),
    Columns.physical('b', DataTypes.BIGINT()),
    Columns.physical('c', DataTypes.TIMESTAMP(3)),
    Columns.computed('d', DataTypes.TIMESTAMP(3), "c + INTERVAL '5' SECOND"),
  ],
  [{ rowtimeAttribute: 'd', expression: "d - INTERVAL '5' SECOND" }],
);

class WatermarkPushDownContext extends TestContext {
  override createSource(id: ObjectIdentifier, table: CatalogTable): DynamicTableSource {
    const s = super.createSource(id, table);
    if (s.kind !== 'scan-source') return s;
    return { ...s, supportsWatermarkPushDown: true, applyFilters: (filters) => ({ accepted: [], remaining: filters }) };
  }
}

/** EXPLAIN of `sql` over VirtualTable, read through a source that takes the watermark or (pushDown false) does not. */
async function explainVirtual(sql: string, pushDown: boolean): Promise<string> {
  const c = pushDown ? new WatermarkPushDownContext('streaming') : new TestContext('streaming');
  return explain(parseStatement(sql), c.add('VirtualTable', testTable(virtual, [], { bounded: false })));
}

function ctx(mode: 'streaming' | 'batch' = 'streaming'): TestContext {
  return new TestContext(mode)
    .add('MyTable', testTable(abc, [], { bounded: false }))
    .add('MyTable1', testTable(words, [], { bounded: false }))
    .add('MyTable2', testTable(words, [], { bounded: false }))
    .add('MySink', testTable(ResolvedSchema.of([Columns.physical('d', DataTypes.INT()), Columns.physical('e', DataTypes.BIGINT())])))
    .add('MySink2', testTable(ResolvedSchema.of([Columns.physical('d', DataTypes.INT()), Columns.physical('e', DataTypes.BIGINT())])))
    .add('T', testTable(withWatermark, [], { bounded: false }));
}

async function explainSql(sql: string, details: string[] = [], mode: 'streaming' | 'batch' = 'streaming'): Promise<string> {
  return explain(parseStatement(sql), ctx(mode), details);
}

describe('EXPLAIN as Flink prints it', () => {
  it('prints a filter and projection as the Flink docs EXPLAIN example (docs/dev/table/sql/explain.md, PLAN FOR tab)', async () => {
    const text = await explainSql("EXPLAIN PLAN FOR SELECT `count`, word FROM MyTable1 WHERE word LIKE 'F%' UNION ALL SELECT `count`, word FROM MyTable2");
    expect(text).toBe(
      [
        '== Abstract Syntax Tree ==',
        'LogicalUnion(all=[true])',
        ":- LogicalProject(count=[$0], word=[$1])",
        ":  +- LogicalFilter(condition=[LIKE($1, _UTF-16LE'F%')])",
        ':     +- LogicalTableScan(table=[[default_catalog, default_database, MyTable1]])',
        '+- LogicalProject(count=[$0], word=[$1])',
        '   +- LogicalTableScan(table=[[default_catalog, default_database, MyTable2]])',
        '',
        '== Optimized Physical Plan ==',
        'Union(all=[true], union=[count, word])',
        ":- Calc(select=[count, word], where=[LIKE(word, _UTF-16LE'F%')])",
        ':  +- TableSourceScan(table=[[default_catalog, default_database, MyTable1]], fields=[count, word])',
        '+- TableSourceScan(table=[[default_catalog, default_database, MyTable2]], fields=[count, word])',
        '',
        '== Optimized Execution Plan ==',
        'Union(all=[true], union=[count, word])',
        // Flink 1.15+ prints the execution plan's literals without charset (the docs page predates that).
        ":- Calc(select=[count, word], where=[LIKE(word, 'F%')])",
        ':  +- TableSourceScan(table=[[default_catalog, default_database, MyTable1]], fields=[count, word])',
        '+- TableSourceScan(table=[[default_catalog, default_database, MyTable2]], fields=[count, word])',
        '',
      ].join('\n'),
    );
  });

  it('prints changelog modes and Flink-style costs (explain/testExecuteSqlWithExplainDetailsSelect.out)', async () => {
    const text = await explainSql('EXPLAIN ESTIMATED_COST, CHANGELOG_MODE SELECT a, b, c FROM MyTable WHERE a > 10');
    expect(text).toContain(
      [
        '== Optimized Physical Plan ==',
        'Calc(select=[a, b, c], where=[>(a, 10)], changelogMode=[I]): rowcount = 5.0E7, cumulative cost = {1.5E8 rows, 1.0E8 cpu, 2.4E9 io, 0.0 network, 0.0 memory}',
        '+- TableSourceScan(table=[[default_catalog, default_database, MyTable]], fields=[a, b, c], changelogMode=[I]): rowcount = 1.0E8, cumulative cost = {1.0E8 rows, 1.0E8 cpu, 2.4E9 io, 0.0 network, 0.0 memory}',
        '',
        '== Optimized Execution Plan ==',
        'Calc(select=[a, b, c], where=[(a > 10)])',
      ].join('\n'),
    );
  });

  // The resource predates the new Sink: its LegacySink printed the sink's names (d, e). Flink's Sink has its
  // input's row type (Sink.scala deriveRowType), so today both sinks print the query's names, and the Calc
  // renames nothing unless an implicit cast is needed (then every column takes the sink's name).
  it('explains an INSERT with LogicalSink and a NONE sink changelog (explain/testExecuteSqlWithExplainDetailsInsert.out)', async () => {
    const text = await explainSql('EXPLAIN CHANGELOG_MODE, ESTIMATED_COST INSERT INTO MySink SELECT a, b FROM MyTable WHERE a > 10');
    expect(text).toContain(
      [
        '== Abstract Syntax Tree ==',
        'LogicalSink(table=[default_catalog.default_database.MySink], fields=[a, b])',
        '+- LogicalProject(a=[$0], b=[$1])',
        '   +- LogicalFilter(condition=[>($0, 10)])',
        '      +- LogicalTableScan(table=[[default_catalog, default_database, MyTable]])',
      ].join('\n'),
    );
    expect(text).toContain(
      'Sink(table=[default_catalog.default_database.MySink], fields=[a, b], changelogMode=[NONE]): rowcount = 5.0E7, cumulative cost = {2.0E8 rows, 1.5E8 cpu, 1.2E9 io, 0.0 network, 0.0 memory}',
    );
    expect(text).toContain('Sink(table=[default_catalog.default_database.MySink], fields=[a, b])\n+- Calc(select=[a, b], where=[(a > 10)])');
  });

  it('names an omitted INSERT column EXPR$i and a cast projection by the sink (explain/testExecuteSqlWithExplainInsertPartialColumn.out)', async () => {
    const partial = await explainSql('EXPLAIN INSERT INTO MySink (d) SELECT a FROM MyTable WHERE a > 10');
    expect(partial).toContain('LogicalSink(table=[default_catalog.default_database.MySink], fields=[a, EXPR$1])\n+- LogicalProject(a=[$0], EXPR$1=[null:BIGINT])');
    expect(partial).toContain('+- Calc(select=[a, null:BIGINT AS EXPR$1], where=[>(a, 10)])');
    const cast = await explainSql('EXPLAIN INSERT INTO MySink SELECT a, a FROM MyTable');
    expect(cast).toContain('Sink(table=[default_catalog.default_database.MySink], fields=[d, e])\n+- Calc(select=[a AS d, CAST(a AS BIGINT) AS e])');
  });

  it('shows the advice section and the shared source of a statement set (explain/testStatementSetWithPlanAdvice.out)', async () => {
    const text = await explainSql('EXPLAIN PLAN_ADVICE STATEMENT SET BEGIN INSERT INTO MySink SELECT a, b FROM MyTable; INSERT INTO MySink SELECT a, b + 1 FROM MyTable; END');
    expect(text).toContain('== Optimized Physical Plan With Advice ==\nSink(table=[default_catalog.default_database.MySink], fields=[a, b])');
    expect(text).toContain('\n\nNo available advice...\n\n== Optimized Execution Plan ==\n');
    expect(text).toContain(
      [
        // Flink 2.x reuses the sink both INSERTs write (table.optimizer.reuse-sink-enabled): one Sink over a Union,
        // the shared scan printed in place (flink-explain-goldens/statement-set.advice.txt).
        '== Optimized Execution Plan ==',
        'Sink(table=[default_catalog.default_database.MySink], fields=[a, b])',
        '+- Union(all=[true], union=[a, b])',
        '   :- TableSourceScan(table=[[default_catalog, default_database, MyTable, project=[a, b]]], fields=[a, b])(reuse_id=[1])',
        '   +- Calc(select=[a, (b + 1) AS EXPR$1])',
        '      +- Reused(reference_id=[1])',
      ].join('\n'),
    );
  });

  it('keeps the sinks of different tables apart, their shared scan printed once as a block of its own', async () => {
    const text = await explainSql('EXPLAIN STATEMENT SET BEGIN INSERT INTO MySink SELECT a, b FROM MyTable; INSERT INTO MySink2 SELECT a, b + 1 FROM MyTable; END');
    expect(text.split('== Optimized Execution Plan ==\n')[1]).toBe(
      [
        'TableSourceScan(table=[[default_catalog, default_database, MyTable, project=[a, b]]], fields=[a, b])(reuse_id=[1])',
        '',
        'Sink(table=[default_catalog.default_database.MySink], fields=[a, b])',
        '+- Reused(reference_id=[1])',
        '',
        'Sink(table=[default_catalog.default_database.MySink2], fields=[a, EXPR$1])',
        '+- Calc(select=[a, (b + 1) AS EXPR$1])',
        '   +- Reused(reference_id=[1])',
        '',
      ].join('\n'),
    );
  });

  it('prints the watermark assigner and window TVF in the AST (plan/stream/sql/agg/WindowAggregateTest.xml shapes)', async () => {
    const text = await explainSql("SELECT c, COUNT(*) AS cnt FROM TABLE(TUMBLE(TABLE T, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY c, window_start, window_end");
    expect(text).toContain("+- LogicalWatermarkAssigner(rowtime=[ts], watermark=[-($3, 1000:INTERVAL SECOND)])");
    // As a real Flink 2.3.0 prints it (flink-explain-goldens/window-tvf.txt): the TABLE(#0) operand, the descriptor by name,
    // `TABLE T` as a projection.
    expect(text).toContain(
      [
        "      +- LogicalTableFunctionScan(invocation=[TUMBLE(TABLE(#0), DESCRIPTOR(_UTF-16LE'ts'), 10000:INTERVAL SECOND)], rowType=[RecordType(INTEGER a, BIGINT b, VARCHAR(2147483647) c, TIMESTAMP(3) *ROWTIME* ts, TIMESTAMP(3) window_start, TIMESTAMP(3) window_end, TIMESTAMP(3) *ROWTIME* window_time)])",
        '         +- LogicalProject(a=[$0], b=[$1], c=[$2], ts=[$3])',
        '            +- LogicalWatermarkAssigner(rowtime=[ts], watermark=[-($3, 1000:INTERVAL SECOND)])',
      ].join('\n'),
    );
    expect(text).toContain('+- LogicalAggregate(group=[{0, 1, 2}], cnt=[COUNT()])');
    // Flink pre-aggregates per slice before the exchange and shuffles by the grouping keys only.
    expect(text).toContain(
      [
        "+- GlobalWindowAggregate(groupBy=[c], window=[TUMBLE(slice_end=[$slice_end], size=[10 s])], select=[c, COUNT(count1$0) AS cnt, start('w$) AS window_start, end('w$) AS window_end])",
        '   +- Exchange(distribution=[hash[c]])',
        "      +- LocalWindowAggregate(groupBy=[c], window=[TUMBLE(time_col=[ts], size=[10 s])], select=[c, COUNT(*) AS count1$0, slice_end('w$) AS $slice_end])",
      ].join('\n'),
    );
  });

  it('prints a regular join with an exchange per input and the right key by its output name (FLINK join XML shape)', async () => {
    const text = await explainSql('SELECT * FROM MyTable AS l JOIN MyTable AS r ON l.a = r.a');
    expect(text).toContain('+- LogicalJoin(condition=[=($0, $3)], joinType=[inner])\n   :- LogicalTableScan(table=[[default_catalog, default_database, MyTable]])');
    expect(text).toContain(
      [
        'Join(joinType=[InnerJoin], where=[=(a, a0)], select=[a, b, c, a0, b0, c0], leftInputSpec=[NoUniqueKey], rightInputSpec=[NoUniqueKey])',
        ':- Exchange(distribution=[hash[a]])',
        ':  +- TableSourceScan(table=[[default_catalog, default_database, MyTable]], fields=[a, b, c])',
        '+- Exchange(distribution=[hash[a]])',
        '   +- TableSourceScan(table=[[default_catalog, default_database, MyTable]], fields=[a, b, c])',
      ].join('\n'),
    );
  });

  it('prints a join condition prefix in the physical plan and infix in the execution plan (Flink 1.15+ ExpressionFormat.Infix)', async () => {
    const text = await explainSql('SELECT * FROM MyTable AS l JOIN MyTable AS r ON l.a = r.a AND l.b = r.b AND l.c > r.c');
    const [physical, execution] = text.split('== Optimized Execution Plan ==') as [string, string];
    expect(physical).toContain('Join(joinType=[InnerJoin], where=[AND(=(a, a0), =(b, b0), >(c, c0))], select=[a, b, c, a0, b0, c0]');
    expect(execution).toContain('Join(joinType=[InnerJoin], where=[((a = a0) AND (b = b0) AND (c > c0))], select=[a, b, c, a0, b0, c0]');
    expect(execution).toContain(':- Exchange(distribution=[hash[a, b]])');
  });

  it('does not retype a string literal outside comparisons, nor in the AST or execution plan (union.txt, calc-cast.txt of a real Flink)', async () => {
    const text = await explainSql("SELECT a FROM MyTable WHERE c LIKE 'x%' AND c = 'y'");
    expect(text).toContain("LogicalFilter(condition=[AND(LIKE($2, _UTF-16LE'x%'), =($2, _UTF-16LE'y'))])");
    expect(text).toContain(`where=[AND(LIKE(c, _UTF-16LE'x%'), =(c, _UTF-16LE'y':VARCHAR(2147483647) CHARACTER SET "UTF-16LE"))]`);
    expect(text).toContain("where=[(LIKE(c, 'x%') AND (c = 'y'))]");
  });

  it('prints Calcite literal digests and CAST in each section (plan/stream/sql/CalcTest.xml)', async () => {
    const text = await explainSql("SELECT CAST(a AS BIGINT) AS x, b + 1 AS y FROM MyTable WHERE c = 'xx' AND b IS NOT NULL");
    expect(text).toContain("LogicalProject(x=[CAST($0):BIGINT], y=[+($1, 1)])\n+- LogicalFilter(condition=[AND(=($2, _UTF-16LE'xx'), IS NOT NULL($1))])");
    // The optimizer retypes the literal to the STRING column's type (a real Flink 2.3.0: flink-explain-goldens/calc-cast.txt).
    expect(text).toContain(
      `Calc(select=[CAST(a AS BIGINT) AS x, +(b, 1) AS y], where=[AND(=(c, _UTF-16LE'xx':VARCHAR(2147483647) CHARACTER SET "UTF-16LE"), IS NOT NULL(b))])`,
    );
    expect(text).toContain("Calc(select=[CAST(a AS BIGINT) AS x, (b + 1) AS y], where=[((c = 'xx') AND b IS NOT NULL)])");
  });

  it('prints the stream graph JSON for JSON_EXECUTION_PLAN (docs/dev/table/sql/explain.md, EXPLAINDETAILS tab)', async () => {
    const text = await explainSql('EXPLAIN JSON_EXECUTION_PLAN SELECT a FROM MyTable WHERE a > 10');
    expect(text).toContain(
      [
        '== Physical Execution Plan ==',
        '{',
        '  "nodes" : [ {',
        '    "id" : 1,',
        '    "type" : "Source: MyTable[1]",',
        '    "pact" : "Data Source",',
        '    "contents" : "[1]:TableSourceScan(table=[[default_catalog, default_database, MyTable, project=[a]]], fields=[a])",',
        '    "parallelism" : 1',
        '  }, {',
        '    "id" : 2,',
        '    "type" : "Calc[2]",',
        '    "pact" : "Operator",',
        // Infix, as a real Flink 2.3.0 prints it (flink-explain-goldens/json-execution-plan.txt); the docs page predates 1.15.
        '    "contents" : "[2]:Calc(select=[a], where=[(a > 10)])",',
        '    "parallelism" : 1,',
        '    "predecessors" : [ {',
        '      "id" : 1,',
        '      "ship_strategy" : "FORWARD",',
        '      "side" : "second"',
        '    } ]',
        '  } ]',
        '}',
      ].join('\n'),
    );
    // Flink's plan ends at the JSON's closing brace (flink-explain-goldens/json-execution-plan.txt).
    expect(text.endsWith('  } ]\n}')).toBe(true);
  });

  it('prints a WatermarkAssigner above the Calc computing its fields when the source cannot take the watermark (sql-client table.q shape)', async () => {
    const schema = ResolvedSchema.of(
      [
        Columns.physical('uid', DataTypes.BIGINT()),
        Columns.physical('page', DataTypes.VARCHAR(32)),
        Columns.physical('ts', DataTypes.TIMESTAMP(3)),
        Columns.computed('ptime', DataTypes.TIMESTAMP_LTZ(3), 'PROCTIME()'),
      ],
      [{ rowtimeAttribute: 'ts', expression: "ts - INTERVAL '1' SECOND" }],
    );
    const c = ctx().add('clicks', testTable(schema, [], { bounded: false }));
    const text = await explain(parseStatement("EXPLAIN SELECT page FROM clicks WHERE uid > 10"), c);
    expect(text).toBe(
      [
        '== Abstract Syntax Tree ==',
        'LogicalProject(page=[$1])',
        '+- LogicalFilter(condition=[>($0, 10)])',
        "   +- LogicalWatermarkAssigner(rowtime=[ts], watermark=[-($2, 1000:INTERVAL SECOND)])",
        '      +- LogicalProject(uid=[$0], page=[$1], ts=[$2], ptime=[PROCTIME()])',
        '         +- LogicalTableScan(table=[[default_catalog, default_database, clicks]])',
        '',
        '== Optimized Physical Plan ==',
        'Calc(select=[page], where=[>(uid, 10)])',
        '+- WatermarkAssigner(rowtime=[ts], watermark=[-(ts, 1000:INTERVAL SECOND)])',
        '   +- TableSourceScan(table=[[default_catalog, default_database, clicks]], fields=[uid, page, ts])',
        '',
        '== Optimized Execution Plan ==',
        'Calc(select=[page], where=[(uid > 10)])',
        '+- WatermarkAssigner(rowtime=[ts], watermark=[(ts - 1000:INTERVAL SECOND)])',
        '   +- TableSourceScan(table=[[default_catalog, default_database, clicks]], fields=[uid, page, ts])',
        '',
      ].join('\n'),
    );
  });

  // plan/stream/sql/SourceWatermarkTest.xml; Flink 1.18+ adds the emit strategy to the digest (WatermarkPushDownSpec).
  it('prints a pushed-down watermark in the table digest, before filter= (SourceWatermarkTest testWatermarkOnComputedColumnExcluedRowTime1)', async () => {
    const text = await explainVirtual('EXPLAIN SELECT a, b FROM VirtualTable WHERE b > 10', true);
    const ast = [
      'LogicalProject(a=[$0], b=[$1])',
      '+- LogicalFilter(condition=[>($1, 10)])',
      '   +- LogicalWatermarkAssigner(rowtime=[d], watermark=[-($3, 5000:INTERVAL SECOND)])',
      '      +- LogicalProject(a=[$0], b=[$1], c=[$2], d=[+($2, 5000:INTERVAL SECOND)])',
      '         +- LogicalTableScan(table=[[default_catalog, default_database, VirtualTable]])',
    ];
    expect(text).toContain(`== Abstract Syntax Tree ==\n${ast.join('\n')}\n`);
    const scan = 'TableSourceScan(table=[[default_catalog, default_database, VirtualTable, watermark=[-(+(c, 5000:INTERVAL SECOND), 5000:INTERVAL SECOND)], watermarkEmitStrategy=[on-periodic], filter=[]]], fields=[a, b, c])';
    expect(text).toContain(`== Optimized Execution Plan ==\nCalc(select=[a, b], where=[(b > 10)])\n+- ${scan}\n`);
  });

  it('prints only the scan for a pushed-down watermark when the query reads every column (SourceWatermarkTest testSimpleWatermarkPushDown)', async () => {
    const text = await explainVirtual('EXPLAIN SELECT a, b, c FROM VirtualTable', true);
    expect(text).toContain(
      '== Optimized Execution Plan ==\nTableSourceScan(table=[[default_catalog, default_database, VirtualTable, watermark=[-(+(c, 5000:INTERVAL SECOND), 5000:INTERVAL SECOND)], watermarkEmitStrategy=[on-periodic]]], fields=[a, b, c])\n',
    );
  });

  it('computes a computed rowtime below the WatermarkAssigner and refers to it by name above', async () => {
    const text = await explainVirtual('EXPLAIN SELECT d, a FROM VirtualTable WHERE a > 0', false);
    expect(text).toContain(
      [
        '== Optimized Physical Plan ==',
        'Calc(select=[d, a], where=[>(a, 0)])',
        '+- WatermarkAssigner(rowtime=[d], watermark=[-(d, 5000:INTERVAL SECOND)])',
        '   +- Calc(select=[a, +(c, 5000:INTERVAL SECOND) AS d])',
        '      +- TableSourceScan(table=[[default_catalog, default_database, VirtualTable, project=[a, c]]], fields=[a, c])',
      ].join('\n'),
    );
    // Read as is, the assigner sits on the lower Calc alone.
    const whole = await explainVirtual('EXPLAIN SELECT a, d FROM VirtualTable', false);
    expect(whole).toContain('== Optimized Physical Plan ==\nWatermarkAssigner(rowtime=[d], watermark=[-(d, 5000:INTERVAL SECOND)])\n+- Calc(select=[a, +(c, 5000:INTERVAL SECOND) AS d])\n');
  });
});
