import { describe, expect, it } from 'vitest';
import { parseStatement } from '../../src/sql/parse.js';
import { explain, inferViewSchema, planStatementSet, resolveComputedColumnType } from '../../src/planner/planner.js';
import { executeJob } from '../../src/runtime/job-master.js';
import { defaultRuntimeConfig } from '../../src/runtime/runtime-config.js';
import { Columns, ResolvedSchema } from '../../src/types/schema.js';
import { DataTypes } from '../../src/types/data-types.js';
import { Row } from '../../src/types/row.js';
import { RowKind } from '../../src/types/row-kind.js';
import { formatRows, runInsert, runQuery, testTable, TestContext } from './harness.js';

const kv = ResolvedSchema.of([Columns.physical('k', DataTypes.STRING()), Columns.physical('v', DataTypes.INT())]);
const kc = ResolvedSchema.of([Columns.physical('k', DataTypes.STRING()), Columns.physical('c', DataTypes.BIGINT())], [], ResolvedSchema.primaryKey(['k']));

function ctxWith(mode: 'streaming' | 'batch'): TestContext {
  return new TestContext(mode)
    .add('src', testTable(kv, [Row.insert('a', 1), Row.insert('b', 2), Row.insert('a', 3)]))
    .add('append_sink', testTable(kv))
    .add('upsert_sink', testTable(kc, [], { sinkMode: 'upsert' }));
}

describe('planInsert', () => {
  it('writes a projection into an insert-only sink', async () => {
    const ctx = ctxWith('streaming');
    await runInsert('INSERT INTO append_sink SELECT k, v * 10 FROM src WHERE v > 1', ctx);
    expect(formatRows(ctx.tables.get('append_sink')!.written, kv.columnTypes())).toEqual(['+I[b, 20]', '+I[a, 30]']);
  });

  it('rejects an updating query into an insert-only sink with Flink message', async () => {
    const ctx = ctxWith('streaming');
    await expect(runInsert('INSERT INTO append_sink SELECT k, CAST(COUNT(*) AS INT) FROM src GROUP BY k', ctx)).rejects.toThrow(
      "Table sink 'default_catalog.default_database.append_sink' doesn't support consuming update changes which is produced by node GroupAggregate(groupBy=[k], select=[k, COUNT(*) AS EXPR$1])",
    );
  });

  it('gives an upsert sink updates without -U', async () => {
    const ctx = ctxWith('streaming');
    await runInsert('INSERT INTO upsert_sink SELECT k, COUNT(*) FROM src GROUP BY k', ctx);
    expect(formatRows(ctx.tables.get('upsert_sink')!.written, kc.columnTypes())).toEqual(['+I[a, 1]', '+I[b, 1]', '+U[a, 2]']);
  });

  it('accepts an aggregate into an insert-only sink in batch mode', async () => {
    const ctx = ctxWith('batch');
    await runInsert('INSERT INTO append_sink SELECT k, CAST(SUM(v) AS INT) FROM src GROUP BY k', ctx);
    expect(formatRows(ctx.tables.get('append_sink')!.written, kv.columnTypes())).toEqual(['+I[a, 4]', '+I[b, 2]']);
  });

  it('reports a column count mismatch naming both schemas', async () => {
    await expect(runInsert('INSERT INTO append_sink SELECT k FROM src', ctxWith('batch'))).rejects.toThrow(
      'Cause: Different number of columns.',
    );
  });

  it('fills unlisted target columns with NULL', async () => {
    const ctx = ctxWith('batch');
    await runInsert('INSERT INTO append_sink (k) SELECT k FROM src WHERE v = 2', ctx);
    expect(formatRows(ctx.tables.get('append_sink')!.written, kv.columnTypes())).toEqual(['+I[b, NULL]']);
  });
});

describe('scans', () => {
  it('pushes the used columns into the source', async () => {
    const ctx = ctxWith('batch');
    const r = await runQuery('SELECT v FROM src WHERE v > 1', ctx);
    expect(ctx.tables.get('src')!.pushed.projection).toEqual([1]);
    expect(formatRows(r.rows, r.types)).toEqual(['+I[2]', '+I[3]']);
  });

  it('rejects an unbounded source in batch mode naming the table', async () => {
    const ctx = new TestContext('batch').add('inf', testTable(kv, [], { bounded: false }));
    await expect(runQuery('SELECT * FROM inf', ctx)).rejects.toThrow("unbounded table 'default_catalog.default_database.inf'");
  });

  it('evaluates computed columns after the scan', async () => {
    const schema = ResolvedSchema.of([Columns.physical('v', DataTypes.INT()), Columns.computed('w', DataTypes.INT(), 'v * 2')]);
    const ctx = new TestContext('batch').add('c', testTable(schema, [Row.insert(4)]));
    const r = await runQuery('SELECT w, v FROM c', ctx);
    expect(formatRows(r.rows, r.types)).toEqual(['+I[8, 4]']);
  });

  it('replays a retracting source through an aggregate', async () => {
    const ctx = new TestContext('streaming').add(
      'cdc',
      testTable(kv, [Row.insert('a', 1), new Row(RowKind.UPDATE_BEFORE, ['a', 1]), new Row(RowKind.UPDATE_AFTER, ['a', 5])], {
        changelog: (await import('../../src/factories/changelog-mode.js')).ChangelogMode.all(),
      }),
    );
    const r = await runQuery('SELECT SUM(v) FROM cdc', ctx);
    expect(formatRows(r.rows, r.types)).toEqual(['+I[1]', '-D[1]', '+I[5]']);
  });
});

describe('explain and schemas', () => {
  it('prints the three sections with Flink node names', async () => {
    const stmt = parseStatement('SELECT k, COUNT(*) AS cnt FROM src WHERE v > 1 GROUP BY k');
    const text = await explain(stmt, ctxWith('streaming'), ['CHANGELOG_MODE']);
    // No LogicalProject over the aggregate: the SELECT list is its output in order (a real Flink 2.3 prints none).
    expect(text).toContain('== Abstract Syntax Tree ==\nLogicalAggregate(group=[{0}], cnt=[COUNT()])\n+- LogicalProject(k=[$0])');
    expect(text).toContain('== Optimized Physical Plan ==\nGroupAggregate(groupBy=[k], select=[k, COUNT(*) AS cnt], changelogMode=[I,UB,UA])\n+- Exchange(distribution=[hash[k]], changelogMode=[I])');
    expect(text).toContain('Calc(select=[k], where=[>(v, 1)], changelogMode=[I])');
    expect(text).toContain('Calc(select=[k], where=[(v > 1)])');
    expect(text).toContain('== Optimized Execution Plan ==');
  });

  it('infers a view schema and computed column types', async () => {
    const stmt = parseStatement('SELECT k, v + 1 AS w FROM src');
    if (stmt.kind !== 'query') throw new Error();
    const s = await inferViewSchema(stmt.query, ctxWith('batch'));
    expect(s.columnNames()).toEqual(['k', 'w']);
    expect(s.columnTypes()[1]!.kind).toBe('INT');
    expect(resolveComputedColumnType('v * 2.5', kv).kind).toBe('DECIMAL');
  });
});

describe('event time from a WATERMARK spec', () => {
  it('assigns watermarks at the scan so tumbling windows fire, and rejects descending streaming sort', async () => {
    const schema = ResolvedSchema.of(
      [Columns.physical('k', DataTypes.STRING()), Columns.physical('ts', DataTypes.TIMESTAMP(3))],
      [{ rowtimeAttribute: 'ts', expression: "ts - INTERVAL '1' SECOND" }],
    );
    const ctx = new TestContext('streaming').add('ev', testTable(schema, [Row.insert('a', 1000), Row.insert('a', 2000), Row.insert('b', 12000)]));
    const r = await runQuery("SELECT k, COUNT(*) AS c FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY k, window_start, window_end", ctx);
    expect(formatRows(r.rows, r.types)).toEqual(['+I[a, 2]', '+I[b, 1]']);
    const text = await explain(parseStatement("SELECT k, COUNT(*) AS c FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY k, window_start, window_end"), ctx);
    expect(text).toContain("LocalWindowAggregate(groupBy=[k], window=[TUMBLE(time_col=[ts], size=[10 s])], select=[k, COUNT(*) AS count1$0, slice_end('w$) AS $slice_end])");
    expect(text).toContain('WatermarkAssigner(rowtime=[ts], watermark=[-(ts, 1000:INTERVAL SECOND)])');
    await expect(runQuery('SELECT k FROM ev ORDER BY ts DESC', ctx)).rejects.toThrow('Sort on a non-time-attribute field is not supported.');
  });
});

describe('statement sets', () => {
  it('reads a shared source once and writes every sink', async () => {
    const ctx = ctxWith('batch').add('sink2', testTable(kv));
    const a = parseStatement('INSERT INTO append_sink SELECT k, v FROM src WHERE v > 1');
    const b = parseStatement('INSERT INTO sink2 SELECT k, v + 100 FROM src');
    if (a.kind !== 'insert' || b.kind !== 'insert') throw new Error();
    const planned = await planStatementSet([a, b], ctx);
    const graph = planned.toJobGraph();
    expect(graph.vertices.filter((v) => v.kind === 'source')).toHaveLength(1);
    await executeJob(graph, defaultRuntimeConfig()).waitForCompletion();
    expect(formatRows(ctx.tables.get('append_sink')!.written, kv.columnTypes())).toEqual(['+I[b, 2]', '+I[a, 3]']);
    expect(formatRows(ctx.tables.get('sink2')!.written, kv.columnTypes())).toEqual(['+I[a, 101]', '+I[b, 102]', '+I[a, 103]']);
  });
});

describe('streaming OVER aggregates', () => {
  it('emits each row once with its running aggregate in event-time order', async () => {
    const schema = ResolvedSchema.of(
      [Columns.physical('k', DataTypes.STRING()), Columns.physical('v', DataTypes.INT()), Columns.physical('ts', DataTypes.TIMESTAMP(3))],
      [{ rowtimeAttribute: 'ts', expression: "ts - INTERVAL '5' SECOND" }],
    );
    const ctx = new TestContext('streaming').add('ev', testTable(schema, [Row.insert('a', 1, 3000), Row.insert('a', 2, 1000), Row.insert('a', 4, 2000)]));
    const r = await runQuery('SELECT v, SUM(v) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS s FROM ev', ctx);
    expect(formatRows(r.rows, r.types)).toEqual(['+I[2, 2]', '+I[4, 6]', '+I[1, 7]']);
  });
});

describe('lookup joins', () => {
  const dimSchema = ResolvedSchema.of([Columns.physical('id', DataTypes.STRING()), Columns.physical('name', DataTypes.STRING())]);
  const ordersSchema = ResolvedSchema.of([
    Columns.physical('k', DataTypes.STRING()),
    Columns.physical('v', DataTypes.INT()),
    Columns.computed('pt', DataTypes.TIMESTAMP_LTZ(3, 'PROCTIME'), 'PROCTIME()'),
  ]);
  function lookupCtx(): TestContext {
    return new TestContext('streaming')
      .add('orders', testTable(ordersSchema, [Row.insert('a', 1), Row.insert('b', 2), Row.insert('c', 3)]))
      .add('dim', testTable(dimSchema, [Row.insert('a', 'Ann'), Row.insert('b', 'Bob')], { lookup: true }));
  }

  it('joins each row with the rows looked up by key', async () => {
    const r = await runQuery('SELECT o.v, d.name FROM orders AS o JOIN dim FOR SYSTEM_TIME AS OF o.pt AS d ON o.k = d.id', lookupCtx());
    expect(formatRows(r.rows, r.types)).toEqual(['+I[1, Ann]', '+I[2, Bob]']);
  });

  it('keeps unmatched rows with NULLs in a LEFT lookup join and explains as LookupJoin', async () => {
    const ctx = lookupCtx();
    const sql = 'SELECT o.v, d.name FROM orders AS o LEFT JOIN dim FOR SYSTEM_TIME AS OF o.pt AS d ON o.k = d.id';
    const r = await runQuery(sql, ctx);
    expect(formatRows(r.rows, r.types)).toEqual(['+I[1, Ann]', '+I[2, Bob]', '+I[3, NULL]']);
    expect(await explain(parseStatement(sql), ctx)).toContain('LookupJoin(table=[default_catalog.default_database.dim], joinType=[LeftOuterJoin], lookup=[id=k]');
  });

  it('rejects a dimension table that cannot be looked up', async () => {
    const ctx = lookupCtx().add('scanonly', testTable(dimSchema, []));
    await expect(runQuery('SELECT o.v FROM orders AS o JOIN scanonly FOR SYSTEM_TIME AS OF o.pt AS d ON o.k = d.id', ctx)).rejects.toThrow('to support lookups');
  });
});

describe('streaming ORDER BY rowtime', () => {
  it('sorts by the rowtime as the watermark passes', async () => {
    const schema = ResolvedSchema.of(
      [Columns.physical('k', DataTypes.STRING()), Columns.physical('ts', DataTypes.TIMESTAMP(3))],
      [{ rowtimeAttribute: 'ts', expression: "ts - INTERVAL '10' SECOND" }],
    );
    const ctx = new TestContext('streaming').add('ev', testTable(schema, [Row.insert('c', 3000), Row.insert('a', 1000), Row.insert('b', 2000)]));
    const r = await runQuery('SELECT k FROM ev ORDER BY ts, k', ctx);
    expect(formatRows(r.rows, r.types)).toEqual(['+I[a]', '+I[b]', '+I[c]']);
  });
});
