import { DataTypes } from '../../../src/types/data-types.js';
import type { LogicalType } from '../../../src/types/logical-type.js';
import { withNullability } from '../../../src/types/logical-type.js';
import { Row } from '../../../src/types/row.js';
import type { BoundExpr } from '../../../src/planner/expressions/bound-expr.js';
import { compileExpression } from '../../../src/planner/expressions/compile.js';
import type { CompileOptions } from '../../../src/planner/expressions/codegen-scope.js';
import { bindCall, inputRef, literal, symbol } from '../../../src/planner/expressions/expr-factory.js';
import { createBuiltinRegistry } from '../../../src/planner/functions/builtin-registry.js';
import type { ScalarFunctionDefinition } from '../../../src/planner/functions/function-definition.js';

export const registry = createBuiltinRegistry();
export const T = DataTypes;

export function fn(name: string): ScalarFunctionDefinition {
  const d = registry.lookup(name);
  if (d === undefined || d.kind !== 'scalar') throw new Error(`no scalar ${name}`);
  return d;
}

/** An argument: a value with its type, or a symbol keyword. */
export type Arg = readonly [unknown, LogicalType] | { readonly sym: string } | { readonly lit: unknown; readonly type: LogicalType };

export const sym = (s: string): Arg => ({ sym: s });
/** A literal operand (constant at bind time) instead of an input field. */
export const lit = (v: unknown, type: LogicalType): Arg => ({ lit: v, type });

/** Bind `name(args...)` with each value as an input field (nullable iff the value is null) and the call. */
export function bind(name: string, args: readonly Arg[], returnType?: LogicalType): { call: BoundExpr; fields: unknown[] } {
  const fields: unknown[] = [];
  const operands = args.map((a) => {
    if ('sym' in a) return symbol(a.sym);
    if ('lit' in a) return literal(a.lit, a.type);
    const [v, t] = a as readonly [unknown, LogicalType];
    fields.push(v);
    return inputRef(fields.length - 1, withNullability(t, v === null || t.kind === 'NULL'));
  });
  return { call: bindCall(fn(name), operands, returnType), fields };
}

/** Evaluate `name(args...)` through code generation. */
export function call(name: string, args: readonly Arg[], options: CompileOptions & { returnType?: LogicalType } = {}): unknown {
  const { call: c, fields } = bind(name, args, options.returnType);
  return compileExpression(c, options)(Row.insert(...fields));
}

export function evalExpr(e: BoundExpr, fields: unknown[] = [], options: CompileOptions = {}): unknown {
  return compileExpression(e, options)(Row.insert(...fields));
}
