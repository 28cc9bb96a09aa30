import { PlanningError } from '../../errors/sluice-error.js';
import { DataTypes } from '../../types/data-types.js';
import { typesEqualIgnoringNullability, withNullability } from '../../types/logical-type.js';
import type { LogicalType } from '../../types/logical-type.js';
import type { ScalarFunctionDefinition } from '../functions/function-definition.js';
import type { BoundExpr, CallExpr, CaseExpr, CastExpr, CaseWhen, FieldAccessExpr, InputRefExpr, ItemAccessExpr, LiteralExpr, SymbolExpr } from './bound-expr.js';
import { checkCast } from './cast.js';
import { commonType, isCharacterString, isIntegral, sqlTypeName } from './type-rules.js';

/**
 * Factories for bound expressions. The binder uses these (never object literals) so that result types
 * are inferred and implicit casts inserted consistently. Planning-time only.
 */

export function inputRef(index: number, type: LogicalType, name?: string): InputRefExpr {
  return name === undefined ? { kind: 'input-ref', index, type } : { kind: 'input-ref', index, type, name };
}

/** A constant; its type's nullability is forced to match (NOT NULL unless the value is null). */
export function literal(value: unknown, type: LogicalType): LiteralExpr {
  return { kind: 'literal', value, type: withNullability(type, value === null) };
}

/** A typed NULL. */
export function nullLiteral(type: LogicalType = DataTypes.NULL()): LiteralExpr {
  return { kind: 'literal', value: null, type: withNullability(type, true) };
}

export function symbol(value: string): SymbolExpr {
  return { kind: 'symbol', value, type: { kind: 'VARCHAR', length: Math.max(1, value.length), nullable: false } };
}

/**
 * CAST(operand AS type) / TRY_CAST. An explicit cast keeps `type`'s nullability as written widened by the
 * operand's (CAST of a nullable value is nullable); TRY_CAST is always nullable.
 * @throws PlanningError when the cast is not supported.
 */
export function cast(operand: BoundExpr, type: LogicalType, options: { tryCast?: boolean; implicit?: boolean } = {}): CastExpr {
  checkCast(operand.type, type);
  const tryCast = options.tryCast === true;
  const nullable = tryCast || operand.type.nullable;
  return { kind: 'cast', operand, type: withNullability(type, nullable), tryCast, implicit: options.implicit === true };
}

/** `operand` as `type` (ignoring nullability), wrapping it in an implicit CAST only when needed. */
export function coerce(operand: BoundExpr, type: LogicalType): BoundExpr {
  if (typesEqualIgnoringNullability(operand.type, type)) return operand;
  if (operand.kind === 'literal' && operand.value === null) return nullLiteral(type);
  return cast(operand, type, { implicit: true });
}

/**
 * A call of `fn` on `operands`: applies the function's operand coercion (implicit casts), then its type
 * inference. `returnType` is an explicit result type from SQL (JSON_VALUE ... RETURNING t).
 * @throws PlanningError when the operands do not fit the function.
 */
export function bindCall(fn: ScalarFunctionDefinition, operands: readonly BoundExpr[], returnType?: LogicalType): CallExpr {
  const binding0 = returnType === undefined ? { operands } : { operands, returnType };
  const targets = fn.coerceOperands?.(operands.map((o) => o.type), binding0);
  const coerced = targets === undefined ? operands : operands.map((o, i) => (targets[i] === undefined ? o : coerce(o, targets[i]!)));
  const binding = returnType === undefined ? { operands: coerced } : { operands: coerced, returnType };
  const type = fn.inferType(coerced.map((o) => o.type), binding);
  return { kind: 'call', fn, operands: coerced, type };
}

/** A call with a known result type, skipping inference (for rules that rebuild an already-typed call). */
export function callWithType(fn: ScalarFunctionDefinition, operands: readonly BoundExpr[], type: LogicalType): CallExpr {
  return { kind: 'call', fn, operands, type };
}

/**
 * Searched CASE. Conditions must be BOOLEAN; THEN / ELSE results are cast to their common type.
 * @throws PlanningError when a condition is not BOOLEAN or the results have no common type.
 */
export function caseWhen(whens: readonly CaseWhen[], elseExpr: BoundExpr | null): CaseExpr {
  for (const w of whens) {
    if (w.when.type.kind !== 'BOOLEAN' && w.when.type.kind !== 'NULL') {
      throw new PlanningError(`Expected a boolean type for a CASE condition, but got ${sqlTypeName(w.when.type)}.`);
    }
  }
  const results = [...whens.map((w) => w.then), ...(elseExpr === null ? [] : [elseExpr])];
  let type = commonType(results.map((r) => r.type));
  if (type === undefined) {
    throw new PlanningError(`Illegal mixing of types in CASE or COALESCE statement: ${results.map((r) => sqlTypeName(r.type)).join(', ')}`);
  }
  if (elseExpr === null) type = withNullability(type, true);
  const t = type;
  return {
    kind: 'case',
    whens: whens.map((w) => ({ when: w.when, then: coerce(w.then, t) })),
    elseExpr: elseExpr === null ? nullLiteral(t) : coerce(elseExpr, t),
    type: t,
  };
}

/**
 * `row.field`: the field's type, nullable when the row is.
 * @throws PlanningError when the operand is not a ROW or has no such field.
 */
export function fieldAccess(operand: BoundExpr, field: string | number): FieldAccessExpr {
  const t = operand.type;
  if (t.kind !== 'ROW') throw new PlanningError(`Cannot access field '${field}' of a value of type ${sqlTypeName(t)}; only ROW values have fields.`);
  const index = typeof field === 'number' ? field : t.fields.findIndex((f) => f.name === field);
  const f = t.fields[index];
  if (f === undefined) throw new PlanningError(`Unknown field '${field}' in ${sqlTypeName(t)}; fields are ${t.fields.map((x) => x.name).join(', ')}.`);
  return { kind: 'field-access', operand, index, name: f.name, type: withNullability(f.type, f.type.nullable || t.nullable) };
}

/**
 * `arr[i]` (integer index, 1-based) or `map[key]` (key cast to the map's key type). Always nullable.
 * @throws PlanningError for other operand types.
 */
export function itemAccess(operand: BoundExpr, key: BoundExpr): ItemAccessExpr {
  const t = operand.type;
  if (t.kind === 'ARRAY') {
    if (!isIntegral(key.type) && key.type.kind !== 'NULL') {
      throw new PlanningError(`Cannot apply 'ITEM' to arguments of type 'ITEM(<${sqlTypeName(t)}>, <${sqlTypeName(key.type)}>)'. Supported form(s): '<ARRAY>[<INTEGER>]'\n'<MAP>[<ANY>]'`);
    }
    return { kind: 'item-access', operand, key: coerce(key, DataTypes.INT()), type: withNullability(t.element, true) };
  }
  if (t.kind === 'MAP') {
    const k = isCharacterString(t.key) && isCharacterString(key.type) ? key : coerce(key, t.key);
    return { kind: 'item-access', operand, key: k, type: withNullability(t.value, true) };
  }
  throw new PlanningError(`Cannot apply 'ITEM' to arguments of type 'ITEM(<${sqlTypeName(t)}>, <${sqlTypeName(key.type)}>)'. Supported form(s): '<ARRAY>[<INTEGER>]'\n'<MAP>[<ANY>]'`);
}

/** True when evaluating `expr` twice gives the same value (no RAND, NOW, UUID, ... anywhere inside). */
export function isDeterministic(expr: BoundExpr): boolean {
  switch (expr.kind) {
    case 'input-ref':
    case 'literal':
    case 'symbol':
    case 'local-ref':
      return true;
    case 'call':
      return expr.fn.deterministic && expr.operands.every(isDeterministic);
    case 'cast':
      return isDeterministic(expr.operand);
    case 'case':
      return expr.whens.every((w) => isDeterministic(w.when) && isDeterministic(w.then)) && isDeterministic(expr.elseExpr);
    case 'field-access':
      return isDeterministic(expr.operand);
    case 'item-access':
      return isDeterministic(expr.operand) && isDeterministic(expr.key);
    default: {
      const never: never = expr;
      return never;
    }
  }
}
