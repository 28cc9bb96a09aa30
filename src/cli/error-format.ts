import { type ErrorRange, SluiceError, SqlParseError } from '../errors/sluice-error.js';
import type { SourceText } from '../sql/source-text.js';

/** Where a statement came from, for error messages: `quickstart.sql:12:1`. */
export interface StatementLocation {
  readonly file: string | undefined;
  readonly line: number;
  readonly column: number;
}

/**
 * Flink's client error block (`[ERROR] Could not execute SQL statement. Reason:` and
 * `<ErrorClass>: message`), plus what Flink lacks: the file, line and column, and for a parse error
 * the source line with a caret under the spot. A validation error that points into the statement
 * (`error.range`) gets the source line from `source` (the text the statement was parsed from) with
 * the culprit underlined.
 */
export function formatError(error: unknown, where?: StatementLocation, source?: SourceText): string {
  let text = '[ERROR] Could not execute SQL statement. Reason:\n';
  if (error instanceof SqlParseError) {
    text += `${error.name}: ${error.message}\n`;
    const file = where?.file ?? '<input>';
    text += `  --> ${file}:${error.line}:${error.column}\n${indentCaret(error)}`;
    return text;
  }
  if (error instanceof SluiceError) {
    text += `${error.name}: ${error.message}\n`;
  } else if (error instanceof Error) {
    text += `${error.name}: ${error.message}\n`;
  } else {
    text += `${String(error)}\n`;
  }
  const range = error instanceof SluiceError ? error.range : undefined;
  const inStatement = statementPosition(error);
  if (range !== undefined && source !== undefined) {
    text += `  --> ${where?.file ?? '<input>'}:${range.line}:${range.column}\n${underline(range, source)}`;
  } else if (where && inStatement) {
    // A Flink cluster's error points into the statement's text (its line 1 is the statement's first line).
    const line = where.line + inStatement.line - 1;
    const column = inStatement.line === 1 ? where.column + inStatement.column - 1 : inStatement.column;
    text += `  --> ${where.file ?? '<input>'}:${line}:${column}\n`;
  } else if (where) {
    text += `  --> in the statement at ${where.file ?? '<input>'}:${where.line}:${where.column}\n`;
  }
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error && !(error as Error).message.includes(cause.message)) text += `Caused by: ${cause.name}: ${cause.message}\n`;
  return text;
}

/** `statementPosition` of an error from a Flink cluster (GatewayError), read structurally so the CLI needs no gateway import. */
function statementPosition(error: unknown): { line: number; column: number } | undefined {
  if (!(error instanceof SluiceError) || !('statementPosition' in error)) return undefined;
  const p = (error as { statementPosition?: { line: number; column: number } }).statementPosition;
  return p && Number.isInteger(p.line) && Number.isInteger(p.column) ? p : undefined;
}

function indentCaret(e: SqlParseError): string {
  const gutter = `${e.line} | `;
  return `${gutter}${e.sourceLine}\n${' '.repeat(gutter.length + Math.max(0, e.column - 1))}^\n`;
}

/** The range's first line with `^` under the culprit; a range running onto later lines is underlined to the end of the first. */
function underline(r: ErrorRange, source: SourceText): string {
  const line = source.lineText(r.line);
  const gutter = `${r.line} | `;
  const from = Math.max(1, r.column);
  const to = r.endLine === r.line ? Math.max(from, r.endColumn) : Math.max(from, line.length);
  return `${gutter}${line}\n${' '.repeat(gutter.length + from - 1)}${'^'.repeat(to - from + 1)}\n`;
}
