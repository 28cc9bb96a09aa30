import { locateError, ValidationError } from '../../errors/sluice-error.js';
import type { UnsupportedStatement } from '../../sql/ast/statements.js';
import { rangeOf } from '../../sql/position.js';

/**
 * The error for a Flink statement Sluice recognises but does not run, underlining its leading words,
 * e.g. "From line 3, column 1 to line 3, column 13: ANALYZE TABLE is not supported by Sluice yet".
 */
export function unsupportedStatementError(stmt: UnsupportedStatement): ValidationError {
  return locateError(
    new ValidationError(`${stmt.name} is not supported by Sluice yet; docs/limits.md lists the SQL Sluice does not run.`),
    rangeOf(stmt),
  );
}
