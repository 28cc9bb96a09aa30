import { describe, expect, it } from 'vitest';
import type { AlterTableStatement, CreateTableStatement } from '../../src/sql/ast/ddl.js';
import { parseDataType, parseStatement } from '../../src/sql/parse.js';
import { unparseDataType, unparseStatement } from '../../src/sql/unparse.js';
import { stripPositions } from './helpers.js';

function createTable(sql: string): CreateTableStatement {
  const s = parseStatement(sql);
  if (s.kind !== 'create-table') throw new Error(`not a create-table: ${s.kind}`);
  return s;
}

describe('CREATE TABLE', () => {
  const sql = `CREATE TEMPORARY TABLE IF NOT EXISTS cat.db.orders (
  id BIGINT NOT NULL PRIMARY KEY NOT ENFORCED COMMENT 'order id',
  price DECIMAL(10, 2),
  ts TIMESTAMP(3),
  cost AS price * 2 COMMENT 'doubled',
  part BIGINT METADATA FROM 'partition' VIRTUAL,
  headers MAP<STRING, BYTES> METADATA,
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
) COMMENT 'orders' PARTITIONED BY (id) WITH ('connector' = 'kafka', 'topic' = 'orders')`;

  it('reads every kind of column, the watermark, the inline primary key, comment, partitions and options', () => {
    const t = createTable(sql);
    expect(t.temporary).toBe(true);
    expect(t.ifNotExists).toBe(true);
    expect(t.name.parts).toEqual(['cat', 'db', 'orders']);
    expect(t.columns.map((c) => [c.kind, c.name.value])).toEqual([
      ['physical', 'id'],
      ['physical', 'price'],
      ['physical', 'ts'],
      ['computed', 'cost'],
      ['metadata', 'part'],
      ['metadata', 'headers'],
    ]);
    const id = t.columns[0]!;
    expect(id.kind === 'physical' && id.type).toMatchObject({ kind: 'simple', name: 'BIGINT', notNull: true });
    expect(id.comment).toBe('order id');
    const part = t.columns[4]!;
    expect(part).toMatchObject({ kind: 'metadata', metadataKey: 'partition', virtual: true });
    expect(t.columns[5]).toMatchObject({ kind: 'metadata', metadataKey: null, virtual: false });
    expect(t.primaryKey).toMatchObject({ constraintName: null, enforced: false, columns: [{ value: 'id' }] });
    expect(t.watermarks[0]!.column).toEqual(['ts']);
    expect(t.watermarks[0]!.expr).toMatchObject({ kind: 'binary', op: '-', right: { kind: 'interval-literal', value: '5' } });
    expect(t.comment).toBe('orders');
    expect(t.partitionedBy.map((p) => p.value)).toEqual(['id']);
    expect(t.options.map((o) => [o.key, o.value])).toEqual([
      ['connector', 'kafka'],
      ['topic', 'orders'],
    ]);
  });

  it('carries 1-based positions on columns', () => {
    const t = createTable(sql);
    expect(t.pos).toEqual({ line: 1, column: 1, offset: 0 });
    expect(t.columns[1]!.pos).toMatchObject({ line: 3, column: 3 });
    expect(t.columns[1]!.name.pos).toMatchObject({ line: 3, column: 3 });
  });

  it('unparses as SHOW CREATE TABLE prints, with backquoted names', () => {
    const t = createTable("CREATE TABLE c.d.t (a INT NOT NULL, b AS a + 1, CONSTRAINT pk PRIMARY KEY (a) NOT ENFORCED) WITH ('k' = 'v')");
    expect(unparseStatement(t)).toBe(
      "CREATE TABLE `c`.`d`.`t` (\n  `a` INT NOT NULL,\n  `b` AS `a` + 1,\n  CONSTRAINT `pk` PRIMARY KEY (`a`) NOT ENFORCED\n) WITH (\n  'k' = 'v'\n)",
    );
  });

  it('reads LIKE with its options and CREATE TABLE AS SELECT', () => {
    const t = createTable("CREATE TABLE t2 WITH ('a' = 'b') LIKE t1 (EXCLUDING ALL INCLUDING GENERATED OVERWRITING OPTIONS)");
    expect(t.like?.source.parts).toEqual(['t1']);
    expect(t.like?.options).toEqual([
      { strategy: 'EXCLUDING', feature: 'ALL' },
      { strategy: 'INCLUDING', feature: 'GENERATED' },
      { strategy: 'OVERWRITING', feature: 'OPTIONS' },
    ]);
    const ctas = createTable("CREATE TABLE t3 WITH ('connector' = 'print') AS SELECT * FROM t1");
    expect(ctas.columns).toEqual([]);
    expect(ctas.asQuery?.kind).toBe('select');
  });
});

describe('data types', () => {
  it.each([
    ['INTEGER', 'INT'],
    ['DOUBLE PRECISION', 'DOUBLE'],
    ['CHARACTER VARYING(10)', 'VARCHAR(10)'],
    ['TIMESTAMP(3) WITHOUT TIME ZONE', 'TIMESTAMP(3)'],
    ['TIMESTAMP(3) WITH LOCAL TIME ZONE', 'TIMESTAMP_LTZ(3)'],
    ['INT ARRAY', 'ARRAY<INT>'],
    ['STRING MULTISET NOT NULL', 'MULTISET<STRING> NOT NULL'],
    ['ROW(a INT, b STRING)', 'ROW<`a` INT, `b` STRING>'],
    ["ROW<a INT NOT NULL 'desc'>", "ROW<`a` INT NOT NULL 'desc'>"],
    ['MAP<STRING, ARRAY<ROW<x INT>>>', 'MAP<STRING, ARRAY<ROW<`x` INT>>>'],
    ['INTERVAL DAY(2) TO SECOND(3)', 'INTERVAL DAY(2) TO SECOND(3)'],
    ['INTERVAL MINUTES', 'INTERVAL MINUTE'],
    ['DECIMAL', 'DECIMAL'],
    ['NUMERIC(10)', 'DECIMAL(10)'],
    ["RAW('java.lang.String', 'AB==')", "RAW('java.lang.String', 'AB==')"],
    ['`my_type`', '`my_type`'],
  ])('%s is %s', (input, canonical) => {
    const t = parseDataType(input);
    expect(unparseDataType(t)).toBe(canonical);
    expect(stripPositions(parseDataType(canonical))).toEqual(stripPositions(t));
  });
});

describe('ALTER, DROP, CREATE of other objects', () => {
  it('reads ALTER TABLE ADD with positions and an inline key as separate changes', () => {
    const s = parseStatement('ALTER TABLE t ADD (a INT FIRST, b STRING AFTER a, c INT PRIMARY KEY NOT ENFORCED)') as AlterTableStatement;
    expect(s.action.kind).toBe('add');
    if (s.action.kind !== 'add') return;
    expect(s.action.changes.map((c) => c.kind)).toEqual(['column', 'column', 'column', 'primary-key']);
    expect(s.action.changes[0]).toMatchObject({ position: { kind: 'first' } });
    expect(s.action.changes[1]).toMatchObject({ position: { kind: 'after', column: { value: 'a' } } });
  });

  it('reads the DROP variants and their scopes', () => {
    expect(parseStatement('DROP TEMPORARY SYSTEM FUNCTION IF EXISTS f')).toMatchObject({ kind: 'drop', objectType: 'FUNCTION', scope: 'temporary-system', ifExists: true });
    expect(parseStatement('DROP DATABASE c.d CASCADE')).toMatchObject({ kind: 'drop', objectType: 'DATABASE', behavior: 'CASCADE', name: { parts: ['c', 'd'] } });
    expect(parseStatement('ALTER TABLE t DROP PRIMARY KEY')).toMatchObject({ action: { kind: 'drop-primary-key' } });
    expect(parseStatement('ALTER TABLE t DROP c')).toMatchObject({ action: { kind: 'drop-columns', columns: [{ value: 'c' }] } });
  });

  it('reads functions with their language and catalogs with options', () => {
    expect(parseStatement("CREATE TEMPORARY FUNCTION f AS 'x.Y' LANGUAGE PYTHON")).toMatchObject({ scope: 'temporary', className: 'x.Y', language: 'PYTHON', jars: [] });
    expect(parseStatement("CREATE FUNCTION f AS 'x.Y' LANGUAGE JAVA USING JAR '/a.jar', JAR 'b.jar'")).toMatchObject({ language: 'JAVA', jars: ['/a.jar', 'b.jar'] });
    expect(() => parseStatement("CREATE FUNCTION f AS 'x.Y' USING '/a.jar'")).toThrow(/JAR/);
    expect(parseStatement("CREATE CATALOG c WITH ('type' = 'generic_in_memory')")).toMatchObject({ kind: 'create-catalog', name: { value: 'c' }, options: [{ key: 'type' }] });
  });
});
