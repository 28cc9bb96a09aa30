import { PlanningError } from '../../errors/sluice-error.js';
import type { LogicalType } from '../../types/logical-type.js';
import type { BoundExpr, CaseWhen, CastExpr } from '../expressions/bound-expr.js';
import { bindCall, inputRef, itemAccess, literal, nullLiteral, symbol } from '../expressions/expr-factory.js';
import { createBuiltinRegistry } from '../functions/builtin-registry.js';
import type { ScalarFunctionDefinition } from '../functions/function-definition.js';
import type { FunctionRegistry } from '../functions/function-registry.js';
import type { RexCall, RexNode } from './rex-node.js';

/**
 * Translation of the planner's RexNode into the typed BoundExpr IR of `planner/expressions/`, so one
 * code generator (and one set of semantics: arithmetic, comparison, CAST, NULL handling) serves both.
 * Planning-time only: called once per expression per compiled operator, never per row.
 *
 * Calls are re-bound through their registry definition (`bindCall`), which inserts the implicit casts
 * the code generator relies on (INT = BIGINT compares as BIGINT, ...). The Rex result type is what the
 * plan promised downstream, so where the generator would produce a value of another representation
 * the call is wrapped in a CAST to the Rex type.
 */
export function rexToBound(node: RexNode): BoundExpr {
  switch (node.kind) {
    case 'input-ref':
      return inputRef(node.index, node.type, node.name);
    case 'literal':
      return node.value === null ? nullLiteral(node.type) : literal(node.value, node.type);
    case 'call':
      return callToBound(node);
    default: {
      const never: never = node;
      return never;
    }
  }
}

let builtins: FunctionRegistry | undefined;

/** The built-in definition behind an operator the binder emits by name ('+', '=', 'CASE' is special). */
function builtin(name: string): ScalarFunctionDefinition {
  builtins ??= createBuiltinRegistry();
  const def = builtins.lookup(name);
  if (def === undefined || def.kind !== 'scalar') throw new PlanningError(`No implementation for function '${name}'.`);
  return def;
}

function callToBound(node: RexCall): BoundExpr {
  switch (node.op) {
    case 'SYMBOL':
      return symbol(String((node.operands[0] as { value: unknown }).value));
    case 'CAST':
    case 'TRY_CAST': {
      const operand = rexToBound(node.operands[0]!);
      if (operand.type.kind === 'NULL') return nullLiteral(node.type);
      const c: CastExpr = { kind: 'cast', operand, type: node.type, tryCast: node.op === 'TRY_CAST', implicit: false };
      return c;
    }
    case 'CASE': {
      // operands: when1, then1, when2, then2, ..., else
      const ops = node.operands.map(rexToBound);
      const whens: CaseWhen[] = [];
      for (let i = 0; i + 1 < ops.length; i += 2) whens.push({ when: ops[i]!, then: toRepresentation(ops[i + 1]!, node.type) });
      return { kind: 'case', whens, elseExpr: toRepresentation(ops[ops.length - 1]!, node.type), type: node.type };
    }
    case 'FIELD': {
      const operand = rexToBound(node.operands[0]!);
      const index = (node.operands[1] as { value: number }).value;
      const name = operand.type.kind === 'ROW' ? (operand.type.fields[index]?.name ?? `f${index}`) : `f${index}`;
      return { kind: 'field-access', operand, index, name, type: node.type };
    }
    case 'ITEM': {
      const item = itemAccess(rexToBound(node.operands[0]!), rexToBound(node.operands[1]!));
      return { ...item, type: node.type };
    }
    case 'NEGATE':
      return toRepresentation(bindCall(builtin('-'), [rexToBound(node.operands[0]!)]), node.type);
    default: {
      const def = node.fn ?? builtin(node.op);
      // JSON_VALUE / JSON_QUERY ... RETURNING t: the result type is an input of the call, not inferred from operands.
      const returnType = def.name === 'JSON_VALUE' || def.name === 'JSON_QUERY' ? node.type : undefined;
      return toRepresentation(bindCall(def, node.operands.map(rexToBound), returnType), node.type);
    }
  }
}

/**
 * `e` as a value of `t`'s representation: a CAST only when the two types store values differently
 * (another numeric kind, DECIMAL scale, ...). String lengths and timestamp precisions are not
 * representations, so no CAST (and no truncation the Rex engine never did) is added for them.
 */
function toRepresentation(e: BoundExpr, t: LogicalType): BoundExpr {
  if (sameRepresentation(e.type, t)) return e;
  if (e.type.kind === 'NULL') return nullLiteral(t);
  return { kind: 'cast', operand: e, type: { ...t, nullable: e.type.nullable }, tryCast: false, implicit: true };
}

/** True when values of `a` and `b` are stored alike (docs/values.md), whatever lengths or precisions. */
export function sameRepresentation(a: LogicalType, b: LogicalType): boolean {
  if (a.kind === 'NULL' || b.kind === 'NULL') return true;
  const ca = reprClass(a);
  if (ca !== reprClass(b)) return false;
  switch (a.kind) {
    case 'DECIMAL':
      return b.kind === 'DECIMAL' && a.precision === b.precision && a.scale === b.scale;
    case 'ARRAY':
    case 'MULTISET':
      return sameRepresentation(a.element, (b as typeof a).element);
    case 'MAP':
      return b.kind === 'MAP' && sameRepresentation(a.key, b.key) && sameRepresentation(a.value, b.value);
    case 'ROW':
      return b.kind === 'ROW' && a.fields.length === b.fields.length && a.fields.every((f, i) => sameRepresentation(f.type, b.fields[i]!.type));
    default:
      return true;
  }
}

function reprClass(t: LogicalType): string {
  switch (t.kind) {
    case 'CHAR':
    case 'VARCHAR':
      return 'string';
    case 'BINARY':
    case 'VARBINARY':
      return 'bytes';
    default:
      return t.kind;
  }
}
