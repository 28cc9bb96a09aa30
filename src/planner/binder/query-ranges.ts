import type { ErrorRange } from '../../errors/sluice-error.js';
import type { Expression } from '../../sql/ast/expressions.js';
import type { Name } from '../../sql/ast/names.js';
import type { Query } from '../../sql/ast/query.js';
import { rangeOf } from '../../sql/position.js';

/**
 * Where the columns of a query are written, for errors about what a query produces (an INSERT whose
 * columns do not fit its sink): a plain SELECT's list, or the first row of VALUES. Undefined for other
 * shapes (UNION, ORDER BY, ...) or when a `*` makes written items and columns differ.
 */
function writtenColumns(q: Query): readonly Expression[] | undefined {
  if (q.kind === 'select') {
    const exprs = q.items.map((i) => i.expr);
    return exprs.some((e) => e.kind === 'star') ? undefined : exprs;
  }
  if (q.kind === 'values') return q.rows[0];
  return undefined;
}

/** From the first column of the query as written to its last; the query's start when not plain. */
export function queryColumnsRange(q: Query): ErrorRange {
  const cols = writtenColumns(q);
  if (cols === undefined || cols.length === 0) return rangeOf(q);
  const first = rangeOf(cols[0]!);
  const last = rangeOf(cols[cols.length - 1]!);
  return { line: first.line, column: first.column, endLine: last.endLine, endColumn: last.endColumn };
}

/** The `i`-th column of the query as written, or all of them when that is not known. */
export function queryColumnRange(q: Query, i: number): ErrorRange {
  const col = writtenColumns(q)?.[i];
  return col === undefined ? queryColumnsRange(q) : rangeOf(col);
}

/** A simple name; its end is where its text ends when written without quotes. */
export function nameRange(n: Name): ErrorRange {
  return { line: n.pos.line, column: n.pos.column, endLine: n.pos.line, endColumn: n.pos.column + Math.max(1, n.value.length) - 1 };
}
