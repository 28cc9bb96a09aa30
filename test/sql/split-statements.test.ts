import { describe, expect, it } from 'vitest';
import { SqlParseError } from '../../src/errors/sluice-error.js';
import { splitStatements } from '../../src/sql/split-statements.js';

describe('splitStatements', () => {
  it('splits at top-level semicolons and keeps each start position in the file', () => {
    const parts = splitStatements("SET 'a' = 'b';\n  SELECT 1;\n\nSELECT 2");
    expect(parts.map((p) => p.text)).toEqual(["SET 'a' = 'b'", 'SELECT 1', 'SELECT 2']);
    expect(parts.map((p) => [p.pos.line, p.pos.column])).toEqual([
      [1, 1],
      [2, 3],
      [4, 1],
    ]);
  });

  it('ignores semicolons inside strings, quoted names, double quotes and comments', () => {
    const sql = "SELECT 'a;''b', `x;y`, \"c;d\" -- e;f\nFROM t /* g; h */ ;SELECT 2;";
    const parts = splitStatements(sql);
    expect(parts).toHaveLength(2);
    expect(parts[0]!.text).toBe("SELECT 'a;''b', `x;y`, \"c;d\" -- e;f\nFROM t /* g; h */");
  });

  it('drops statements that hold only comments or whitespace', () => {
    expect(splitStatements('-- only a comment\n;\n /* x */ ; ;')).toEqual([]);
  });

  it('keeps EXECUTE STATEMENT SET BEGIN ... END as one statement, even with CASE ... END inside', () => {
    const sql = 'EXECUTE STATEMENT SET\nBEGIN\nINSERT INTO a SELECT CASE WHEN x THEN 1 END FROM s;\nINSERT INTO b SELECT 1;\nEND;\nSELECT 3;';
    const parts = splitStatements(sql);
    expect(parts).toHaveLength(2);
    expect(parts[0]!.text.endsWith('END')).toBe(true);
    expect(parts[1]!.text).toBe('SELECT 3');
  });

  it('splits the REPL form BEGIN STATEMENT SET; ... END; into separate statements', () => {
    const parts = splitStatements('BEGIN STATEMENT SET;\nINSERT INTO a SELECT 1;\nEND;');
    expect(parts.map((p) => p.text)).toEqual(['BEGIN STATEMENT SET', 'INSERT INTO a SELECT 1', 'END']);
  });

  it('reports an unterminated string at its start line and column', () => {
    try {
      splitStatements("SELECT 1;\nSELECT 'abc;\nSELECT 2;");
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(SqlParseError);
      const err = e as SqlParseError;
      expect(err.message).toBe('Unterminated string literal starting at line 2, column 8');
      expect([err.line, err.column]).toEqual([2, 8]);
      expect(err.sourceLine).toBe("SELECT 'abc;");
    }
  });

  it('reports an unterminated comment and an unterminated statement set', () => {
    expect(() => splitStatements('SELECT 1; /* never closed')).toThrow(/Unterminated comment starting at line 1, column 11/);
    expect(() => splitStatements('EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT 1;')).toThrow(/Unterminated statement set starting at line 1, column 1/);
  });
});
