import { ConnectorError } from '../errors/sluice-error.js';

/**
 * A record a format could not decode or a row it could not encode. The message names the format, where
 * the record came from (the `MessageOrigin` of the caller), the field path and what was wrong, e.g.
 * "Failed to deserialize JSON message (topic 'orders', partition 2, offset 17): field 'price': cannot read
 * "abc" as DECIMAL(10, 2). Message: {...}".
 */
export class FormatError extends ConnectorError {
  constructor(
    message: string,
    /** The format identifier ('json', 'csv', ...). */
    readonly format: string,
    /** Dotted path of the offending field (`address.city`), when one field is to blame. */
    readonly field: string | undefined,
    /** Where the record came from, as the caller's MessageOrigin described it. */
    readonly origin: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * Thrown by value converters deep inside a record; the record-level decoder adds the origin, the record
 * text and turns it into a `FormatError`. Carries the field path built on the way out.
 */
export class FieldValueError extends Error {
  readonly path: string[] = [];

  constructor(message: string) {
    super(message);
    this.name = 'FieldValueError';
  }
}

/** Render a record for an error message without flooding the terminal. */
export function abbreviate(text: string, max = 300): string {
  return text.length <= max ? text : `${text.slice(0, max)}... (${text.length} characters)`;
}

/**
 * Build the user-facing error for a record that failed to decode. `what` is "JSON message", "CSV line", ...
 */
export function decodeError(format: string, what: string, record: string, error: unknown, origin?: () => string): FormatError {
  const where = origin === undefined ? '' : ` (${safeOrigin(origin)})`;
  if (error instanceof FieldValueError) {
    const field = error.path.join('.');
    const fieldText = field === '' ? '' : ` field '${field}':`;
    return new FormatError(
      `Failed to deserialize ${what}${where}:${fieldText} ${error.message} ${what}: '${abbreviate(record)}'. Set '${format}.ignore-parse-errors' = 'true' to skip bad records.`,
      format,
      field === '' ? undefined : field,
      where === '' ? undefined : where.slice(2, -1),
      { cause: error },
    );
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new FormatError(
    `Failed to deserialize ${what}${where}: ${reason} ${what}: '${abbreviate(record)}'. Set '${format}.ignore-parse-errors' = 'true' to skip bad records.`,
    format,
    undefined,
    where === '' ? undefined : where.slice(2, -1),
    { cause: error },
  );
}

function safeOrigin(origin: () => string): string {
  try {
    return origin();
  } catch {
    return 'unknown origin';
  }
}

/** Prefix the field name onto an error raised while converting that field, then rethrow it. */
export function withField(error: unknown, name: string): unknown {
  if (error instanceof FieldValueError) error.path.unshift(name);
  return error;
}

/** The user-facing error for a row a format could not write. */
export function encodeError(format: string, e: unknown): FormatError {
  if (e instanceof FieldValueError) {
    const field = e.path.join('.');
    return new FormatError(`Failed to serialize a row as ${format}: field '${field}': ${e.message}`, format, field, undefined, { cause: e });
  }
  if (e instanceof FormatError) return e;
  return new FormatError(`Failed to serialize a row as ${format}: ${e instanceof Error ? e.message : String(e)}`, format, undefined, undefined, { cause: e });
}
