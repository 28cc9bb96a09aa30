import type { BinaryOperator } from '../../sql/ast/expressions.js';

/**
 * Registry names the binder looks up for the parser's operator nodes, so both sides agree on one
 * spelling. Everything not listed is looked up by its SQL function name (UPPER, JSON_VALUE, ...).
 *
 * Operand conventions for calls with keyword parts (`symbol(...)` is a SymbolExpr operand):
 * - `unary -x` -> '-'(x); `unary +x` -> x itself; `NOT x` -> 'NOT'(x)
 * - `x IS [NOT] NULL|TRUE|FALSE|UNKNOWN` -> 'IS NULL'(x), 'IS NOT TRUE'(x), ...
 * - `a IS [NOT] DISTINCT FROM b` -> 'IS DISTINCT FROM'(a, b) / 'IS NOT DISTINCT FROM'(a, b)
 * - `x [NOT] BETWEEN [SYMMETRIC] a AND b` -> 'BETWEEN' | 'NOT BETWEEN' | 'BETWEEN SYMMETRIC' | 'NOT BETWEEN SYMMETRIC'(x, a, b)
 * - `x [NOT] IN (a, b)` -> 'IN' | 'NOT IN'(x, a, b)
 * - `x [NOT] LIKE|ILIKE|SIMILAR TO p [ESCAPE e]` -> 'LIKE', 'NOT LIKE', 'ILIKE', 'NOT ILIKE', 'SIMILAR TO', 'NOT SIMILAR TO'(x, p[, e])
 * - `x IS [NOT] JSON [kind]` -> 'IS JSON VALUE', 'IS NOT JSON OBJECT', ... (kind defaults to VALUE)
 * - EXTRACT(unit FROM x) -> 'EXTRACT'(symbol(unit), x); FLOOR/CEIL(x TO unit) -> 'FLOOR'|'CEIL'(x, symbol(unit))
 * - TRIM([side] [chars] FROM s) -> 'TRIM'(symbol(side ?? 'BOTH'), chars ?? ' ', s); TRIM(s) -> 'TRIM'(s)
 * - POSITION(a IN b [FROM n]) -> 'POSITION'(a, b[, n]); SUBSTRING(s FROM a [FOR n]) -> 'SUBSTRING'(s, a[, n])
 * - OVERLAY(s PLACING r FROM a [FOR n]) -> 'OVERLAY'(s, r, a[, n])
 * - TIMESTAMPADD(unit, n, t) / TIMESTAMPDIFF(unit, a, b) -> first operand symbol(unit)
 * - JSON_VALUE / JSON_QUERY / JSON_EXISTS / JSON_OBJECT / JSON_ARRAY: see builtins/json.ts
 * - ARRAY[...] -> 'ARRAY'(...); MAP[k, v, ...] -> 'MAP'(k, v, ...); ROW(...) -> 'ROW'(...)
 * - niladic CURRENT_TIMESTAMP & co. -> zero-operand calls of the same name
 * - CAST / TRY_CAST -> `cast(...)`; CASE -> `caseWhen(...)`; a[i] / m[k] -> `itemAccess`; r.f -> `fieldAccess`
 */
export const BINARY_OPERATOR_FUNCTIONS: Readonly<Record<BinaryOperator, string>> = {
  OR: 'OR',
  AND: 'AND',
  '=': '=',
  '<>': '<>',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
  '+': '+',
  '-': '-',
  '*': '*',
  '/': '/',
  '%': '%',
  '||': '||',
};

/** Registry name of `x IS [NOT] <test>`. */
export function isTestFunction(test: 'NULL' | 'TRUE' | 'FALSE' | 'UNKNOWN', negated: boolean): string {
  return negated ? `IS NOT ${test}` : `IS ${test}`;
}

/** Registry name of `x [NOT] BETWEEN [SYMMETRIC] a AND b`. */
export function betweenFunction(negated: boolean, symmetric: boolean): string {
  return `${negated ? 'NOT ' : ''}BETWEEN${symmetric ? ' SYMMETRIC' : ''}`;
}

/** Registry name of `x [NOT] LIKE|ILIKE|SIMILAR TO p`. */
export function likeFunction(op: 'LIKE' | 'ILIKE' | 'SIMILAR TO', negated: boolean): string {
  return negated ? `NOT ${op}` : op;
}
