import { ValidationError } from '../../errors/sluice-error.js';
import type { Expression, JsonArrayExpr, JsonExistsExpr, JsonObjectExpr, JsonQueryExpr, JsonValueBehavior, JsonValueExpr } from '../../sql/ast/expressions.js';
import { DataTypes } from '../../types/data-types.js';
import { isCharacterString, notNull, withNullability } from '../../types/logical-type.js';
import type { LogicalType } from '../../types/logical-type.js';
import { bindCall } from '../expressions/expr-factory.js';
import type { FunctionDefinition } from '../functions/function-definition.js';
import { sqlTypeName } from '../expressions/type-rules.js';
import { literal } from '../rex/rex-node.js';
import type { RexNode } from '../rex/rex-node.js';
import { rexToBound } from '../rex/rex-to-bound.js';
import { logicalTypeOf } from './ast-type.js';

/**
 * Binding of the SQL/JSON keyword forms (JSON_VALUE, JSON_QUERY, JSON_EXISTS, JSON_OBJECT, JSON_ARRAY)
 * onto the operand conventions of planner/functions/builtins/json.ts. Defaults are Flink's: NULL ON EMPTY
 * and NULL ON ERROR for JSON_VALUE/JSON_QUERY, WITHOUT ARRAY WRAPPER, FALSE ON ERROR for JSON_EXISTS,
 * NULL ON NULL for JSON_OBJECT and ABSENT ON NULL for JSON_ARRAY.
 */
export interface JsonBindContext {
  readonly bind: (e: Expression) => RexNode;
  /** Binds a JSON_OBJECT VALUE or a JSON_ARRAY element: the one place a JSON(text) call may stand. */
  readonly bindValue: (e: Expression) => RexNode;
  readonly symbol: (value: string) => RexNode;
  readonly registryCall: (name: string, args: readonly RexNode[]) => RexNode;
  readonly castTo: (n: RexNode, t: LogicalType) => RexNode;
  readonly lookup: (name: string) => FunctionDefinition | undefined;
}

const STRING = DataTypes.STRING();

function jsonInput(e: Expression, what: string, ctx: JsonBindContext, variant = false): RexNode {
  const x = ctx.bind(e);
  // A VARIANT is held as its JSON text (json-variant.ts), which JSON_VALUE reads as it reads a string (as Flink 2.3
  // answers JSON_VALUE(PARSE_JSON('{"a":1}'), '$.a') with 1).
  if (variant && x.type.kind === 'VARIANT') return x;
  if (x.type.kind !== 'NULL' && !isCharacterString(x.type)) {
    throw new ValidationError(`${what} expects a character string, but got ${sqlTypeName(x.type)}`);
  }
  return x.type.kind === 'NULL' ? literal(null, STRING) : x;
}

export function bindJsonValue(e: JsonValueExpr, ctx: JsonBindContext): RexNode {
  const rt = e.returning === null ? STRING : logicalTypeOf(e.returning);
  const behavior = (b: JsonValueBehavior | null): [RexNode, RexNode] => {
    if (b === null || b.kind === 'null') return [ctx.symbol('NULL'), literal(null, withNullability(rt, true))];
    if (b.kind === 'error') return [ctx.symbol('ERROR'), literal(null, withNullability(rt, true))];
    return [ctx.symbol('DEFAULT'), ctx.castTo(ctx.bind(b.expr), rt)];
  };
  const operands = [jsonInput(e.expr, 'JSON_VALUE', ctx, true), jsonInput(e.path, 'JSON_VALUE path', ctx), ...behavior(e.onEmpty), ...behavior(e.onError)];
  const def = ctx.lookup('JSON_VALUE');
  if (def === undefined || def.kind !== 'scalar') throw new ValidationError('JSON_VALUE is not available');
  // RETURNING shapes the result type, so the call is bound with it (rex-to-bound passes it on again).
  const type = bindCall(def, operands.map(rexToBound), rt).type;
  return { kind: 'call', op: 'JSON_VALUE', operands, type, deterministic: def.deterministic, fn: def };
}

export function bindJsonQuery(e: JsonQueryExpr, ctx: JsonBindContext): RexNode {
  const rt = e.returning === null ? STRING : logicalTypeOf(e.returning);
  const operands = [
    jsonInput(e.expr, 'JSON_QUERY', ctx),
    jsonInput(e.path, 'JSON_QUERY path', ctx),
    ctx.symbol(e.wrapper ?? 'WITHOUT ARRAY'),
    ctx.symbol(e.onEmpty ?? 'NULL'),
    ctx.symbol(e.onError ?? 'NULL'),
  ];
  const def = ctx.lookup('JSON_QUERY');
  if (def === undefined || def.kind !== 'scalar') throw new ValidationError('JSON_QUERY is not available');
  // RETURNING (a VARCHAR or an ARRAY of VARCHAR) shapes the result type, as for JSON_VALUE.
  const type = bindCall(def, operands.map(rexToBound), rt).type;
  return { kind: 'call', op: 'JSON_QUERY', operands, type, deterministic: def.deterministic, fn: def };
}

export function bindJsonExists(e: JsonExistsExpr, ctx: JsonBindContext): RexNode {
  return ctx.registryCall('JSON_EXISTS', [jsonInput(e.expr, 'JSON_EXISTS', ctx), jsonInput(e.path, 'JSON_EXISTS path', ctx), ctx.symbol(e.onError ?? 'FALSE')]);
}

export function bindJsonObject(e: JsonObjectExpr, ctx: JsonBindContext): RexNode {
  if (e.aggregate) throw new ValidationError('JSON_OBJECTAGG is an aggregate function and is not allowed here');
  const args: RexNode[] = [ctx.symbol(e.onNull ?? 'NULL')];
  for (const entry of e.entries) {
    const key = ctx.bind(entry.key);
    if (!isCharacterString(key.type)) throw new ValidationError(`JSON_OBJECT keys must be character strings, but got ${sqlTypeName(key.type)}`);
    args.push(key, ctx.bindValue(entry.value));
  }
  return withNotNull(ctx.registryCall('JSON_OBJECT', args));
}

export function bindJsonArray(e: JsonArrayExpr, ctx: JsonBindContext): RexNode {
  if (e.aggregate) throw new ValidationError('JSON_ARRAYAGG is an aggregate function and is not allowed here');
  return withNotNull(ctx.registryCall('JSON_ARRAY', [ctx.symbol(e.onNull ?? 'ABSENT'), ...e.elements.map(ctx.bindValue)]));
}

/** JSON_OBJECT and JSON_ARRAY never return NULL (Flink types them STRING NOT NULL). */
function withNotNull(n: RexNode): RexNode {
  return n.kind === 'call' ? { ...n, type: notNull(n.type) } : n;
}
