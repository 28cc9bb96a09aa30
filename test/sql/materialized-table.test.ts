import { describe, expect, it } from 'vitest';
import { SqlParseError } from '../../src/errors/sluice-error.js';
import { parseStatement } from '../../src/sql/parse.js';
import { unparseStatement } from '../../src/sql/unparse.js';
import { stripPositions } from './helpers.js';

const FULL_CREATE = `CREATE MATERIALIZED TABLE cat.db.mt (CONSTRAINT pk PRIMARY KEY (a) NOT ENFORCED)
COMMENT 'mt'
PARTITIONED BY (ds)
WITH ('connector' = 'filesystem', 'path' = '/tmp/x')
FRESHNESS = INTERVAL '10' SECOND
REFRESH_MODE = CONTINUOUS
AS SELECT a, ds FROM t`;

describe('materialized table statements', () => {
  it('parses every clause of CREATE MATERIALIZED TABLE in Flink 2.3 order', () => {
    expect(stripPositions(parseStatement(FULL_CREATE))).toMatchObject({
      kind: 'create-materialized-table',
      name: { parts: ['cat', 'db', 'mt'] },
      primaryKey: { constraintName: 'pk', columns: [{ value: 'a' }], enforced: false },
      comment: 'mt',
      partitionedBy: [{ value: 'ds' }],
      options: [
        { key: 'connector', value: 'filesystem' },
        { key: 'path', value: '/tmp/x' },
      ],
      freshness: { interval: '10', unit: 'SECOND' },
      refreshMode: 'CONTINUOUS',
      query: { kind: 'select' },
    });
  });

  it('leaves FRESHNESS and REFRESH_MODE null when absent, for the executor to derive', () => {
    expect(parseStatement('CREATE MATERIALIZED TABLE mt AS SELECT 1')).toMatchObject({ freshness: null, refreshMode: null, primaryKey: null, options: [] });
    expect(parseStatement("create materialized table mt freshness = interval '1' hour refresh_mode = full as select 1")).toMatchObject({
      freshness: { interval: '1', unit: 'HOUR' },
      refreshMode: 'FULL',
    });
  });

  it.each([
    ['DROP MATERIALIZED TABLE mt', { kind: 'drop-materialized-table', ifExists: false, name: { parts: ['mt'] } }],
    ['drop materialized table if exists db.mt', { kind: 'drop-materialized-table', ifExists: true, name: { parts: ['db', 'mt'] } }],
    ['ALTER MATERIALIZED TABLE mt SUSPEND', { kind: 'alter-materialized-table', action: { kind: 'suspend' } }],
    ['ALTER MATERIALIZED TABLE mt RESUME', { kind: 'alter-materialized-table', action: { kind: 'resume', options: [] } }],
    ["ALTER MATERIALIZED TABLE mt RESUME WITH ('sink.parallelism' = '2')", { action: { kind: 'resume', options: [{ key: 'sink.parallelism', value: '2' }] } }],
    ["ALTER MATERIALIZED TABLE mt REFRESH PARTITION (ds = '2024-01-01')", { action: { kind: 'refresh', partition: [{ column: { value: 'ds' } }] } }],
    ['ALTER MATERIALIZED TABLE mt AS SELECT a, b FROM t', { action: { kind: 'as-query', query: { kind: 'select' } } }],
    ['SHOW CREATE MATERIALIZED TABLE db.mt', { kind: 'show-create', objectType: 'MATERIALIZED TABLE', name: { parts: ['db', 'mt'] } }],
    ["SHOW MATERIALIZED TABLES FROM db LIKE 'm%'", { kind: 'show', object: 'MATERIALIZED TABLES', from: { preposition: 'FROM' }, like: { pattern: 'm%' } }],
  ])('%s', (sql, expected) => {
    expect(stripPositions(parseStatement(sql))).toMatchObject(expected);
  });

  it('unparses to statements that parse back to the same tree', () => {
    for (const sql of [
      FULL_CREATE,
      'CREATE MATERIALIZED TABLE mt AS SELECT x FROM (SELECT 1 AS x) AS s',
      "CREATE OR ALTER MATERIALIZED TABLE mt COMMENT 'c' AS SELECT 1 AS x",
      'DROP MATERIALIZED TABLE IF EXISTS mt',
      "ALTER MATERIALIZED TABLE mt RESUME WITH ('k' = 'v')",
      "ALTER MATERIALIZED TABLE mt REFRESH PARTITION (ds = '1')",
      'ALTER MATERIALIZED TABLE mt AS SELECT a FROM (SELECT 1 AS a) AS s',
      'SHOW CREATE MATERIALIZED TABLE mt',
      'SHOW MATERIALIZED TABLES',
    ]) {
      const once = stripPositions(parseStatement(sql));
      expect(stripPositions(parseStatement(unparseStatement(parseStatement(sql))))).toEqual(once);
    }
  });

  it('refuses a freshness Flink refuses, pointing at the unit or the number', () => {
    const unit = catchParse("CREATE MATERIALIZED TABLE mt\nFRESHNESS = INTERVAL '1' MONTH AS SELECT 1");
    expect(unit.message).toMatch(/^Materialized table freshness only supports SECOND, MINUTE, HOUR and DAY as the time unit, not MONTH\./);
    expect([unit.line, unit.column]).toEqual([2, 26]);
    const negative = catchParse("CREATE MATERIALIZED TABLE mt FRESHNESS = INTERVAL '-1' SECOND AS SELECT 1");
    expect(negative.message).toMatch(/must be a positive integer number of seconds, but is '-1'/);
    expect([negative.line, negative.column]).toEqual([1, 51]);
    expect(catchParse("CREATE MATERIALIZED TABLE mt FRESHNESS = INTERVAL '0' SECOND AS SELECT 1").message).toMatch(/but is '0'/);
  });

  it('reports a missing AS query or an unknown refresh mode with line and column', () => {
    const noQuery = catchParse("CREATE MATERIALIZED TABLE mt\nWITH ('a' = 'b')");
    expect([noQuery.line, noQuery.column]).toEqual([2, 17]);
    const mode = catchParse('CREATE MATERIALIZED TABLE mt REFRESH_MODE = SOMETIMES AS SELECT 1');
    expect(mode.message).toMatch(/^Encountered "SOMETIMES" at line 1, column 45/);
  });


  it('parses CREATE OR ALTER MATERIALIZED TABLE as CREATE with orAlter', () => {
    expect(parseStatement("CREATE OR ALTER MATERIALIZED TABLE mt WITH ('k' = 'v') AS SELECT 1")).toMatchObject({ kind: 'create-materialized-table', orAlter: true });
    expect(parseStatement('CREATE MATERIALIZED TABLE mt AS SELECT 1')).toMatchObject({ orAlter: false });
    expect(parseStatement(unparseStatement(parseStatement('create or alter materialized table mt as select 1')))).toMatchObject({ orAlter: true });
  });
});

function catchParse(sql: string): SqlParseError {
  try {
    parseStatement(sql);
  } catch (e) {
    if (e instanceof SqlParseError) return e;
    throw e;
  }
  throw new Error(`parsed: ${sql}`);
}
