import type { LogicalType } from '../../types/logical-type.js';
import type { ScalarFunctionDefinition } from '../functions/function-definition.js';
import type { BoundExpr } from './bound-expr.js';
import type { CompileOptions } from './codegen-scope.js';
import { compileExpression } from './compile.js';
import { bindCall, inputRef, literal, symbol } from './expr-factory.js';

/** A ready-to-call scalar function for planners that evaluate operands themselves. */
export interface ScalarEvaluator {
  /** The call's result type (with nullability), as `ScalarFunctionDefinition.inferType` gives it. */
  readonly type: LogicalType;
  /**
   * The function applied to already evaluated operand values (of the argument types given, in the
   * docs/values.md representation; nulls allowed). Implicit casts, NULL handling and the function's
   * code are compiled in once. Called per row; never awaits.
   */
  readonly impl: (args: readonly unknown[]) => unknown;
}

/** A constant operand: a keyword (`{ symbol: 'YEAR' }`) or a literal known at planning time. */
export type ConstantOperand = { readonly symbol: string } | { readonly literal: unknown };

/**
 * Bind `def` to operands of `argTypes` and compile it into one function over the operand values, so
 * any built-in or UDF (whatever its codegen kind) can serve as `RexCall.impl`. `constants[i]`, when
 * given, replaces operand i by a symbol or literal (EXTRACT's unit, ROUND's digits): it is bound in and
 * the evaluator's argument at that position is ignored. Planning-time cost only; the result is fast.
 * @throws PlanningError when the operands do not fit the function.
 */
export function scalarEvaluator(
  def: ScalarFunctionDefinition,
  argTypes: readonly LogicalType[],
  options: CompileOptions & { readonly constants?: readonly (ConstantOperand | undefined)[]; readonly returnType?: LogicalType } = {},
): ScalarEvaluator {
  const operands: BoundExpr[] = argTypes.map((t, i) => {
    const c = options.constants?.[i];
    if (c === undefined) return inputRef(i, t);
    return 'symbol' in c ? symbol(c.symbol) : literal(c.literal, t);
  });
  const call = bindCall(def, operands, options.returnType);
  const compiled = compileExpression(call, { ...options, input: 'fields' }) as unknown as (fields: readonly unknown[]) => unknown;
  return { type: call.type, impl: compiled };
}
