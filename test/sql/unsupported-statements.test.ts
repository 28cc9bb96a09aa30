import { describe, expect, it } from 'vitest';
import { parseExpression, parseStatement } from '../../src/sql/parse.js';

describe('Flink statements Sluice does not run', () => {
  it.each([
    ['ANALYZE TABLE t PARTITION (a = 1) COMPUTE STATISTICS FOR ALL COLUMNS', 'ANALYZE TABLE', 13],
    ["CALL `c`.`sys`.`compact`('t')", 'CALL', 4],
    ["COMPILE AND EXECUTE PLAN 'p.json' FOR INSERT INTO s SELECT 1", 'COMPILE AND EXECUTE PLAN', 24],
    ["CREATE TEMPORARY MODEL m WITH ('provider' = 'openai')", 'CREATE MODEL', 22],
    ['ALTER TABLE `c`.d.t PARTITION (p = (1)) COMPACT', 'ALTER TABLE ... COMPACT', 47],
    ["DESC JOB 'x'", 'DESCRIBE JOB', 8],
    ['UPDATE t SET a = 1 WHERE b = 2', 'UPDATE', 6],
  ])('%s parses as unsupported, underlining its leading words', (sql, name, endColumn) => {
    const stmt = parseStatement(`${sql};`);
    expect(stmt).toMatchObject({ kind: 'unsupported', name, text: sql, pos: { line: 1, column: 1 }, end: { line: 1, column: endColumn } });
  });

  it('leaves statements that only look alike to their own rules', () => {
    expect(parseStatement('DESCRIBE job').kind).toBe('describe');
    expect(parseStatement("ALTER TABLE t SET ('a' = 'b')").kind).toBe('alter-table');
    expect(parseStatement("CREATE TABLE t (a INT) WITH ('connector' = 'blackhole')").kind).toBe('create-table');
  });
});

describe('expression ends', () => {
  it('mark the last character of each expression, for error ranges', () => {
    const e = parseExpression("a + f(b, 'x')\n  * c[1]");
    expect(e).toMatchObject({ kind: 'binary', op: '+', pos: { line: 1, column: 1 }, end: { line: 2, column: 8 } });
    if (e.kind !== 'binary') throw new Error('binary expected');
    expect(e.left.end).toMatchObject({ line: 1, column: 1 });
    expect(e.right).toMatchObject({ kind: 'binary', op: '*', pos: { line: 1, column: 5 }, end: { line: 2, column: 8 } });
  });
});
