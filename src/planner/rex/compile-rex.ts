import { compileCalc, compileExpression } from '../expressions/compile.js';
import type { Row } from '../../types/row.js';
import type { RexNode } from './rex-node.js';
import { rexToBound } from './rex-to-bound.js';

/** A compiled scalar expression over one input row's fields. Pure and synchronous; hot path. */
export type CompiledExpr = (fields: readonly unknown[]) => unknown;

/**
 * A compiled Calc over a whole batch: appends to `out` one new row (same RowKind) per input row whose
 * condition is TRUE, with the projected fields. Never awaits; no function call per row.
 */
export type CompiledCalc = (rows: readonly Row[], out: Row[]) => void;

/** Session settings compiled expressions read. */
export interface CompileOptions {
  readonly timeZone: string;
}

const DEFAULT_OPTIONS: CompileOptions = { timeZone: 'UTC' };

/**
 * Compiles a bound expression to a function over a row's fields, once per operator instance (planning
 * time), through the code generator of planner/expressions (see rex-to-bound.ts). Null handling follows
 * SQL: most operators are strict (NULL in, NULL out); AND/OR use three-valued logic.
 * @throws PlanningError when the expression has no implementation.
 */
export function compileRex(node: RexNode, options: CompileOptions = DEFAULT_OPTIONS): CompiledExpr {
  if (node.kind === 'input-ref') {
    // The common case of join keys and pass-through columns: no code generation needed.
    const i = node.index;
    return (f) => f[i];
  }
  return compileExpression(rexToBound(node), { timeZone: options.timeZone, input: 'fields' }) as unknown as CompiledExpr;
}

/**
 * Compiles a Calc (filter, then projection) into one generated loop over a batch. Called once per
 * operator at planning time.
 * @throws PlanningError when an expression has no implementation.
 */
export function compileRexCalc(projects: readonly RexNode[], condition: RexNode | null, options: CompileOptions = DEFAULT_OPTIONS): CompiledCalc {
  return compileCalc(projects.map(rexToBound), condition === null ? null : rexToBound(condition), { timeZone: options.timeZone });
}
