import type { Expression } from './expressions.js';

/**
 * A copy of `expr` with `visit` applied to every expression node below and at it, children first (so `visit` sees a
 * node whose children are already rewritten). AST nodes are plain readonly records, so one structural walk reaches
 * the children of every kind, including the arguments of an OVER window; a query below an expression (a scalar,
 * EXISTS, IN or quantified subquery) is not entered: its names live in another scope, and `visit` decides what to do
 * with the subquery node itself. Positions are kept.
 */
export function rewriteExpression(expr: Expression, visit: (node: Expression) => Expression): Expression {
  return visit(copyChildren(expr, visit) as unknown as Expression);
}

function copyChildren(node: object, visit: (node: Expression) => Expression): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = SKIPPED_KEYS.has(key) ? value : rewriteValue(value, visit);
  return out;
}

function rewriteValue(value: unknown, visit: (node: Expression) => Expression): unknown {
  if (Array.isArray(value)) return value.map((v: unknown) => rewriteValue(v, visit));
  if (value === null || typeof value !== 'object') return value;
  const kind = (value as { kind?: unknown }).kind;
  const copy = copyChildren(value, visit);
  // Expression nodes carry a string kind and a position; window specifications do too but are not expressions.
  return typeof kind === 'string' && 'pos' in value && !NOT_EXPRESSIONS.has(kind) ? visit(copy as unknown as Expression) : copy;
}

/** Positions are values, and a subquery's query belongs to its own scope. */
const SKIPPED_KEYS = new Set(['pos', 'end', 'query']);

const NOT_EXPRESSIONS = new Set(['window-spec', 'window-ref']);
