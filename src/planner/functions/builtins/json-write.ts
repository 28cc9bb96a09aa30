import { PlanningError } from '../../../errors/sluice-error.js';
import type { LogicalType } from '../../../types/logical-type.js';
import { isCharacterString } from '../../../types/logical-type.js';
import type { Decimal } from '../../../types/decimal.js';
import { valueToJsonl } from '../../../types/values/jsonl.js';
import { formatDouble } from '../../../types/values/number-format.js';
import { formatTimestamp } from '../../../types/values/temporal.js';
import type { TimestampValue } from '../../../types/values/precise-timestamp.js';
import { sqlTypeName } from '../../expressions/type-rules.js';
import { jacksonNumberText, stringifyJson } from './json-text.js';

/**
 * SQL values written as JSON the way Flink's JSON_STRING, JSON_OBJECT / JSON_ARRAY values and JSON_OBJECTAGG /
 * JSON_ARRAYAGG write them (its JsonGenerateUtils builds a Jackson tree of the value). Every rule below is what a
 * real Flink 2.3 printed (the cases of test/planner/rex/json-functions.test.ts and goldens/regressions.json).
 */

/**
 * Why Flink refuses to write a value of type `t` as JSON, or undefined when it writes it. A real Flink 2.3 fails to
 * plan JSON_STRING, JSON_OBJECT, JSON_ARRAY and the JSON aggregates over a DATE or TIME anywhere in the value ("Type
 * 'DATE NOT NULL' is not scalar or cannot be converted into JSON"), over an INTERVAL, and over a MAP whose key is not
 * a character string ("The key type must be a character string").
 */
export function jsonUnwritable(t: LogicalType): string | undefined {
  switch (t.kind) {
    case 'DATE':
    case 'TIME':
    case 'INTERVAL_YEAR_MONTH':
    case 'INTERVAL_DAY_TIME':
      return `Type '${sqlTypeName(t)}' is not scalar or cannot be converted into JSON.`;
    case 'ARRAY':
    case 'MULTISET':
      return jsonUnwritable(t.element);
    case 'MAP':
      if (!isCharacterString(t.key) && t.key.kind !== 'NULL') return `Type '${sqlTypeName(t.key)}' is not supported for JSON conversion. The key type must be a character string.`;
      return jsonUnwritable(t.value);
    case 'ROW':
      for (const f of t.fields) {
        const why = jsonUnwritable(f.type);
        if (why !== undefined) return why;
      }
      return undefined;
    default:
      return undefined;
  }
}

/** @throws PlanningError when Flink cannot write a `t` as JSON (jsonUnwritable). */
export function checkJsonWritable(t: LogicalType, where: string): void {
  const why = jsonUnwritable(t);
  if (why !== undefined) throw new PlanningError(`${where}: ${why}`);
}

/**
 * ISO-8601 text of epoch milliseconds read as UTC, as java.time's ISO_LOCAL_DATE_TIME writes it: the seconds always,
 * the fraction only as long as it has non-zero digits (1990-06-02T13:37:00, 1990-06-02T13:37:42.1).
 */
export function isoLocalDateTime(value: TimestampValue): string {
  // Nine digits so a TIMESTAMP(p > 3) keeps its digits below the millisecond; trailing zeros go.
  const text = formatTimestamp(value, 9).replace(' ', 'T');
  const dot = text.lastIndexOf('.');
  const fraction = text.slice(dot + 1).replace(/0+$/, '');
  return fraction === '' ? text.slice(0, dot) : `${text.slice(0, dot)}.${fraction}`;
}

/**
 * JSON text of a SQL value of type `t`:
 * - numbers as Jackson writes the Java value: a DECIMAL as BigDecimal.toString (1.50, 0E-18), a DOUBLE as its
 *   Double.toString digits read as a BigDecimal (1.0E+300), a FLOAT widened to a double (0.1 is 0.10000000149011612),
 *   NaN and the infinities as quoted strings;
 * - a TIMESTAMP as ISO text (1990-06-02T13:37:42.001), a TIMESTAMP_LTZ as the UTC instant with a Z;
 * - bytes as base64; an ARRAY as an array, a MAP (character keys) and a ROW (field names) as objects, nested values
 *   by the same rules (a DECIMAL inside a ROW stays a number).
 */
export function sqlValueJsonText(v: unknown, t: LogicalType): string {
  if (v === null || v === undefined) return 'null';
  switch (t.kind) {
    case 'BOOLEAN':
      return v === true ? 'true' : 'false';
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT':
    case 'BIGINT':
      // A BIGINT is a JSON number whatever its size: Jackson writes the long (a real Flink 2.3 answers
      // JSON_STRING(-9223372036854775808) with -9223372036854775808, unquoted; differential harness, seed 4242).
      return String(v);
    case 'FLOAT':
    case 'DOUBLE': {
      const d = v as number;
      return Number.isFinite(d) ? jacksonNumberText(formatDouble(d)) : JSON.stringify(String(d));
    }
    case 'DECIMAL':
      return jacksonNumberText((v as Decimal).toString());
    case 'CHAR':
    case 'VARCHAR':
      return JSON.stringify(v);
    case 'BINARY':
    case 'VARBINARY':
      return JSON.stringify(Buffer.from(v as Uint8Array).toString('base64'));
    case 'TIMESTAMP':
      return JSON.stringify(isoLocalDateTime(v as TimestampValue));
    case 'TIMESTAMP_LTZ':
      return JSON.stringify(`${isoLocalDateTime(v as TimestampValue)}Z`);
    case 'ARRAY':
      return `[${(v as unknown[]).map((e) => sqlValueJsonText(e, t.element)).join(',')}]`;
    case 'MAP':
      return objectText([...(v as Map<unknown, unknown>)].map(([k, x]) => [String(k), sqlValueJsonText(x, t.value)]));
    case 'ROW':
      return objectText(t.fields.map((f, i) => [f.name, sqlValueJsonText((v as readonly unknown[])[i], f.type)]));
    case 'VARIANT':
      // Already JSON text (a double the variant holds as Infinity stays bare, as Flink writes it).
      return v as string;
    default:
      // Types Flink refuses at planning (jsonUnwritable) and MULTISET: the JSON-lines form.
      return stringifyJson(valueToJsonl(v, t));
  }
}

/** Keys in order, as Flink's serializer writes every object (a MAP['b', 1, 'a', 2] and a ROW<z, a> too). */
function objectText(entries: readonly (readonly [string, string])[]): string {
  const sorted = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${sorted.map(([k, x]) => `${JSON.stringify(k)}:${x}`).join(',')}}`;
}
