import type { Hint } from '../ast/names.js';
import type { GroupingElement, Query, SelectQuery, TableRef } from '../ast/query.js';
import { unparseMatchRecognizeClause } from './unparse-match-recognize.js';
import { quoteName, quoteNames, quoteString } from './identifiers.js';
import { unparseExpression, unparseOrderItem, unparseWindowSpec } from './unparse-expression.js';

/** `/*+ OPTIONS('k'='v') *\/` */
export function unparseHints(hints: readonly Hint[]): string {
  if (hints.length === 0) return '';
  const body = hints
    .map((h) => {
      const args = [...h.kvOptions.map((p) => `${quoteString(p.key)}=${quoteString(p.value)}`), ...h.listOptions.map(hintValue)];
      return args.length === 0 ? h.name : `${h.name}(${args.join(', ')})`;
    })
    .join(', ');
  return `/*+ ${body} */`;
}

function hintValue(v: string): string {
  return /^[A-Za-z_][A-Za-z0-9_.]*$/.test(v) || /^\d+$/.test(v) ? v : quoteString(v);
}

/** Set-operation level of a query: UNION/EXCEPT 1, INTERSECT 2, a plain SELECT/VALUES 3, WITH/ORDER BY 0. */
function level(q: Query): number {
  switch (q.kind) {
    case 'set-operation':
      return q.op === 'INTERSECT' ? 2 : 1;
    case 'select':
    case 'values':
      return 3;
    case 'with':
    case 'order-by':
      return 0;
  }
}

function operand(q: Query, min: number): string {
  const s = unparseQuery(q);
  return level(q) < min ? `(${s})` : s;
}

/** Canonical Flink SQL of a query; parse(unparse(q)) equals q apart from positions. */
export function unparseQuery(q: Query): string {
  switch (q.kind) {
    case 'select':
      return select(q);
    case 'values':
      return `VALUES ${q.rows.map((r) => `(${r.map(unparseExpression).join(', ')})`).join(', ')}`;
    case 'set-operation': {
      const l = level(q);
      return `${operand(q.left, l)}\n${q.op}${q.all ? ' ALL' : ''}\n${operand(q.right, l + 1)}`;
    }
    case 'with': {
      const items = q.items.map(
        (w) => `${quoteName(w.name.value)}${w.columns.length > 0 ? ` (${w.columns.map((c) => quoteName(c.value)).join(', ')})` : ''} AS (\n${unparseQuery(w.query)}\n)`,
      );
      return `WITH ${items.join(',\n')}\n${unparseQuery(q.body)}`;
    }
    case 'order-by': {
      let s = operand(q.query, 1);
      if (q.orderBy.length > 0) s += `\nORDER BY ${q.orderBy.map(unparseOrderItem).join(', ')}`;
      if (q.fetch !== null) s += `\nLIMIT ${unparseExpression(q.fetch)}`;
      if (q.offset !== null) s += `\nOFFSET ${unparseExpression(q.offset)}`;
      return s;
    }
  }
}

function select(q: SelectQuery): string {
  let s = 'SELECT';
  if (q.hints.length > 0) s += ` ${unparseHints(q.hints)}`;
  if (q.quantifier !== null) s += ` ${q.quantifier}`;
  s += ` ${q.items.map((i) => unparseExpression(i.expr) + (i.alias === null ? '' : ` AS ${quoteName(i.alias.value)}`)).join(', ')}`;
  if (q.from !== null) s += `\nFROM ${unparseTableRef(q.from)}`;
  if (q.where !== null) s += `\nWHERE ${unparseExpression(q.where)}`;
  if (q.groupBy.length > 0) s += `\nGROUP BY ${q.groupBy.map(grouping).join(', ')}`;
  if (q.having !== null) s += `\nHAVING ${unparseExpression(q.having)}`;
  if (q.windows.length > 0) s += `\nWINDOW ${q.windows.map((w) => `${quoteName(w.name.value)} AS ${unparseWindowSpec(w.spec)}`).join(', ')}`;
  return s;
}

function grouping(g: GroupingElement): string {
  switch (g.kind) {
    case 'group-expr':
      return unparseExpression(g.expr);
    case 'group-empty':
      return '()';
    case 'grouping-sets':
      return `GROUPING SETS (${g.elements.map(grouping).join(', ')})`;
    case 'rollup':
      return `ROLLUP (${g.elements.map(unparseExpression).join(', ')})`;
    case 'cube':
      return `CUBE (${g.elements.map(unparseExpression).join(', ')})`;
  }
}

function alias(ref: { alias: { value: string } | null; columnAliases: readonly { value: string }[] }): string {
  if (ref.alias === null) return '';
  const cols = ref.columnAliases.length > 0 ? `(${ref.columnAliases.map((c) => quoteName(c.value)).join(', ')})` : '';
  return ` AS ${quoteName(ref.alias.value)}${cols}`;
}

const JOIN_WORDS = { INNER: 'JOIN', LEFT: 'LEFT JOIN', RIGHT: 'RIGHT JOIN', FULL: 'FULL JOIN', CROSS: 'CROSS JOIN', COMMA: ',' } as const;

export function unparseTableRef(ref: TableRef): string {
  switch (ref.kind) {
    case 'table': {
      let s = quoteNames(ref.name.parts);
      if (ref.hints.length > 0) s += ` ${unparseHints(ref.hints)}`;
      if (ref.forSystemTimeAsOf !== null) s += ` FOR SYSTEM_TIME AS OF ${unparseExpression(ref.forSystemTimeAsOf)}`;
      return s + alias(ref);
    }
    case 'derived-table':
      // As Calcite writes it (and Flink stores a view's or materialized table's expanded query): `(SELECT ...\nFROM ...) AS t`.
      return `${ref.lateral ? 'LATERAL ' : ''}(${unparseQuery(ref.query)})${alias(ref)}`;
    case 'table-function':
      return `${ref.lateral ? 'LATERAL ' : ''}TABLE(${unparseExpression(ref.call)})${alias(ref)}`;
    case 'unnest':
      return `UNNEST(${ref.exprs.map(unparseExpression).join(', ')})${ref.withOrdinality ? ' WITH ORDINALITY' : ''}${alias(ref)}`;
    case 'match-recognize':
      return unparseMatchRecognizeClause(ref, unparseTableRef(ref.input)) + alias(ref);
    case 'join': {
      const comma = ref.joinType === 'COMMA';
      const leftParens = !comma && ref.left.kind === 'join' && ref.left.joinType === 'COMMA';
      const rightParens = ref.right.kind === 'join' && (!comma || ref.right.joinType === 'COMMA');
      const left = leftParens ? `(${unparseTableRef(ref.left)})` : unparseTableRef(ref.left);
      const right = rightParens ? `(${unparseTableRef(ref.right)})` : unparseTableRef(ref.right);
      if (comma) return `${left}, ${right}`;
      let s = `${left}\n${ref.natural ? 'NATURAL ' : ''}${JOIN_WORDS[ref.joinType]} ${right}`;
      if (ref.condition?.kind === 'on') s += ` ON ${unparseExpression(ref.condition.expr)}`;
      else if (ref.condition?.kind === 'using') s += ` USING (${ref.condition.columns.map((c) => quoteName(c.value)).join(', ')})`;
      return s;
    }
  }
}
