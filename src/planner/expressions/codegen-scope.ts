import type { BoundExpr } from './bound-expr.js';

/** Options that change what generated code computes; fixed per compiled query. */
export interface CompileOptions {
  /** `table.local-time-zone`: used for TIMESTAMP_LTZ conversions and CURRENT_TIMESTAMP & co. Default 'UTC'. */
  readonly timeZone?: string;
  /**
   * How the compiled function reads its input: `row` (a `Row`, fields via `row.fields`) or `fields`
   * (the fields array itself). Default `row`.
   */
  readonly input?: 'row' | 'fields';
  /** Local expressions referenced by `local-ref` nodes, computed in order once per row when first used. */
  readonly locals?: readonly BoundExpr[];
  /** Field names used in error messages and by exprToString. */
  readonly fieldNames?: readonly string[];
}

/**
 * What a function's code generator can do while the compiler turns one expression tree into JavaScript
 * source. Used only at compile time (once per query), never per row.
 *
 * Code is emitted as statements into the current block; `gen` returns a JS expression (usually a local
 * variable name) that holds the operand's value (`null` for SQL NULL) once the emitted statements ran.
 */
export interface CodegenScope {
  /** Emit the code computing `expr` into the current block; returns a side-effect-free JS expression for its value. */
  gen(expr: BoundExpr): string;
  /** Emit one statement into the current block. */
  emit(statement: string): void;
  /** Run `body` collecting what it emits into a separate block, returned as source (for lazy branches). */
  block(body: () => void): string;
  /** A fresh local variable name, declared with `let` at function scope (initialised to null). */
  fresh(prefix?: string): string;
  /** An identifier for a constant (regex, Decimal, Map, lookup set) hoisted out of the per-row function. */
  constant(value: unknown): string;
  /** Identifier of the runtime helpers module (see runtime.ts) inside generated code. */
  readonly rt: string;
  /** The options the query is compiled with (time zone, ...). */
  readonly options: CompileOptions;
}
