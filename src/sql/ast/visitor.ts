import type { Expression, ExpressionKind } from './expressions.js';
import type { Statement, StatementKind } from './statements.js';

/**
 * One handler per expression kind. Because it is a mapped type over the union, adding a kind to
 * `Expression` makes every visitor literal fail to compile until it handles the new kind.
 */
export type ExpressionVisitor<R> = { readonly [K in ExpressionKind]: (node: Extract<Expression, { kind: K }>) => R };

/** One handler per statement kind. */
export type StatementVisitor<R> = { readonly [K in StatementKind]: (node: Extract<Statement, { kind: K }>) => R };

/** Dispatches `expr` to the visitor's handler for its kind. */
export function visitExpression<R>(expr: Expression, visitor: ExpressionVisitor<R>): R {
  return (visitor[expr.kind] as (node: Expression) => R)(expr);
}

/** Dispatches `stmt` to the visitor's handler for its kind. */
export function visitStatement<R>(stmt: Statement, visitor: StatementVisitor<R>): R {
  return (visitor[stmt.kind] as (node: Statement) => R)(stmt);
}

function assertNever(x: never): never {
  throw new Error(`unhandled node ${JSON.stringify(x)}`);
}

/**
 * The direct child expressions of `expr`, in source order. Subqueries are not entered (their
 * expressions belong to another scope), nor are window specifications of OVER.
 */
export function childExpressions(expr: Expression): readonly Expression[] {
  switch (expr.kind) {
    case 'numeric-literal':
    case 'string-literal':
    case 'binary-literal':
    case 'boolean-literal':
    case 'null-literal':
    case 'typed-literal':
    case 'interval-literal':
    case 'identifier':
    case 'star':
    case 'time-unit':
    case 'descriptor':
    case 'niladic':
    case 'exists':
    case 'subquery':
      return [];
    case 'table-arg':
      return [...expr.partitionBy, ...expr.orderBy];
    case 'field-access':
      return [expr.expr];
    case 'item-access':
      return [expr.expr, expr.index];
    case 'function-call':
      return expr.filter === null ? expr.args : [...expr.args, expr.filter];
    case 'cast':
      return [expr.expr];
    case 'case': {
      const out: Expression[] = expr.operand === null ? [] : [expr.operand];
      for (const w of expr.whens) out.push(w.when, w.then);
      if (expr.elseExpr !== null) out.push(expr.elseExpr);
      return out;
    }
    case 'extract':
      return [expr.expr];
    case 'trim':
      return expr.chars === null ? [expr.expr] : [expr.chars, expr.expr];
    case 'position':
      return expr.from === null ? [expr.needle, expr.haystack] : [expr.needle, expr.haystack, expr.from];
    case 'substring':
      return expr.length === null ? [expr.expr, expr.from] : [expr.expr, expr.from, expr.length];
    case 'overlay':
      return expr.length === null ? [expr.expr, expr.placing, expr.from] : [expr.expr, expr.placing, expr.from, expr.length];
    case 'floor-ceil':
      return [expr.expr];
    case 'json-value': {
      const out = [expr.expr, expr.path];
      if (expr.onEmpty?.kind === 'default') out.push(expr.onEmpty.expr);
      if (expr.onError?.kind === 'default') out.push(expr.onError.expr);
      return out;
    }
    case 'json-query':
    case 'json-exists':
      return [expr.expr, expr.path];
    case 'json-object':
      return expr.entries.flatMap((e) => [e.key, e.value]);
    case 'json-array':
      return expr.elements;
    case 'is-json':
      return [expr.expr];
    case 'array-constructor':
    case 'row-constructor':
      return expr.elements;
    case 'map-constructor':
      return expr.entries;
    case 'named-argument':
      return [expr.value];
    case 'unary':
      return [expr.operand];
    case 'binary':
    case 'is-distinct-from':
      return [expr.left, expr.right];
    case 'is':
      return [expr.expr];
    case 'between':
      return [expr.expr, expr.low, expr.high];
    case 'in-list':
      return [expr.expr, ...expr.list];
    case 'in-subquery':
      return [expr.expr];
    case 'quantified-comparison':
      return [expr.left];
    case 'like':
      return expr.escape === null ? [expr.expr, expr.pattern] : [expr.expr, expr.pattern, expr.escape];
    default:
      return assertNever(expr);
  }
}

/** Calls `fn` on `expr` and every nested expression, parents first (subqueries not entered). */
export function walkExpression(expr: Expression, fn: (e: Expression) => void): void {
  fn(expr);
  for (const c of childExpressions(expr)) walkExpression(c, fn);
}
