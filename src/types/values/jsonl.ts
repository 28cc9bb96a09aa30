import { assertNever } from '../logical-type.js';
import type { LogicalType, RowType } from '../logical-type.js';
import type { Decimal } from '../decimal.js';
import { formatValue } from './format-value.js';
import type { FormatOptions } from './format-value.js';
import type { JsonValue } from './json-value.js';
import { formatFloat } from './number-format.js';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A value as the CLI's jsonl output shows it: DECIMAL as a string (exact), BIGINT as a number when
 * |v| <= 2^53-1 else a string, temporal and interval values as their SQL strings, bytes as base64,
 * NaN/Infinity as strings, NULL as null, ARRAY as an array, MAP and MULTISET as objects keyed by the SQL
 * string of the key, ROW as an object keyed by field name.
 */
export function valueToJsonl(value: unknown, type: LogicalType, options: FormatOptions = {}): JsonValue {
  if (value === null || value === undefined) return null;
  switch (type.kind) {
    case 'BOOLEAN':
      return value as boolean;
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT':
      return value as number;
    case 'BIGINT': {
      const v = value as bigint;
      return v <= MAX_SAFE && v >= -MAX_SAFE ? Number(v) : v.toString();
    }
    case 'FLOAT': {
      const f = value as number;
      return Number.isFinite(f) ? Number(formatFloat(f)) : String(f);
    }
    case 'DOUBLE': {
      const d = value as number;
      return Number.isFinite(d) ? d : String(d);
    }
    case 'DECIMAL':
      return (value as Decimal).toString();
    case 'CHAR':
    case 'VARCHAR':
      return value as string;
    case 'BINARY':
    case 'VARBINARY':
      return Buffer.from(value as Uint8Array).toString('base64');
    case 'DATE':
    case 'TIME':
    case 'TIMESTAMP':
    case 'TIMESTAMP_LTZ':
    case 'INTERVAL_YEAR_MONTH':
    case 'INTERVAL_DAY_TIME':
      return formatValue(value, type, options);
    case 'ARRAY':
      return (value as unknown[]).map((v) => valueToJsonl(v, type.element, options));
    case 'MULTISET': {
      const out: { [key: string]: JsonValue } = {};
      for (const [k, n] of value as Map<unknown, number>) out[formatValue(k, type.element, options)] = n;
      return out;
    }
    case 'MAP': {
      const out: { [key: string]: JsonValue } = {};
      for (const [k, v] of value as Map<unknown, unknown>) out[formatValue(k, type.key, options)] = valueToJsonl(v, type.value, options);
      return out;
    }
    case 'ROW':
      return rowFieldsToJsonl(value as readonly unknown[], type, options);
    case 'NULL':
      return null;
    case 'VARIANT':
      // The JSON value itself; a number JSON cannot hold (Infinity) as its text.
      try {
        return JSON.parse(value as string) as JsonValue;
      } catch {
        return value as string;
      }
    default:
      return assertNever(type, 'logical type');
  }
}

/** The fields of a row (top-level `Row.fields` or a nested ROW value) as one JSON object keyed by name. */
export function rowFieldsToJsonl(fields: readonly unknown[], rowType: RowType, options: FormatOptions = {}): { [key: string]: JsonValue } {
  const out: { [key: string]: JsonValue } = {};
  rowType.fields.forEach((f, i) => {
    out[f.name] = valueToJsonl(fields[i], f.type, options);
  });
  return out;
}
