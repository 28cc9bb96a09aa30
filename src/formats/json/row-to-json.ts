import type { Decimal } from '../../types/decimal.js';
import { assertNever, isCharacterString } from '../../types/logical-type.js';
import type { LogicalType, RowType } from '../../types/logical-type.js';
import { typeToString } from '../../types/type-to-string.js';
import { formatDouble, formatFloat } from '../../types/values/number-format.js';
import { ValidationError } from '../../errors/sluice-error.js';
import { FieldValueError, withField } from '../format-error.js';
import { jacksonDecimalText } from '../common/java-text.js';
import { MS_PER_DAY, formatFlinkTimestamp, formatIsoDate, formatTimeOfDay } from '../common/temporal-text.js';
import type { TimestampStandard } from '../common/temporal-text.js';
import type { TimestampValue } from '../../types/values/precise-timestamp.js';

/** What to do with a NULL map key: Flink's `map-null-key.mode`. */
export type MapNullKeyMode = 'FAIL' | 'DROP' | 'LITERAL';

/** Settings of Flink's JsonRowDataSerializationSchema. */
export interface JsonEncodeSettings {
  readonly timestampStandard: TimestampStandard;
  readonly mapNullKeyMode: MapNullKeyMode;
  /** Key written for a NULL map key in LITERAL mode. */
  readonly mapNullKeyLiteral: string;
  /** Write DECIMAL without exponent (`0.000000027`, not `2.7E-8`). */
  readonly encodeDecimalAsPlainNumber: boolean;
  /** Leave fields holding NULL out of objects. */
  readonly encodeIgnoreNullFields: boolean;
}

/** Writes one non-null value as JSON text. */
export type JsonValueWriter = (value: unknown) => string;

// What Jackson escapes: quote, backslash, control characters, and every UTF-16 surrogate (Jackson's UTF-8
// generator writes a character outside the BMP as two escaped surrogates such as \uD83C\uDF89, not as 4 UTF-8 bytes).
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
const ESCAPES = /["\\\u0000-\u001f\ud800-\udfff]/g;

function jacksonEscape(c: string): string {
  switch (c) {
    case '"':
      return '\\"';
    case '\\':
      return '\\\\';
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\t':
      return '\\t';
    case '\b':
      return '\\b';
    case '\f':
      return '\\f';
    default:
      // Jackson writes upper-case hex digits (JSON.stringify lower-case).
      return `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  }
}

/** A JSON string literal exactly as Jackson writes it; the common string needing no escape is copied as is. */
export function writeJsonString(v: unknown): string {
  const s = v as string;
  return NEEDS_ESCAPE.test(s) ? `"${s.replace(ESCAPES, jacksonEscape)}"` : `"${s}"`;
}

/** Java's textual double/float as a JSON token: Jackson quotes NaN and the infinities. */
function floatingText(text: string): string {
  return text === 'NaN' || text === 'Infinity' || text === '-Infinity' ? `"${text}"` : text;
}

/**
 * Build the writer for `type`, producing the exact text Flink's JSON format writes for the same value
 * (Jackson, compact, fields in schema order). Fails at creation for map keys that are not strings.
 */
export function createJsonValueWriter(type: LogicalType, settings: JsonEncodeSettings): JsonValueWriter {
  switch (type.kind) {
    case 'NULL':
      return () => 'null';
    case 'BOOLEAN':
      return (v) => ((v as boolean) ? 'true' : 'false');
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT':
    case 'INTERVAL_YEAR_MONTH':
    case 'INTERVAL_DAY_TIME':
      return (v) => String(v as number);
    case 'BIGINT':
      return (v) => (v as bigint).toString();
    case 'FLOAT':
      return (v) => floatingText(formatFloat(v as number));
    case 'DOUBLE':
      return (v) => floatingText(formatDouble(v as number));
    case 'DECIMAL':
      // Flink 2.x writes a plain number with the value's own scale (`-1.500000000000000000`); 1.20 stripped zeros.
      return settings.encodeDecimalAsPlainNumber ? (v) => (v as Decimal).toString() : (v) => jacksonDecimalText(v as Decimal, false);
    case 'CHAR':
    case 'VARCHAR':
      return writeJsonString;
    case 'BINARY':
    case 'VARBINARY': {
      return (v) => {
        const b = v as Uint8Array;
        return `"${Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64')}"`;
      };
    }
    case 'DATE':
      return (v) => `"${formatIsoDate(v as number)}"`;
    case 'TIME':
      // Flink writes LocalTime.ofSecondOfDay(ms / 1000): whole seconds only.
      return (v) => `"${formatTimeOfDay(Math.floor(((v as number) % MS_PER_DAY + MS_PER_DAY) % MS_PER_DAY / 1000) * 1000, false)}"`;
    case 'TIMESTAMP': {
      const std = settings.timestampStandard;
      return (v) => `"${formatFlinkTimestamp(v as TimestampValue, std, false)}"`;
    }
    case 'TIMESTAMP_LTZ': {
      const std = settings.timestampStandard;
      return (v) => `"${formatFlinkTimestamp(v as TimestampValue, std, true)}"`;
    }
    case 'ARRAY': {
      const element = createJsonValueWriter(type.element, settings);
      return (v) => {
        const a = v as readonly unknown[];
        let s = '[';
        for (let i = 0; i < a.length; i++) {
          if (i > 0) s += ',';
          const e = a[i];
          try {
            s += e === null || e === undefined ? 'null' : element(e);
          } catch (err) {
            throw withField(err, `[${i}]`);
          }
        }
        return `${s}]`;
      };
    }
    case 'MULTISET': {
      requireStringKey(type, type.element);
      return mapWriter(type, (n) => String(n as number), settings);
    }
    case 'MAP': {
      requireStringKey(type, type.key);
      return mapWriter(type, createJsonValueWriter(type.value, settings), settings);
    }
    case 'ROW': {
      const row = createJsonRowWriter(type, settings);
      return (v) => row(v as readonly unknown[]);
    }
    case 'VARIANT':
      throw new ValidationError('The JSON format does not write the VARIANT type yet.');
    default:
      return assertNever(type, 'logical type');
  }
}

function requireStringKey(type: LogicalType, key: LogicalType): void {
  if (!isCharacterString(key)) {
    throw new ValidationError(`JSON format doesn't support non-string as key type of map. The type is: ${typeToString(type)}`);
  }
}

function mapWriter(type: LogicalType, value: JsonValueWriter, settings: JsonEncodeSettings): JsonValueWriter {
  const mode = settings.mapNullKeyMode;
  const literalKey = writeJsonString(settings.mapNullKeyLiteral);
  return (v) => {
    let s = '{';
    let first = true;
    for (const [k, x] of v as Map<unknown, unknown>) {
      let key: string;
      if (k === null || k === undefined) {
        if (mode === 'DROP') continue;
        if (mode === 'FAIL') {
          throw new FieldValueError(
            `JSON format doesn't support to serialize map data with null keys (${typeToString(type)}). You can drop null key entries or encode null in literals by specifying the 'map-null-key.mode' option.`,
          );
        }
        key = literalKey;
      } else key = writeJsonString(k as string);
      if (!first) s += ',';
      first = false;
      try {
        s += `${key}:${x === null || x === undefined ? 'null' : value(x)}`;
      } catch (err) {
        throw withField(err, String(k));
      }
    }
    return `${s}}`;
  };
}

/** Writer of a ROW's fields array as a JSON object (top level or nested). */
export function createJsonRowWriter(rowType: RowType, settings: JsonEncodeSettings): (fields: readonly unknown[]) => string {
  const keys = rowType.fields.map((f) => `${writeJsonString(f.name)}:`);
  const names = rowType.fields.map((f) => f.name);
  const writers = rowType.fields.map((f) => createJsonValueWriter(f.type, settings));
  const n = keys.length;
  const ignoreNull = settings.encodeIgnoreNullFields;
  return (fields) => {
    let s = '{';
    let first = true;
    for (let i = 0; i < n; i++) {
      const v = fields[i];
      if (v === null || v === undefined) {
        if (ignoreNull) continue;
        s += first ? `${keys[i]}null` : `,${keys[i]}null`;
      } else {
        let text: string;
        try {
          text = writers[i]!(v);
        } catch (err) {
          throw withField(err, names[i]!);
        }
        s += first ? keys[i] + text : `,${keys[i]}${text}`;
      }
      first = false;
    }
    return `${s}}`;
  };
}
