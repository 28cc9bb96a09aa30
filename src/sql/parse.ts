import type { DataType } from './ast/data-types.js';
import type { Expression } from './ast/expressions.js';
import type { Statement } from './ast/statements.js';
import { tokenize } from './lexer/lexer.js';
import { StatementParser } from './parser/statement-parser.js';
import type { SourcePosition } from './position.js';
import { SourceText } from './source-text.js';
import { splitStatements } from './split-statements.js';

/** One statement of a script with its AST and where it starts in the script. */
export interface ParsedStatement {
  readonly statement: Statement;
  /** The statement's text without the `;`. */
  readonly text: string;
  readonly pos: SourcePosition;
}

function parserFor(source: SourceText, start = 0, end = source.text.length): StatementParser {
  return new StatementParser(source, tokenize(source, start, end));
}

/**
 * Runs one parse with a last resort: the nesting limit keeps the parser within the stack, but should
 * some construct still recurse too deeply, the user gets a SqlParseError at the statement, not a RangeError.
 */
function guarded<T>(source: SourceText, start: number, parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    if (e instanceof RangeError && /call stack size exceeded/i.test(e.message)) {
      const p = source.positionAt(start);
      throw source.errorAt(start, `Statement too deeply nested to parse (the statement at line ${p.line}, column ${p.column})`);
    }
    throw e;
  }
}

/**
 * Parses one statement; a trailing `;` is allowed. Throws SqlParseError with the line and column
 * in `sql`.
 *
 * @example parseStatement("SET 'table.exec.state.ttl' = '1 h'") // { kind: 'set', key: ..., value: '1 h' }
 */
export function parseStatement(sql: string): Statement {
  const source = new SourceText(sql);
  return guarded(source, 0, () => parserFor(source).parseSingleStatement());
}

/**
 * Splits a script at `;` and parses each statement; positions (in the AST and in errors) are the
 * script's. Parsing stops at the first bad statement, as Flink's SQL client does with `-f`.
 * Callers that want to run statements one at a time and stop at the first failure can use
 * `splitStatements` and `parseSplitStatement` instead.
 */
export function parseScript(script: string): ParsedStatement[] {
  const source = new SourceText(script);
  return splitStatements(source).map((s) => ({
    statement: guarded(source, s.pos.offset, () => parserFor(source, s.pos.offset, s.end).parseSingleStatement()),
    text: s.text,
    pos: s.pos,
  }));
}

/** Parses one statement found by `splitStatements(script)`; errors carry the script's positions. */
export function parseSplitStatement(script: string | SourceText, stmt: { readonly pos: SourcePosition; readonly end: number }): Statement {
  const source = typeof script === 'string' ? new SourceText(script) : script;
  return guarded(source, stmt.pos.offset, () => parserFor(source, stmt.pos.offset, stmt.end).parseSingleStatement());
}

/** Parses a standalone expression, e.g. a computed column or watermark stored in a catalog. */
export function parseExpression(sql: string): Expression {
  const source = new SourceText(sql);
  return guarded(source, 0, () => parserFor(source).parseStandaloneExpression());
}

/** Parses a standalone data type such as `ROW<a INT, b ARRAY<STRING>> NOT NULL`. */
export function parseDataType(sql: string): DataType {
  const source = new SourceText(sql);
  return guarded(source, 0, () => parserFor(source).parseStandaloneDataType());
}
