import { PlanningError, ValidationError } from '../../errors/sluice-error.js';
import type { JoinRef, TableFunctionRef } from '../../sql/ast/query.js';
import { DataTypes } from '../../types/data-types.js';
import { notNull, withNullability } from '../../types/logical-type.js';
import type { LogicalType } from '../../types/logical-type.js';
import type { ScalarFunctionDefinition, TableFunctionDefinition } from '../functions/function-definition.js';
import type { PlanNode } from '../logical/plan-node.js';
import type { RexNode } from '../rex/rex-node.js';
import { bindExpression, castTo } from './bind-expression.js';
import { identity, requireBoolean } from './bind-query.js';
import type { BoundRelation, Cte, QueryBinder } from './bind-query.js';
import { Scope } from './scope.js';

/*
 * `t, LATERAL TABLE(f(t.x)) AS u(a, b)`, `t CROSS JOIN LATERAL TABLE(...)`, `t JOIN LATERAL TABLE(...) ON cond`
 * and `t LEFT JOIN LATERAL TABLE(...) ON TRUE`. A correlated table function call has the same shape as
 * `JOIN UNNEST(arr)` (zero or more rows per input row, the input's fields followed by the produced ones),
 * so it is planned as an unnest node over a call that collects the function's rows into an ARRAY of ROW:
 * the unnest operator, its changelog handling (row kinds pass through) and both modes come for free.
 */

/** True for the right side of a join that this file binds. */
export function isLateralTableFunction(ref: JoinRef): ref is JoinRef & { right: TableFunctionRef } {
  return ref.right.kind === 'table-function' && ref.right.lateral;
}

export async function bindLateralTable(binder: QueryBinder, ref: JoinRef & { right: TableFunctionRef }, ctes: ReadonlyMap<string, Cte>): Promise<BoundRelation> {
  const fnRef = ref.right;
  const call = fnRef.call;
  const written = call.name.join('.');
  const name = call.name[call.name.length - 1]!.toUpperCase();
  if (ref.joinType === 'RIGHT' || ref.joinType === 'FULL') {
    throw new PlanningError(`${ref.joinType} JOIN LATERAL TABLE is not supported; use CROSS JOIN, JOIN ... ON TRUE or LEFT JOIN ... ON TRUE`);
  }
  if (ref.natural || ref.condition?.kind === 'using') throw new PlanningError('JOIN LATERAL TABLE supports only an ON condition, not NATURAL or USING');
  const onTrue = ref.condition === null || (ref.condition.kind === 'on' && ref.condition.expr.kind === 'boolean-literal' && ref.condition.expr.value);
  // As Flink: a LEFT join keeps unmatched input rows only when every produced row joins (ON TRUE).
  if (ref.joinType === 'LEFT' && !onTrue) throw new PlanningError('LEFT JOIN LATERAL TABLE supports only ON TRUE; filter the function rows in WHERE or in the function instead');
  const def = binder.functions.lookup(name);
  if (def === undefined || def.kind !== 'table') {
    const what = def === undefined ? 'no function of that name is registered' : `it is a ${def.kind} function`;
    throw new ValidationError(`LATERAL TABLE(${written}(...)) requires a table function, but ${what}; register one with createTemporarySystemFunction('${written}', { kind: 'table', eval, resultType })`);
  }
  if (call.quantifier !== null || call.filter !== null || call.over !== null) throw new ValidationError(`Table function ${name} takes plain arguments (no DISTINCT, FILTER or OVER)`);
  const left = await binder.bindTableRef(ref.left, ctes);
  const ctx = binder.exprContext(left.scope);
  let args: RexNode[] = call.args.map((a) => {
    if (a.kind === 'named-argument') throw new ValidationError(`Table function ${name} does not take named arguments ('${a.name}')`);
    return bindExpression(a, ctx);
  });
  const targets = def.coerceOperands?.(args.map((a) => a.type));
  if (targets !== undefined) args = args.map((a, i) => castTo(a, targets[i]!));
  const rowType = def.inferType(args.map((a) => a.type));
  if (rowType.kind !== 'ROW') throw new PlanningError(`Table function ${name} must produce a ROW type, but produces ${rowType.kind}`);
  const aliases = fnRef.columnAliases.map((c) => c.value);
  if (aliases.length > 0 && aliases.length !== rowType.fields.length) {
    throw new ValidationError(
      `List of column aliases must have same degree as table; table has ${rowType.fields.length} columns (${rowType.fields.map((f) => f.name).join(', ')}), whereas alias list has ${aliases.length} columns`,
    );
  }
  const rowsType = notNull(DataTypes.ARRAY(notNull(rowType)));
  const collection: RexNode = {
    kind: 'call',
    op: name,
    operands: args,
    type: rowsType,
    // Never folded at plan time: a UDTF may have side effects or depend on when it runs.
    deterministic: false,
    fn: collectRows(def, rowsType),
  };
  const keepEmpty = ref.joinType === 'LEFT';
  // The unnest node makes ROW element fields nullable; aliases rename them, positions stay.
  const named = rowType.fields.map((f, i) => ({ name: aliases[i] ?? f.name, type: withNullability(f.type, true) }));
  let node: PlanNode = { kind: 'unnest', input: left.node, collection, withOrdinality: false, keepEmpty, fields: [...left.node.fields, ...named] };
  const scope = left.scope.concat(Scope.of(named, fnRef.alias?.value ?? null));
  if (!onTrue && ref.condition?.kind === 'on') {
    // An inner join's ON over the produced rows is a filter on the correlated rows.
    const cond = bindExpression(ref.condition.expr, binder.exprContext(scope));
    requireBoolean(cond, 'ON');
    node = { kind: 'calc', input: node, projects: identity(node.fields), condition: cond, fields: node.fields };
  }
  return { node, scope };
}

/**
 * The table function as a scalar call returning the rows of one input as an array: called per input row
 * by the compiled collection expression of the unnest operator, synchronously.
 */
function collectRows(def: TableFunctionDefinition, rowsType: LogicalType): ScalarFunctionDefinition {
  return {
    kind: 'scalar',
    name: def.name,
    deterministic: false,
    // The binder checked the arguments already; the code generator asks again when it compiles the call.
    inferType: () => rowsType,
    ...(def.mainThread === undefined ? {} : { mainThread: def.mainThread }),
    codegen: {
      kind: 'runtime',
      fn: (...args: never[]) => {
        const out: unknown[][] = [];
        for (const r of def.eval(...(args as unknown[]))) out.push(r);
        return out;
      },
    },
  };
}
