import { BUILTIN_AGGREGATES } from '../functions/aggregates/builtin-aggregate-types.js';
import { locateError, ObjectNotFoundError, PlanningError, ValidationError } from '../../errors/sluice-error.js';
import { rangeOf } from '../../sql/position.js';
import type { Expression, FunctionCall } from '../../sql/ast/expressions.js';
import { DataTypes } from '../../types/data-types.js';
import { Decimal } from '../../types/decimal.js';
import { decimalAddType, decimalDivideType, decimalModType, decimalMultiplyType, toDecimalType } from '../../types/decimal-type-rules.js';
import { isCharacterString, isExactNumeric, isIntegerType, isInterval, isNumeric, isTimestamp, notNull, withNullability } from '../../types/logical-type.js';
import type { LogicalType } from '../../types/logical-type.js';
import { parseDate, parseTime, parseTimestampLtzValue, parseTimestampValue } from '../../types/values/temporal.js';
import { commonType, comparisonTypes, sqlTypeName, widenNumeric } from '../expressions/type-rules.js';
import type { FunctionLookup } from '../functions/function-registry.js';
import { checkCast } from '../expressions/cast.js';
import { bindCall } from '../expressions/expr-factory.js';
import { call, literal } from '../rex/rex-node.js';
import type { RexCall, RexNode } from '../rex/rex-node.js';
import { rexToBound } from '../rex/rex-to-bound.js';
import { intervalType, intervalValue, logicalTypeOf } from './ast-type.js';
import type { Scope } from './scope.js';
import { editDistance, nearestName } from './suggest.js';
import { bindJsonArray, bindJsonExists, bindJsonObject, bindJsonQuery, bindJsonValue } from './bind-json.js';
import type { JsonBindContext } from './bind-json.js';

/** Everything binding one expression needs. */
export interface ExprBindContext {
  readonly scope: Scope;
  readonly timeZone: string;
  readonly functions: FunctionLookup | undefined;
  /**
   * Consulted before normal binding for every sub-expression; returns a replacement (an aggregate
   * result, a grouped expression) or undefined to bind normally. Used by the aggregate binder.
   */
  readonly intercept?: (e: Expression) => RexNode | undefined;
  /**
   * False when the expression was not parsed from the statement being run (a view's stored query, a
   * computed column or watermark kept as text): its positions would point into the wrong text, so
   * errors carry none. Default true.
   */
  readonly positioned?: boolean;
  /** Set while binding a JSON_OBJECT VALUE, a JSON_ARRAY element or a JSON aggregate's argument that is a JSON() call. */
  readonly jsonValue?: boolean;
}

/** Whether `e` is a call of JSON(text), which Flink allows only as a JSON_OBJECT VALUE or a JSON_ARRAY element. */
export function isJsonCall(e: Expression): boolean {
  return e.kind === 'function-call' && e.name.length === 1 && e.name[0]!.toUpperCase() === 'JSON';
}

export function isAggregateCall(e: Expression, functions: FunctionLookup | undefined): boolean {
  if ((e.kind === 'json-object' || e.kind === 'json-array') && e.aggregate) return true;
  if (e.kind !== 'function-call' || e.over !== null) return false;
  const name = e.name[e.name.length - 1]!.toUpperCase();
  return BUILTIN_AGGREGATES.has(name) || functions?.lookup(name)?.kind === 'aggregate';
}

const BOOLEAN_NN = notNull(DataTypes.BOOLEAN());

function nullableIfAny(t: LogicalType, operands: readonly RexNode[]): LogicalType {
  return withNullability(t, operands.some((o) => o.type.nullable));
}

/** Wraps `n` in a CAST to `t` unless it already has that kind (nullability ignored). */
export function castTo(n: RexNode, t: LogicalType): RexNode {
  if (n.type.kind === t.kind && JSON.stringify({ ...n.type, nullable: true }) === JSON.stringify({ ...t, nullable: true })) return n;
  if (n.kind === 'literal' && n.value === null) return literal(null, withNullability(t, true));
  return call('CAST', [n], withNullability(t, n.type.nullable));
}

/** Errors that point into the statement's text. */
function isLocatable(err: unknown): err is ValidationError | PlanningError | ObjectNotFoundError {
  return err instanceof ValidationError || err instanceof PlanningError || err instanceof ObjectNotFoundError;
}

/**
 * Runs `check` for the expression `e` (an aggregate call typed outside `bindExpression`, say) so that
 * an error it throws points at `e`, unless `positioned` is false.
 */
export function checkAt<T>(e: Expression, positioned: boolean | undefined, check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (positioned !== false && isLocatable(err)) locateError(err, rangeOf(e));
    throw err;
  }
}

/**
 * Binds a parsed expression against `ctx.scope`, inferring types as Flink does for the common
 * operators. @throws ValidationError naming the culprit.
 */
export function bindExpression(e: Expression, ctx: ExprBindContext): RexNode {
  // One frame per level (no helper around the switch): nesting 1,000 levels deep must fit the stack.
  try {
    const hit = ctx.intercept?.(e);
    if (hit !== undefined) return hit;
    const bind = (x: Expression): RexNode => bindExpression(x, ctx);
    switch (e.kind) {
      case 'numeric-literal':
        return numericLiteral(e.text);
      case 'string-literal':
        return literal(e.value, { kind: 'CHAR', length: e.value.length, nullable: false });
      case 'boolean-literal':
        return literal(e.value, BOOLEAN_NN);
      case 'null-literal':
        return literal(null, DataTypes.NULL());
      case 'binary-literal': {
        const bytes = Uint8Array.from(Buffer.from(e.hex, 'hex'));
        return literal(bytes, { kind: 'BINARY', length: bytes.length, nullable: false });
      }
      case 'typed-literal':
        return typedLiteral(e.type, e.value, ctx.timeZone);
      case 'interval-literal': {
        const t = notNull(intervalType(e.qualifier));
        return literal(intervalValue(e.value, e.qualifier, e.negative), t);
      }
      case 'identifier':
        return ctx.scope.resolve(e.names);
      case 'star':
        throw new ValidationError("'*' is only allowed in a select list or COUNT(*)");
      case 'field-access': {
        const base = bind(e.expr);
        if (base.type.kind !== 'ROW') throw new ValidationError(`Cannot access field '${e.field}' of a value of type ${sqlTypeName(base.type)}`);
        const i = base.type.fields.findIndex((f) => f.name === e.field);
        if (i < 0) throw new ValidationError(`Field '${e.field}' not found`);
        return call('FIELD', [base, literal(i, notNull(DataTypes.INT()))], withNullability(base.type.fields[i]!.type, true));
      }
      case 'item-access': {
        const base = bind(e.expr);
        const key = bind(e.index);
        if (base.type.kind === 'ARRAY') return call('ITEM', [base, key], withNullability(base.type.element, true));
        if (base.type.kind === 'MAP') return call('ITEM', [base, key], withNullability(base.type.value, true));
        if (base.type.kind === 'VARIANT') return registryCall('VARIANT_ITEM', [base, key], ctx);
        throw new ValidationError(`Cannot apply ITEM to a value of type ${sqlTypeName(base.type)}`);
      }
      case 'function-call':
        return bindFunction(e, ctx);
      case 'cast': {
        const operand = bind(e.expr);
        const target = logicalTypeOf(e.type);
        // Unsupported casts (numeric <-> TIMESTAMP, as Flink since 1.13) fail here, not when the job is built.
        checkCast(operand.type, target);
        if (e.tryCast) return call('TRY_CAST', [operand], withNullability(target, true));
        if (operand.kind === 'literal' && operand.value === null) return literal(null, withNullability(target, true));
        return call('CAST', [operand], withNullability(target, operand.type.nullable));
      }
      case 'case': {
        const operand = e.operand === null ? null : bind(e.operand);
        const conds = e.whens.map((w) => (operand === null ? bind(w.when) : comparison('=', operand, bind(w.when))));
        const thens = e.whens.map((w) => bind(w.then));
        const elseNode = e.elseExpr === null ? literal(null, DataTypes.NULL()) : bind(e.elseExpr);
        const t = commonType([...thens.map((x) => x.type), elseNode.type]);
        if (t === undefined) throw new ValidationError('Illegal mixing of types in CASE or COALESCE statement');
        const resultType = e.elseExpr === null ? withNullability(t, true) : t;
        const ops: RexNode[] = [];
        conds.forEach((c, i) => ops.push(c, castTo(thens[i]!, resultType)));
        ops.push(castTo(elseNode, resultType));
        return call('CASE', ops, resultType);
      }
      case 'unary': {
        const x = bind(e.operand);
        if (e.op === 'NOT') return call('NOT', [x], withNullability(DataTypes.BOOLEAN(), x.type.nullable));
        if (e.op === '+') return x;
        if (x.kind === 'literal' && x.value !== null) return literal(negateValue(x.value), x.type);
        return call('NEGATE', [x], x.type);
      }
      case 'binary':
        return bindBinary(e.op, bind(e.left), bind(e.right));
      case 'is': {
        const x = bind(e.expr);
        const op = `IS ${e.negated ? 'NOT ' : ''}${e.test === 'UNKNOWN' ? 'NULL' : e.test}`;
        return call(op, [x], BOOLEAN_NN);
      }
      case 'is-distinct-from':
        return call(e.negated ? 'IS NOT DISTINCT FROM' : 'IS DISTINCT FROM', [bind(e.left), bind(e.right)], BOOLEAN_NN);
      case 'between': {
        const x = bind(e.expr);
        const lo = bind(e.low);
        const hi = bind(e.high);
        let r: RexNode = bindBinary('AND', comparison('>=', x, lo), comparison('<=', x, hi));
        if (e.symmetric) r = bindBinary('OR', r, bindBinary('AND', comparison('>=', x, hi), comparison('<=', x, lo)));
        return e.negated ? call('NOT', [r], r.type) : r;
      }
      case 'in-list': {
        const x = bind(e.expr);
        const list = e.list.map(bind);
        const all = [x, ...list];
        const r = call('IN', all, nullableIfAny(DataTypes.BOOLEAN(), all));
        return e.negated ? call('NOT', [r], r.type) : r;
      }
      case 'like': {
        if (e.op !== 'LIKE' || e.escape !== null) {
          const ops = [bind(e.expr), bind(e.pattern), ...(e.escape === null ? [] : [bind(e.escape)])];
          return registryCall(`${e.negated ? 'NOT ' : ''}${e.op}`, ops, ctx);
        }
        const x = bind(e.expr);
        const p = bind(e.pattern);
        return call(e.negated ? 'NOT LIKE' : 'LIKE', [x, p], nullableIfAny(DataTypes.BOOLEAN(), [x, p]));
      }
      case 'array-constructor': {
        const els = e.elements.map(bind);
        const t = commonType(els.map((x) => x.type));
        if (t === undefined) throw new ValidationError('Parameters must be of the same type');
        return call('ARRAY', els.map((x) => castTo(x, t)), notNull(DataTypes.ARRAY(t)));
      }
      case 'map-constructor': {
        const els = e.entries.map(bind);
        const kt = commonType(els.filter((_, i) => i % 2 === 0).map((x) => x.type))!;
        const vt = commonType(els.filter((_, i) => i % 2 === 1).map((x) => x.type))!;
        return call('MAP', els.map((x, i) => castTo(x, i % 2 === 0 ? kt : vt)), notNull(DataTypes.MAP(kt, vt)));
      }
      case 'row-constructor': {
        const els = e.elements.map(bind);
        return call('ROW', els, notNull(DataTypes.ROW(...els.map((x, i) => DataTypes.FIELD(`EXPR$${i}`, x.type)))));
      }
      case 'time-unit':
        return symbolArg(e.unit);
      case 'extract':
        return registryCall('EXTRACT', [symbolArg(e.unit), bind(e.expr)], ctx);
      case 'floor-ceil':
        return registryCall(e.fn, [bind(e.expr), symbolArg(e.unit)], ctx);
      case 'trim':
        if (e.side === null && e.chars === null) return registryCall('TRIM', [bind(e.expr)], ctx);
        return registryCall('TRIM', [symbolArg(e.side ?? 'BOTH'), e.chars === null ? literal(' ', notNull(DataTypes.CHAR(1))) : bind(e.chars), bind(e.expr)], ctx);
      case 'position':
        return registryCall('POSITION', [bind(e.needle), bind(e.haystack), ...(e.from === null ? [] : [bind(e.from)])], ctx);
      case 'substring':
        return registryCall('SUBSTRING', [bind(e.expr), bind(e.from), ...(e.length === null ? [] : [bind(e.length)])], ctx);
      case 'overlay':
        return registryCall('OVERLAY', [bind(e.expr), bind(e.placing), bind(e.from), ...(e.length === null ? [] : [bind(e.length)])], ctx);
      case 'json-value':
        return bindJsonValue(e, jsonContext(ctx));
      case 'json-query':
        return bindJsonQuery(e, jsonContext(ctx));
      case 'json-exists':
        return bindJsonExists(e, jsonContext(ctx));
      case 'json-object':
        return bindJsonObject(e, jsonContext(ctx));
      case 'json-array':
        return bindJsonArray(e, jsonContext(ctx));
      case 'is-json':
        return registryCall(`IS ${e.negated ? 'NOT ' : ''}JSON ${e.jsonType ?? 'VALUE'}`, [bind(e.expr)], ctx);
      case 'niladic':
        switch (e.name) {
          case 'CURRENT_TIMESTAMP':
            return call('CURRENT_TIMESTAMP', [], notNull(DataTypes.TIMESTAMP_LTZ(3)), false);
          case 'LOCALTIMESTAMP':
            return call('LOCALTIMESTAMP', [], notNull(DataTypes.TIMESTAMP(3)), false);
          default:
            return registryCall(e.name, [], ctx);
        }
      default:
        throw new ValidationError(`Expression '${e.kind}' is not supported here yet`);
    }
  } catch (err) {
    // The innermost expression that failed is the culprit: it claims the error first (locateError keeps it).
    if (ctx.positioned !== false && isLocatable(err)) locateError(err, rangeOf(e));
    throw err;
  }
}

function negateValue(v: unknown): unknown {
  if (v instanceof Decimal) return v.negate();
  if (typeof v === 'bigint') return -v;
  return -(v as number);
}

function numericLiteral(text: string): RexNode {
  if (/[eE]/.test(text)) return literal(Number(text), notNull(DataTypes.DOUBLE()));
  const point = text.indexOf('.');
  if (point >= 0 && point < text.length - 1) {
    // Calcite's precision of an exact literal is the number of digits as written, leading zeros included:
    // 0.5 is DECIMAL(2, 1), not (1, 1), which shows in the scale of a quotient (d / 0.5) or product.
    const digits = text.replace(/^[-+]/, '').length - 1;
    const scale = text.length - point - 1;
    return literal(Decimal.parse(text), notNull(DataTypes.DECIMAL(Math.min(38, digits), scale)));
  }
  // `1.` has no fraction digits: an integer literal, as in Calcite.
  const whole = point >= 0 ? text.slice(0, point) : text;
  const b = BigInt(whole);
  if (b <= 2147483647n) return literal(Number(b), notNull(DataTypes.INT()));
  if (b <= 9223372036854775807n) return literal(b, notNull(DataTypes.BIGINT()));
  return literal(Decimal.parse(whole), notNull(DataTypes.DECIMAL(Math.min(38, whole.replace(/^[-+]/, '').length), 0)));
}

function typedLiteral(kind: 'DATE' | 'TIME' | 'TIMESTAMP' | 'TIMESTAMP_LTZ', value: string, timeZone: string): RexNode {
  const frac = /\.(\d+)\s*$/.exec(value)?.[1]?.length ?? 0;
  switch (kind) {
    case 'DATE':
      return literal(parseDate(value), notNull(DataTypes.DATE()));
    case 'TIME':
      return literal(parseTime(value), notNull(DataTypes.TIME(Math.min(frac, 3))));
    case 'TIMESTAMP':
      return literal(parseTimestampValue(value), notNull(DataTypes.TIMESTAMP(Math.min(frac, 9))));
    case 'TIMESTAMP_LTZ':
      return literal(parseTimestampLtzValue(value, timeZone), notNull(DataTypes.TIMESTAMP_LTZ(Math.min(frac, 9))));
  }
}

/** `=`, `<` & co. with Flink's implicit casts between strings and other types. */
export function comparison(op: string, l: RexNode, r: RexNode): RexNode {
  const types = comparisonTypes(l.type, r.type);
  if (types === undefined) {
    throw new ValidationError(`Cannot apply '${op}' to arguments of type '<${sqlTypeName(l.type)}> ${op} <${sqlTypeName(r.type)}>'`);
  }
  const ll = isCharacterString(l.type) && !isCharacterString(types[0]) ? castTo(l, types[0]) : l;
  const rr = isCharacterString(r.type) && !isCharacterString(types[1]) ? castTo(r, types[1]) : r;
  return call(op, [ll, rr], nullableIfAny(DataTypes.BOOLEAN(), [ll, rr]));
}

/** Binary operators: arithmetic, comparison, AND/OR and `||`. */
export function bindBinary(op: string, l: RexNode, r: RexNode): RexNode {
  switch (op) {
    case 'AND':
    case 'OR': {
      for (const x of [l, r]) {
        if (x.type.kind !== 'BOOLEAN' && x.type.kind !== 'NULL') {
          throw new ValidationError(`Cannot apply '${op}' to arguments of type '<${sqlTypeName(l.type)}> ${op} <${sqlTypeName(r.type)}>'`);
        }
      }
      // Flatten nested AND/OR so EXPLAIN prints AND(a, b, c) as Flink does.
      const flat = [l, r].flatMap((x) => (x.kind === 'call' && x.op === op ? x.operands : [x]));
      return call(op, flat, nullableIfAny(DataTypes.BOOLEAN(), flat));
    }
    case '=':
    case '<>':
    case '<':
    case '<=':
    case '>':
    case '>=':
      return comparison(op, l, r);
    case '||': {
      const ls = isCharacterString(l.type) ? l : castTo(l, DataTypes.STRING());
      const rs = isCharacterString(r.type) ? r : castTo(r, DataTypes.STRING());
      const len = Math.min(2147483647, (ls.type as { length: number }).length + (rs.type as { length: number }).length);
      const kind = ls.type.kind === 'CHAR' && rs.type.kind === 'CHAR' ? 'CHAR' : 'VARCHAR';
      return call('||', [ls, rs], { kind, length: len, nullable: ls.type.nullable || rs.type.nullable });
    }
    default:
      return arithmeticCall(op, l, r);
  }
}

/** Calcite's operand forms per operator, as its "Supported form(s)" lists them. */
const ARITHMETIC_FORMS: Readonly<Record<string, readonly string[]>> = {
  '+': ['<NUMERIC> + <NUMERIC>', '<DATETIME_INTERVAL> + <DATETIME_INTERVAL>', '<DATETIME> + <DATETIME_INTERVAL>', '<DATETIME_INTERVAL> + <DATETIME>'],
  '-': ['<NUMERIC> - <NUMERIC>', '<DATETIME_INTERVAL> - <DATETIME_INTERVAL>', '<DATETIME> - <DATETIME_INTERVAL>'],
  '*': ['<NUMERIC> * <NUMERIC>', '<DATETIME_INTERVAL> * <NUMERIC>', '<NUMERIC> * <DATETIME_INTERVAL>'],
  '%': ['<EXACT_NUMERIC> % <EXACT_NUMERIC>'],
};

function isDatetime(t: LogicalType): boolean {
  return t.kind === 'DATE' || t.kind === 'TIME' || isTimestamp(t);
}

/** A datetime result type: the operand's, without a time-attribute marker (arithmetic yields a plain value). */
function plainDatetime(t: LogicalType, nullable: boolean): LogicalType {
  return withNullability((isTimestamp(t) ? { ...t, timeAttribute: undefined } : t) as LogicalType, nullable);
}

const DAY_TIME_UNITS = ['DAY', 'HOUR', 'MINUTE', 'SECOND'] as const;

/**
 * The type of INTERVAL op INTERVAL of one kind: the qualifier spanning both (Calcite's least restrictive
 * interval, e.g. HOUR + MINUTE is HOUR TO MINUTE), the larger leading and fractional precisions.
 */
function intervalUnion(a: LogicalType, b: LogicalType, nullable: boolean): LogicalType {
  if (a.kind === 'INTERVAL_YEAR_MONTH' && b.kind === 'INTERVAL_YEAR_MONTH') {
    const units = new Set([...a.resolution.split('_TO_'), ...b.resolution.split('_TO_')]);
    const resolution = units.size === 1 ? a.resolution : 'YEAR_TO_MONTH';
    return { kind: 'INTERVAL_YEAR_MONTH', resolution, yearPrecision: Math.max(a.yearPrecision, b.yearPrecision), nullable };
  }
  if (a.kind === 'INTERVAL_DAY_TIME' && b.kind === 'INTERVAL_DAY_TIME') {
    const idx = [...a.resolution.split('_TO_'), ...b.resolution.split('_TO_')].map((u) => DAY_TIME_UNITS.indexOf(u as (typeof DAY_TIME_UNITS)[number]));
    const start = DAY_TIME_UNITS[Math.min(...idx)]!;
    const end = DAY_TIME_UNITS[Math.max(...idx)]!;
    const resolution = (start === end ? start : `${start}_TO_${end}`) as typeof a.resolution;
    return { kind: 'INTERVAL_DAY_TIME', resolution, dayPrecision: Math.max(a.dayPrecision, b.dayPrecision), fractionalPrecision: Math.max(a.fractionalPrecision, b.fractionalPrecision), nullable };
  }
  return withNullability(a, nullable);
}

/** `function`: the call was written `MOD(l, r)` rather than `l % r` (only the error message differs). */
function arithmeticCall(op: string, l: RexNode, r: RexNode, functionName?: string): RexCall {
  const lt = l.type;
  const rt = r.type;
  const nullable = lt.nullable || rt.nullable;
  const fail = (): never => {
    if (functionName !== undefined) {
      throw new ValidationError(
        `Cannot apply '${functionName}' to arguments of type '${functionName}(<${sqlTypeName(lt)}>, <${sqlTypeName(rt)}>)'. Supported form(s): '${functionName}(<EXACT_NUMERIC>, <EXACT_NUMERIC>)'`,
      );
    }
    const forms = ARITHMETIC_FORMS[op] ?? [`<NUMERIC> ${op} <NUMERIC>`];
    throw new ValidationError(
      `Cannot apply '${op}' to arguments of type '<${sqlTypeName(lt)}> ${op} <${sqlTypeName(rt)}>'. Supported form(s): ${forms.map((f) => `'${f}'`).join('\n')}`,
    );
  };
  if ((lt.kind === 'NULL' || isNumeric(lt)) && (rt.kind === 'NULL' || isNumeric(rt))) {
    const a = lt.kind === 'NULL' ? rt : lt;
    const b = rt.kind === 'NULL' ? lt : rt;
    if (a.kind === 'NULL') return call(op, [l, r], DataTypes.NULL());
    if (op === '%') {
      // Calcite's % and MOD, as Flink types them: exact numerics only; between integers the result has
      // the divisor's type (the remainder is smaller than the divisor).
      if (!isExactNumeric(a) || !isExactNumeric(b)) return fail();
      if (isIntegerType(a) && isIntegerType(b)) return call(op, [l, r], withNullability(b, nullable));
    }
    let t: LogicalType;
    if ((a.kind === 'DECIMAL' || b.kind === 'DECIMAL') && a.kind !== 'DOUBLE' && b.kind !== 'DOUBLE' && a.kind !== 'FLOAT' && b.kind !== 'FLOAT') {
      const da = toDecimalType(a)!;
      const db = toDecimalType(b)!;
      const rule = op === '*' ? decimalMultiplyType : op === '/' ? decimalDivideType : op === '%' ? decimalModType : decimalAddType;
      t = rule(da.precision, da.scale, db.precision, db.scale);
    } else {
      t = widenNumeric(a, b);
    }
    return call(op, [l, r], withNullability(t, nullable));
  }
  if (op === '+' || op === '-') {
    // DATE/TIME/TIMESTAMP(_LTZ) +- either interval kind keeps the datetime's type, as Calcite types it
    // (DATE + INTERVAL '1' HOUR stays a DATE: Flink drops the part below a day).
    if (isDatetime(lt) && isInterval(rt)) return call(op, [l, r], plainDatetime(lt, nullable));
    // INTERVAL + datetime: Calcite's convertlet puts the datetime first.
    if (op === '+' && isInterval(lt) && isDatetime(rt)) return call(op, [r, l], plainDatetime(rt, nullable));
    if (isInterval(lt) && isInterval(rt) && lt.kind === rt.kind) return call(op, [l, r], intervalUnion(lt, rt, nullable));
  }
  if (op === '*' && isInterval(lt) && isNumeric(rt)) return call(op, [l, r], withNullability(lt, nullable));
  if (op === '*' && isNumeric(lt) && isInterval(rt)) return call(op, [r, l], withNullability(rt, nullable));
  return fail();
}

/**
 * `(s1, e1) OVERLAPS (s2, e2)` as Calcite converts it: an interval second member is added to its start, each period
 * is put in order (start at most end), and the periods overlap when each ends at or after the other starts.
 */
function overlaps(args: readonly RexNode[]): RexNode {
  const [s1, x1, s2, x2] = args as [RexNode, RexNode, RexNode, RexNode];
  const end = (s: RexNode, x: RexNode): RexNode => (x.type.kind.startsWith('INTERVAL') ? bindBinary('+', s, x) : x);
  const ordered = (s: RexNode, e: RexNode): [RexNode, RexNode] => {
    const le = comparison('<=', s, e);
    const pick = (a: RexNode, b: RexNode): RexNode => {
      const t = commonType([a.type, b.type]);
      if (t === undefined) throw new ValidationError(`Cannot apply 'OVERLAPS' to periods of types ${a.type.kind} and ${b.type.kind}`);
      return call('CASE', [le, castTo(a, t), castTo(b, t)], t);
    };
    return [pick(s, e), pick(e, s)];
  };
  const [a1, b1] = ordered(s1, end(s1, x1));
  const [a2, b2] = ordered(s2, end(s2, x2));
  return bindBinary('AND', comparison('>=', b1, a2), comparison('>=', b2, a1));
}

function bindFunction(e: FunctionCall, ctx: ExprBindContext): RexNode {
  const name = e.name[e.name.length - 1]!.toUpperCase();
  if (e.over !== null) throw new ValidationError(`OVER windows are not supported yet (function ${name})`);
  if (isAggregateCall(e, ctx.functions)) {
    throw new ValidationError(`Aggregate function ${name} is not allowed here`);
  }
  if (name === 'JSON' && ctx.jsonValue !== true) {
    throw new ValidationError('The JSON() function is currently only supported inside JSON_ARRAY() or as the VALUE param of JSON_OBJECT()');
  }
  const argCtx = ctx.jsonValue === true ? { ...ctx, jsonValue: false } : ctx;
  const args = e.args.map((a) => bindExpression(a, argCtx));
  const types = args.map((a) => a.type);
  const anyNull = args.some((a) => a.type.nullable);
  const one = (): RexNode => {
    if (args.length !== 1) throw arity(name, 1);
    return args[0]!;
  };
  switch (name) {
    case 'UPPER':
    case 'LOWER': {
      const x = one();
      checkOperands(name, args, ctx);
      return call(name, [x], withNullability(isCharacterString(x.type) ? { ...x.type, kind: 'VARCHAR' } as LogicalType : DataTypes.STRING(), x.type.nullable));
    }
    case 'CHAR_LENGTH':
    case 'CHARACTER_LENGTH':
      checkOperands('CHAR_LENGTH', [one()], ctx);
      return call('CHAR_LENGTH', [one()], withNullability(DataTypes.INT(), anyNull));
    case 'ABS':
      checkOperands('ABS', [one()], ctx);
      return call('ABS', [one()], one().type);
    case 'MOD':
      if (args.length !== 2) throw arity(name, 2);
      return arithmeticCall('%', args[0]!, args[1]!, 'MOD');
    case '$OVERLAPS':
      return overlaps(args);
    case 'COALESCE':
    case 'IFNULL': {
      const t = commonType(types) ?? dateOfDatesAndTimestamps(types);
      if (t === undefined || args.length === 0) throw new ValidationError('Illegal mixing of types in CASE or COALESCE statement');
      const nn = args.some((a) => !a.type.nullable);
      return call('COALESCE', args.map((a) => castTo(a, t)), withNullability(t, !nn));
    }
    case 'IF': {
      if (args.length !== 3) throw arity(name, 3);
      const t = commonType([types[1]!, types[2]!]);
      if (t === undefined) throw noMatch(name, types);
      return call('IF', [args[0]!, castTo(args[1]!, t), castTo(args[2]!, t)], t);
    }
    case 'NULLIF':
      if (args.length !== 2) throw arity(name, 2);
      return call('NULLIF', args, withNullability(types[0]!, true));
    case 'CONCAT': {
      const ss = args.map((a) => (isCharacterString(a.type) ? a : castTo(a, DataTypes.STRING())));
      return call('CONCAT', ss, withNullability(DataTypes.STRING(), anyNull));
    }
    case 'GREATEST':
    case 'LEAST': {
      const t = commonType(types);
      if (t === undefined) throw noMatch(name, types);
      return call(name, args.map((a) => castTo(a, t)), t);
    }
    case 'PROCTIME':
      return call('PROCTIME', [], notNull(DataTypes.TIMESTAMP_LTZ(3, 'PROCTIME')), false);
    case 'NOW':
      return call('NOW', [], notNull(DataTypes.TIMESTAMP_LTZ(3)), false);
    default:
      break;
  }
  return registryCall(name, args, ctx);
}

function jsonContext(ctx: ExprBindContext): JsonBindContext {
  return {
    bind: (x) => bindExpression(x, ctx),
    bindValue: (x) => bindExpression(x, isJsonCall(x) ? { ...ctx, jsonValue: true } : ctx),
    symbol: symbolArg,
    registryCall: (name, args) => registryCall(name, args, ctx),
    castTo,
    lookup: (name) => ctx.functions?.lookup(name),
  };
}

/** A symbol operand (time unit, TRIM side) for registry functions: a CHAR literal flagged as a keyword. */
function symbolArg(value: string): RexNode {
  return { kind: 'call', op: 'SYMBOL', operands: [literal(value, notNull(DataTypes.STRING()))], type: notNull(DataTypes.STRING()), deterministic: true };
}

/**
 * A call of a function from the registry (built-ins of planner/functions and UDFs). The definition is
 * kept on the node; the code generator compiles it with the rest of the expression (rex-to-bound.ts).
 * @throws ValidationError when there is no such scalar function; PlanningError when the operands do not fit.
 */
export function registryCall(name: string, args: readonly RexNode[], ctx: ExprBindContext): RexNode {
  const def = ctx.functions?.lookup(name);
  if (def === undefined) {
    const hint = functionHint(name, ctx.functions?.names?.() ?? []);
    throw new ValidationError(`${noMatch(name, args.map((a) => a.type)).message}${hint}`);
  }
  if (def.kind !== 'scalar') throw noMatch(name, args.map((a) => a.type));
  // Bound once here for the operand check and the result type (literal operands shape some types).
  const type = bindCall(def, args.map(rexToBound)).type;
  return { kind: 'call', op: name, operands: args, type, deterministic: def.deterministic, fn: def };
}

/**
 * Typed here as well as at code generation for the functions this binder types itself, so a wrong
 * operand fails while the call's position is known.
 */
function checkOperands(name: string, args: readonly RexNode[], ctx: ExprBindContext): void {
  const def = ctx.functions?.lookup(name);
  if (def?.kind === 'scalar') bindCall(def, args.map(rexToBound));
}

/** "; did you mean 'X'?" for an unknown function: stricter than for columns, function names are short. */
function functionHint(name: string, known: readonly string[]): string {
  const near = nearestName(name, known);
  if (near === undefined || editDistance(name.toUpperCase(), near.toUpperCase(), 3) > Math.max(1, Math.floor(name.length / 3))) return '';
  return `; did you mean '${near}'?`;
}

/** Calcite's message for a call with the wrong number of operands. */
function arity(name: string, expected: number): ValidationError {
  return new ValidationError(`Invalid number of arguments to function '${name}'. Was expecting ${expected} arguments`);
}

function noMatch(name: string, types: readonly LogicalType[]): ValidationError {
  return new ValidationError(`No match found for function signature ${name}(${types.map((t) => `<${sqlTypeName(t)}>`).join(', ')})`);
}

/**
 * COALESCE over DATE and TIMESTAMP operands is a DATE in Flink (its own type inference, not Calcite's, which has no
 * common type for them): a real Flink 2.3 gives 2024-01-01 for COALESCE(TIMESTAMP '2024-01-01 10:00:00', DATE '...').
 */
function dateOfDatesAndTimestamps(types: readonly LogicalType[]): LogicalType | undefined {
  const real = types.filter((t) => t.kind !== 'NULL');
  if (!real.some((t) => t.kind === 'DATE') || !real.every((t) => t.kind === 'DATE' || t.kind === 'TIMESTAMP')) return undefined;
  return withNullability(DataTypes.DATE(), real.every((t) => t.nullable));
}
