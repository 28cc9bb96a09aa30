import { describe, expect, it } from 'vitest';
import type { Expression } from '../../src/sql/ast/expressions.js';
import { childExpressions, walkExpression } from '../../src/sql/ast/visitor.js';
import { parseExpression } from '../../src/sql/parse.js';
import { unparseExpression } from '../../src/sql/unparse.js';
import { stripPositions } from './helpers.js';

function shape(sql: string): Expression {
  return stripPositions(parseExpression(sql));
}

describe('expressions', () => {
  it('keeps numeric literal text exact, folding a leading minus', () => {
    expect(shape('9007199254740993')).toEqual({ kind: 'numeric-literal', text: '9007199254740993' });
    expect(shape('-9223372036854775808')).toEqual({ kind: 'numeric-literal', text: '-9223372036854775808' });
    expect(shape('123.4500')).toEqual({ kind: 'numeric-literal', text: '123.4500' });
  });

  it('binds * tighter than +, + tighter than comparisons, comparisons tighter than NOT, AND, OR', () => {
    expect(unparseExpression(parseExpression('a + b * c = d OR NOT e AND f'))).toBe('`a` + `b` * `c` = `d` OR NOT `e` AND `f`');
    const e = shape('a OR b AND c');
    expect(e).toMatchObject({ kind: 'binary', op: 'OR', right: { kind: 'binary', op: 'AND' } });
    expect(shape('(a OR b) AND c')).toMatchObject({ kind: 'binary', op: 'AND', left: { kind: 'binary', op: 'OR' } });
    expect(unparseExpression(parseExpression('(a OR b) AND c'))).toBe('(`a` OR `b`) AND `c`');
    expect(unparseExpression(parseExpression('a - (b - c)'))).toBe('`a` - (`b` - `c`)');
  });

  it('reads (start, end) OVERLAPS (start, end) as a predicate, and writes it back', () => {
    expect(shape('(a, b) OVERLAPS (c, d) AND e')).toMatchObject({ kind: 'binary', op: 'AND', left: { kind: 'function-call', name: ['$OVERLAPS'] } });
    expect(unparseExpression(parseExpression("(a, INTERVAL '1' HOUR) OVERLAPS (c, d)"))).toBe("((`a`, INTERVAL '1' HOUR) OVERLAPS (`c`, `d`))");
    expect(() => parseExpression('a OVERLAPS (c, d)')).toThrow('OVERLAPS compares two periods');
  });

  it('reads IS, BETWEEN, IN, LIKE with NOT', () => {
    expect(shape('a IS NOT DISTINCT FROM b')).toMatchObject({ kind: 'is-distinct-from', negated: true });
    expect(shape('a NOT BETWEEN SYMMETRIC 1 AND 2')).toMatchObject({ kind: 'between', negated: true, symmetric: true });
    expect(shape("s NOT LIKE 'a%' ESCAPE '!'")).toMatchObject({ kind: 'like', op: 'LIKE', negated: true, escape: { kind: 'string-literal', value: '!' } });
    expect(shape('x NOT IN (1, 2)')).toMatchObject({ kind: 'in-list', negated: true, list: [{ text: '1' }, { text: '2' }] });
    expect(shape('x IN (SELECT y FROM t)')).toMatchObject({ kind: 'in-subquery', query: { kind: 'select' } });
    expect(shape('a IS NOT UNKNOWN')).toMatchObject({ kind: 'is', negated: true, test: 'UNKNOWN' });
  });

  it('reads intervals with plural units and precisions', () => {
    expect(shape("INTERVAL '10' MINUTES")).toEqual({
      kind: 'interval-literal',
      negative: false,
      value: '10',
      qualifier: { start: 'MINUTE', startPrecision: null, end: null, fractionalPrecision: null },
    });
    expect(shape("INTERVAL '1 10:00:00.5' DAY(2) TO SECOND(3)")).toMatchObject({
      qualifier: { start: 'DAY', startPrecision: 2, end: 'SECOND', fractionalPrecision: 3 },
    });
  });

  it('takes TO as part of an interval only for a range SQL has, so FLOOR/CEIL keep their TO (differential harness finding)', () => {
    // A real Flink 2.3.0 answers CEIL(ts - INTERVAL '1' HOUR TO DAY) as CEIL((ts - INTERVAL '1' HOUR) TO DAY).
    expect(unparseExpression(parseExpression("CEIL(ts - INTERVAL '1' HOUR TO DAY)"))).toBe(unparseExpression(parseExpression("CEIL((ts - INTERVAL '1' HOUR) TO DAY)")));
    expect(unparseExpression(parseExpression("FLOOR(ts + INTERVAL '1' SECOND TO HOUR)"))).toBe(unparseExpression(parseExpression("FLOOR((ts + INTERVAL '1' SECOND) TO HOUR)")));
    expect(shape("INTERVAL '1-2' YEAR TO MONTH")).toMatchObject({ qualifier: { start: 'YEAR', end: 'MONTH' } });
    expect(shape("INTERVAL '1:30' HOUR TO MINUTE")).toMatchObject({ qualifier: { start: 'HOUR', end: 'MINUTE' } });
    expect(shape("INTERVAL '1:30' MINUTE TO SECOND")).toMatchObject({ qualifier: { start: 'MINUTE', end: 'SECOND' } });
  });

  it('reads special function syntax', () => {
    expect(shape('CAST(a AS DECIMAL(10, 2))')).toMatchObject({ kind: 'cast', tryCast: false, type: { kind: 'decimal', precision: 10, scale: 2 } });
    expect(shape('EXTRACT(DAY FROM ts)')).toMatchObject({ kind: 'extract', unit: 'DAY' });
    expect(shape("TRIM(LEADING 'x' FROM s)")).toMatchObject({ kind: 'trim', side: 'LEADING', chars: { value: 'x' } });
    expect(shape('FLOOR(ts TO HOUR)')).toMatchObject({ kind: 'floor-ceil', fn: 'FLOOR', unit: 'HOUR' });
    expect(shape('FLOOR(x)')).toMatchObject({ kind: 'function-call', name: ['FLOOR'] });
    expect(shape('TIMESTAMPADD(HOUR, 1, ts)')).toMatchObject({ kind: 'function-call', args: [{ kind: 'time-unit', unit: 'HOUR' }, {}, {}] });
    expect(shape("JSON_VALUE(j, '$.a' RETURNING INT DEFAULT 0 ON EMPTY)")).toMatchObject({
      kind: 'json-value',
      returning: { kind: 'simple', name: 'INT' },
      onEmpty: { kind: 'default', expr: { text: '0' } },
      onError: null,
    });
    expect(shape('COUNT(DISTINCT x) FILTER (WHERE x > 0)')).toMatchObject({ kind: 'function-call', quantifier: 'DISTINCT', filter: { kind: 'binary' } });
    expect(shape('COUNT(*)')).toMatchObject({ args: [{ kind: 'star', qualifier: [] }] });
    expect(shape('CURRENT_TIMESTAMP')).toEqual({ kind: 'niladic', name: 'CURRENT_TIMESTAMP' });
    expect(shape('PROCTIME()')).toMatchObject({ kind: 'function-call', name: ['PROCTIME'], args: [] });
  });

  it('reads access paths: compound identifiers, items, fields of calls', () => {
    expect(shape('t.r.f')).toEqual({ kind: 'identifier', names: ['t', 'r', 'f'] });
    expect(shape("m['k'][1]")).toMatchObject({ kind: 'item-access', expr: { kind: 'item-access', expr: { kind: 'identifier' } } });
    expect(shape('f(x).a')).toMatchObject({ kind: 'field-access', field: 'a', expr: { kind: 'function-call' } });
    expect(shape('t.`value`')).toEqual({ kind: 'identifier', names: ['t', 'value'] });
  });

  it('unparses to text that parses back to the same tree', () => {
    for (const sql of [
      "CASE WHEN a > 0 THEN 'p' ELSE 'n' END",
      '-(-1)',
      '- -a',
      '(a, b) = (c, d)',
      'ARRAY[1, 2][1]',
      "MAP['a', 1]['a']",
      "JSON_OBJECT(KEY 'a' VALUE 1 ABSENT ON NULL)",
      'a IS NULL = TRUE',
      "OVERLAY('abc' PLACING 'x' FROM 1 FOR 2)",
      'SUM(x) OVER (PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL \'1\' HOUR PRECEDING AND CURRENT ROW)',
      '`count`(1)',
      'TRIM(s)',
    ]) {
      const e = parseExpression(sql);
      expect(stripPositions(parseExpression(unparseExpression(e))), sql).toEqual(stripPositions(e));
    }
  });
});

describe('visitor helpers', () => {
  it('walks every nested expression', () => {
    const names: string[] = [];
    walkExpression(parseExpression('CASE WHEN a > f(b, c[d]) THEN e END'), (e) => {
      if (e.kind === 'identifier') names.push(e.names.join('.'));
    });
    expect(names).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(childExpressions(parseExpression('x BETWEEN 1 AND 2'))).toHaveLength(3);
  });
});
