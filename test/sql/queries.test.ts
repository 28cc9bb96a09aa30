import { describe, expect, it } from 'vitest';
import type { Query, SelectQuery } from '../../src/sql/ast/query.js';
import { parseStatement } from '../../src/sql/parse.js';
import { stripPositions } from './helpers.js';

function query(sql: string): Query {
  const s = parseStatement(sql);
  if (s.kind !== 'query') throw new Error(s.kind);
  return stripPositions(s.query);
}

function select(sql: string): SelectQuery {
  const q = query(sql);
  if (q.kind !== 'select') throw new Error(q.kind);
  return q;
}

describe('queries', () => {
  it('reads the select list with stars and aliases', () => {
    const s = select('SELECT DISTINCT *, t.*, a AS x, b y, `c` FROM t');
    expect(s.quantifier).toBe('DISTINCT');
    expect(s.items.map((i) => [i.expr.kind, i.alias?.value ?? null])).toEqual([
      ['star', null],
      ['star', null],
      ['identifier', 'x'],
      ['identifier', 'y'],
      ['identifier', null],
    ]);
  });

  it('reads window TVFs with positional and named arguments', () => {
    const s = select("SELECT * FROM TABLE(SESSION(TABLE Bid PARTITION BY item, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES)) AS w");
    expect(s.from).toMatchObject({
      kind: 'table-function',
      lateral: false,
      alias: { value: 'w' },
      call: {
        name: ['SESSION'],
        args: [
          { kind: 'table-arg', table: ['Bid'], partitionBy: [{ kind: 'identifier', names: ['item'] }] },
          { kind: 'descriptor', columns: ['bidtime'] },
          { kind: 'interval-literal' },
        ],
      },
    });
    const named = select("SELECT * FROM TABLE(TUMBLE(DATA => TABLE Bid, TIMECOL => DESCRIPTOR(ts), SIZE => INTERVAL '1' HOUR))");
    expect(named.from).toMatchObject({ call: { args: [{ kind: 'named-argument', name: 'DATA', value: { kind: 'table-arg' } }, { name: 'TIMECOL' }, { name: 'SIZE' }] } });
  });

  it('reads temporal joins, lateral table functions, UNNEST and comma joins', () => {
    const s = select('SELECT * FROM o JOIN r FOR SYSTEM_TIME AS OF o.ts AS x ON o.k = x.k, LATERAL TABLE(f(o.a)) AS t(a, b) CROSS JOIN UNNEST(o.arr) AS u(v)');
    expect(s.from).toMatchObject({
      kind: 'join',
      joinType: 'COMMA',
      left: { kind: 'join', joinType: 'INNER', right: { kind: 'table', forSystemTimeAsOf: { names: ['o', 'ts'] }, alias: { value: 'x' } } },
      right: {
        kind: 'join',
        joinType: 'CROSS',
        left: { kind: 'table-function', lateral: true, columnAliases: [{ value: 'a' }, { value: 'b' }] },
        right: { kind: 'unnest', alias: { value: 'u' } },
      },
    });
  });

  it('reads table hints', () => {
    const s = select("SELECT * FROM k /*+ OPTIONS('scan.startup.mode'='earliest-offset', 'a'='b') */ AS t");
    expect(s.from).toMatchObject({ hints: [{ name: 'OPTIONS', kvOptions: [{ key: 'scan.startup.mode', value: 'earliest-offset' }, { key: 'a' }] }] });
  });

  it('reads grouping sets, rollup and cube, HAVING and WINDOW', () => {
    const s = select('SELECT a FROM t GROUP BY GROUPING SETS ((a, b), a, ()), ROLLUP (c), CUBE (d, e) HAVING COUNT(*) > 1 WINDOW w AS (PARTITION BY a)');
    expect(s.groupBy.map((g) => g.kind)).toEqual(['grouping-sets', 'rollup', 'cube']);
    expect(s.groupBy[0]).toMatchObject({ elements: [{ kind: 'group-expr', expr: { kind: 'row-constructor' } }, { kind: 'group-expr' }, { kind: 'group-empty' }] });
    expect(s.having).toMatchObject({ kind: 'binary', op: '>' });
    expect(s.windows[0]!.name.value).toBe('w');
  });

  it('reads OVER windows with frames', () => {
    const s = select('SELECT SUM(x) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 10 PRECEDING AND CURRENT ROW) FROM t');
    expect(s.items[0]!.expr).toMatchObject({
      over: { kind: 'window-spec', frame: { unit: 'ROWS', start: { kind: 'preceding', offset: { text: '10' } }, end: { kind: 'current-row' } } },
    });
  });

  it('gives INTERSECT precedence over UNION and attaches ORDER BY / LIMIT to the whole query', () => {
    const q = query('SELECT 1 UNION ALL SELECT 2 INTERSECT SELECT 3 ORDER BY 1 DESC NULLS LAST LIMIT 5 OFFSET 2');
    expect(q).toMatchObject({
      kind: 'order-by',
      orderBy: [{ direction: 'DESC', nulls: 'LAST' }],
      fetch: { text: '5' },
      offset: { text: '2' },
      query: { kind: 'set-operation', op: 'UNION', all: true, right: { kind: 'set-operation', op: 'INTERSECT' } },
    });
    expect(query('SELECT 1 FETCH FIRST 3 ROWS ONLY')).toMatchObject({ kind: 'order-by', fetch: { text: '3' } });
  });

  it('reads WITH and VALUES', () => {
    expect(query('WITH a (x) AS (VALUES (1), (2)) SELECT x FROM a')).toMatchObject({
      kind: 'with',
      items: [{ name: { value: 'a' }, columns: [{ value: 'x' }], query: { kind: 'values', rows: [[{ text: '1' }], [{ text: '2' }]] } }],
      body: { kind: 'select' },
    });
  });
});
