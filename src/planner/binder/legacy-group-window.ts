import { PlanningError, ValidationError } from '../../errors/sluice-error.js';
import type { Expression, FunctionCall } from '../../sql/ast/expressions.js';
import { isSourcePosition } from '../../sql/position.js';
import type { SelectItem, SelectQuery } from '../../sql/ast/query.js';
import { DataTypes } from '../../types/data-types.js';
import { isTimestamp, notNull } from '../../types/logical-type.js';
import type { PlanNode, WindowSpec } from '../logical/plan-node.js';
import { compileRex } from '../rex/compile-rex.js';
import { isConstant } from '../rex/rex-node.js';
import { bindExpression } from './bind-expression.js';
import type { ExprBindContext } from './bind-expression.js';
import { Scope } from './scope.js';

const GROUP_FUNCTIONS = new Set(['TUMBLE', 'HOP', 'SESSION']);
const START = new Set(['TUMBLE_START', 'HOP_START', 'SESSION_START']);
const END = new Set(['TUMBLE_END', 'HOP_END', 'SESSION_END']);
const TIME = new Set(['TUMBLE_ROWTIME', 'HOP_ROWTIME', 'SESSION_ROWTIME', 'TUMBLE_PROCTIME', 'HOP_PROCTIME', 'SESSION_PROCTIME']);

function fnName(e: Expression): string | undefined {
  return e.kind === 'function-call' ? e.name[e.name.length - 1]!.toUpperCase() : undefined;
}

/** Copies an AST, replacing every sub-expression for which `f` returns a node. Planning time only. */
function mapAst<T>(node: T, f: (e: Expression) => Expression | undefined): T {
  if (Array.isArray(node)) return node.map((x) => mapAst(x, f)) as T;
  if (node === null || typeof node !== 'object') return node;
  const rep = 'kind' in node ? f(node as unknown as Expression) : undefined;
  if (rep !== undefined) return rep as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === 'pos' || (k === 'end' && isSourcePosition(v)) ? v : mapAst(v, f);
  return out as T;
}

function ident(name: string, like: Expression): Expression {
  return { kind: 'identifier', names: [name], pos: like.pos };
}

/**
 * The deprecated group window syntax (`GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)` with TUMBLE_START /
 * TUMBLE_END / TUMBLE_ROWTIME in the select list, and HOP / SESSION alike) rewritten to the window TVF
 * form: a window-tvf node under the aggregate, grouping on its window_start and window_end.
 */
export function rewriteLegacyGroupWindow(
  q: SelectQuery,
  items: readonly SelectItem[],
  input: PlanNode,
  scope: Scope,
  ctx: ExprBindContext,
): { q: SelectQuery; items: SelectItem[]; input: PlanNode; scope: Scope } | undefined {
  const windowCalls = q.groupBy.flatMap((g) => (g.kind === 'group-expr' && GROUP_FUNCTIONS.has(fnName(g.expr) ?? '') ? [g.expr as FunctionCall] : []));
  if (windowCalls.length === 0) return undefined;
  if (windowCalls.length > 1) throw new PlanningError('Only one group window is allowed in GROUP BY');
  const call = windowCalls[0]!;
  const name = fnName(call)!;
  const ts = bindExpression(call.args[0]!, ctx);
  if (ts.kind !== 'input-ref' || !isTimestamp(ts.type)) {
    throw new ValidationError(`The first argument of the ${name} group window must be a time attribute column`);
  }
  const ms = (e: Expression | undefined): number => {
    if (e === undefined) throw new ValidationError(`Invalid number of arguments to ${name}`);
    const r = bindExpression(e, { ...ctx, scope: new Scope([]) });
    if (r.type.kind !== 'INTERVAL_DAY_TIME' || !isConstant(r)) throw new ValidationError(`${name} expects a constant INTERVAL DAY TO SECOND`);
    return compileRex(r)([]) as number;
  };
  let window: WindowSpec;
  if (name === 'TUMBLE') window = { kind: 'TUMBLE', size: ms(call.args[1]), offset: call.args[2] === undefined ? 0 : ms(call.args[2]) };
  else if (name === 'HOP') window = { kind: 'HOP', slide: ms(call.args[1]), size: ms(call.args[2]), offset: 0 };
  else window = { kind: 'SESSION', gap: ms(call.args[1]), offset: 0 };
  const ts3 = notNull(DataTypes.TIMESTAMP(3));
  const added = [
    { name: '$window_start', type: ts3 },
    { name: '$window_end', type: ts3 },
    { name: '$window_time', type: ts3 },
  ];
  const node: PlanNode = { kind: 'window-tvf', input, timeIndex: ts.index, window, fields: [...input.fields, ...added] };
  const newScope = new Scope([...scope.columns, ...added.map((f) => ({ qualifier: null, name: f.name, type: f.type }))]);
  const replace = (e: Expression): Expression | undefined => {
    const n = fnName(e);
    if (n === undefined) return undefined;
    if (START.has(n)) return ident('$window_start', e);
    if (END.has(n)) return ident('$window_end', e);
    if (TIME.has(n)) {
      return {
        kind: 'binary',
        op: '-',
        left: ident('$window_end', e),
        right: { kind: 'interval-literal', negative: false, value: '0.001', qualifier: { start: 'SECOND', startPrecision: null, end: null, fractionalPrecision: 3 }, pos: e.pos },
        pos: e.pos,
      };
    }
    return undefined;
  };
  const groupBy = q.groupBy.flatMap((g) =>
    g.kind === 'group-expr' && g.expr === call
      ? [
          { kind: 'group-expr' as const, expr: ident('$window_start', call), pos: g.pos },
          { kind: 'group-expr' as const, expr: ident('$window_end', call), pos: g.pos },
        ]
      : [g],
  );
  const newItems = items.map((it) => ({ ...it, expr: mapAst(it.expr, replace) }));
  const having = q.having === null ? null : mapAst(q.having, replace);
  return { q: { ...q, groupBy, having, items: newItems }, items: newItems, input: node, scope: newScope };
}
