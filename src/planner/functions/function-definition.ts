import type { LogicalType } from '../../types/logical-type.js';
import type { BoundExpr, CallExpr } from '../expressions/bound-expr.js';
import type { CodegenScope } from '../expressions/codegen-scope.js';
import type { AggregateFunction } from '../../table-runtime/aggregates/aggregate-function.js';

/** What a registered name stands for. */
export type FunctionDefinition =
  | ScalarFunctionDefinition
  | AggregateFunctionDefinition
  | TableFunctionDefinition
  | WindowTvfMarker;

export type FunctionKind = FunctionDefinition['kind'];

/** Facts the type inference of a call may need beyond the operand types. */
export interface CallBinding {
  /** The (already bound) operands, so literal arguments (ROUND(x, 2), units) can shape the result type. */
  readonly operands: readonly BoundExpr[];
  /** An explicit result type written in SQL (JSON_VALUE ... RETURNING t); undefined otherwise. */
  readonly returnType?: LogicalType;
}

/**
 * How a scalar call becomes JavaScript. The compiler calls these once per query while generating
 * source; none runs per row except `fn` of the runtime variants.
 *
 * - `strict`: SQL NULL if any operand is NULL (checked by the compiler, skipped for NOT NULL operands);
 *   otherwise `expr(args)` is a JS expression over the non-null operand values (may itself yield null).
 * - `runtime-strict`: as `strict` but calls a plain JS function `fn(...args)` at run time.
 * - `runtime`: calls `fn(...args)` with nulls included; the function decides (COALESCE-like eager ones).
 * - `custom`: full control over evaluation order (AND, OR, IF, lazy COALESCE); emits code via `scope`
 *   and returns a JS expression for the result.
 */
export type ScalarCodegen =
  | {
      readonly kind: 'strict';
      expr(args: readonly string[], call: CallExpr, scope: CodegenScope): string;
    }
  | { readonly kind: 'runtime-strict'; readonly fn: (...args: never[]) => unknown }
  | { readonly kind: 'runtime'; readonly fn: (...args: never[]) => unknown }
  | { readonly kind: 'custom'; gen(call: CallExpr, scope: CodegenScope): string };

/** A built-in or user-defined scalar function or operator. */
export interface ScalarFunctionDefinition {
  readonly kind: 'scalar';
  /** Upper-case name as printed in plans: `+`, `UPPER`, `IS NULL`. */
  readonly name: string;
  /**
   * False for RAND, UUID, NOW, CURRENT_TIMESTAMP (streaming) & co.: constant folding and common
   * sub-expression elimination must leave such calls alone.
   */
  readonly deterministic: boolean;
  /**
   * Result type of a call with these operand types (after `coerceOperands`), including nullability.
   * Called by the binder once per call site.
   * @throws PlanningError "Cannot apply 'NAME' to arguments of type ..." when the operands do not fit.
   */
  inferType(argTypes: readonly LogicalType[], binding: CallBinding): LogicalType;
  /**
   * Target types for implicit casts of the operands (e.g. INT and BIGINT operands of `=` both become
   * BIGINT); the binder wraps an operand in an implicit CAST where its type differs ignoring nullability.
   * Absent or returning undefined: operands stay as they are. Called once per call site before `inferType`.
   * @throws PlanningError as `inferType` when no coercion makes the call valid.
   */
  coerceOperands?(argTypes: readonly LogicalType[], binding: CallBinding): readonly LogicalType[] | undefined;
  readonly codegen: ScalarCodegen;
  /**
   * Why the operators calling this function must run on the main thread: set for a function registered in
   * code, a closure no worker thread can load. The planner pins the vertices of those operators (their
   * `mainThread`), so the rest of the job still runs on workers.
   */
  readonly mainThread?: string;
}

/** A built-in or user-defined aggregate function (COUNT, SUM, a UDAF). */
export interface AggregateFunctionDefinition {
  readonly kind: 'aggregate';
  readonly name: string;
  /**
   * Result type for these argument types; called by the binder once per call site.
   * @throws PlanningError when the arguments do not fit.
   */
  inferType(argTypes: readonly LogicalType[], options: AggregateCallOptions): LogicalType;
  /**
   * A fresh implementation instance for one aggregate call of a query (the planner calls this once per
   * aggregate call when building the operator; the instance is then used for every group).
   */
  create(argTypes: readonly LogicalType[], options: AggregateCallOptions): AggregateFunction<unknown>;
  /** As `ScalarFunctionDefinition.mainThread`. */
  readonly mainThread?: string;
}

/** Modifiers of an aggregate call. */
export interface AggregateCallOptions {
  readonly distinct: boolean;
  /** True for COUNT(*): no argument at all. */
  readonly star?: boolean;
}

/** A table function (UDTF) used with LATERAL TABLE(f(...)); rows are produced by `eval`. */
export interface TableFunctionDefinition {
  readonly kind: 'table';
  readonly name: string;
  /**
   * Target types for implicit casts of the arguments, as `ScalarFunctionDefinition.coerceOperands`; absent
   * or undefined: arguments stay as they are. Called once per call site before `inferType`.
   */
  coerceOperands?(argTypes: readonly LogicalType[]): readonly LogicalType[] | undefined;
  /** The ROW type of the produced rows; called once per call site. */
  inferType(argTypes: readonly LogicalType[]): LogicalType;
  /** Produce the rows (each a fields array) for one input's arguments; called per input row, must not await. */
  eval(...args: unknown[]): Iterable<unknown[]>;
  /** As `ScalarFunctionDefinition.mainThread`. */
  readonly mainThread?: string;
}

/** TUMBLE / HOP / CUMULATE / SESSION used as `FROM TABLE(...)`: the planner handles them itself. */
export interface WindowTvfMarker {
  readonly kind: 'window-tvf';
  readonly name: 'TUMBLE' | 'HOP' | 'CUMULATE' | 'SESSION';
}
