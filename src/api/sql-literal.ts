import { ValidationError } from '../errors/sluice-error.js';
import { Decimal } from '../types/decimal.js';

/** A JavaScript value as a SQL literal, for `fromValues`; the types follow docs/values.md. */
export function sqlLiteral(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  switch (typeof v) {
    case 'boolean':
      return v ? 'TRUE' : 'FALSE';
    case 'number':
      if (!Number.isFinite(v)) throw new ValidationError(`fromValues cannot express ${v} as a SQL literal.`);
      return Number.isInteger(v) ? String(v) : `CAST(${v} AS DOUBLE)`;
    case 'bigint':
      return `CAST(${v} AS BIGINT)`;
    case 'string':
      return `'${v.replaceAll("'", "''")}'`;
    default:
      if (v instanceof Decimal) return `CAST('${v.toString()}' AS DECIMAL(${Math.max(1, v.precision(), v.scale)}, ${v.scale}))`;
      if (Array.isArray(v)) return `ARRAY[${v.map(sqlLiteral).join(', ')}]`;
      throw new ValidationError(`fromValues does not know how to write ${Object.prototype.toString.call(v)} as a SQL literal.`);
  }
}
