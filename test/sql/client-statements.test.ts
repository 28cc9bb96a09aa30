import { describe, expect, it } from 'vitest';
import { parseScript, parseStatement } from '../../src/sql/parse.js';
import { stripPositions } from './helpers.js';

describe('SQL client statements', () => {
  it.each([
    ['SET', { kind: 'set', key: null, value: null }],
    ["SET 'table.exec.state.ttl' = '1 h'", { kind: 'set', key: 'table.exec.state.ttl', value: '1 h' }],
    ['SET execution.runtime-mode = batch', { kind: 'set', key: 'execution.runtime-mode', value: 'batch' }],
    ['RESET', { kind: 'reset', key: null }],
    ["RESET 'a.b'", { kind: 'reset', key: 'a.b' }],
    ['USE CATALOG c', { kind: 'use-catalog', name: { value: 'c' } }],
    ['USE c.db', { kind: 'use-database', name: { parts: ['c', 'db'] } }],
    ['SHOW FULL MODULES', { kind: 'show', object: 'FULL MODULES', from: null, like: null }],
    ["SHOW TABLES FROM c.db NOT ILIKE 'a%'", { kind: 'show', object: 'TABLES', from: { preposition: 'FROM', name: { parts: ['c', 'db'] } }, like: { negated: true, caseInsensitive: true, pattern: 'a%' } }],
    ['SHOW CURRENT DATABASE', { kind: 'show', object: 'CURRENT DATABASE' }],
    ['SHOW CREATE TABLE t', { kind: 'show-create', objectType: 'TABLE', name: { parts: ['t'] } }],
    ['DESC EXTENDED t', { kind: 'describe', extended: true }],
    ["STOP JOB 'abc' WITH SAVEPOINT WITH DRAIN", { kind: 'stop-job', jobId: 'abc', withSavepoint: true, withDrain: true }],
    ['quit', { kind: 'quit' }],
    ['EXIT', { kind: 'quit' }],
    ['help', { kind: 'help' }],
    ["LOAD MODULE hive WITH ('hive-version' = '3.1.3')", { kind: 'load-module', name: { value: 'hive' }, options: [{ key: 'hive-version', value: '3.1.3' }] }],
    ['BEGIN STATEMENT SET', { kind: 'begin-statement-set' }],
    ['END', { kind: 'end' }],
  ])('%s', (sql, expected) => {
    expect(stripPositions(parseStatement(sql))).toMatchObject(expected);
  });

  it('reads INSERT with hints, a static partition and a column list', () => {
    const s = stripPositions(parseStatement("INSERT OVERWRITE t /*+ OPTIONS('a'='b') */ PARTITION (dt = '2020', h = 1) (x, y) SELECT 1, 2"));
    expect(s).toMatchObject({
      kind: 'insert',
      overwrite: true,
      hints: [{ name: 'OPTIONS' }],
      partition: [{ column: { value: 'dt' }, value: { value: '2020' } }, { column: { value: 'h' }, value: { text: '1' } }],
      columns: [{ value: 'x' }, { value: 'y' }],
      query: { kind: 'select' },
    });
  });

  it('reads EXPLAIN details and statement sets', () => {
    expect(stripPositions(parseStatement('EXPLAIN PLAN FOR SELECT 1'))).toMatchObject({ kind: 'explain', details: [], statement: { kind: 'query' } });
    expect(stripPositions(parseStatement('EXPLAIN CHANGELOG_MODE, ESTIMATED_COST INSERT INTO t SELECT 1'))).toMatchObject({
      details: ['CHANGELOG_MODE', 'ESTIMATED_COST'],
      statement: { kind: 'insert' },
    });
    const [set] = parseScript('EXECUTE STATEMENT SET BEGIN\n INSERT INTO a SELECT 1;\n INSERT INTO b SELECT 2;\nEND;');
    expect(set!.statement.kind).toBe('statement-set');
    if (set!.statement.kind === 'statement-set') {
      expect(set!.statement.inserts.map((i) => i.table.parts[0])).toEqual(['a', 'b']);
      expect(set!.statement.inserts[1]!.pos).toMatchObject({ line: 3, column: 2 });
    }
  });

  it('gives statements of a script their position in the file', () => {
    const parsed = parseScript("-- header\nSET 'a' = 'b';\n\n  SELECT x\n  FROM t;");
    expect(parsed.map((p) => [p.statement.kind, p.pos.line, p.pos.column])).toEqual([
      ['set', 2, 1],
      ['query', 4, 3],
    ]);
    const q = parsed[1]!.statement;
    expect(q.kind === 'query' && q.query.kind === 'select' && q.query.from?.pos).toMatchObject({ line: 5, column: 8 });
  });
});
