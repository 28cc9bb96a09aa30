import { ExecutionError, PlanningError } from '../../../errors/sluice-error.js';
import { DataTypes } from '../../../types/data-types.js';
import { MAX_LENGTH, withNullability } from '../../../types/logical-type.js';
import type { LogicalType } from '../../../types/logical-type.js';
import type { BoundExpr } from '../../expressions/bound-expr.js';
import { canCast, makeCaster } from '../../expressions/cast.js';
import { sqlTypeName } from '../../expressions/type-rules.js';
import { constantOperand, scalar } from '../define.js';
import type { ScalarFunctionDefinition } from '../function-definition.js';
import { evaluateJsonPath, isIndefinite, parseJsonPath } from './json-path.js';
import { isJsonContainer, JsonNumber, parseJsonLossless, stringifyJson } from './json-text.js';
import { parseJsonVariant, tryParseJsonVariant, variantItem } from './json-variant.js';
import { checkJsonWritable, sqlValueJsonText } from './json-write.js';

/**
 * JSON functions. Operand conventions the binder follows (symbols are `symbol(...)` operands):
 * - JSON_VALUE(json, path [, onEmpty, onEmptyDefault, onError, onErrorDefault]); behaviours 'NULL' | 'ERROR' | 'DEFAULT';
 *   RETURNING type passed as bindCall's returnType (default STRING).
 * - JSON_QUERY(json, path [, wrapper, onEmpty, onError]); wrapper 'WITHOUT ARRAY' | 'WITH CONDITIONAL ARRAY' |
 *   'WITH UNCONDITIONAL ARRAY'; behaviours 'NULL' | 'ERROR' | 'EMPTY ARRAY' | 'EMPTY OBJECT'.
 * - JSON_EXISTS(json, path [, onError]) with 'TRUE' | 'FALSE' | 'UNKNOWN' | 'ERROR'.
 * - JSON_OBJECT(onNull, k1, v1, ...) and JSON_ARRAY(onNull, v1, ...) with onNull 'NULL' | 'ABSENT'.
 * - `x IS [NOT] JSON [VALUE|SCALAR|ARRAY|OBJECT]` as functions named 'IS JSON VALUE', 'IS NOT JSON ARRAY', ...
 */

const STRING = DataTypes.STRING();
// The calls whose value JSON_OBJECT / JSON_ARRAY embed raw, as Flink's docs say (JSON_QUERY and JSON_STRING give
// STRINGs, embedded escaped: a real Flink 2.3 prints JSON_OBJECT(KEY 'v' VALUE JSON_QUERY(j, '$[*]')) as {"v":"[]"}).
const JSON_FUNCTIONS = new Set(['JSON_OBJECT', 'JSON_ARRAY', 'JSON']);

/**
 * What `path` selects in `json`, as Calcite's jsonApiCommonSyntax and Jayway (which Flink runs) see it: null for
 * nothing, the list of matches for a wildcard or deep-scan path (possibly empty, which still counts as found), the one
 * value otherwise. Text that is not JSON selects nothing in lax mode and is an error in strict mode; a JSON null
 * document is an error in both (Jayway refuses a null document).
 * @throws ExecutionError for a bad path, bad JSON (strict), a null document or a strict step that does not match.
 */
function select(json: string, path: string): { readonly mode: 'lax' | 'strict'; readonly indefinite: boolean; readonly value: unknown } {
  const parsed = parseJsonPath(path);
  const indefinite = isIndefinite(parsed);
  let doc: unknown;
  try {
    doc = parseJsonLossless(json);
  } catch {
    if (parsed.mode === 'lax') return { mode: parsed.mode, indefinite, value: null };
    throw new ExecutionError(`Invalid JSON text: ${json.length > 100 ? json.slice(0, 100) + '...' : json}`);
  }
  if (doc === null) throw new ExecutionError('The JSON document is null; a path cannot be applied to it.');
  const items = evaluateJsonPath(doc, parsed);
  const value = indefinite ? items : items.length === 0 ? null : items[0];
  // Calcite's JsonPathContext.withJavaObj refuses a null in strict mode, and Jayway reads a JSON null as Java null: a
  // strict path (the default) that selects a JSON null is an error, handled by ON ERROR (a real Flink 2.3 answers
  // JSON_EXISTS('{"d":null}', '$.d' TRUE ON ERROR) with TRUE and JSON_VALUE of it with the ON ERROR default).
  if (value === null && parsed.mode === 'strict') throw new ExecutionError('Strict jsonpath mode requires a non empty returned value');
  return { mode: parsed.mode, indefinite, value };
}

function scalarText(v: unknown): string {
  if (v instanceof JsonNumber) return v.text;
  return typeof v === 'string' ? v : stringifyJson(v);
}

type ValueBehavior = 'NULL' | 'ERROR' | 'DEFAULT';

/**
 * JSON_VALUE as Flink's SqlJsonUtils.jsonValue: nothing, a JSON null, or (lax mode) an array/object is
 * empty; an array/object in strict mode, a path error, or a value the RETURNING type cannot hold is an
 * error. A wildcard or deep-scan path selects a list, which is never a scalar.
 */
function jsonValueFn(returnType: LogicalType) {
  const caster = returnType.kind === 'VARCHAR' || returnType.kind === 'CHAR' ? (v: unknown) => v : makeCaster(STRING, returnType);
  return (json: string | null, path: string | null, onEmpty: ValueBehavior = 'NULL', emptyDefault: unknown = null, onError: ValueBehavior = 'NULL', errorDefault: unknown = null): unknown => {
    if (json === null || path === null) return null;
    const error = (e: unknown): unknown => {
      if (onError === 'ERROR') throw e;
      return onError === 'DEFAULT' ? errorDefault : null;
    };
    let value: unknown;
    let mode: 'lax' | 'strict';
    try {
      ({ mode, value } = select(json, path));
    } catch (e) {
      return error(e);
    }
    if (value === null || (mode === 'lax' && isJsonContainer(value))) {
      if (onEmpty === 'ERROR') throw new ExecutionError('Empty result of JSON_VALUE function is not allowed');
      return onEmpty === 'DEFAULT' ? emptyDefault : null;
    }
    if (isJsonContainer(value)) return error(new ExecutionError(`Strict jsonpath mode requires scalar value, and the actual value is: '${stringifyJson(value)}'`));
    try {
      // A CAST that gives NULL for a value (overflow, DECIMAL precision) is an error here, as in Flink.
      const out = caster(scalarText(value));
      if (out === null) throw new ExecutionError(`JSON_VALUE: '${scalarText(value)}' does not fit ${sqlTypeName(returnType)}.`);
      return out;
    } catch (e) {
      return error(e);
    }
  };
}

/**
 * The code of a call whose implementation depends on its RETURNING type (JSON_VALUE, JSON_QUERY): the function
 * made for `call.type`, held as a constant, applied to every operand.
 */
function byReturnType(make: (returnType: LogicalType) => (...args: never[]) => unknown): ScalarFunctionDefinition['codegen'] {
  return {
    kind: 'custom',
    gen(call, g) {
      const args = call.operands.map((o) => g.gen(o));
      const v = g.fresh();
      g.emit(`${v} = ${g.constant(make(call.type))}(${args.join(', ')});`);
      return v;
    },
  };
}

function isArrayOrObject(v: unknown): boolean {
  return isJsonContainer(v);
}

/**
 * JSON_QUERY as Calcite evaluates it (Flink delegates to Calcite's JsonFunctions): a path with a wildcard
 * selects the list of its matches, any other path one value or nothing. CONDITIONAL wraps everything but an
 * array, UNCONDITIONAL wraps always. Nothing, or (lax) a scalar, is empty; a scalar in strict mode is an error.
 *
 * RETURNING VARCHAR(n) cuts the text to n characters, as a real Flink 2.3 does (JSON_QUERY('{"a":[1,"x"]}', '$.a'
 * RETURNING VARCHAR(3)) is '[1,'). RETURNING ARRAY<STRING> (Flink 2.1+) gives the selected JSON array's elements: a
 * string as its text, a number as it was written (as Jackson reads it back), true / false, a JSON null as NULL, an
 * object or array as its compact text; EMPTY ARRAY is an empty ARRAY; a selected object is not an array, an error
 * that ON ERROR handles (all as a real Flink 2.3 answers: JSON_QUERY('{"a":[1,"x",true,null,{"b":2}]}', '$.a'
 * RETURNING ARRAY<STRING>) is [1, x, true, null, {"b":2}]).
 */
function jsonQueryFn(returnType: LogicalType) {
  const asArray = returnType.kind === 'ARRAY';
  const maxLength = returnType.kind === 'VARCHAR' && returnType.length < MAX_LENGTH ? returnType.length : undefined;
  const fit = (text: string): string => (maxLength === undefined ? text : text.slice(0, maxLength));
  return (json: string | null, path: string | null, wrapper = 'WITHOUT ARRAY', onEmpty = 'NULL', onError = 'NULL'): string | (string | null)[] | null => {
    if (json === null || path === null) return null;
    const fallback = (b: string, err: unknown): string | (string | null)[] | null => {
      if (b === 'ERROR') throw err instanceof Error ? err : new ExecutionError(String(err));
      // EMPTY OBJECT with RETURNING ARRAY is refused at planning (a real Flink 2.3 refuses it too).
      if (b === 'EMPTY ARRAY') return asArray ? [] : fit('[]');
      if (b === 'EMPTY OBJECT') return fit('{}');
      return null;
    };
    let value: unknown;
    let mode: 'lax' | 'strict';
    try {
      ({ mode, value } = select(json, path));
    } catch (e) {
      return fallback(onError, e);
    }
    if (value !== null) {
      if (wrapper === 'WITH UNCONDITIONAL ARRAY' || (wrapper === 'WITH CONDITIONAL ARRAY' && !Array.isArray(value))) value = [value];
    }
    if (value === null || (mode === 'lax' && !isArrayOrObject(value))) {
      return fallback(onEmpty, new ExecutionError('Empty result of JSON_QUERY function is not allowed'));
    }
    if (!isArrayOrObject(value)) {
      return fallback(onError, new ExecutionError(`Strict jsonpath mode requires array or object value, and the actual value is: '${stringifyJson(value)}'`));
    }
    if (!asArray) return fit(stringifyJson(value));
    if (!Array.isArray(value)) return fallback(onError, new ExecutionError(`JSON_QUERY ... RETURNING ARRAY needs a JSON array, and the actual value is: '${stringifyJson(value)}'`));
    return value.map((e: unknown) => (e === null ? null : scalarText(e)));
  };
}

/**
 * Why Flink refuses JSON_QUERY ... RETURNING `rt` with these behaviours, or undefined: the result is a VARCHAR or an
 * ARRAY of VARCHAR (Flink 2.3: "Unsupported type 'CHAR(30)' for RETURNING in JSON_VALUE()", "Unsupported array element
 * type 'INTEGER' for RETURNING ARRAY in JSON_QUERY()"), and an ARRAY has no EMPTY OBJECT default.
 */
export function jsonQueryReturningError(rt: LogicalType, onEmpty: string, onError: string): string | undefined {
  if (rt.kind === 'VARCHAR') return undefined;
  if (rt.kind !== 'ARRAY') return `Unsupported type '${sqlTypeName(rt)}' for RETURNING in JSON_QUERY().`;
  if (rt.element.kind !== 'VARCHAR') return `Unsupported array element type '${sqlTypeName(rt.element)}' for RETURNING ARRAY in JSON_QUERY().`;
  if (onEmpty === 'EMPTY OBJECT') return `Illegal on empty behavior 'EMPTY OBJECT' for return type: ${sqlTypeName(rt)}`;
  if (onError === 'EMPTY OBJECT') return `Illegal on error behavior 'EMPTY OBJECT' for return type: ${sqlTypeName(rt)}`;
  return undefined;
}

function jsonExists(json: string, path: string, onError = 'FALSE'): boolean | null {
  try {
    // As SqlJsonUtils.jsonExists: the path selects a non-null value; a wildcard's list counts even when empty (a real
    // Flink 2.3 answers JSON_EXISTS('{}', '$[*]') with TRUE).
    return select(json, path).value !== null;
  } catch (e) {
    if (onError === 'ERROR') throw e;
    return onError === 'TRUE' ? true : onError === 'UNKNOWN' ? null : false;
  }
}

function isJson(kind: string): (s: string) => boolean {
  return (s) => {
    let v: unknown;
    try {
      v = JSON.parse(s);
    } catch {
      return false;
    }
    switch (kind) {
      case 'ARRAY':
        return Array.isArray(v);
      case 'OBJECT':
        return v !== null && typeof v === 'object' && !Array.isArray(v);
      case 'SCALAR':
        return v === null || typeof v !== 'object';
      default:
        return true;
    }
  };
}

function jsonOf(text: string): string | null {
  if (text.trim() === '') return null;
  try {
    return stringifyJson(parseJsonLossless(text));
  } catch {
    throw new ExecutionError(`Invalid JSON string in JSON(value) function: ${text}`);
  }
}

/** A JSON fragment of an operand value: raw when it is itself produced by a JSON function. */
function fragmentMaker(o: BoundExpr): (v: unknown) => string {
  if (o.kind === 'call' && JSON_FUNCTIONS.has(o.fn.name)) return (v) => (v === null ? 'null' : (v as string));
  const t = o.type;
  return (v) => sqlValueJsonText(v, t);
}

export function jsonFunctions(): ScalarFunctionDefinition[] {
  const isJsonDefs = (['VALUE', 'SCALAR', 'ARRAY', 'OBJECT'] as const).flatMap((kind) => {
    const f = isJson(kind);
    return [
      scalar({ name: `IS JSON ${kind}`, signatures: [['STRING']], result: DataTypes.BOOLEAN(), nulls: 'not-null', codegen: { kind: 'runtime', fn: ((s: string | null) => (s === null ? false : f(s))) as (...a: never[]) => unknown } }),
      scalar({ name: `IS NOT JSON ${kind}`, signatures: [['STRING']], result: DataTypes.BOOLEAN(), nulls: 'not-null', codegen: { kind: 'runtime', fn: ((s: string | null) => (s === null ? true : !f(s))) as (...a: never[]) => unknown } }),
    ];
  });
  return [
    ...isJsonDefs,
    {
      kind: 'scalar',
      name: 'JSON_VALUE',
      deterministic: true,
      inferType(ts, binding) {
        const rt = binding.returnType ?? STRING;
        if (!canCast(STRING, rt)) throw new PlanningError(`JSON_VALUE cannot return ${sqlTypeName(rt)}.`);
        if (ts.length < 2) throw new PlanningError('JSON_VALUE needs a JSON text and a path.');
        return withNullability(rt, true);
      },
      codegen: byReturnType(jsonValueFn),
    },
    {
      kind: 'scalar',
      name: 'JSON_QUERY',
      deterministic: true,
      // RETURNING shapes the result type (bindCall's returnType, STRING by default), as for JSON_VALUE.
      inferType(ts, binding) {
        const rt = binding.returnType ?? STRING;
        if (ts.length !== 2 && ts.length !== 5) throw new PlanningError('JSON_QUERY needs a JSON text and a path.');
        const why = jsonQueryReturningError(rt, String(constantOperand(binding, 3) ?? 'NULL'), String(constantOperand(binding, 4) ?? 'NULL'));
        if (why !== undefined) throw new PlanningError(why);
        return withNullability(rt, true);
      },
      codegen: byReturnType(jsonQueryFn),
    },
    scalar({ name: 'JSON_EXISTS', signatures: [['STRING', 'STRING'], ['STRING', 'STRING', 'SYMBOL']], result: DataTypes.BOOLEAN(), nulls: 'nullable', codegen: { kind: 'runtime-strict', fn: jsonExists as (...a: never[]) => unknown } }),
    // JSON(text): the text as a JSON value that JSON_OBJECT / JSON_ARRAY embed raw, compacted (a real Flink 2.3 answers
    // JSON_OBJECT(KEY 'K' VALUE JSON('{"key": {"value": 42}}')) with {"K":{"key":{"value":42}}}); an empty or blank
    // text is NULL, text that is not JSON an error (JsonFunctionsITCase). The binder refuses JSON() anywhere else, the
    // JSON aggregates included, as Flink does.
    scalar({ name: 'JSON', signatures: [['STRING']], result: STRING, nulls: 'nullable', codegen: { kind: 'runtime-strict', fn: jsonOf as (...a: never[]) => unknown } }),
    // Flink 2.1+'s PARSE_JSON / TRY_PARSE_JSON: a VARIANT, held as its canonical JSON text (json-variant.ts).
    scalar({ name: 'PARSE_JSON', signatures: [['STRING']], result: DataTypes.VARIANT(), codegen: { kind: 'runtime-strict', fn: parseJsonVariant as (...a: never[]) => unknown } }),
    // v['key'] / v[i] of a VARIANT (the binder's item access on a VARIANT).
    scalar({ name: 'VARIANT_ITEM', signatures: [['ANY', 'STRING'], ['ANY', 'INTEGER']], result: DataTypes.VARIANT(), nulls: 'nullable', codegen: { kind: 'runtime-strict', fn: variantItem as (...a: never[]) => unknown } }),
    scalar({ name: 'TRY_PARSE_JSON', signatures: [['STRING']], result: DataTypes.VARIANT(), nulls: 'nullable', codegen: { kind: 'runtime', fn: tryParseJsonVariant as (...a: never[]) => unknown } }),
    scalar({
      name: 'JSON_STRING',
      signatures: [['ANY']],
      result: (ts) => {
        checkJsonWritable(ts[0]!, 'JSON_STRING');
        return STRING;
      },
      // The text of a JSON_OBJECT / JSON_ARRAY is already JSON: kept raw, not quoted as a string (a real Flink 2.3
      // answers JSON_STRING(JSON_OBJECT(KEY 'k' VALUE 'one')) with {"k":"one"}; differential seed 31337, query 579).
      codegen: { kind: 'strict', expr: (args, call, g) => `${g.constant(fragmentMaker(call.operands[0]!))}(${args[0]})` },
    }),
    scalar({
      name: 'JSON_OBJECT',
      signatures: [['SYMBOL'], ['SYMBOL', 'STRING', 'ANY']],
      variadic: true,
      result: (ts) => {
        for (let i = 2; i < ts.length; i += 2) checkJsonWritable(ts[i]!, 'JSON_OBJECT');
        return withNullability(STRING, false);
      },
      nulls: 'type',
      codegen: {
        kind: 'custom',
        gen(call, g) {
          const absent = constantOperand({ operands: call.operands }, 0) === 'ABSENT';
          const pairs: string[] = [];
          for (let i = 1; i + 1 < call.operands.length; i += 2) {
            const k = g.gen(call.operands[i]!);
            const val = g.gen(call.operands[i + 1]!);
            const frag = g.constant(fragmentMaker(call.operands[i + 1]!));
            pairs.push(`if (${k} === null) rt.raise('JSON_OBJECT key must not be NULL'); ${absent ? `if (${val} !== null) ` : ''}parts.push([${k}, JSON.stringify(${k}) + ':' + ${frag}(${val})]);`);
          }
          const v = g.fresh();
          // Flink's serializer orders object entries by key (Jackson ORDER_MAP_ENTRIES_BY_KEYS).
          g.emit(`{ const parts = []; ${pairs.join(' ')} parts.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)); ${v} = '{' + parts.map((p) => p[1]).join(',') + '}'; }`);
          return v;
        },
      },
    }),
    scalar({
      name: 'JSON_ARRAY',
      signatures: [['SYMBOL'], ['SYMBOL', 'ANY']],
      variadic: true,
      result: (ts) => {
        for (const t of ts.slice(1)) checkJsonWritable(t, 'JSON_ARRAY');
        return withNullability(STRING, false);
      },
      nulls: 'type',
      codegen: {
        kind: 'custom',
        gen(call, g) {
          const nullOnNull = constantOperand({ operands: call.operands }, 0) === 'NULL';
          const items = call.operands.slice(1).map((o) => {
            const val = g.gen(o);
            return `${nullOnNull ? '' : `if (${val} !== null) `}parts.push(${g.constant(fragmentMaker(o))}(${val}));`;
          });
          const v = g.fresh();
          g.emit(`{ const parts = []; ${items.join(' ')} ${v} = '[' + parts.join(',') + ']'; }`);
          return v;
        },
      },
    }),
  ];
}


