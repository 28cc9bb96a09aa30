import { SqlParseError, ValidationError } from '../errors/sluice-error.js';
import type { Statement } from '../sql/ast/statements.js';
import { isDdlStatement } from '../api/statement-executor.js';
import { unsupportedStatementError } from '../api/statements/unsupported.js';
import { parseScript, type ParsedStatement } from '../sql/parse.js';
import { SourceText } from '../sql/source-text.js';
import type { OutputFormat } from './args.js';
import type { ConsoleIO } from './console-io.js';
import { formatError } from './error-format.js';
import type { StatementRunner } from './statement-runner.js';

export interface RunOptions {
  readonly file: string | undefined;
  readonly output: OutputFormat;
  /** `-i`: only session statements are allowed (DDL, SET, USE), as in Flink's init files. */
  readonly initOnly?: boolean;
  /**
   * Checks every statement before any runs (against a cluster: Sluice's validation and refusals, so the
   * whole file is judged before line 1 reaches the cluster). Client commands (BEGIN STATEMENT SET, END,
   * QUIT, ...) are not passed.
   */
  readonly precheck?: (stmt: Statement) => Promise<void>;
  /** True once the user interrupted the run (Ctrl-C): no further statement starts. */
  readonly interrupted?: () => boolean;
}

const CLIENT_COMMANDS: ReadonlySet<Statement['kind']> = new Set(['begin-statement-set', 'end', 'help', 'quit', 'clear']);

/**
 * Runs a script the way `sluice -f` does. The whole script is parsed before anything runs, so a typo
 * on line 40 stops the run before line 1 has touched a sink. Statements then run in order and the
 * first failure stops the run, naming the file, line and column. Returns whether every statement
 * succeeded; the runner's `jobs` are the INSERT jobs started, for the caller to wait for.
 */
export async function runScript(runner: StatementRunner, script: string, io: ConsoleIO, options: RunOptions): Promise<boolean> {
  const status = options.output === 'tableau' ? io.out : io.err;
  const source = new SourceText(script);
  let parsed: ParsedStatement[];
  try {
    parsed = parseScript(script);
  } catch (e) {
    if (e instanceof SqlParseError) {
      status(formatError(e, { file: options.file, line: e.line, column: e.column }));
      return false;
    }
    throw e;
  }
  // Like a parse error, a statement Sluice cannot run stops the script before anything has run.
  const unsupported = parsed.find((p) => p.statement.kind === 'unsupported');
  if (unsupported !== undefined && unsupported.statement.kind === 'unsupported') {
    status(formatError(unsupportedStatementError(unsupported.statement), { file: options.file, line: unsupported.pos.line, column: unsupported.pos.column }, source));
    return false;
  }
  const check = (p: ParsedStatement): void => {
    if (options.initOnly && !isInitStatement(p.statement)) {
      throw new ValidationError(`Unsupported SQL statement in an init file: only DDL, SET, RESET and USE are allowed (found ${p.statement.kind.toUpperCase()}).`);
    }
  };
  if (options.precheck) {
    for (const p of parsed) {
      if (p.statement.kind === 'quit') break;
      try {
        check(p);
        if (!CLIENT_COMMANDS.has(p.statement.kind)) await options.precheck(p.statement);
      } catch (e) {
        status(formatError(e, { file: options.file, line: p.pos.line, column: p.pos.column }, source));
        return false;
      }
    }
  }
  for (const p of parsed) {
    if (options.interrupted?.()) return false;
    const where = { file: options.file, line: p.pos.line, column: p.pos.column };
    try {
      check(p);
      const outcome = await runner.run(p.statement, p.text);
      if (outcome === 'quit') break;
    } catch (e) {
      if (options.interrupted?.()) return false;
      status(formatError(e, where, source));
      return false;
    }
  }
  if (runner.inStatementSet) {
    status(formatError(new ValidationError('The statement set was not closed: BEGIN STATEMENT SET needs a matching END.')));
    return false;
  }
  return true;
}

/** Flink's init files may hold only statements that shape the session: DDL, SET/RESET, USE. */
function isInitStatement(stmt: Statement): boolean {
  return isDdlStatement(stmt) || stmt.kind === 'set' || stmt.kind === 'reset' || stmt.kind === 'use-catalog' || stmt.kind === 'use-database' || stmt.kind === 'use-modules';
}
