import type { LogicalType } from '../../types/logical-type.js';
import type { ScalarFunctionDefinition } from '../functions/function-definition.js';

/**
 * The planner's own bound scalar expression (Calcite's RexNode, reduced). Kept in the planner core so
 * plans, rules and EXPLAIN do not depend on the richer expression IR of `planner/expressions/`.
 * Evaluation is not done here: rex-to-bound.ts translates to that IR and its code generator compiles it.
 */
export type RexNode = RexInputRef | RexLiteral | RexCall;

/** Field `index` of the input row; `name` is kept for EXPLAIN only. */
export interface RexInputRef {
  readonly kind: 'input-ref';
  readonly index: number;
  readonly name: string;
  readonly type: LogicalType;
}

/** A constant in the runtime value representation (docs/values.md). */
export interface RexLiteral {
  readonly kind: 'literal';
  readonly value: unknown;
  readonly type: LogicalType;
}

/**
 * An operator or function application. `op` is the upper-case SQL name ('+', '=', 'AND', 'CAST',
 * 'CASE', 'UPPER', ...). `deterministic` false stops constant folding (RAND, NOW, PROCTIME).
 */
export interface RexCall {
  readonly kind: 'call';
  readonly op: string;
  readonly operands: readonly RexNode[];
  readonly type: LogicalType;
  readonly deterministic: boolean;
  /**
   * The registry definition (built-in or UDF) of a call the binder resolved through the function
   * registry; absent for the operators the binder types itself, which rex-to-bound.ts finds by `op`.
   */
  readonly fn?: ScalarFunctionDefinition;
}

export function inputRef(index: number, name: string, type: LogicalType): RexInputRef {
  return { kind: 'input-ref', index, name, type };
}

export function literal(value: unknown, type: LogicalType): RexLiteral {
  return { kind: 'literal', value, type };
}

export function call(op: string, operands: readonly RexNode[], type: LogicalType, deterministic = true): RexCall {
  return { kind: 'call', op, operands, type, deterministic };
}

/** True if `n` and everything below it is deterministic and reads no input field. */
export function isConstant(n: RexNode): boolean {
  switch (n.kind) {
    case 'literal':
      return true;
    case 'input-ref':
      return false;
    case 'call':
      return n.deterministic && n.operands.every(isConstant);
    default: {
      const never: never = n;
      return never;
    }
  }
}

/** Indexes of the input fields `n` reads. */
export function collectInputRefs(n: RexNode, into: Set<number> = new Set()): Set<number> {
  if (n.kind === 'input-ref') into.add(n.index);
  else if (n.kind === 'call') for (const o of n.operands) collectInputRefs(o, into);
  return into;
}

/** A copy of `n` with every input index `i` replaced by `map(i)`'s node. */
export function rewriteInputRefs(n: RexNode, map: (ref: RexInputRef) => RexNode): RexNode {
  switch (n.kind) {
    case 'input-ref':
      return map(n);
    case 'literal':
      return n;
    case 'call':
      return { ...n, operands: n.operands.map((o) => rewriteInputRefs(o, map)) };
    default: {
      const never: never = n;
      return never;
    }
  }
}
