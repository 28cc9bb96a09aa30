/**
 * The root of every error Sluice shows to a user. `category` is printed before the message
 * ("Validation error: ...") so a user can tell a typo from a broken broker at a glance.
 */
export abstract class SluiceError extends Error {
  abstract readonly category: string;
  /**
   * The stretch of the statement's text the error is about (a column name, a call, a comparison), when
   * known; the message then starts with Calcite's "From line L, column C to line L2, column C2: ".
   * Set once, by `locateError`.
   */
  range: ErrorRange | undefined;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Lines and columns are 1-based, in the text that was parsed (a file, or one REPL input); the end is inclusive. */
export interface ErrorRange {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

/** Calcite's context prefix: "At line L, column C: " for one character, else "From line L, column C to line L2, column C2: ". */
export function rangePrefix(r: ErrorRange): string {
  return r.line === r.endLine && r.column === r.endColumn
    ? `At line ${r.line}, column ${r.column}: `
    : `From line ${r.line}, column ${r.column} to line ${r.endLine}, column ${r.endColumn}: `;
}

/**
 * Points `error` at `range` unless something nearer the culprit did already: the innermost caller wins.
 * Returns the error, for `throw locateError(e, r)`.
 */
export function locateError<E extends SluiceError>(error: E, range: ErrorRange): E {
  if (error.range !== undefined) return error;
  error.range = range;
  error.message = rangePrefix(range) + error.message;
  return error;
}

/** A statement's text could not be parsed; carries the position and shows the line with a caret. */
export class SqlParseError extends SluiceError {
  readonly category = 'SQL parse error';

  constructor(
    message: string,
    /** 1-based line in the text that was parsed (a file, or one REPL input). */
    readonly line: number,
    /** 1-based column. */
    readonly column: number,
    /** The source line the error points into, without its line break. */
    readonly sourceLine: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** The message followed by the offending line and a caret under the column. */
  get detail(): string {
    return `${this.message}\n${this.sourceLine}\n${' '.repeat(Math.max(0, this.column - 1))}^`;
  }
}

/** Options, schemas or statements that are well-formed but not acceptable. */
export class ValidationError extends SluiceError {
  readonly category = 'Validation error';
}

/** A name that resolves to nothing in the catalogs. */
export class ObjectNotFoundError extends SluiceError {
  readonly category = 'Catalog error';
}

/** A name that is already taken in the catalogs. */
export class ObjectAlreadyExistsError extends SluiceError {
  readonly category = 'Catalog error';
}

/** A query that parses and binds but cannot be planned (unsupported shape, changelog mismatch). */
export class PlanningError extends SluiceError {
  readonly category = 'Error during planning';
}

/** An external system misbehaved or refused (broker down, missing topic, commit failed). */
export class ConnectorError extends SluiceError {
  readonly category = 'Connector error';
}

/** A job failed while running. */
export class ExecutionError extends SluiceError {
  readonly category = 'Execution error';
}
