import { describe, expect, it } from 'vitest';
import { SqlParseError } from '../../src/errors/sluice-error.js';
import { parseScript, parseStatement } from '../../src/sql/parse.js';

function errorOf(fn: () => unknown): SqlParseError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SqlParseError) return e;
    throw e;
  }
  throw new Error('expected a SqlParseError');
}

describe('parse errors', () => {
  it('names the token, the file position and what was expected, in a multi-statement file', () => {
    const script = "SET 'a' = 'b';\nCREATE TABLE t (a INT) WITH ('x' = 'y');\nSELECT a, b\n  FROM t WHERE a >;\n";
    const err = errorOf(() => parseScript(script));
    // The statement ends before its `;`, so the parser meets the end of the statement there.
    expect(err.message).toMatch(/^Encountered "<EOF>" at line 4, column 19\. Was expecting one of: .*<EXPRESSION>/);
    expect([err.line, err.column]).toEqual([4, 19]);
    expect(err.sourceLine).toBe('  FROM t WHERE a >;');
    expect(err.detail).toBe(`${err.message}\n  FROM t WHERE a >;\n                  ^`);
  });

  it("refuses a TIMESTAMP_LTZ literal, as Flink's parser does, naming the literal Flink has", () => {
    const err = errorOf(() => parseStatement("SELECT a,\n  TIMESTAMP_LTZ '2024-01-01 10:00:00' FROM t"));
    expect(err.message).toMatch(/^Incorrect syntax near the keyword 'TIMESTAMP_LTZ': write TIMESTAMP WITH LOCAL TIME ZONE '\.\.\.'.*line 2, column 3/);
    expect([err.line, err.column]).toEqual([2, 3]);
    const ok = parseStatement("SELECT TIMESTAMP WITH LOCAL TIME ZONE '2024-01-01 10:00:00'");
    expect(JSON.stringify(ok)).toContain('"type":"TIMESTAMP_LTZ","value":"2024-01-01 10:00:00"');
  });

  it('lists the keywords that could follow', () => {
    const err = errorOf(() => parseStatement('SELECT a FROM t ORDER a'));
    expect(err.message).toBe('Encountered "a" at line 1, column 23. Was expecting one of: "BY"');
    const err2 = errorOf(() => parseStatement('CREATE TABLE t (a INT) WITH (\'k\' = )'));
    expect(err2.message).toBe('Encountered ")" at line 1, column 36. Was expecting one of: <QUOTED_STRING>');
  });

  it('shortens long expectation lists', () => {
    const err = errorOf(() => parseStatement('SELECT a b c'));
    expect(err.message).toMatch(/^Encountered "c" at line 1, column 12\. Was expecting one of: .*"FROM".*, \.\.\.$/);
    expect(err.message.split('one of: ')[1]!.split(', ').length).toBe(13);
  });

  it('rejects a reserved word as a name unless it is backquoted', () => {
    const err = errorOf(() => parseStatement('CREATE TABLE t (value INT)'));
    expect(err.message).toMatch(/^Encountered "value" at line 1, column 17\. Was expecting one of: .*<IDENTIFIER>/);
    expect(() => parseStatement('CREATE TABLE t (`value` INT, `timestamp` TIMESTAMP(3))')).not.toThrow();
  });

  it('reports unexpected input after a complete statement', () => {
    const err = errorOf(() => parseStatement('SHOW TABLES extra'));
    expect(err.message).toMatch(/^Encountered "extra" at line 1, column 13\./);
  });

  it('reports lexical errors and unterminated hints with positions', () => {
    expect(errorOf(() => parseStatement('SELECT 1 # 2')).message).toBe('Lexical error at line 1, column 10. Encountered: "#"');
    expect(errorOf(() => parseStatement("SELECT * FROM t /*+ OPTIONS('a'='b')")).message).toMatch(/Unterminated hint starting at line 1, column 17|Unterminated comment/);
  });

  it('rejects two primary keys', () => {
    const err = errorOf(() => parseStatement('CREATE TABLE t (a INT PRIMARY KEY NOT ENFORCED, b INT, PRIMARY KEY (b) NOT ENFORCED)'));
    expect(err.message).toMatch(/^Duplicate primary key definition \(at line 1, column 56\)/);
  });
});
