import type { Expression, FunctionCall, JsonValueBehavior } from '../ast/expressions.js';
import type { FrameBound, OrderItem, WindowSpec } from '../ast/query.js';
import { isReserved } from '../lexer/keywords.js';
import { quoteName, quoteNames, quoteString } from './identifiers.js';
import { unparseDataType, unparseIntervalQualifier } from './unparse-data-type.js';
import { unparseQuery } from './unparse-query.js';

/** Function names whose `NAME(` the parser reads as special syntax; as plain calls they are backquoted. */
const SPECIAL_CALL_NAMES = new Set([
  'CAST', 'TRY_CAST', 'EXTRACT', 'TRIM', 'POSITION', 'OVERLAY', 'JSON_VALUE', 'JSON_QUERY', 'JSON_EXISTS', 'JSON_OBJECT',
  'JSON_OBJECTAGG', 'JSON_ARRAY', 'JSON_ARRAYAGG', 'ROW', 'DESCRIPTOR', 'EXISTS', 'CASE', 'SELECT', 'VALUES', 'WITH',
  'NOT', 'AND', 'OR', 'IN', 'IS', 'LIKE', 'BETWEEN', 'AS', 'FROM', 'WHERE', 'ON', 'THEN', 'WHEN', 'ELSE', 'END', 'OVER',
  'FILTER', 'TABLE', 'UNNEST', 'LATERAL', 'JOIN', 'USING', 'BY', 'HAVING', 'INTERVAL', 'NULL', 'TRUE', 'FALSE',
]);

/** Binding strength, as the parser's levels: higher binds tighter. */
function precedence(e: Expression): number {
  switch (e.kind) {
    case 'binary':
      switch (e.op) {
        case 'OR':
          return 1;
        case 'AND':
          return 2;
        case '+':
        case '-':
          return 5;
        case '*':
        case '/':
        case '%':
        case '||':
          return 6;
        default:
          return 4;
      }
    case 'unary':
      return e.op === 'NOT' ? 3 : 7;
    case 'is':
    case 'is-distinct-from':
    case 'between':
    case 'in-list':
    case 'in-subquery':
    case 'like':
    case 'quantified-comparison':
    case 'is-json':
      return 4;
    case 'numeric-literal':
      return e.text.startsWith('-') ? 7 : 8;
    default:
      return 8;
  }
}

function wrap(e: Expression, min: number): string {
  const s = unparseExpression(e);
  return precedence(e) < min ? `(${s})` : s;
}

function list(es: readonly Expression[]): string {
  return es.map(unparseExpression).join(', ');
}

function callName(name: readonly string[]): string {
  if (name.length === 1) {
    const n = name[0]!;
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(n) && !SPECIAL_CALL_NAMES.has(n.toUpperCase())) return n;
  }
  return quoteNames(name);
}

export function unparseOrderItem(o: OrderItem): string {
  return unparseExpression(o.expr) + (o.direction === null ? '' : ` ${o.direction}`) + (o.nulls === null ? '' : ` NULLS ${o.nulls}`);
}

function bound(b: FrameBound): string {
  switch (b.kind) {
    case 'unbounded-preceding':
      return 'UNBOUNDED PRECEDING';
    case 'unbounded-following':
      return 'UNBOUNDED FOLLOWING';
    case 'current-row':
      return 'CURRENT ROW';
    case 'preceding':
      return `${wrap(b.offset, 5)} PRECEDING`;
    case 'following':
      return `${wrap(b.offset, 5)} FOLLOWING`;
  }
}

/** `(PARTITION BY .. ORDER BY .. ROWS BETWEEN .. AND ..)` */
export function unparseWindowSpec(w: WindowSpec): string {
  const parts: string[] = [];
  if (w.baseWindow !== null) parts.push(quoteName(w.baseWindow));
  if (w.partitionBy.length > 0) parts.push(`PARTITION BY ${list(w.partitionBy)}`);
  if (w.orderBy.length > 0) parts.push(`ORDER BY ${w.orderBy.map(unparseOrderItem).join(', ')}`);
  if (w.frame !== null) {
    parts.push(w.frame.end === null ? `${w.frame.unit} ${bound(w.frame.start)}` : `${w.frame.unit} BETWEEN ${bound(w.frame.start)} AND ${bound(w.frame.end)}`);
  }
  return `(${parts.join(' ')})`;
}

function call(e: FunctionCall): string {
  let s = `${callName(e.name)}(${e.quantifier === null ? '' : `${e.quantifier} `}${list(e.args)})`;
  if (e.filter !== null) s += ` FILTER (WHERE ${unparseExpression(e.filter)})`;
  if (e.nullTreatment !== null) s += ` ${e.nullTreatment}`;
  if (e.over !== null) s += e.over.kind === 'window-ref' ? ` OVER ${quoteName(e.over.name)}` : ` OVER ${unparseWindowSpec(e.over)}`;
  return s;
}

function jsonBehavior(b: JsonValueBehavior): string {
  return b.kind === 'default' ? `DEFAULT ${unparseExpression(b.expr)}` : b.kind.toUpperCase();
}

function keyList(keys: readonly Expression[]): string {
  return keys.length === 1 ? unparseExpression(keys[0]!) : `(${list(keys)})`;
}

/**
 * Canonical Flink SQL for an expression; parse(unparse(e)) equals e apart from positions. Column
 * references are backquoted, so the text is safe to store in a catalog.
 */
export function unparseExpression(e: Expression): string {
  switch (e.kind) {
    case 'numeric-literal':
      return e.text;
    case 'string-literal':
      return quoteString(e.value);
    case 'binary-literal':
      return `X'${e.hex}'`;
    case 'boolean-literal':
      return e.value ? 'TRUE' : 'FALSE';
    case 'null-literal':
      return 'NULL';
    case 'typed-literal':
      return `${e.type === 'TIMESTAMP_LTZ' ? 'TIMESTAMP WITH LOCAL TIME ZONE' : e.type} ${quoteString(e.value)}`;
    case 'interval-literal':
      return `INTERVAL ${e.negative ? '-' : ''}${quoteString(e.value)} ${unparseIntervalQualifier(e.qualifier)}`;
    case 'identifier':
      return quoteNames(e.names);
    case 'star':
      return e.qualifier.length === 0 ? '*' : `${quoteNames(e.qualifier)}.*`;
    case 'field-access': {
      const base = unparseExpression(e.expr);
      const bare = precedence(e.expr) === 8 && e.expr.kind !== 'identifier' && e.expr.kind !== 'numeric-literal';
      return `${bare ? base : `(${base})`}.${quoteName(e.field)}`;
    }
    case 'item-access':
      return `${precedence(e.expr) === 8 && e.expr.kind !== 'numeric-literal' ? unparseExpression(e.expr) : `(${unparseExpression(e.expr)})`}[${unparseExpression(e.index)}]`;
    case 'function-call':
      if (e.name.length === 1 && e.name[0] === '$OVERLAPS' && e.args.length === 4) {
        const [a, b, c, d] = e.args.map(unparseExpression);
        return `((${a}, ${b}) OVERLAPS (${c}, ${d}))`;
      }
      return call(e);
    case 'cast':
      return `${e.tryCast ? 'TRY_CAST' : 'CAST'}(${unparseExpression(e.expr)} AS ${unparseDataType(e.type)})`;
    case 'case': {
      let s = 'CASE';
      if (e.operand !== null) s += ` ${unparseExpression(e.operand)}`;
      for (const w of e.whens) s += ` WHEN ${unparseExpression(w.when)} THEN ${unparseExpression(w.then)}`;
      if (e.elseExpr !== null) s += ` ELSE ${unparseExpression(e.elseExpr)}`;
      return `${s} END`;
    }
    case 'extract':
      return `EXTRACT(${e.unit} FROM ${unparseExpression(e.expr)})`;
    case 'trim': {
      const head = [e.side, e.chars === null ? null : unparseExpression(e.chars)].filter((x) => x !== null).join(' ');
      return head === '' && e.side === null ? `TRIM(${unparseExpression(e.expr)})` : `TRIM(${head} FROM ${unparseExpression(e.expr)})`;
    }
    case 'position':
      return `POSITION(${wrap(e.needle, 5)} IN ${unparseExpression(e.haystack)}${e.from === null ? '' : ` FROM ${unparseExpression(e.from)}`})`;
    case 'substring':
      return `SUBSTRING(${unparseExpression(e.expr)} FROM ${unparseExpression(e.from)}${e.length === null ? '' : ` FOR ${unparseExpression(e.length)}`})`;
    case 'overlay':
      return `OVERLAY(${unparseExpression(e.expr)} PLACING ${unparseExpression(e.placing)} FROM ${unparseExpression(e.from)}${e.length === null ? '' : ` FOR ${unparseExpression(e.length)}`})`;
    case 'floor-ceil':
      return `${e.fn}(${unparseExpression(e.expr)} TO ${e.unit})`;
    case 'time-unit':
      return e.unit;
    case 'json-value': {
      let s = `JSON_VALUE(${unparseExpression(e.expr)}, ${unparseExpression(e.path)}`;
      if (e.returning !== null) s += ` RETURNING ${unparseDataType(e.returning)}`;
      if (e.onEmpty !== null) s += ` ${jsonBehavior(e.onEmpty)} ON EMPTY`;
      if (e.onError !== null) s += ` ${jsonBehavior(e.onError)} ON ERROR`;
      return `${s})`;
    }
    case 'json-query': {
      let s = `JSON_QUERY(${unparseExpression(e.expr)}, ${unparseExpression(e.path)}`;
      if (e.returning !== null) s += ` RETURNING ${unparseDataType(e.returning)}`;
      if (e.wrapper !== null) s += ` ${e.wrapper} WRAPPER`;
      if (e.onEmpty !== null) s += ` ${e.onEmpty} ON EMPTY`;
      if (e.onError !== null) s += ` ${e.onError} ON ERROR`;
      return `${s})`;
    }
    case 'json-exists':
      return `JSON_EXISTS(${unparseExpression(e.expr)}, ${unparseExpression(e.path)}${e.onError === null ? '' : ` ${e.onError} ON ERROR`})`;
    case 'json-object': {
      let body = e.entries.map((en) => `KEY ${unparseExpression(en.key)} VALUE ${unparseExpression(en.value)}`).join(', ');
      if (e.onNull !== null) body += `${body === '' ? '' : ' '}${e.onNull} ON NULL`;
      return `${e.aggregate ? 'JSON_OBJECTAGG' : 'JSON_OBJECT'}(${body})`;
    }
    case 'json-array': {
      const body = list(e.elements) + (e.onNull === null ? '' : `${e.elements.length > 0 ? ' ' : ''}${e.onNull} ON NULL`);
      return `${e.aggregate ? 'JSON_ARRAYAGG' : 'JSON_ARRAY'}(${body})`;
    }
    case 'is-json':
      return `${wrap(e.expr, 4)} IS ${e.negated ? 'NOT ' : ''}JSON${e.jsonType === null ? '' : ` ${e.jsonType}`}`;
    case 'array-constructor':
      return `ARRAY[${list(e.elements)}]`;
    case 'map-constructor':
      return `MAP[${list(e.entries)}]`;
    case 'row-constructor':
      return e.explicit || e.elements.length < 2 ? `ROW(${list(e.elements)})` : `(${list(e.elements)})`;
    case 'descriptor':
      return `DESCRIPTOR(${e.columns.map(quoteName).join(', ')})`;
    case 'table-arg': {
      let s = `TABLE ${quoteNames(e.table)}`;
      if (e.partitionBy.length > 0) s += ` PARTITION BY ${keyList(e.partitionBy)}`;
      if (e.orderBy.length > 0) s += ` ORDER BY ${keyList(e.orderBy)}`;
      return s;
    }
    case 'named-argument':
      return `${isReserved(e.name) || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(e.name) ? quoteName(e.name) : e.name} => ${unparseExpression(e.value)}`;
    case 'niladic':
      return e.name;
    case 'unary': {
      if (e.op === 'NOT') return `NOT ${wrap(e.operand, 3)}`;
      const inner = wrap(e.operand, 7);
      return `${e.op}${inner.startsWith('-') || inner.startsWith('+') ? `(${inner})` : inner}`;
    }
    case 'binary': {
      const p = precedence(e);
      return `${wrap(e.left, p)} ${e.op} ${wrap(e.right, p + 1)}`;
    }
    case 'is':
      return `${wrap(e.expr, 4)} IS ${e.negated ? 'NOT ' : ''}${e.test}`;
    case 'is-distinct-from':
      return `${wrap(e.left, 4)} IS ${e.negated ? 'NOT ' : ''}DISTINCT FROM ${wrap(e.right, 5)}`;
    case 'between':
      return `${wrap(e.expr, 4)} ${e.negated ? 'NOT ' : ''}BETWEEN ${e.symmetric ? 'SYMMETRIC ' : ''}${wrap(e.low, 5)} AND ${wrap(e.high, 5)}`;
    case 'in-list':
      return `${wrap(e.expr, 4)} ${e.negated ? 'NOT ' : ''}IN (${list(e.list)})`;
    case 'in-subquery':
      return `${wrap(e.expr, 4)} ${e.negated ? 'NOT ' : ''}IN (${unparseQuery(e.query)})`;
    case 'quantified-comparison':
      return `${wrap(e.left, 4)} ${e.op} ${e.quantifier} (${unparseQuery(e.query)})`;
    case 'exists':
      return `EXISTS (${unparseQuery(e.query)})`;
    case 'like':
      return `${wrap(e.expr, 4)} ${e.negated ? 'NOT ' : ''}${e.op} ${wrap(e.pattern, 5)}${e.escape === null ? '' : ` ESCAPE ${wrap(e.escape, 5)}`}`;
    case 'subquery':
      return `(${unparseQuery(e.query)})`;
  }
}
