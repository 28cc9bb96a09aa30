import type { SourcePosition } from '../position.js';
import type { DataType, IntervalQualifier, TimeUnit } from './data-types.js';
import type { Query, WindowSpec } from './query.js';

interface ExprBase {
  readonly pos: SourcePosition;
  /**
   * The last character of the expression as written (inclusive), so an error can underline all of it
   * ("From line 1, column 8 to line 1, column 11"). Set by the parser; absent on nodes built later.
   */
  readonly end?: SourcePosition;
}

/** A number as written (`42`, `9007199254740993`, `1.50`, `1e3`), so no precision is lost before typing. */
export interface NumericLiteral extends ExprBase {
  readonly kind: 'numeric-literal';
  readonly text: string;
}

/** `'it''s'` with the escapes resolved. */
export interface StringLiteral extends ExprBase {
  readonly kind: 'string-literal';
  readonly value: string;
}

/** `X'0aff'`; `hex` is the digits as written. */
export interface BinaryLiteral extends ExprBase {
  readonly kind: 'binary-literal';
  readonly hex: string;
}

export interface BooleanLiteral extends ExprBase {
  readonly kind: 'boolean-literal';
  readonly value: boolean;
}

export interface NullLiteral extends ExprBase {
  readonly kind: 'null-literal';
}

/** `DATE '2020-01-01'`, `TIME '10:00:00'`, `TIMESTAMP '...'`, `TIMESTAMP WITH LOCAL TIME ZONE '...'` (TIMESTAMP_LTZ). */
export interface TypedLiteral extends ExprBase {
  readonly kind: 'typed-literal';
  readonly type: 'DATE' | 'TIME' | 'TIMESTAMP' | 'TIMESTAMP_LTZ';
  readonly value: string;
}

/** `INTERVAL '10' MINUTE`, `INTERVAL -'1' DAY`, `INTERVAL '1 10:00:00' DAY TO SECOND`. */
export interface IntervalLiteral extends ExprBase {
  readonly kind: 'interval-literal';
  readonly negative: boolean;
  readonly value: string;
  readonly qualifier: IntervalQualifier;
}

/** A column or qualified reference `a`, `t.a`, `r.f.g` (the binder decides what each part means). */
export interface IdentifierExpr extends ExprBase {
  readonly kind: 'identifier';
  readonly names: readonly string[];
}

/** `*` or `t.*` in a select list, and the `*` of COUNT(*). */
export interface StarExpr extends ExprBase {
  readonly kind: 'star';
  readonly qualifier: readonly string[];
}

/** `expr.field` where expr is not a plain identifier chain, e.g. `f(x).a` or `(r).a`. */
export interface FieldAccess extends ExprBase {
  readonly kind: 'field-access';
  readonly expr: Expression;
  readonly field: string;
}

/** `arr[1]`, `m['k']`. */
export interface ItemAccess extends ExprBase {
  readonly kind: 'item-access';
  readonly expr: Expression;
  readonly index: Expression;
}

/** `name(args)`, with DISTINCT, FILTER (WHERE ...), OVER, IGNORE/RESPECT NULLS. */
export interface FunctionCall extends ExprBase {
  readonly kind: 'function-call';
  /** As written (case preserved); usually one part, `cat.db.f` for catalog functions. */
  readonly name: readonly string[];
  readonly quantifier: 'DISTINCT' | 'ALL' | null;
  readonly args: readonly Expression[];
  readonly filter: Expression | null;
  readonly nullTreatment: 'IGNORE NULLS' | 'RESPECT NULLS' | null;
  /** An inline window, or the name of one declared in WINDOW. */
  readonly over: WindowSpec | WindowRef | null;
}

/** `OVER w`. */
export interface WindowRef {
  readonly kind: 'window-ref';
  readonly name: string;
  readonly pos: SourcePosition;
}

/** CAST(x AS t) / TRY_CAST(x AS t). */
export interface CastExpr extends ExprBase {
  readonly kind: 'cast';
  readonly expr: Expression;
  readonly type: DataType;
  readonly tryCast: boolean;
}

export interface WhenClause {
  readonly when: Expression;
  readonly then: Expression;
}

/** CASE [operand] WHEN ... THEN ... [ELSE ...] END. */
export interface CaseExpr extends ExprBase {
  readonly kind: 'case';
  readonly operand: Expression | null;
  readonly whens: readonly WhenClause[];
  readonly elseExpr: Expression | null;
}

/** EXTRACT(unit FROM expr). */
export interface ExtractExpr extends ExprBase {
  readonly kind: 'extract';
  readonly unit: TimeUnit;
  readonly expr: Expression;
}

/** TRIM([BOTH|LEADING|TRAILING] [chars] FROM s) and TRIM(s). */
export interface TrimExpr extends ExprBase {
  readonly kind: 'trim';
  readonly side: 'BOTH' | 'LEADING' | 'TRAILING' | null;
  readonly chars: Expression | null;
  readonly expr: Expression;
}

/** POSITION(needle IN haystack [FROM start]). */
export interface PositionExpr extends ExprBase {
  readonly kind: 'position';
  readonly needle: Expression;
  readonly haystack: Expression;
  readonly from: Expression | null;
}

/** SUBSTRING(s FROM start [FOR length]); the comma form is an ordinary function call. */
export interface SubstringExpr extends ExprBase {
  readonly kind: 'substring';
  readonly expr: Expression;
  readonly from: Expression;
  readonly length: Expression | null;
}

/** OVERLAY(s PLACING r FROM start [FOR length]). */
export interface OverlayExpr extends ExprBase {
  readonly kind: 'overlay';
  readonly expr: Expression;
  readonly placing: Expression;
  readonly from: Expression;
  readonly length: Expression | null;
}

/** FLOOR(x TO unit) / CEIL(x TO unit); without TO they are ordinary function calls. */
export interface FloorCeilExpr extends ExprBase {
  readonly kind: 'floor-ceil';
  readonly fn: 'FLOOR' | 'CEIL';
  readonly expr: Expression;
  readonly unit: TimeUnit;
}

/** A bare time unit argument, as in TIMESTAMPADD(HOUR, 1, ts) and TIMESTAMPDIFF(DAY, a, b). */
export interface TimeUnitExpr extends ExprBase {
  readonly kind: 'time-unit';
  readonly unit: TimeUnit;
}

/** Behaviour of JSON_VALUE on empty/error. */
export type JsonValueBehavior =
  | { readonly kind: 'null' }
  | { readonly kind: 'error' }
  | { readonly kind: 'default'; readonly expr: Expression };

/** JSON_VALUE(j, path [RETURNING t] [behavior ON EMPTY] [behavior ON ERROR]). */
export interface JsonValueExpr extends ExprBase {
  readonly kind: 'json-value';
  readonly expr: Expression;
  readonly path: Expression;
  readonly returning: DataType | null;
  readonly onEmpty: JsonValueBehavior | null;
  readonly onError: JsonValueBehavior | null;
}

export type JsonQueryBehavior = 'NULL' | 'ERROR' | 'EMPTY ARRAY' | 'EMPTY OBJECT';

/** JSON_QUERY(j, path [RETURNING t] [WITH|WITHOUT ... WRAPPER] [b ON EMPTY] [b ON ERROR]). */
export interface JsonQueryExpr extends ExprBase {
  readonly kind: 'json-query';
  readonly expr: Expression;
  readonly path: Expression;
  readonly returning: DataType | null;
  readonly wrapper: 'WITHOUT ARRAY' | 'WITH CONDITIONAL ARRAY' | 'WITH UNCONDITIONAL ARRAY' | null;
  readonly onEmpty: JsonQueryBehavior | null;
  readonly onError: JsonQueryBehavior | null;
}

/** JSON_EXISTS(j, path [TRUE|FALSE|UNKNOWN|ERROR ON ERROR]). */
export interface JsonExistsExpr extends ExprBase {
  readonly kind: 'json-exists';
  readonly expr: Expression;
  readonly path: Expression;
  readonly onError: 'TRUE' | 'FALSE' | 'UNKNOWN' | 'ERROR' | null;
}

export interface JsonObjectEntry {
  readonly key: Expression;
  readonly value: Expression;
}

/** JSON_OBJECT([KEY] k VALUE v, ... [NULL|ABSENT ON NULL]) and JSON_OBJECTAGG(KEY k VALUE v ...). */
export interface JsonObjectExpr extends ExprBase {
  readonly kind: 'json-object';
  readonly aggregate: boolean;
  readonly entries: readonly JsonObjectEntry[];
  readonly onNull: 'NULL' | 'ABSENT' | null;
}

/** JSON_ARRAY(v, ... [NULL|ABSENT ON NULL]) and JSON_ARRAYAGG(v ...). */
export interface JsonArrayExpr extends ExprBase {
  readonly kind: 'json-array';
  readonly aggregate: boolean;
  readonly elements: readonly Expression[];
  readonly onNull: 'NULL' | 'ABSENT' | null;
}

/** `x IS [NOT] JSON [VALUE|SCALAR|ARRAY|OBJECT]`. */
export interface IsJsonExpr extends ExprBase {
  readonly kind: 'is-json';
  readonly expr: Expression;
  readonly negated: boolean;
  readonly jsonType: 'VALUE' | 'SCALAR' | 'ARRAY' | 'OBJECT' | null;
}

/** ARRAY[a, b]. */
export interface ArrayConstructor extends ExprBase {
  readonly kind: 'array-constructor';
  readonly elements: readonly Expression[];
}

/** MAP[k1, v1, k2, v2]; `entries` is the flat list as written. */
export interface MapConstructor extends ExprBase {
  readonly kind: 'map-constructor';
  readonly entries: readonly Expression[];
}

/** ROW(a, b) (explicit) or (a, b) (implicit). */
export interface RowConstructor extends ExprBase {
  readonly kind: 'row-constructor';
  readonly explicit: boolean;
  readonly elements: readonly Expression[];
}

/** DESCRIPTOR(ts) of the window table functions. */
export interface DescriptorExpr extends ExprBase {
  readonly kind: 'descriptor';
  readonly columns: readonly string[];
}

/** `TABLE t [PARTITION BY k, ...] [ORDER BY x]` as a table function argument. */
export interface TableArgExpr extends ExprBase {
  readonly kind: 'table-arg';
  readonly table: readonly string[];
  readonly partitionBy: readonly Expression[];
  readonly orderBy: readonly Expression[];
}

/** `name => value` argument of a table function call. */
export interface NamedArgument extends ExprBase {
  readonly kind: 'named-argument';
  readonly name: string;
  readonly value: Expression;
}

/** CURRENT_TIMESTAMP and friends written without parentheses. */
export interface NiladicCall extends ExprBase {
  readonly kind: 'niladic';
  readonly name: 'CURRENT_DATE' | 'CURRENT_TIME' | 'CURRENT_TIMESTAMP' | 'LOCALTIME' | 'LOCALTIMESTAMP' | 'CURRENT_USER' | 'SESSION_USER' | 'USER';
}

export interface UnaryExpr extends ExprBase {
  readonly kind: 'unary';
  readonly op: '-' | '+' | 'NOT';
  readonly operand: Expression;
}

export type BinaryOperator = 'OR' | 'AND' | '=' | '<>' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*' | '/' | '%' | '||';

/** Arithmetic, comparison, `||` and AND/OR; `!=` is read as `<>`. */
export interface BinaryExpr extends ExprBase {
  readonly kind: 'binary';
  readonly op: BinaryOperator;
  readonly left: Expression;
  readonly right: Expression;
}

/** `x IS [NOT] NULL|TRUE|FALSE|UNKNOWN`. */
export interface IsExpr extends ExprBase {
  readonly kind: 'is';
  readonly expr: Expression;
  readonly negated: boolean;
  readonly test: 'NULL' | 'TRUE' | 'FALSE' | 'UNKNOWN';
}

/** `a IS [NOT] DISTINCT FROM b`. */
export interface IsDistinctFromExpr extends ExprBase {
  readonly kind: 'is-distinct-from';
  readonly negated: boolean;
  readonly left: Expression;
  readonly right: Expression;
}

/** `x [NOT] BETWEEN [ASYMMETRIC|SYMMETRIC] a AND b`. */
export interface BetweenExpr extends ExprBase {
  readonly kind: 'between';
  readonly expr: Expression;
  readonly negated: boolean;
  readonly symmetric: boolean;
  readonly low: Expression;
  readonly high: Expression;
}

/** `x [NOT] IN (a, b, c)`. */
export interface InListExpr extends ExprBase {
  readonly kind: 'in-list';
  readonly expr: Expression;
  readonly negated: boolean;
  readonly list: readonly Expression[];
}

/** `x [NOT] IN (SELECT ...)`. */
export interface InSubqueryExpr extends ExprBase {
  readonly kind: 'in-subquery';
  readonly expr: Expression;
  readonly negated: boolean;
  readonly query: Query;
}

/** `x op SOME|ANY|ALL (SELECT ...)`. */
export interface QuantifiedComparison extends ExprBase {
  readonly kind: 'quantified-comparison';
  readonly op: '=' | '<>' | '<' | '<=' | '>' | '>=';
  readonly quantifier: 'SOME' | 'ANY' | 'ALL';
  readonly left: Expression;
  readonly query: Query;
}

/** `EXISTS (SELECT ...)`; NOT EXISTS is a unary NOT around it. */
export interface ExistsExpr extends ExprBase {
  readonly kind: 'exists';
  readonly query: Query;
}

/** `x [NOT] LIKE|ILIKE|SIMILAR TO p [ESCAPE e]`. */
export interface LikeExpr extends ExprBase {
  readonly kind: 'like';
  readonly op: 'LIKE' | 'ILIKE' | 'SIMILAR TO';
  readonly negated: boolean;
  readonly expr: Expression;
  readonly pattern: Expression;
  readonly escape: Expression | null;
}

/** A scalar subquery `(SELECT ...)` used as a value. */
export interface SubqueryExpr extends ExprBase {
  readonly kind: 'subquery';
  readonly query: Query;
}

/** Every expression node; switch on `kind`. */
export type Expression =
  | NumericLiteral
  | StringLiteral
  | BinaryLiteral
  | BooleanLiteral
  | NullLiteral
  | TypedLiteral
  | IntervalLiteral
  | IdentifierExpr
  | StarExpr
  | FieldAccess
  | ItemAccess
  | FunctionCall
  | CastExpr
  | CaseExpr
  | ExtractExpr
  | TrimExpr
  | PositionExpr
  | SubstringExpr
  | OverlayExpr
  | FloorCeilExpr
  | TimeUnitExpr
  | JsonValueExpr
  | JsonQueryExpr
  | JsonExistsExpr
  | JsonObjectExpr
  | JsonArrayExpr
  | IsJsonExpr
  | ArrayConstructor
  | MapConstructor
  | RowConstructor
  | DescriptorExpr
  | TableArgExpr
  | NamedArgument
  | NiladicCall
  | UnaryExpr
  | BinaryExpr
  | IsExpr
  | IsDistinctFromExpr
  | BetweenExpr
  | InListExpr
  | InSubqueryExpr
  | QuantifiedComparison
  | ExistsExpr
  | LikeExpr
  | SubqueryExpr;

export type ExpressionKind = Expression['kind'];
