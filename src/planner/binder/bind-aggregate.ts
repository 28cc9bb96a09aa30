import { ValidationError } from '../../errors/sluice-error.js';
import type { Expression, FunctionCall } from '../../sql/ast/expressions.js';
import type { GroupingElement, SelectItem, SelectQuery, WindowSpec } from '../../sql/ast/query.js';
import { childExpressions, walkExpression } from '../../sql/ast/visitor.js';
import { DataTypes } from '../../types/data-types.js';
import { notNull, withNullability } from '../../types/logical-type.js';
import type { LogicalType } from '../../types/logical-type.js';
import type { FunctionLookup } from '../functions/function-registry.js';
import { builtinAggregateType } from '../functions/aggregates/builtin-aggregate-types.js';
import type { AggCall, PlanNode } from '../logical/plan-node.js';
import { inputRef, literal } from '../rex/rex-node.js';
import type { RexNode } from '../rex/rex-node.js';
import { rexKey } from '../rex/rex-key.js';
import { bindExpression, castTo, checkAt, isAggregateCall } from './bind-expression.js';
import { checkJsonWritable } from '../functions/builtins/json-write.js';
import { itemName, project, type QueryBinder, VARIANT_NOT_ORDERABLE } from './bind-query.js';
import { bindOver, hasOverCalls } from './bind-over.js';
import { Scope } from './scope.js';
import { rewriteLegacyGroupWindow } from './legacy-group-window.js';

/** True when the SELECT groups: GROUP BY, HAVING, or an aggregate call in the select list. */
export function needsAggregate(q: SelectQuery, functions: FunctionLookup | undefined): boolean {
  if (q.groupBy.length > 0 || q.having !== null) return true;
  return q.items.some((it) => findAggregates(it.expr, functions).length > 0);
}

/** Aggregate calls in `e`, outermost only (not entering their arguments). */
export function findAggregates(e: Expression, functions: FunctionLookup | undefined, out: Expression[] = []): Expression[] {
  if (isAggregateCall(e, functions)) {
    out.push(e);
    return out;
  }
  for (const c of childExpressions(e)) findAggregates(c, functions, out);
  // An OVER window over grouped rows may partition or order by an aggregate (`RANK() OVER (ORDER BY COUNT(*))`).
  if (e.kind === 'function-call' && e.over?.kind === 'window-spec') for (const c of windowExpressions(e.over)) findAggregates(c, functions, out);
  return out;
}

function windowExpressions(w: WindowSpec): Expression[] {
  return [...w.partitionBy, ...w.orderBy.map((o) => o.expr)];
}

/**
 * GROUP BY binding (Calcite's AggregateScope): a pre-projection of group keys and aggregate arguments, the
 * Aggregate, then HAVING and the select list bound against the aggregate's output.
 */
export function bindAggregate(binder: QueryBinder, q0: SelectQuery, items0: readonly SelectItem[], input0: PlanNode, scope0: Scope): PlanNode {
  const functions = binder.functions;
  const legacy = rewriteLegacyGroupWindow(q0, items0, input0, scope0, binder.exprContext(scope0));
  const q = legacy?.q ?? q0;
  const items = legacy?.items ?? items0;
  const input = legacy?.input ?? input0;
  const scope = legacy?.scope ?? scope0;
  const inputCtx = binder.exprContext(scope);
  const sets = groupingSets(q.groupBy);
  const groupExprs: Expression[] = sets.flat();
  const pre: RexNode[] = [];
  const preKeys = new Map<string, number>();
  const preIndex = (r: RexNode): number => {
    const k = rexKey(r);
    let i = preKeys.get(k);
    if (i === undefined) {
      i = pre.length;
      pre.push(r);
      preKeys.set(k, i);
    }
    return i;
  };
  const groupRex = groupExprs.map((e, i) => {
    const r = bindExpression(e, inputCtx);
    // As Flink 2.3: a VARIANT has no order or hash of its own there.
    if (r.type.kind === 'VARIANT') {
      checkAt(groupExprs[i]!, inputCtx.positioned, () => {
        throw new ValidationError(VARIANT_NOT_ORDERABLE);
      });
    }
    return r;
  });
  const groupKeyIdx: number[] = [];
  const groupKeyByRex = new Map<string, number>();
  for (const r of groupRex) {
    const k = rexKey(r);
    if (groupKeyByRex.has(k)) continue;
    groupKeyByRex.set(k, groupKeyIdx.length);
    groupKeyIdx.push(preIndex(r));
  }
  const groupCount = groupKeyIdx.length;

  const aggAsts = [...items.map((i) => i.expr), ...(q.having === null ? [] : [q.having]), ...q.windows.flatMap((w) => windowExpressions(w.spec))].flatMap((e) =>
    findAggregates(e, functions),
  );
  const calls: AggCall[] = [];
  const callByKey = new Map<string, number>();
  const callIndexOfAst = new Map<Expression, number>();
  for (const ast of aggAsts) {
    const a = aggregateParts(ast);
    const name = a.name;
    const star = a.args.length === 1 && a.args[0]!.kind === 'star';
    const argRex = star ? [] : a.args.map((x) => {
      if (findAggregates(x, functions).length > 0) {
        checkAt(ast, inputCtx.positioned, () => {
          throw new ValidationError('Aggregate function calls cannot be nested');
        });
      }
      return bindExpression(x, inputCtx);
    });
    // JSON_OBJECTAGG / JSON_ARRAYAGG aggregate the JSON text of their value, JSON_STRING(value), which the optimizer
    // adds below the aggregate as Flink's WrapJsonAggFunctionArgumentsRule does (rules/optimize.ts); a value JSON_STRING
    // cannot write (a DATE) is refused here. JSON(text) stays refused, as in Flink ("only supported inside JSON_ARRAY()
    // or as the VALUE param of JSON_OBJECT()").
    if (a.jsonValueArg !== undefined && argRex.length > a.jsonValueArg) {
      const value = argRex[a.jsonValueArg]!;
      checkAt(ast, inputCtx.positioned, () => checkJsonWritable(value.type, name));
    }
    // COUNT of an argument that is never NULL counts rows: Calcite's RelBuilder plans it as COUNT(*), so Flink never
    // evaluates the argument (COUNT(CAST(' pad ' AS DECIMAL(20, 6))) is the row count there, not a cast error).
    if (name === 'COUNT' && a.quantifier !== 'DISTINCT' && argRex.length === 1 && !argRex[0]!.type.nullable) argRex.length = 0;
    if (a.quantifier === 'DISTINCT' && argRex.some((r) => r.type.kind === 'VARIANT')) {
      checkAt(ast, inputCtx.positioned, () => {
        throw new ValidationError(VARIANT_NOT_ORDERABLE);
      });
    }
    const filterRex = a.filter === null ? null : bindExpression(a.filter, inputCtx);
    const key = `${name}|${a.quantifier === 'DISTINCT'}|${argRex.map(rexKey).join(',')}|${filterRex === null ? '' : rexKey(filterRex)}`;
    let idx = callByKey.get(key);
    if (idx === undefined) {
      const args = argRex.map(preIndex);
      const filterArg = filterRex === null ? -1 : preIndex(filterRex);
      const type = checkAt(ast, inputCtx.positioned, () =>
        aggregateType(name, argRex.map((r) => r.type), groupCount === 0 || filterRex !== null, functions, a.quantifier === 'DISTINCT'),
      );
      idx = calls.length;
      calls.push({ name, args, distinct: a.quantifier === 'DISTINCT', filterArg, type, alias: '' });
      callByKey.set(key, idx);
    }
    callIndexOfAst.set(ast, idx);
  }

  const preNames = pre.map((r, i) => (r.kind === 'input-ref' ? r.name : `$f${i}`));
  const preNode = project(input, pre, preNames);
  const aliasOf = new Map<number, string>();
  items.forEach((it, i) => {
    const c = callIndexOfAst.get(it.expr);
    if (c !== undefined && !aliasOf.has(c)) aliasOf.set(c, itemName(it, i));
  });
  const finalCalls = calls.map((c, i) => ({ ...c, alias: aliasOf.get(i) ?? `EXPR$${groupCount + i}` }));
  const fields = [
    ...groupKeyIdx.map((p) => preNode.fields[p]!),
    ...finalCalls.map((c) => ({ name: c.alias, type: c.type })),
  ];
  let agg: PlanNode = { kind: 'aggregate', input: preNode, groupKeys: groupKeyIdx, aggCalls: finalCalls, fields };
  const setKeys = sets.map((set) => [...new Set(set.map((e) => groupKeyByRex.get(rexKey(bindExpression(e, inputCtx)))!))].sort((a, b) => a - b));
  const groupingSetsUsed = sets.length > 1 || (sets.length === 1 && setKeys[0]!.length !== groupCount);
  // GROUPING(k, ...) / GROUPING_ID(k, ...): one bit per argument, most significant first, set where the key is
  // aggregated away in the row's grouping set (Flink returns a BIGINT). Each distinct call is a column of its own.
  const grouping = groupingCalls([...items.map((i) => i.expr), ...(q.having === null ? [] : [q.having])]).map((call) => ({
    call,
    keys: call.args.map((a) => {
      const g = groupKeyByRex.get(rexKey(bindExpression(a, inputCtx)));
      if (g === undefined) {
        return checkAt(a, inputCtx.positioned, () => {
          throw new ValidationError('Argument to GROUPING operator must be a grouped expression');
        });
      }
      return g;
    }),
  }));
  const groupingType = notNull(DataTypes.BIGINT());
  const groupingValue = (keys: readonly number[], present: readonly number[]): bigint =>
    keys.reduce((v, k) => (v << 1n) | (present.includes(k) ? 0n : 1n), 0n);
  const groupingColumn = new Map<Expression, number>();
  if (groupingSetsUsed) {
    // GROUPING SETS / ROLLUP / CUBE: one aggregate per set, keys missing from a set are NULL, then UNION ALL.
    for (let k = 0; k < groupCount; k++) fields[k] = { ...fields[k]!, type: withNullability(fields[k]!.type, true) };
    const callsEnd = groupCount + finalCalls.length;
    grouping.forEach((g, i) => {
      groupingColumn.set(g.call, fields.length);
      fields.push({ name: `$g${i}`, type: groupingType });
    });
    const branches = setKeys.map((keys): PlanNode => {
      const a: PlanNode = {
        kind: 'aggregate',
        input: preNode,
        groupKeys: keys.map((k) => groupKeyIdx[k]!),
        aggCalls: finalCalls,
        fields: [...keys.map((k) => fields[k]!), ...fields.slice(groupCount, callsEnd)],
      };
      const projects = fields.map((f, j) => {
        if (j >= callsEnd) return literal(groupingValue(grouping[j - callsEnd]!.keys, keys), f.type);
        if (j >= groupCount) return inputRef(keys.length + (j - groupCount), f.name, f.type);
        const at = keys.indexOf(j);
        return at < 0 ? literal(null, f.type) : castTo(inputRef(at, f.name, a.fields[at]!.type), f.type);
      });
      return { kind: 'calc', input: a, projects, condition: null, fields };
    });
    agg = branches.length === 1 ? branches[0]! : { kind: 'union', inputs: branches, fields };
  }

  const intercept = (e: Expression): RexNode | undefined => {
    const gi = grouping.find((g) => g.call === e);
    if (gi !== undefined) {
      // A plain GROUP BY aggregates no key away: every GROUPING is 0.
      const col = groupingColumn.get(e);
      return col === undefined ? literal(groupingValue(gi.keys, gi.keys), groupingType) : inputRef(col, fields[col]!.name, groupingType);
    }
    const ci = callIndexOfAst.get(e);
    if (ci !== undefined) {
      const f = fields[groupCount + ci]!;
      return inputRef(groupCount + ci, f.name, f.type);
    }
    if (e.kind === 'numeric-literal' || e.kind === 'string-literal' || e.kind === 'boolean-literal' || e.kind === 'null-literal') return undefined;
    let bound: RexNode | undefined;
    let failure: unknown;
    try {
      bound = bindExpression(e, inputCtx);
    } catch (err) {
      bound = undefined;
      failure = err;
    }
    if (bound !== undefined) {
      const g = groupKeyByRex.get(rexKey(bound));
      if (g !== undefined) return inputRef(g, fields[g]!.name, fields[g]!.type);
    }
    if (e.kind === 'identifier') {
      // A name that is no column of the input at all gets that error, not "is not being grouped".
      if (failure !== undefined) throw failure;
      throw new ValidationError(`Expression '${e.names.join('.')}' is not being grouped`);
    }
    return undefined;
  };
  const outCtx = binder.exprContext(Scope.of(fields, null), intercept);
  let node: PlanNode = agg;
  if (q.having !== null) {
    const cond = bindExpression(q.having, outCtx);
    node = { kind: 'calc', input: node, projects: fields.map((f, i) => inputRef(i, f.name, f.type)), condition: cond, fields };
  }
  let selectCtx = outCtx;
  if (hasOverCalls(items)) {
    // OVER windows over the grouped rows (`SUM(COUNT(*)) OVER ()`): their arguments, partitions and orders read the
    // aggregate's output, and the over nodes add their columns after it, so the aggregate's fields keep their places.
    const over = bindOver(items, q.windows, node, Scope.of(fields, null), outCtx, binder.ctx.mode);
    node = over.node;
    selectCtx = binder.exprContext(over.scope, (e) => over.intercept(e) ?? intercept(e));
  }
  const exprs = items.map((it) => bindExpression(it.expr, selectCtx));
  return project(node, exprs, items.map((it, i) => itemName(it, i)));
}

/** An aggregate call's name, arguments and modifiers; JSON_OBJECTAGG / JSON_ARRAYAGG under Flink's names. */
function aggregateParts(e: Expression): Pick<FunctionCall, 'args' | 'quantifier' | 'filter'> & { readonly name: string; readonly jsonValueArg?: number } {
  switch (e.kind) {
    case 'function-call':
      return { name: e.name[e.name.length - 1]!.toUpperCase(), args: e.args, quantifier: e.quantifier, filter: e.filter };
    case 'json-object':
      if (e.entries.length !== 1) throw new ValidationError('JSON_OBJECTAGG takes exactly one KEY ... VALUE ... pair');
      return { name: `JSON_OBJECTAGG_${e.onNull ?? 'NULL'}_ON_NULL`, args: [e.entries[0]!.key, e.entries[0]!.value], quantifier: null, filter: null, jsonValueArg: 1 };
    case 'json-array':
      if (e.elements.length !== 1) throw new ValidationError('JSON_ARRAYAGG takes exactly one value');
      return { name: `JSON_ARRAYAGG_${e.onNull ?? 'ABSENT'}_ON_NULL`, args: [e.elements[0]!], quantifier: null, filter: null, jsonValueArg: 0 };
    default:
      throw new ValidationError(`Expression '${e.kind}' is not an aggregate call`);
  }
}

/** The grouping sets of a GROUP BY clause (one set for a plain GROUP BY), as lists of expressions. */
export function groupingSets(elements: readonly GroupingElement[]): Expression[][] {
  let sets: Expression[][] = [[]];
  const cross = (a: Expression[][], b: Expression[][]): Expression[][] => a.flatMap((x) => b.map((y) => [...x, ...y]));
  const flatten = (e: Expression): Expression[] => (e.kind === 'row-constructor' && !e.explicit ? [...e.elements] : [e]);
  const setsOf = (g: GroupingElement): Expression[][] => {
    switch (g.kind) {
      case 'group-expr':
        return [flatten(g.expr)];
      case 'group-empty':
        return [[]];
      case 'grouping-sets':
        return g.elements.flatMap(setsOf);
      case 'rollup': {
        const out: Expression[][] = [];
        for (let n = g.elements.length; n >= 0; n--) out.push(g.elements.slice(0, n).flatMap(flatten));
        return out;
      }
      case 'cube': {
        const out: Expression[][] = [];
        const n = g.elements.length;
        for (let mask = (1 << n) - 1; mask >= 0; mask--) out.push(g.elements.filter((_, i) => (mask & (1 << (n - 1 - i))) !== 0).flatMap(flatten));
        return out;
      }
      default: {
        const never: never = g;
        return never;
      }
    }
  };
  for (const g of elements) sets = cross(sets, setsOf(g));
  return sets;
}

/** Result type of an aggregate call: a built-in's as Flink infers it, else its definition's. */
export function aggregateType(
  name: string,
  args: readonly LogicalType[],
  forceNullable: boolean,
  functions: FunctionLookup | undefined,
  distinct: boolean,
): LogicalType {
  const builtin = builtinAggregateType(name, args, forceNullable);
  if (builtin !== undefined) return builtin;
  const def = functions?.lookup(name);
  if (def?.kind === 'aggregate') return def.inferType(args, { distinct });
  throw new ValidationError(`No match found for function signature ${name}`);
}

/** The GROUPING(...) / GROUPING_ID(...) calls in `exprs`, also in the PARTITION BY / ORDER BY of OVER windows. */
function groupingCalls(exprs: readonly Expression[]): FunctionCall[] {
  const out: FunctionCall[] = [];
  const visit = (x: Expression): void => {
    if (x.kind !== 'function-call') return;
    if (x.over?.kind === 'window-spec') for (const w of windowExpressions(x.over)) walkExpression(w, visit);
    const name = x.name[x.name.length - 1]!.toUpperCase();
    if (x.over === null && (name === 'GROUPING' || name === 'GROUPING_ID') && x.name.length === 1) out.push(x);
  };
  for (const e of exprs) walkExpression(e, visit);
  return [...new Set(out)];
}
