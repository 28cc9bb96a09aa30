import { describe, expect, it } from 'vitest';
import type { MatchRecognizeRef } from '../../src/sql/ast/match-recognize.js';
import { parseStatement } from '../../src/sql/parse.js';
import { unparseStatement } from '../../src/sql/unparse/unparse-statement.js';
import { stripPositions } from './helpers.js';

/** Positions (also the PATTERN keyword's) left out, so clauses compare by content. */
function noPos<T>(x: T): T {
  return JSON.parse(JSON.stringify(stripPositions(x), (k, v: unknown) => (k === 'patternPos' ? undefined : v))) as T;
}

function mr(sql: string): MatchRecognizeRef {
  const s = parseStatement(sql);
  if (s.kind !== 'query' || s.query.kind !== 'select' || s.query.from?.kind !== 'match-recognize') throw new Error('no MATCH_RECOGNIZE');
  return noPos(s.query.from);
}

const TICKER = `SELECT * FROM Ticker MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY rowtime
  MEASURES START_ROW.rowtime AS start_tstamp, LAST(PRICE_DOWN.rowtime) AS bottom_tstamp
  ONE ROW PER MATCH
  AFTER MATCH SKIP TO LAST PRICE_UP
  PATTERN (START_ROW PRICE_DOWN+ PRICE_UP) WITHIN INTERVAL '1' HOUR
  DEFINE PRICE_DOWN AS PRICE_DOWN.price < START_ROW.price, PRICE_UP AS PRICE_UP.price > LAST(PRICE_DOWN.price, 1)
) AS MR`;

describe('MATCH_RECOGNIZE syntax', () => {
  it('reads every clause of the Flink docs example, the alias after the clause', () => {
    const r = mr(TICKER);
    expect(r.input).toMatchObject({ kind: 'table', name: { parts: ['Ticker'] }, alias: null });
    expect(r.partitionBy).toEqual([{ kind: 'identifier', names: ['symbol'] }]);
    expect(r.orderBy.map((o) => o.expr)).toEqual([{ kind: 'identifier', names: ['rowtime'] }]);
    expect(r.measures.map((m) => m.alias.value)).toEqual(['start_tstamp', 'bottom_tstamp']);
    expect(r.rowsPerMatch?.kind).toBe('ONE');
    expect(r.afterMatch).toEqual({ kind: 'to-last', variable: { value: 'PRICE_UP' } });
    expect(r.pattern.map((t) => [t.variable.value, t.quantifier === null ? null : [t.quantifier.min, t.quantifier.max, t.quantifier.reluctant]])).toEqual([
      ['START_ROW', null],
      ['PRICE_DOWN', [1, null, false]],
      ['PRICE_UP', null],
    ]);
    expect(r.within).toMatchObject({ kind: 'interval-literal', value: '1' });
    expect(r.define.map((d) => d.variable.value)).toEqual(['PRICE_DOWN', 'PRICE_UP']);
    expect(r.alias?.value).toBe('MR');
  });

  it('reads every quantifier and its reluctant form', () => {
    const r = mr('SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts PATTERN (A* B+ C? D{2} E{2,} F{1,3} G{,4} H*? I+? J{2,}? K) DEFINE A AS true)');
    expect(r.pattern.map((t) => (t.quantifier === null ? null : [t.quantifier.min, t.quantifier.max, t.quantifier.reluctant]))).toEqual([
      [0, null, false],
      [1, null, false],
      [0, 1, false],
      [2, 2, false],
      [2, null, false],
      [1, 3, false],
      [0, 4, false],
      [0, null, true],
      [1, null, true],
      [2, null, true],
      null,
    ]);
  });

  it('reads the four skip strategies, the default being none written', () => {
    const skip = (s: string) => mr(`SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts ${s} PATTERN (A B) DEFINE A AS true)`).afterMatch;
    expect(skip('')).toBeNull();
    expect(skip('AFTER MATCH SKIP PAST LAST ROW')).toEqual({ kind: 'past-last-row' });
    expect(skip('AFTER MATCH SKIP TO NEXT ROW')).toEqual({ kind: 'to-next-row' });
    expect(skip('AFTER MATCH SKIP TO FIRST B')).toEqual({ kind: 'to-first', variable: { value: 'B' } });
    expect(skip('AFTER MATCH SKIP TO LAST B')).toEqual({ kind: 'to-last', variable: { value: 'B' } });
  });

  it('applies to a subquery too', () => {
    const r = mr('SELECT * FROM (SELECT * FROM t WHERE x > 1) MATCH_RECOGNIZE (ORDER BY ts PATTERN (A) DEFINE A AS x > 2) T');
    expect(r.input.kind).toBe('derived-table');
    expect(r.alias?.value).toBe('T');
  });

  it('keeps ALL ROWS PER MATCH for the planner to refuse with its position', () => {
    expect(mr('SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts ALL ROWS PER MATCH PATTERN (A B) DEFINE A AS true)').rowsPerMatch?.kind).toBe('ALL');
  });

  it.each([
    ['(A | B) C', 'Pattern groups are not supported', '('],
    ['A | B', "Currently, CEP doesn't support branching patterns", '|'],
    ['A (B C)+', 'Pattern groups are not supported', '(B'],
    ['PERMUTE(A, B)', "Currently, CEP doesn't support PERMUTE and '{-' '-}' patterns", 'PERMUTE'],
    ['{- A -} B', "Currently, CEP doesn't support PERMUTE and '{-' '-}' patterns", '{-'],
  ])('refuses PATTERN (%s) with a clear message at the culprit', (pattern, message, culprit) => {
    const head = 'SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts PATTERN (';
    const sql = `${head}${pattern}) DEFINE A AS true)`;
    const column = head.length + pattern.indexOf(culprit) + 1;
    expect(() => parseStatement(sql)).toThrow(message);
    expect(() => parseStatement(sql)).toThrow(`(at line 1, column ${column})`);
  });

  it('refuses SUBSET and an inverted range quantifier', () => {
    expect(() => parseStatement('SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts PATTERN (A B) SUBSET U = (A, B) DEFINE A AS true)')).toThrow('SUBSET in MATCH_RECOGNIZE is not supported');
    expect(() => parseStatement('SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts PATTERN (A{3,2} B) DEFINE A AS true)')).toThrow('Invalid quantifier {3, 2}');
  });

  it('unparses to text that parses back to the same clause', () => {
    const once = parseStatement(TICKER);
    const text = unparseStatement(once);
    expect(text).toContain('MATCH_RECOGNIZE (');
    expect(noPos(parseStatement(text))).toEqual(noPos(once));
    const q = 'SELECT * FROM t MATCH_RECOGNIZE (ORDER BY ts AFTER MATCH SKIP TO NEXT ROW PATTERN (A* B{2,}? C{,3} D) DEFINE D AS true)';
    expect(noPos(parseStatement(unparseStatement(parseStatement(q))))).toEqual(noPos(parseStatement(q)));
  });
});
