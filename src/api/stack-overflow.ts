import { ValidationError } from '../errors/sluice-error.js';
import { MAX_NESTING_DEPTH } from '../sql/parser/parser-base.js';
import type { SourcePosition } from '../sql/position.js';

/** True for V8's "Maximum call stack size exceeded" (a RangeError; other RangeErrors are not overflows). */
export function isStackOverflow(e: unknown): boolean {
  return e instanceof RangeError && /call stack size exceeded/i.test(e.message);
}

/**
 * The last resort for a statement whose processing recursed past the JavaScript stack somewhere the
 * parser's nesting limit does not reach (a plan thousands of operators deep, say): a clear error
 * naming the statement instead of a RangeError text.
 */
export function tooDeeplyNested(what: string, pos: SourcePosition | undefined, cause: unknown): ValidationError {
  const at = pos === undefined ? '' : ` at line ${pos.line}, column ${pos.column}`;
  return new ValidationError(
    `The ${what} statement${at} is too deeply nested to process: it exceeds the stack while being planned. ` +
      `Nest expressions and subqueries less deeply (parsing allows up to ${MAX_NESTING_DEPTH} levels; ` +
      `plans with hundreds of nested subqueries can exceed the stack before that) or split the statement.`,
    { cause },
  );
}
