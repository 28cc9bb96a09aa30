/**
 * The root of every error Sluice shows to a user. `category` is printed before the message
 * ("Validation error: ...") so a user can tell a typo from a broken broker at a glance.
 */
export abstract class SluiceError extends Error {
  abstract readonly category: string;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
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
