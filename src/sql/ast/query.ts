import type { SourcePosition } from '../position.js';
import type { Expression, FunctionCall } from './expressions.js';
import type { MatchRecognizeRef } from './match-recognize.js';
import type { Hint, Name, ObjectName } from './names.js';

/** `expr [ASC|DESC] [NULLS FIRST|LAST]`. */
export interface OrderItem {
  readonly expr: Expression;
  readonly direction: 'ASC' | 'DESC' | null;
  readonly nulls: 'FIRST' | 'LAST' | null;
  readonly pos: SourcePosition;
}

export type FrameBound =
  | { readonly kind: 'unbounded-preceding' }
  | { readonly kind: 'unbounded-following' }
  | { readonly kind: 'current-row' }
  | { readonly kind: 'preceding'; readonly offset: Expression }
  | { readonly kind: 'following'; readonly offset: Expression };

/** `ROWS|RANGE BETWEEN start AND end`, or `ROWS|RANGE start` (end null). */
export interface WindowFrame {
  readonly unit: 'ROWS' | 'RANGE';
  readonly start: FrameBound;
  readonly end: FrameBound | null;
}

/** The inside of `OVER (...)` or of `WINDOW w AS (...)`. */
export interface WindowSpec {
  readonly kind: 'window-spec';
  /** `OVER (w ORDER BY ...)` refines the named window w. */
  readonly baseWindow: string | null;
  readonly partitionBy: readonly Expression[];
  readonly orderBy: readonly OrderItem[];
  readonly frame: WindowFrame | null;
  readonly pos: SourcePosition;
}

export interface NamedWindow {
  readonly name: Name;
  readonly spec: WindowSpec;
}

/** A select-list entry; `*` and `t.*` are star expressions without alias. */
export interface SelectItem {
  readonly expr: Expression;
  readonly alias: Name | null;
  readonly pos: SourcePosition;
}

/** One element of GROUP BY. `(a, b)` inside GROUPING SETS is a row constructor expression. */
export type GroupingElement =
  | { readonly kind: 'group-expr'; readonly expr: Expression; readonly pos: SourcePosition }
  | { readonly kind: 'group-empty'; readonly pos: SourcePosition }
  | { readonly kind: 'grouping-sets'; readonly elements: readonly GroupingElement[]; readonly pos: SourcePosition }
  | { readonly kind: 'rollup'; readonly elements: readonly Expression[]; readonly pos: SourcePosition }
  | { readonly kind: 'cube'; readonly elements: readonly Expression[]; readonly pos: SourcePosition };

export interface SelectQuery {
  readonly kind: 'select';
  readonly quantifier: 'DISTINCT' | 'ALL' | null;
  readonly hints: readonly Hint[];
  readonly items: readonly SelectItem[];
  readonly from: TableRef | null;
  readonly where: Expression | null;
  /** Empty when there is no GROUP BY (GROUP BY () is one group-empty element). */
  readonly groupBy: readonly GroupingElement[];
  readonly having: Expression | null;
  readonly windows: readonly NamedWindow[];
  readonly pos: SourcePosition;
}

/** `left UNION|INTERSECT|EXCEPT [ALL|DISTINCT] right`; `all` false for DISTINCT or nothing. */
export interface SetOperationQuery {
  readonly kind: 'set-operation';
  readonly op: 'UNION' | 'INTERSECT' | 'EXCEPT';
  readonly all: boolean;
  readonly left: Query;
  readonly right: Query;
  readonly pos: SourcePosition;
}

/** `VALUES (1, 'a'), (2, 'b')`; each row is its list of values. */
export interface ValuesQuery {
  readonly kind: 'values';
  readonly rows: readonly (readonly Expression[])[];
  readonly pos: SourcePosition;
}

export interface WithItem {
  readonly name: Name;
  readonly columns: readonly Name[];
  readonly query: Query;
}

/** `WITH a AS (...), b AS (...) body`. */
export interface WithQuery {
  readonly kind: 'with';
  readonly items: readonly WithItem[];
  readonly body: Query;
  readonly pos: SourcePosition;
}

/** ORDER BY / LIMIT / OFFSET / FETCH around a query; present only when one of them is written. */
export interface OrderByQuery {
  readonly kind: 'order-by';
  readonly query: Query;
  readonly orderBy: readonly OrderItem[];
  readonly offset: Expression | null;
  /** LIMIT n and FETCH FIRST|NEXT n ROWS ONLY both land here. */
  readonly fetch: Expression | null;
  readonly pos: SourcePosition;
}

export type Query = SelectQuery | SetOperationQuery | ValuesQuery | WithQuery | OrderByQuery;

interface AliasedRef {
  readonly alias: Name | null;
  /** `AS t(a, b)`. */
  readonly columnAliases: readonly Name[];
  readonly pos: SourcePosition;
}

/** A catalog table, with hints and FOR SYSTEM_TIME AS OF for temporal and lookup joins. */
export interface NamedTableRef extends AliasedRef {
  readonly kind: 'table';
  readonly name: ObjectName;
  readonly hints: readonly Hint[];
  readonly forSystemTimeAsOf: Expression | null;
}

/** `[LATERAL] (query) [AS] t`. */
export interface DerivedTableRef extends AliasedRef {
  readonly kind: 'derived-table';
  readonly lateral: boolean;
  readonly query: Query;
}

/** `TABLE(TUMBLE(...))` (lateral false) or `LATERAL TABLE(f(x))` (lateral true). */
export interface TableFunctionRef extends AliasedRef {
  readonly kind: 'table-function';
  readonly lateral: boolean;
  readonly call: FunctionCall;
}

/** `UNNEST(arr) [WITH ORDINALITY] [AS] t(x)`. */
export interface UnnestRef extends AliasedRef {
  readonly kind: 'unnest';
  readonly exprs: readonly Expression[];
  readonly withOrdinality: boolean;
}

export type JoinCondition =
  | { readonly kind: 'on'; readonly expr: Expression }
  | { readonly kind: 'using'; readonly columns: readonly Name[] };

/** Joins; a comma in FROM is joinType COMMA. JOIN and INNER JOIN are both INNER. */
export interface JoinRef {
  readonly kind: 'join';
  readonly joinType: 'INNER' | 'LEFT' | 'RIGHT' | 'FULL' | 'CROSS' | 'COMMA';
  readonly natural: boolean;
  readonly left: TableRef;
  readonly right: TableRef;
  readonly condition: JoinCondition | null;
  readonly pos: SourcePosition;
}

export type TableRef = NamedTableRef | DerivedTableRef | TableFunctionRef | UnnestRef | JoinRef | MatchRecognizeRef;
