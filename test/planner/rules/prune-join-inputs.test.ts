import { describe, expect, it } from 'vitest';
import { ChangelogMode } from '../../../src/factories/changelog-mode.js';
import { explain } from '../../../src/planner/planner.js';
import { parseStatement } from '../../../src/sql/parse.js';
import { DataTypes } from '../../../src/types/data-types.js';
import { Row } from '../../../src/types/row.js';
import { RowKind } from '../../../src/types/row-kind.js';
import { Columns, ResolvedSchema } from '../../../src/types/schema.js';
import { materialize, runQuery, testTable, TestContext } from '../harness.js';

/** Wide inputs whose pad / junk columns no query below reads. */
const src = ResolvedSchema.of([
  Columns.physical('k', DataTypes.INT()),
  Columns.physical('v', DataTypes.INT()),
  Columns.physical('pad1', DataTypes.STRING()),
  Columns.physical('pad2', DataTypes.STRING()),
]);
const dim = ResolvedSchema.of([Columns.physical('k', DataTypes.INT()), Columns.physical('name', DataTypes.STRING()), Columns.physical('junk', DataTypes.STRING())]);
const timed = (cols: string[]): ResolvedSchema =>
  ResolvedSchema.of(
    [Columns.physical('k', DataTypes.INT()), ...cols.map((c) => Columns.physical(c, DataTypes.STRING())), Columns.physical('ts', DataTypes.TIMESTAMP(3))],
    [{ rowtimeAttribute: 'ts', expression: 'ts' }],
  );

function ctx(mode: 'streaming' | 'batch' = 'streaming'): TestContext {
  return new TestContext(mode)
    .add('src', testTable(src, [Row.insert(1, 10, 'a', 'b'), Row.insert(2, 20, 'c', 'd'), Row.insert(3, 30, 'e', 'f')]))
    .add('dim', testTable(dim, [Row.insert(1, 'one', 'x'), Row.insert(2, 'two', 'y'), Row.insert(4, 'four', 'z')]));
}

/** The optimized physical plan section of EXPLAIN. */
async function plan(sql: string, c: TestContext = ctx()): Promise<string> {
  const text = await explain(parseStatement(sql), c);
  return text.slice(text.indexOf('== Optimized Physical Plan =='), text.indexOf('== Optimized Execution Plan =='));
}

async function rows(sql: string, c: TestContext = ctx()): Promise<string[]> {
  const r = await runQuery(sql, c);
  return materialize(r.rows, r.types);
}

const scan = (table: string, fields: string): string => `TableSourceScan(table=[[default_catalog, default_database, ${table}, project=[${fields}]]], fields=[${fields}])`;

describe('pruning join inputs: regular joins', () => {
  const cases: readonly { type: string; op: string; rows: string[] }[] = [
    { type: 'JOIN', op: 'InnerJoin', rows: ['[10, one]', '[20, two]'] },
    { type: 'LEFT JOIN', op: 'LeftOuterJoin', rows: ['[10, one]', '[20, two]', '[30, NULL]'] },
    { type: 'RIGHT JOIN', op: 'RightOuterJoin', rows: ['[10, one]', '[20, two]', '[NULL, four]'] },
    { type: 'FULL JOIN', op: 'FullOuterJoin', rows: ['[10, one]', '[20, two]', '[30, NULL]', '[NULL, four]'] },
  ];
  for (const c of cases) {
    it(`${c.type}: each input keeps the read columns and the keys, down to the scans`, async () => {
      const sql = `SELECT s.v, d.name FROM src s ${c.type} dim d ON s.k = d.k`;
      const p = await plan(sql);
      expect(p).toContain(`Join(joinType=[${c.op}], where=[=(k, k0)], select=[k, v, k0, name]`);
      expect(p).toContain(scan('src', 'k, v'));
      expect(p).toContain(scan('dim', 'k, name'));
      expect(await rows(sql)).toEqual(c.rows);
      expect(await rows(sql, ctx('batch'))).toEqual(c.rows);
    });
  }

  it('keeps the columns of the non-equi part of the ON condition and of the WHERE above', async () => {
    const sql = "SELECT s.v FROM src s LEFT JOIN dim d ON s.k = d.k AND d.junk <> s.pad1 WHERE d.name IS NULL OR s.pad2 <> 'zz'";
    const p = await plan(sql);
    // Every column is read somewhere: nothing to push into the sources.
    expect(p).toContain('src]], fields=[k, v, pad1, pad2])');
    expect(p).toContain('dim]], fields=[k, name, junk])');
    expect(await rows(sql)).toEqual(['[10]', '[20]', '[30]']);
  });

  it('drops an unread computed column of a calc below the join', async () => {
    const sql = 'SELECT s.v, d.name FROM (SELECT k, v, UPPER(pad2) AS u FROM src) s JOIN dim d ON s.k = d.k';
    const p = await plan(sql);
    expect(p).not.toContain('UPPER');
    expect(p).toContain(scan('src', 'k, v'));
    expect(await rows(sql)).toEqual(['[10, one]', '[20, two]']);
  });

  it('prunes every join of a chain', async () => {
    const sql = 'SELECT s.v, d.name, e.name FROM src s JOIN dim d ON s.k = d.k JOIN dim e ON e.k = s.k';
    const p = await plan(sql);
    expect(p).toContain('select=[k, v, name, k1, name0]');
    expect(p).not.toContain('junk');
    expect(await rows(sql)).toEqual(['[10, one, one]', '[20, two, two]']);
  });

  it('a cross join whose columns are all unread keeps one column per side', async () => {
    const sql = 'SELECT COUNT(*) FROM src s, dim d';
    const p = await plan(sql);
    expect(p).toContain(scan('src', 'k'));
    expect(p).toContain(scan('dim', 'k'));
    expect(await rows(sql, ctx('batch'))).toEqual(['[9]']);
  });

  it('retractions through a pruned join still cancel', async () => {
    const c = ctx().add(
      'chg',
      testTable(src, [Row.insert(1, 10, 'a', 'b'), new Row(RowKind.UPDATE_BEFORE, [1, 10, 'a', 'b']), new Row(RowKind.UPDATE_AFTER, [1, 11, 'q', 'b'])], {
        changelog: ChangelogMode.all(),
      }),
    );
    const sql = 'SELECT s.v, d.name FROM chg s JOIN dim d ON s.k = d.k';
    expect(await plan(sql, c)).toContain(scan('chg', 'k, v'));
    expect(await rows(sql, c)).toEqual(['[11, one]']);
  });
});

describe('pruning join inputs: semi / anti joins', () => {
  it('IN: the right side keeps only its key', async () => {
    const sql = 'SELECT s.v FROM src s WHERE s.k IN (SELECT k FROM dim)';
    const p = await plan(sql);
    expect(p).toContain('joinType=[LeftSemiJoin]');
    expect(p).toContain(scan('src', 'k, v'));
    expect(p).toContain(scan('dim', 'k'));
    expect(await rows(sql)).toEqual(['[10]', '[20]']);
  });

  it('NOT EXISTS: the right side keeps only its key', async () => {
    const sql = 'SELECT s.v FROM src s WHERE NOT EXISTS (SELECT 1 FROM dim d WHERE d.k = s.k)';
    const p = await plan(sql);
    expect(p).toContain('joinType=[LeftAntiJoin]');
    expect(p).toContain(scan('dim', 'k'));
    expect(await rows(sql)).toEqual(['[30]']);
  });

  it('INTERSECT ALL compares whole rows: nothing is pruned', async () => {
    const sql = 'SELECT k FROM (SELECT k, v FROM src INTERSECT ALL SELECT k, k * 10 FROM dim)';
    expect(await rows(sql, ctx('batch'))).toEqual(['[1]', '[2]']);
  });
});

describe('pruning join inputs: time-based joins', () => {
  function timedCtx(): TestContext {
    return new TestContext('streaming')
      .add('a', testTable(timed(['x', 'apad']), [Row.insert(1, 'a1', 'p', 1000), Row.insert(2, 'a2', 'p', 5000), Row.insert(1, 'a3', 'p', 12000)]))
      .add('b', testTable(timed(['y', 'bpad']), [Row.insert(1, 'b1', 'p', 1500), Row.insert(2, 'b2', 'p', 9000), Row.insert(1, 'b3', 'p', 12500)]));
  }

  it('an interval join keeps both rowtimes (read by its bounds only) and stays an interval join', async () => {
    const sql = "SELECT a.x, b.y FROM a, b WHERE a.k = b.k AND a.ts BETWEEN b.ts - INTERVAL '1' SECOND AND b.ts";
    const p = await plan(sql, timedCtx());
    expect(p).toContain(scan('a', 'k, x, ts'));
    expect(p).toContain(scan('b', 'k, y, ts'));
    // An interval join emits inserts only (a regular join over these inputs would too, but never purges).
    expect(await rows(sql, timedCtx())).toEqual(['[a1, b1]', '[a3, b3]']);
  });

  it('a window join keeps window_start / window_end', async () => {
    const tumble = (t: string): string => `SELECT * FROM TABLE(TUMBLE(TABLE ${t}, DESCRIPTOR(ts), INTERVAL '5' SECOND))`;
    const sql = `SELECT L.x, R.y, L.window_end FROM (${tumble('a')}) L JOIN (${tumble('b')}) R ON L.window_start = R.window_start AND L.window_end = R.window_end AND L.k = R.k`;
    const p = await plan(sql, timedCtx());
    // The projection stops at the window TVF (not pushed through it yet); the join state no longer holds apad / ts / window_time.
    expect(p).toContain('Calc(select=[k, x, window_start, window_end])');
    expect(p).toContain('select=[k, x, window_start, window_end, k0, y, window_start0, window_end0]');
    expect(await rows(sql, timedCtx())).toEqual(['[a1, b1, 1970-01-01 00:00:05.000]', '[a2, b2, 1970-01-01 00:00:10.000]', '[a3, b3, 1970-01-01 00:00:15.000]']);
  });
});

describe('pruning join inputs: temporal and lookup joins', () => {
  const orders = ResolvedSchema.of(
    [Columns.physical('id', DataTypes.INT()), Columns.physical('cur', DataTypes.STRING()), Columns.physical('opad', DataTypes.STRING()), Columns.physical('ts', DataTypes.TIMESTAMP(3))],
    [{ rowtimeAttribute: 'ts', expression: 'ts' }],
  );
  const rates = ResolvedSchema.of(
    [Columns.physical('cur', DataTypes.STRING()), Columns.physical('rate', DataTypes.INT()), Columns.physical('rpad', DataTypes.STRING()), Columns.physical('vt', DataTypes.TIMESTAMP(3))],
    [{ rowtimeAttribute: 'vt', expression: 'vt' }],
    ResolvedSchema.primaryKey(['cur']),
  );

  it('a temporal join keeps the versioned side key and both times', async () => {
    const c = new TestContext('streaming')
      .add('orders', testTable(orders, [Row.insert(1, 'EUR', 'p', 500), Row.insert(2, 'EUR', 'p', 2000), Row.insert(3, 'EUR', 'p', 6000), Row.insert(4, 'USD', 'p', 7000)]))
      .add(
        'rates',
        testTable(
          rates,
          [Row.insert('EUR', 10, 'p', 1000), new Row(RowKind.UPDATE_BEFORE, ['EUR', 10, 'p', 1000]), new Row(RowKind.UPDATE_AFTER, ['EUR', 11, 'p', 5000]), Row.insert('USD', 20, 'p', 1000)],
          { changelog: ChangelogMode.all() },
        ),
      );
    const sql = 'SELECT o.id, r.rate FROM orders AS o JOIN rates FOR SYSTEM_TIME AS OF o.ts AS r ON o.cur = r.cur';
    const p = await plan(sql, c);
    expect(p).toContain(scan('orders', 'id, cur, ts'));
    expect(p).toContain(scan('rates', 'cur, rate, vt'));
    expect(await rows(sql, c)).toEqual(['[2, 10]', '[3, 11]', '[4, 20]']);
  });

  it('a lookup join prunes its probe side (the dimension row comes whole from the lookup)', async () => {
    const probe = ResolvedSchema.of([
      Columns.physical('k', DataTypes.INT()),
      Columns.physical('v', DataTypes.INT()),
      Columns.physical('pad', DataTypes.STRING()),
      Columns.computed('pt', DataTypes.TIMESTAMP_LTZ(3, 'PROCTIME'), 'PROCTIME()'),
    ]);
    const c = new TestContext('streaming')
      .add('probe', testTable(probe, [Row.insert(1, 10, 'p'), Row.insert(3, 30, 'p')]))
      .add('dim', testTable(dim, [Row.insert(1, 'one', 'x')], { lookup: true }));
    const sql = 'SELECT o.v, d.name FROM probe AS o LEFT JOIN dim FOR SYSTEM_TIME AS OF o.pt AS d ON o.k = d.k';
    const p = await plan(sql, c);
    expect(p).toContain(scan('probe', 'k, v'));
    expect(await rows(sql, c)).toEqual(['[10, one]', '[30, NULL]']);
  });
});
