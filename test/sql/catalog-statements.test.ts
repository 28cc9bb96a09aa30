import { describe, expect, it } from 'vitest';
import { SqlParseError } from '../../src/errors/sluice-error.js';
import { parseStatement } from '../../src/sql/parse.js';
import { unparseStatement } from '../../src/sql/unparse.js';
import { stripPositions } from './helpers.js';

describe('catalog statements', () => {
  it.each([
    ['DESCRIBE CATALOG c', { kind: 'describe-catalog', extended: false, name: { value: 'c' } }],
    ['desc catalog extended `my cat`', { kind: 'describe-catalog', extended: true, name: { value: 'my cat' } }],
    ["ALTER CATALOG c SET ('default-database' = 'db')", { kind: 'alter-catalog', name: { value: 'c' }, action: { kind: 'set-options', options: [{ key: 'default-database', value: 'db' }] } }],
    ["ALTER CATALOG c RESET ('a', 'b')", { kind: 'alter-catalog', action: { kind: 'reset-options', keys: ['a', 'b'] } }],
    ['ALTER CATALOG c RESET ()', { kind: 'alter-catalog', action: { kind: 'reset-options', keys: [] } }],
    ["ALTER CATALOG c COMMENT 'it''s'", { kind: 'alter-catalog', action: { kind: 'comment', comment: "it's" } }],
    ['SHOW CREATE CATALOG c', { kind: 'show-create', objectType: 'CATALOG', name: { parts: ['c'] } }],
    ["CREATE CATALOG c COMMENT 'x' WITH ('type' = 'generic_in_memory')", { kind: 'create-catalog', comment: 'x' }],
  ])('%s', (sql, expected) => {
    expect(stripPositions(parseStatement(sql))).toMatchObject(expected);
  });

  it('reads DESCRIBE catalog, with nothing after the word, as a table named catalog', () => {
    expect(parseStatement('DESCRIBE catalog')).toMatchObject({ kind: 'describe', name: { parts: ['catalog'] } });
    expect(parseStatement('DESC catalog;')).toMatchObject({ kind: 'describe', name: { parts: ['catalog'] } });
  });

  it('takes a catalog name of one part, as Flink does', () => {
    expect(() => parseStatement('SHOW CREATE CATALOG a.b')).toThrow(/Encountered "\."/);
    expect(() => parseStatement('DESCRIBE CATALOG a.b')).toThrow(/Encountered "\."/);
    expect(() => parseStatement("ALTER CATALOG a.b SET ('k' = 'v')")).toThrow(SqlParseError);
  });

  it("refuses SHOW DATABASES IN a two-part name while parsing, with Flink's words", () => {
    expect(() => parseStatement('SHOW DATABASES IN c0.t')).toThrow(
      'Show databases from/in identifier [ c0.t ] format error, catalog must be a single part identifier. (at line 1, column 19)',
    );
    expect(parseStatement('SHOW DATABASES FROM c0')).toMatchObject({ kind: 'show', object: 'DATABASES', from: { name: { parts: ['c0'] } } });
  });

  it('writes the statements back as SQL that parses to the same', () => {
    for (const sql of ["ALTER CATALOG `c` SET ('a' = 'b')", "ALTER CATALOG `c` RESET ('a', 'b')", "ALTER CATALOG `c` COMMENT 'it''s'", 'DESCRIBE CATALOG EXTENDED `c`']) {
      const parsed = stripPositions(parseStatement(sql));
      expect(stripPositions(parseStatement(unparseStatement(parseStatement(sql))))).toEqual(parsed);
    }
  });
});
