import type { LogicalType } from '../../types/logical-type.js';
import type { ScalarFunctionDefinition } from '../functions/function-definition.js';

/**
 * The bound, typed expression tree the binder produces from the parser's AST and every later stage
 * (rules, EXPLAIN, code generation) consumes. Immutable plain objects discriminated on `kind`; every
 * node carries its LogicalType including nullability. Values follow docs/values.md.
 *
 * Build nodes with the factories in `expr-factory.ts` (`inputRef`, `literal`, `call`, `bindCall`, ...)
 * so types are inferred and implicit casts inserted in one place.
 */
export type BoundExpr =
  | InputRefExpr
  | LiteralExpr
  | SymbolExpr
  | CallExpr
  | CastExpr
  | CaseExpr
  | FieldAccessExpr
  | ItemAccessExpr
  | LocalRefExpr;

export type BoundExprKind = BoundExpr['kind'];

/** Field `index` of the input row (`$0`); `name` is only used for printing. */
export interface InputRefExpr {
  readonly kind: 'input-ref';
  readonly index: number;
  readonly type: LogicalType;
  readonly name?: string;
}

/** A constant in the docs/values.md representation; `null` for a typed NULL. */
export interface LiteralExpr {
  readonly kind: 'literal';
  readonly value: unknown;
  readonly type: LogicalType;
}

/**
 * A keyword operand of a function, not a value: the unit of EXTRACT / TIMESTAMPADD / FLOOR(x TO unit),
 * BOTH/LEADING/TRAILING of TRIM, the ON EMPTY / ON ERROR behaviours of JSON functions. Typed as a NOT
 * NULL string so generic code can treat it as a constant; functions read `value` at bind/codegen time.
 */
export interface SymbolExpr {
  readonly kind: 'symbol';
  readonly value: string;
  readonly type: LogicalType;
}

/** A function or operator application: `+($0, 1)`, `UPPER($1)`, `AND(...)`. */
export interface CallExpr {
  readonly kind: 'call';
  readonly fn: ScalarFunctionDefinition;
  readonly operands: readonly BoundExpr[];
  readonly type: LogicalType;
}

/**
 * CAST / TRY_CAST of `operand` to `type`. `implicit` marks casts the binder inserted for type coercion
 * (they print the same as explicit ones, as in Flink's plans). TRY_CAST's type is always nullable.
 */
export interface CastExpr {
  readonly kind: 'cast';
  readonly operand: BoundExpr;
  readonly type: LogicalType;
  readonly tryCast: boolean;
  readonly implicit: boolean;
}

export interface CaseWhen {
  readonly when: BoundExpr;
  readonly then: BoundExpr;
}

/**
 * Searched CASE: the first `when` that is TRUE picks its `then`; else `elseExpr` (a NULL literal when
 * absent). The simple form `CASE x WHEN v ...` is bound as `=(x, v)` conditions.
 */
export interface CaseExpr {
  readonly kind: 'case';
  readonly whens: readonly CaseWhen[];
  readonly elseExpr: BoundExpr;
  readonly type: LogicalType;
}

/** Field `index` of a ROW-typed operand (`r.f`); null when the row is null. */
export interface FieldAccessExpr {
  readonly kind: 'field-access';
  readonly operand: BoundExpr;
  readonly index: number;
  readonly name: string;
  readonly type: LogicalType;
}

/** `arr[i]` (1-based; null when out of range) or `map[k]` (null when absent). */
export interface ItemAccessExpr {
  readonly kind: 'item-access';
  readonly operand: BoundExpr;
  readonly key: BoundExpr;
  readonly type: LogicalType;
}

/**
 * A value computed once per row by an earlier expression of the same program (Calcite's `$t3`), for
 * common sub-expressions; the compiler receives the local expressions alongside.
 */
export interface LocalRefExpr {
  readonly kind: 'local-ref';
  readonly index: number;
  readonly type: LogicalType;
}
