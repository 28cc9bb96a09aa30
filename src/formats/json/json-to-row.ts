import { Decimal } from '../../types/decimal.js';
import { assertNever, isCharacterString } from '../../types/logical-type.js';
import type { LogicalType, RowType } from '../../types/logical-type.js';
import { typeToString } from '../../types/type-to-string.js';
import { ValidationError } from '../../errors/sluice-error.js';
import { FieldValueError, withField } from '../format-error.js';
import { parseFlinkTimestampValue, parseIsoDate, parseSqlTime } from '../common/temporal-text.js';
import type { TimestampValue } from '../../types/values/precise-timestamp.js';
import type { TimestampStandard } from '../common/temporal-text.js';
import { JsonNumberText, NEED_EXACT, stringifyJsonNode } from './json-tree.js';
import type { JsonNode } from './json-tree.js';

/** How a JSON tree becomes Sluice values (Flink's JsonToRowDataConverters settings). */
export interface JsonDecodeSettings {
  /** Throw when a ROW field is absent instead of reading NULL. */
  readonly failOnMissingField: boolean;
  readonly timestampStandard: TimestampStandard;
  /**
   * Read a value that does not convert as NULL instead of failing the record (Flink's nullable converters
   * under `ignore-parse-errors`), at every level: row fields, array elements, map values. Only a message
   * that is not JSON, or not an object at the top, still fails.
   */
  readonly ignoreParseErrors?: boolean;
}

/** Converts one JSON node (never undefined; null is handled by the caller) into a Sluice value. */
export type JsonValueConverter = (node: JsonNode) => unknown;

/** Converts a JSON object into the fields array of `rowType`. */
export type JsonRowConverter = (node: JsonNode) => unknown[];

const MIN_LONG = -(2n ** 63n);
const MAX_LONG = 2n ** 63n - 1n;
const INTEGER_TEXT = /^[+-]?\d+$/;

function bad(node: JsonNode, type: LogicalType): FieldValueError {
  const shown = typeof node === 'string' ? JSON.stringify(node) : stringifyJsonNode(node);
  return new FieldValueError(`cannot read ${shown.length > 80 ? `${shown.slice(0, 80)}...` : shown} as ${typeToString(type)}.`);
}

/** Text of a scalar node as Jackson's `asText()` gives it (numbers as written). */
function scalarText(node: JsonNode): string | undefined {
  if (typeof node === 'string') return node.trim();
  if (typeof node === 'number') return String(node);
  if (node instanceof JsonNumberText) return node.text;
  return undefined;
}

function intConverter(type: LogicalType, min: number, max: number): JsonValueConverter {
  return (node) => {
    let v: number;
    if (typeof node === 'number') v = node;
    // The exact parse must read `1e3` as the fast path does, or a record's result would depend on its other fields.
    else if (node instanceof JsonNumberText) v = Number(node.text);
    else {
      const t = scalarText(node);
      if (t === undefined || !INTEGER_TEXT.test(t)) throw bad(node, type);
      v = Number(t);
    }
    if (!Number.isInteger(v) || v < min || v > max) throw bad(node, type);
    return v;
  };
}

function bigintConverter(type: LogicalType): JsonValueConverter {
  return (node) => {
    if (typeof node === 'number') {
      if (Number.isSafeInteger(node)) return BigInt(node);
      // An integer beyond 2^53 may have lost digits in JSON.parse: ask for the exact parse.
      if (Number.isInteger(node)) throw NEED_EXACT;
      throw bad(node, type);
    }
    const t = scalarText(node);
    if (t === undefined) throw bad(node, type);
    let v: bigint;
    if (INTEGER_TEXT.test(t)) v = BigInt(t);
    else {
      // A number literal such as 1e3 or 5.0 that denotes an integer, as Jackson's canConvertToLong allows.
      const d = node instanceof JsonNumberText ? Decimal.tryParse(t)?.stripTrailingZeros() : undefined;
      if (d === undefined || d === null || d.scale !== 0) throw bad(node, type);
      v = d.unscaled;
    }
    if (v < MIN_LONG || v > MAX_LONG) throw bad(node, type);
    return v;
  };
}

/** Java's Double.parseDouble on trimmed text, including NaN and Infinity. */
function parseJavaDouble(t: string): number {
  if (t === 'NaN') return NaN;
  if (t === 'Infinity' || t === '+Infinity') return Infinity;
  if (t === '-Infinity') return -Infinity;
  if (t === '' || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?$/.test(t)) return NaN;
  return Number(t.replace(/[fFdD]$/, ''));
}

function floatConverter(type: LogicalType, single: boolean): JsonValueConverter {
  return (node) => {
    let v: number;
    if (typeof node === 'number') v = node;
    else {
      const t = scalarText(node);
      if (t === undefined) throw bad(node, type);
      v = parseJavaDouble(t);
      if (Number.isNaN(v) && t !== 'NaN') throw bad(node, type);
    }
    return single ? Math.fround(v) : v;
  };
}

function decimalConverter(type: LogicalType & { kind: 'DECIMAL' }): JsonValueConverter {
  const { precision, scale } = type;
  return (node) => {
    // JS numbers only reach here when the message has no literal of 16+ digits, so String(n) is exact.
    const t = scalarText(node);
    if (t === undefined) throw bad(node, type);
    const d = Decimal.tryParse(t);
    if (d === null) throw bad(node, type);
    // As Flink's DecimalData.fromBigDecimal: a value that does not fit DECIMAL(p, s) reads as NULL.
    return d.toPrecision(precision, scale);
  };
}

function temporalConverter(type: LogicalType, parse: (t: string) => TimestampValue): JsonValueConverter {
  return (node) => {
    if (typeof node !== 'string') throw bad(node, type);
    const v = parse(node);
    if (typeof v === 'number' && Number.isNaN(v)) throw bad(node, type);
    return v;
  };
}

/**
 * Build the converter for `type`. Fails at creation (ValidationError) for types Flink's JSON format
 * rejects, so a bad DDL is reported before any record is read.
 */
export function createJsonValueConverter(type: LogicalType, settings: JsonDecodeSettings): JsonValueConverter {
  switch (type.kind) {
    case 'NULL':
      return () => null;
    case 'BOOLEAN':
      return (node) => {
        if (typeof node === 'boolean') return node;
        // Java's Boolean.parseBoolean: anything but "true" (any case) is false, as Flink reads it.
        const t = scalarText(node);
        if (t === undefined) throw bad(node, type);
        return t.toLowerCase() === 'true';
      };
    case 'TINYINT':
      return intConverter(type, -128, 127);
    case 'SMALLINT':
      return intConverter(type, -32768, 32767);
    case 'INT':
      return intConverter(type, -2147483648, 2147483647);
    case 'INTERVAL_YEAR_MONTH':
      return intConverter(type, -2147483648, 2147483647);
    case 'INTERVAL_DAY_TIME':
      return intConverter(type, -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
    case 'BIGINT':
      return bigintConverter(type);
    case 'FLOAT':
      return floatConverter(type, true);
    case 'DOUBLE':
      return floatConverter(type, false);
    case 'DECIMAL':
      return decimalConverter(type);
    case 'CHAR':
    case 'VARCHAR':
      // A non-text node becomes its JSON text, as Flink's `jsonNode.toString()`.
      return (node) => (typeof node === 'string' ? node : stringifyJsonNode(node));
    case 'BINARY':
    case 'VARBINARY':
      return (node) => {
        if (typeof node !== 'string') throw bad(node, type);
        return new Uint8Array(Buffer.from(node, 'base64'));
      };
    case 'DATE':
      return temporalConverter(type, parseIsoDate);
    case 'TIME':
      return temporalConverter(type, parseSqlTime);
    case 'TIMESTAMP': {
      const std = settings.timestampStandard;
      return temporalConverter(type, (t) => parseFlinkTimestampValue(t, std, false, type.precision));
    }
    case 'TIMESTAMP_LTZ': {
      const std = settings.timestampStandard;
      return temporalConverter(type, (t) => parseFlinkTimestampValue(t, std, true, type.precision));
    }
    case 'ARRAY': {
      const element = nullable(createJsonElementConverter(type.element, settings));
      return (node) => {
        if (!Array.isArray(node)) throw bad(node, type);
        const out = new Array<unknown>(node.length);
        for (let i = 0; i < node.length; i++) {
          try {
            out[i] = element(node[i]!);
          } catch (e) {
            throw withField(e, `[${i}]`);
          }
        }
        return out;
      };
    }
    case 'MULTISET': {
      requireStringKey(type, type.element);
      return (node) => {
        if (!isObject(node)) throw bad(node, type);
        const out = new Map<unknown, number>();
        for (const k of Object.keys(node)) {
          const n = node[k]!;
          const count = typeof n === 'number' ? n : n instanceof JsonNumberText ? Number(n.text) : NaN;
          if (!Number.isInteger(count)) throw withField(bad(n, type), k);
          out.set(k, count);
        }
        return out;
      };
    }
    case 'MAP': {
      requireStringKey(type, type.key);
      const value = nullable(createJsonElementConverter(type.value, settings));
      return (node) => {
        if (!isObject(node)) throw bad(node, type);
        const out = new Map<unknown, unknown>();
        for (const k of Object.keys(node)) {
          try {
            out.set(k, value(node[k]!));
          } catch (e) {
            throw withField(e, k);
          }
        }
        return out;
      };
    }
    case 'ROW':
      return createJsonRowConverter(type, settings);
    case 'VARIANT':
      throw new ValidationError('The JSON format does not read the VARIANT type yet.');
    default:
      return assertNever(type, 'logical type');
  }
}

function requireStringKey(type: LogicalType, key: LogicalType): void {
  if (!isCharacterString(key)) {
    throw new ValidationError(`JSON format doesn't support non-string as key type of map. The type is: ${typeToString(type)}`);
  }
}

function isObject(node: JsonNode): node is { [key: string]: JsonNode } {
  return node !== null && typeof node === 'object' && !Array.isArray(node) && !(node instanceof JsonNumberText);
}

function nullable(convert: JsonValueConverter): (node: JsonNode | undefined) => unknown {
  return (node) => (node === null || node === undefined ? null : convert(node));
}

/** `convert`, reading NULL for a value it cannot convert; NEED_EXACT still asks for the exact parse. */
function lenient(convert: JsonValueConverter): JsonValueConverter {
  return (node) => {
    try {
      return convert(node);
    } catch (e) {
      if (e === NEED_EXACT) throw e;
      return null;
    }
  };
}

/** The converter of a field, array element or map value: lenient under ignore-parse-errors. */
export function createJsonElementConverter(type: LogicalType, settings: JsonDecodeSettings): JsonValueConverter {
  const convert = createJsonValueConverter(type, settings);
  return settings.ignoreParseErrors === true ? lenient(convert) : convert;
}

/**
 * Converter of a JSON object into a ROW's fields array (top level or nested). The field loop is generated
 * per row type, so every property read is a constant-key load V8 caches per call site; a loop over a
 * names array makes it one megamorphic keyed load and cost about a fifth of the whole decode.
 */
export function createJsonRowConverter(rowType: RowType, settings: JsonDecodeSettings): JsonRowConverter {
  const names = rowType.fields.map((f) => f.name);
  const converters = rowType.fields.map((f) => createJsonElementConverter(f.type, settings));
  const missing = (i: number): null => {
    if (settings.failOnMissingField) throw new FieldValueError(`Could not find field with name '${names[i]}'.`);
    return null;
  };
  const notObject = (node: JsonNode): never => {
    throw new FieldValueError(`expected a JSON object but got ${stringifyJsonNode(node).slice(0, 80)}.`);
  };
  const body: string[] = [];
  const fields: string[] = [];
  names.forEach((name, i) => {
    body.push(`i = ${i}; v = node[${JSON.stringify(name)}]; const f${i} = v === undefined ? missing(${i}) : v === null ? null : c[${i}](v);`);
    fields.push(`f${i}`);
  });
  const source = `return function convertRow(node) {
    if (node === null || typeof node !== 'object' || Array.isArray(node) || node instanceof JsonNumberText) notObject(node);
    let i = 0, v;
    try {
      ${body.join('\n      ')}
      return [${fields.join(', ')}];
    } catch (e) {
      throw withField(e, names[i]);
    }
  };`;
  const factory = new Function('c', 'names', 'missing', 'notObject', 'withField', 'JsonNumberText', source) as (
    ...args: unknown[]
  ) => JsonRowConverter;
  return factory(converters, names, missing, notObject, withField, JsonNumberText);
}

/** True when `type` holds a DECIMAL anywhere, so messages must be pre-scanned for long literals. */
export function containsDecimal(type: LogicalType): boolean {
  switch (type.kind) {
    case 'DECIMAL':
      return true;
    case 'ARRAY':
    case 'MULTISET':
      return containsDecimal(type.element);
    case 'MAP':
      return containsDecimal(type.key) || containsDecimal(type.value);
    case 'ROW':
      return type.fields.some((f) => containsDecimal(f.type));
    default:
      return false;
  }
}
