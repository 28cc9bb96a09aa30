import type { ObjectIdentifier } from '../../catalog/object-identifier.js';
import type { Expression } from '../../sql/ast/expressions.js';
import type { GroupingElement, Query, SelectItem, SelectQuery, TableRef } from '../../sql/ast/query.js';
import { rewriteExpression } from '../../sql/ast/rewrite-expression.js';
import { builtinName } from './stored-expression-sql.js';

/** A table or view a view's query names: its full identifier and its column names, in order. */
export interface ViewInput {
  readonly identifier: ObjectIdentifier;
  readonly columns: readonly string[];
}

/** Looks a table name of the query up as the session resolves it (temporary objects first); undefined if unknown. */
export type ViewInputLookup = (names: readonly string[]) => Promise<ViewInput | undefined>;

/**
 * A view's query as Flink stores it for `CatalogView.getExpandedQuery` (and SHOW CREATE VIEW prints): every table
 * named by its full identifier with an alias (`FROM \`default_catalog\`.\`default_database\`.\`orders\` AS \`orders\``),
 * `*` spelled out as the columns it stands for, every column reference qualified by the alias of its table
 * (`\`orders\`.\`user\``), built-in function names upper-cased. So the view reads the same tables whatever the
 * current catalog and database are when it is used, as in Flink.
 *
 * Only shapes whose names can be resolved here with certainty are expanded: SELECT over tables, views, joins with ON
 * and aliased subqueries in FROM, with set operations, VALUES and ORDER BY / LIMIT around them. A query with anything
 * else (WITH, a subquery in an expression, USING or NATURAL joins, LATERAL, table functions, UNNEST,
 * MATCH_RECOGNIZE, FOR SYSTEM_TIME AS OF, a WINDOW clause, a name that is ambiguous or not a column) gives undefined,
 * and the caller keeps the query as written.
 */
export async function expandViewQuery(query: Query, lookup: ViewInputLookup): Promise<Query | undefined> {
  try {
    return (await expandQuery(query, lookup)).query;
  } catch (e) {
    if (e instanceof NotExpandable) return undefined;
    throw e;
  }
}

/** Thrown inside the expansion when a shape is not handled; never leaves this module. */
class NotExpandable extends Error {}

/** One table of a FROM clause: the alias its columns are qualified with, and its column names. */
interface ScopeEntry {
  readonly alias: string;
  readonly columns: readonly string[];
}

interface Expanded {
  readonly query: Query;
  /** The query's output column names, for a subquery in FROM. */
  readonly columns: readonly string[];
}

async function expandQuery(q: Query, lookup: ViewInputLookup): Promise<Expanded> {
  switch (q.kind) {
    case 'select':
      return expandSelect(q, lookup);
    case 'set-operation': {
      const left = await expandQuery(q.left, lookup);
      const right = await expandQuery(q.right, lookup);
      return { query: { ...q, left: left.query, right: right.query }, columns: left.columns };
    }
    case 'values':
      return { query: q, columns: (q.rows[0] ?? []).map((_, i) => `EXPR$${i}`) };
    case 'order-by': {
      // ORDER BY names the select list's columns, which Flink leaves as written.
      const inner = await expandQuery(q.query, lookup);
      return { query: { ...q, query: inner.query }, columns: inner.columns };
    }
    case 'with':
      throw new NotExpandable();
  }
}

async function expandSelect(q: SelectQuery, lookup: ViewInputLookup): Promise<Expanded> {
  if (q.windows.length > 0) throw new NotExpandable();
  const scope: ScopeEntry[] = [];
  const from = q.from === null ? null : await expandFrom(q.from, scope, lookup);
  const items: SelectItem[] = [];
  const columns: string[] = [];
  for (const item of q.items) {
    const e = item.expr;
    if (e.kind === 'star' && item.alias === null) {
      const entries = e.qualifier.length === 0 ? scope : scope.filter((s) => s.alias === e.qualifier.at(-1) && e.qualifier.length === 1);
      if (entries.length === 0) throw new NotExpandable();
      for (const s of entries) {
        for (const c of s.columns) {
          items.push({ expr: { kind: 'identifier', names: [s.alias, c], pos: e.pos }, alias: null, pos: item.pos });
          columns.push(c);
        }
      }
      continue;
    }
    items.push({ ...item, expr: qualify(e, scope) });
    columns.push(item.alias?.value ?? (e.kind === 'identifier' ? e.names.at(-1)! : `EXPR$${columns.length}`));
  }
  const query: SelectQuery = {
    ...q,
    items,
    from,
    where: q.where === null ? null : qualify(q.where, scope),
    groupBy: q.groupBy.map((g) => qualifyGrouping(g, scope)),
    having: q.having === null ? null : qualify(q.having, scope),
  };
  return { query, columns };
}

/** The FROM item with full table names and aliases; its tables are added to `scope` in order. */
async function expandFrom(ref: TableRef, scope: ScopeEntry[], lookup: ViewInputLookup): Promise<TableRef> {
  switch (ref.kind) {
    case 'table': {
      if (ref.forSystemTimeAsOf !== null) throw new NotExpandable();
      const input = await lookup(ref.name.parts);
      if (input === undefined) throw new NotExpandable();
      const alias = ref.alias?.value ?? ref.name.parts.at(-1)!;
      const columns = ref.columnAliases.length > 0 ? ref.columnAliases.map((c) => c.value) : input.columns;
      scope.push({ alias, columns });
      const { catalog, database, object } = input.identifier;
      return { ...ref, name: { ...ref.name, parts: [catalog, database, object] }, alias: ref.alias ?? { value: alias, pos: ref.pos } };
    }
    case 'derived-table': {
      if (ref.lateral || ref.alias === null) throw new NotExpandable();
      const inner = await expandQuery(ref.query, lookup);
      scope.push({ alias: ref.alias.value, columns: ref.columnAliases.length > 0 ? ref.columnAliases.map((c) => c.value) : inner.columns });
      return { ...ref, query: inner.query };
    }
    case 'join': {
      if (ref.natural || ref.condition?.kind === 'using') throw new NotExpandable();
      const left = await expandFrom(ref.left, scope, lookup);
      const right = await expandFrom(ref.right, scope, lookup);
      const condition = ref.condition === null ? null : { kind: 'on' as const, expr: qualify(ref.condition.expr, scope) };
      return { ...ref, left, right, condition };
    }
    case 'table-function':
    case 'unnest':
    case 'match-recognize':
      throw new NotExpandable();
  }
}

function qualifyGrouping(g: GroupingElement, scope: readonly ScopeEntry[]): GroupingElement {
  switch (g.kind) {
    case 'group-expr':
      return { ...g, expr: qualify(g.expr, scope) };
    case 'group-empty':
      return g;
    case 'grouping-sets':
      return { ...g, elements: g.elements.map((e) => qualifyGrouping(e, scope)) };
    case 'rollup':
    case 'cube':
      return { ...g, elements: g.elements.map((e) => qualify(e, scope)) };
  }
}

/** Column references qualified by their table's alias, built-in function names upper-cased. */
function qualify(expr: Expression, scope: readonly ScopeEntry[]): Expression {
  return rewriteExpression(expr, (node) => {
    switch (node.kind) {
      case 'identifier': {
        const [first, ...rest] = node.names;
        if (rest.length > 0 && scope.some((s) => s.alias === first)) return node;
        // One table has the column: qualify it (a longer name reads the fields of a ROW column).
        const owners = scope.filter((s) => s.columns.includes(first!));
        if (owners.length !== 1) throw new NotExpandable();
        return { ...node, names: [owners[0]!.alias, ...node.names] };
      }
      case 'function-call':
        if (node.over !== null && node.over.kind === 'window-ref') throw new NotExpandable();
        return builtinName(node);
      case 'star':
        // COUNT(*) stays; `t.*` as an argument is left to the query as written.
        if (node.qualifier.length === 0) return node;
        throw new NotExpandable();
      case 'subquery':
      case 'exists':
      case 'in-subquery':
      case 'quantified-comparison':
        throw new NotExpandable();
      default:
        return node;
    }
  });
}
