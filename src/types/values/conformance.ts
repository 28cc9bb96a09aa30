import { Decimal } from '../decimal.js';
import { assertNever } from '../logical-type.js';
import type { LogicalType } from '../logical-type.js';
import { typeToString } from '../type-to-string.js';
import { PreciseTimestamp } from './precise-timestamp.js';

const INT_RANGES = { TINYINT: 127, SMALLINT: 32767, INT: 2147483647 } as const;

/**
 * Why `value` is not a valid representation of `type` per docs/values.md (e.g. "BIGINT needs a bigint,
 * got number 1"), or undefined when it is. For tests, sources under development and debug assertions;
 * it walks nested values, so keep it off the per-record hot path.
 */
export function explainNonConformance(value: unknown, type: LogicalType, path = '$'): string | undefined {
  if (value === null) return type.nullable || type.kind === 'NULL' ? undefined : `${path}: NULL in ${typeToString(type)}`;
  const bad = (what: string): string => {
    const shown = typeof value === 'bigint' ? `${value}n` : typeof value === 'object' ? (value?.constructor?.name ?? 'object') : JSON.stringify(value);
    return `${path}: ${typeToString(type)} needs ${what}, got ${typeof value} ${shown}`;
  };
  switch (type.kind) {
    case 'BOOLEAN':
      return typeof value === 'boolean' ? undefined : bad('a boolean');
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT': {
      const max = INT_RANGES[type.kind];
      return Number.isInteger(value) && (value as number) >= -max - 1 && (value as number) <= max ? undefined : bad(`an integer number in [${-max - 1}, ${max}]`);
    }
    case 'BIGINT':
      return typeof value === 'bigint' && value >= -(2n ** 63n) && value < 2n ** 63n ? undefined : bad('a 64-bit bigint');
    case 'FLOAT':
    case 'DOUBLE':
      return typeof value === 'number' ? undefined : bad('a number');
    case 'DECIMAL':
      return value instanceof Decimal && value.scale === type.scale && value.precision() <= Math.max(type.precision, 1)
        ? undefined
        : bad(`a Decimal of scale ${type.scale} and at most ${type.precision} digits`);
    case 'CHAR':
    case 'VARCHAR':
      return typeof value === 'string' && value.length <= type.length ? undefined : bad(`a string of at most ${type.length} characters`);
    case 'BINARY':
    case 'VARBINARY':
      return value instanceof Uint8Array && value.length <= type.length ? undefined : bad(`a Uint8Array of at most ${type.length} bytes`);
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ':
      // Finer than a millisecond only above TIMESTAMP(3), and then never a whole millisecond (the canonical form).
      if (type.precision > 3 && value instanceof PreciseTimestamp) {
        return Number.isSafeInteger(value.millis) && Number.isInteger(value.nanoOfMilli) && value.nanoOfMilli > 0 && value.nanoOfMilli < 1_000_000
          ? undefined
          : bad('a canonical PreciseTimestamp (nanoOfMilli in 1..999999)');
      }
      return Number.isSafeInteger(value) ? undefined : bad(type.precision > 3 ? 'an integer number or a PreciseTimestamp' : 'an integer number');
    case 'DATE':
    case 'TIME':
    case 'INTERVAL_YEAR_MONTH':
    case 'INTERVAL_DAY_TIME':
      return Number.isSafeInteger(value) ? undefined : bad('an integer number');
    case 'ARRAY': {
      if (!Array.isArray(value)) return bad('an Array');
      for (let i = 0; i < value.length; i++) {
        const e = explainNonConformance(value[i], type.element, `${path}[${i}]`);
        if (e !== undefined) return e;
      }
      return undefined;
    }
    case 'MULTISET': {
      if (!(value instanceof Map)) return bad('a Map of element to count');
      for (const [k, n] of value) {
        const e = explainNonConformance(k, type.element, `${path}{key}`);
        if (e !== undefined) return e;
        if (!Number.isInteger(n) || n < 1) return `${path}: multiset count must be a positive integer, got ${String(n)}`;
      }
      return undefined;
    }
    case 'MAP': {
      if (!(value instanceof Map)) return bad('a Map');
      for (const [k, v] of value) {
        const e = explainNonConformance(k, type.key, `${path}{key}`) ?? explainNonConformance(v, type.value, `${path}{value}`);
        if (e !== undefined) return e;
      }
      return undefined;
    }
    case 'ROW': {
      if (!Array.isArray(value) || value.length !== type.fields.length) return bad(`an Array of ${type.fields.length} fields`);
      for (let i = 0; i < value.length; i++) {
        const f = type.fields[i]!;
        const e = explainNonConformance(value[i], f.type, `${path}.${f.name}`);
        if (e !== undefined) return e;
      }
      return undefined;
    }
    case 'NULL':
      return bad('null');
    case 'VARIANT':
      // A VARIANT value is its canonical JSON text (planner/functions/builtins/json-variant.ts).
      return typeof value === 'string' ? undefined : bad('a string (the JSON text of the VARIANT)');
    default:
      return assertNever(type, 'logical type');
  }
}

/** True when `value` is a valid representation of `type`; see `explainNonConformance`. */
export function conformsTo(value: unknown, type: LogicalType): boolean {
  return explainNonConformance(value, type) === undefined;
}
