import { describe, expect, it } from 'vitest';
import { Columns, ResolvedSchema } from '../../src/types/schema.js';
import { DataTypes } from '../../src/types/data-types.js';
import { Row } from '../../src/types/row.js';
import { RowKind } from '../../src/types/row-kind.js';
import { parseStatement } from '../../src/sql/parse.js';
import { planQuery } from '../../src/planner/planner.js';
import { formatRows, materialize, runQuery, testTable, TestContext } from '../planner/harness.js';

/** The class names of the operators a query's job graph runs. */
async function operatorNames(sql: string, c: TestContext): Promise<string[]> {
  const stmt = parseStatement(sql);
  if (stmt.kind !== 'query') throw new Error('not a query');
  const planned = await planQuery(stmt.query, c);
  return planned.toJobGraph({ push() {}, end() {} }).vertices.flatMap((v) => v.operators.map((o) => o.create().constructor.name));
}

const schema = (time: string): ResolvedSchema =>
  ResolvedSchema.of([Columns.physical('id', DataTypes.INT()), Columns.physical(time, DataTypes.TIMESTAMP(3))], [{ rowtimeAttribute: time, expression: time }]);

function ctx(mode: 'streaming' | 'batch'): TestContext {
  return new TestContext(mode)
    .add('orders', testTable(schema('ot'), [Row.insert(1, 1000), Row.insert(2, 2000), Row.insert(3, 3000), Row.insert(4, 9000)]))
    .add('shipments', testTable(schema('st'), [Row.insert(1, 1500), Row.insert(3, 8000), Row.insert(5, 8500), Row.insert(4, 9100), Row.insert(4, 9200)]));
}

const INTERVAL = "FROM orders AS o {JOIN} shipments AS s ON o.id = s.id AND s.st BETWEEN o.ot AND o.ot + INTERVAL '1' SECOND";

describe('outer interval joins (SQL)', () => {
  for (const mode of ['streaming', 'batch'] as const) {
    it(`LEFT JOIN pads orders never shipped within the bound, insert-only [${mode}]`, async () => {
      const r = await runQuery(`SELECT o.id, s.id AS sid ${INTERVAL.replace('{JOIN}', 'LEFT JOIN')}`, ctx(mode));
      expect(materialize(r.rows, r.types)).toEqual(['[1, 1]', '[2, NULL]', '[3, NULL]', '[4, 4]', '[4, 4]']);
      expect(r.rows.every((x) => x.kind === RowKind.INSERT)).toBe(true);
    });

    it(`FULL JOIN pads both sides exactly once [${mode}]`, async () => {
      const sql = `SELECT o.id, s.id AS sid ${INTERVAL.replace('{JOIN}', 'FULL JOIN')}`;
      expect(await operatorNames(sql, ctx(mode))).toContain(mode === 'streaming' ? 'IntervalJoinOperator' : 'JoinOperator');
      const r = await runQuery(sql, ctx(mode));
      expect(materialize(r.rows, r.types)).toEqual(['[1, 1]', '[2, NULL]', '[3, NULL]', '[4, 4]', '[4, 4]', '[NULL, 3]', '[NULL, 5]']);
      expect(r.rows).toHaveLength(7);
      expect(r.rows.every((x) => x.kind === RowKind.INSERT)).toBe(true);
    });
  }

  it('RIGHT JOIN in streaming emits the padded shipments as the watermark passes them', async () => {
    const r = await runQuery(`SELECT o.id, s.id AS sid ${INTERVAL.replace('{JOIN}', 'RIGHT JOIN')}`, ctx('streaming'));
    expect(materialize(r.rows, r.types)).toEqual(['[1, 1]', '[4, 4]', '[4, 4]', '[NULL, 3]', '[NULL, 5]']);
    expect(r.rows.every((x) => x.kind === RowKind.INSERT)).toBe(true);
  });
});

describe('processing-time interval joins (SQL)', () => {
  it('a LEFT JOIN on proctime bounds joins rows read close together and pads the rest at end of input', async () => {
    const s = ResolvedSchema.of([Columns.physical('id', DataTypes.INT()), Columns.computed('pt', DataTypes.TIMESTAMP_LTZ(3, 'PROCTIME'), 'PROCTIME()')]);
    const c = new TestContext('streaming').add('a', testTable(s, [Row.insert(1), Row.insert(2)])).add('b', testTable(s, [Row.insert(1)]));
    const sql = "SELECT a.id, b.id AS bid FROM a LEFT JOIN b ON a.id = b.id AND a.pt BETWEEN b.pt - INTERVAL '1' HOUR AND b.pt + INTERVAL '1' HOUR";
    expect(await operatorNames(sql, c)).toContain('IntervalJoinOperator');
    const r = await runQuery(sql, c);
    expect(materialize(r.rows, r.types)).toEqual(['[1, 1]', '[2, NULL]']);
    expect(r.rows.every((x) => x.kind === RowKind.INSERT)).toBe(true);
  });
});

const WINDOW = (join: string): string => `
  SELECT l.k, l.window_start, l.c, r.c AS rc FROM
    (SELECT k, window_start, window_end, COUNT(*) AS c FROM TABLE(TUMBLE(TABLE lt, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY k, window_start, window_end) AS l
  ${join}
    (SELECT k, window_start, window_end, COUNT(*) AS c FROM TABLE(TUMBLE(TABLE rt, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY k, window_start, window_end) AS r
  ON l.k = r.k AND l.window_start = r.window_start AND l.window_end = r.window_end`;

function windowCtx(mode: 'streaming' | 'batch'): TestContext {
  const s = ResolvedSchema.of([Columns.physical('k', DataTypes.STRING()), Columns.physical('ts', DataTypes.TIMESTAMP(3))], [{ rowtimeAttribute: 'ts', expression: 'ts' }]);
  return new TestContext(mode)
    .add('lt', testTable(s, [Row.insert('a', 1000), Row.insert('a', 2000), Row.insert('b', 3000), Row.insert('a', 12_000)]))
    .add('rt', testTable(s, [Row.insert('a', 4000), Row.insert('c', 5000), Row.insert('c', 15_000)]));
}

describe('outer window joins (SQL)', () => {
  for (const mode of ['streaming', 'batch'] as const) {
    it(`FULL OUTER window join pads the unmatched rows of each window once [${mode}]`, async () => {
      const r = await runQuery(WINDOW('FULL OUTER JOIN'), windowCtx(mode));
      expect(materialize(r.rows, r.types)).toEqual([
        '[NULL, NULL, NULL, 1]',
        '[NULL, NULL, NULL, 1]',
        '[a, 1970-01-01 00:00:00.000, 2, 1]',
        '[a, 1970-01-01 00:00:10.000, 1, NULL]',
        '[b, 1970-01-01 00:00:00.000, 1, NULL]',
      ]);
      expect(r.rows).toHaveLength(5);
      expect(r.rows.every((x) => x.kind === RowKind.INSERT)).toBe(true);
    });
  }

  it('LEFT window join in streaming keeps the unmatched left windows, padded, as inserts only', async () => {
    const r = await runQuery(WINDOW('LEFT JOIN'), windowCtx('streaming'));
    const lines = formatRows(r.rows, r.types);
    expect(lines.sort()).toEqual(['+I[a, 1970-01-01 00:00:00.000, 2, 1]', '+I[a, 1970-01-01 00:00:10.000, 1, NULL]', '+I[b, 1970-01-01 00:00:00.000, 1, NULL]']);
  });
});

describe('window join over window TVFs (the Flink docs example)', () => {
  const t = (hm: string): number => Date.UTC(2020, 3, 15, Number(hm.slice(0, 2)), Number(hm.slice(3)));
  function docsCtx(mode: 'streaming' | 'batch'): TestContext {
    const s = ResolvedSchema.of(
      [Columns.physical('row_time', DataTypes.TIMESTAMP(3)), Columns.physical('num', DataTypes.INT()), Columns.physical('id', DataTypes.STRING())],
      [{ rowtimeAttribute: 'row_time', expression: "row_time - INTERVAL '1' SECOND" }],
    );
    return new TestContext(mode)
      .add('LeftTable', testTable(s, [Row.insert(t('12:02'), 1, 'L1'), Row.insert(t('12:06'), 2, 'L2'), Row.insert(t('12:03'), 3, 'L3')]))
      .add('RightTable', testTable(s, [Row.insert(t('12:01'), 2, 'R2'), Row.insert(t('12:04'), 3, 'R3'), Row.insert(t('12:05'), 4, 'R4')]));
  }
  const sql = `
    SELECT L.num AS L_Num, L.id AS L_Id, R.num AS R_Num, R.id AS R_Id, COALESCE(L.window_start, R.window_start) AS window_start, COALESCE(L.window_end, R.window_end) AS window_end
    FROM (SELECT * FROM TABLE(TUMBLE(TABLE LeftTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))) L
    FULL JOIN (SELECT * FROM TABLE(TUMBLE(TABLE RightTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))) R
    ON L.num = R.num AND L.window_start = R.window_start AND L.window_end = R.window_end`;
  for (const mode of ['streaming', 'batch'] as const) {
    it(`FULL JOIN: L2 and R2 are in different windows, so both are padded [${mode}]`, async () => {
      if (mode === 'streaming') expect(await operatorNames(sql, docsCtx(mode))).toContain('IntervalJoinOperator');
      const r = await runQuery(sql, docsCtx(mode));
      expect(materialize(r.rows, r.types)).toEqual([
        '[1, L1, NULL, NULL, 2020-04-15 12:00:00.000, 2020-04-15 12:05:00.000]',
        '[2, L2, NULL, NULL, 2020-04-15 12:05:00.000, 2020-04-15 12:10:00.000]',
        '[3, L3, 3, R3, 2020-04-15 12:00:00.000, 2020-04-15 12:05:00.000]',
        '[NULL, NULL, 2, R2, 2020-04-15 12:00:00.000, 2020-04-15 12:05:00.000]',
        '[NULL, NULL, 4, R4, 2020-04-15 12:05:00.000, 2020-04-15 12:10:00.000]',
      ]);
      expect(r.rows.every((x) => x.kind === RowKind.INSERT)).toBe(true);
    });
  }
});
