import { ValidationError } from '../../errors/sluice-error.js';
import type { LogicalType } from '../../types/logical-type.js';
import { parseLogicalType } from '../../types/parse-logical-type.js';
import { typeToString } from '../../types/type-to-string.js';

/** A UDF's declared type: a Flink type string (`'BIGINT'`, `'ROW<a INT, b STRING>'`) or a `DataTypes` value. */
export type UdfType = LogicalType | string;

const HOW = "Write a Flink type string such as 'BIGINT' or 'ROW<a INT, b STRING>', or a DataTypes value such as DataTypes.BIGINT().";

/**
 * The logical type a UDF declares in `field` (`resultType`, `argumentTypes[1]`), checked here once at
 * registration so a wrong one is reported against the function (`owner`) rather than failing as a raw
 * TypeError while a query is planned or run.
 *
 * @throws ValidationError naming the owner, the field and the offending value.
 */
export function resolveUdfType(value: unknown, field: string, owner: string): LogicalType {
  if (typeof value === 'string') {
    try {
      return parseLogicalType(value);
    } catch (e) {
      throw new ValidationError(`${owner}: ${field} '${value}' is not a Flink type (${(e as Error).message}). ${HOW}`, { cause: e });
    }
  }
  if (typeof value === 'function') {
    throw new ValidationError(`${owner}: ${field} is a function, not a type; call it (DataTypes.BIGINT(), not DataTypes.BIGINT). ${HOW}`);
  }
  if (typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string') {
    // A DataTypes value prints and parses back; anything else shaped like one does not.
    try {
      parseLogicalType(typeToString(value as LogicalType));
      return value as LogicalType;
    } catch {
      // reported below
    }
  }
  throw new ValidationError(`${owner}: ${field} is not a type: ${describe(value)}. ${HOW}`);
}

/** `argumentTypes`, when declared: an array of types. */
export function resolveUdfArgumentTypes(value: unknown, owner: string): LogicalType[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw new ValidationError(`${owner}: argumentTypes must be an array of types, got ${describe(value)}. ${HOW}`);
  return value.map((t, i) => resolveUdfType(t, `argumentTypes[${i}]`, owner));
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'object') {
    try {
      const json = JSON.stringify(value);
      return json.length > 80 ? `${json.slice(0, 77)}...` : json;
    } catch {
      return 'an object';
    }
  }
  return `${typeof value} ${String(value)}`;
}
