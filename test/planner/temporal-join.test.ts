import { describe, expect, it } from 'vitest';
import { ChangelogMode } from '../../src/factories/changelog-mode.js';
import { Columns, ResolvedSchema } from '../../src/types/schema.js';
import { DataTypes } from '../../src/types/data-types.js';
import { Row } from '../../src/types/row.js';
import { RowKind } from '../../src/types/row-kind.js';
import { explain } from '../../src/planner/planner.js';
import { parseStatement } from '../../src/sql/parse.js';
import { materialize, runQuery, testTable, TestContext } from './harness.js';

const orders = ResolvedSchema.of(
  [Columns.physical('id', DataTypes.INT()), Columns.physical('cur', DataTypes.STRING()), Columns.physical('ts', DataTypes.TIMESTAMP(3))],
  [{ rowtimeAttribute: 'ts', expression: 'ts' }],
);
const rates = ResolvedSchema.of(
  [Columns.physical('cur', DataTypes.STRING()), Columns.physical('rate', DataTypes.INT()), Columns.physical('vt', DataTypes.TIMESTAMP(3))],
  [{ rowtimeAttribute: 'vt', expression: 'vt' }],
  ResolvedSchema.primaryKey(['cur']),
);
const noKey = ResolvedSchema.of(rates.columns.map((c) => Columns.physical(c.name, c.type)), [{ rowtimeAttribute: 'vt', expression: 'vt' }]);

function ctx(mode: 'streaming' | 'batch' = 'streaming'): TestContext {
  return new TestContext(mode)
    .add('orders', testTable(orders, [Row.insert(1, 'EUR', 500), Row.insert(2, 'EUR', 2000), Row.insert(3, 'EUR', 6000), Row.insert(4, 'USD', 7000), Row.insert(5, 'EUR', 9000)]))
    .add(
      'rates',
      testTable(
        rates,
        [
          Row.insert('EUR', 10, 1000),
          new Row(RowKind.UPDATE_BEFORE, ['EUR', 10, 1000]),
          new Row(RowKind.UPDATE_AFTER, ['EUR', 11, 5000]),
          Row.insert('USD', 20, 1000),
          new Row(RowKind.DELETE, ['EUR', 11, 8000]),
        ],
        { changelog: ChangelogMode.all() },
      ),
    )
    .add('plain', testTable(noKey, []))
    .add(
      'upsert_rates',
      testTable(rates, [Row.insert('EUR', 10, 1000), new Row(RowKind.UPDATE_AFTER, ['EUR', 11, 5000]), Row.insert('USD', 20, 1000)], { changelog: ChangelogMode.upsert() }),
    );
}

describe('event-time temporal join', () => {
  it('reads an upsert versioned table by key, without a ChangelogNormalize (Flink 2.x)', async () => {
    const sql = 'SELECT o.id, r.rate FROM orders AS o JOIN upsert_rates FOR SYSTEM_TIME AS OF o.ts AS r ON o.cur = r.cur';
    expect(await explain(parseStatement(sql), ctx())).not.toContain('ChangelogNormalize');
    const r = await runQuery(sql, ctx());
    expect(materialize(r.rows, r.types)).toEqual(['[2, 10]', '[3, 11]', '[4, 20]', '[5, 11]']);
  });

  it('joins each order with the rate version valid at its time', async () => {
    const r = await runQuery('SELECT o.id, r.rate FROM orders AS o JOIN rates FOR SYSTEM_TIME AS OF o.ts AS r ON o.cur = r.cur', ctx());
    expect(materialize(r.rows, r.types)).toEqual(['[2, 10]', '[3, 11]', '[4, 20]']);
  });

  it('joins on a key computed from the left row (computed below the join, as Flink), keeping every left column', async () => {
    const r = await runQuery(
      "SELECT o.id, o.cur, r.rate FROM orders AS o JOIN rates FOR SYSTEM_TIME AS OF o.ts AS r ON UPPER(LOWER(o.cur)) = r.cur AND r.rate > o.id",
      ctx(),
    );
    expect(materialize(r.rows, r.types)).toEqual(['[2, EUR, 10]', '[3, EUR, 11]', '[4, USD, 20]']);
  });

  it('a LEFT temporal join keeps orders without a valid version', async () => {
    const r = await runQuery('SELECT o.id, r.rate FROM orders AS o LEFT JOIN rates FOR SYSTEM_TIME AS OF o.ts AS r ON o.cur = r.cur', ctx());
    expect(materialize(r.rows, r.types)).toEqual(['[1, NULL]', '[2, 10]', '[3, 11]', '[4, 20]', '[5, NULL]']);
    expect(r.rows.every((x) => x.kind === RowKind.INSERT)).toBe(true);
  });

  it('requires a primary key on the versioned table', async () => {
    await expect(runQuery('SELECT o.id FROM orders AS o JOIN plain FOR SYSTEM_TIME AS OF o.ts AS r ON o.cur = r.cur', ctx())).rejects.toThrow(
      'Temporal Table Join requires primary key in versioned table',
    );
  });

  it('requires an equality on the primary key', async () => {
    await expect(runQuery('SELECT o.id FROM orders AS o JOIN rates FOR SYSTEM_TIME AS OF o.ts AS r ON o.id = r.rate', ctx())).rejects.toThrow(
      'requires an equality condition on the primary key [cur]',
    );
  });
});
