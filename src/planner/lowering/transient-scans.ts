import { builtinFunctions } from '../functions/builtin-registry.js';
import type { FunctionDefinition } from '../functions/function-definition.js';
import { inputsOf, type PlanNode, type ScanNode } from '../logical/plan-node.js';
import type { RexNode } from '../rex/rex-node.js';

/**
 * The scans whose values die with the batch that carries them (ScanContext.transientValues): every reader of the
 * scan, up to every sink it reaches, is a calc calling built-in functions only or a union, and each of those sinks
 * says it keeps no row values (DynamicTableSink.keepsRowValues). Anything else (an operator with state, a user
 * function that might keep its arguments, the rows a SELECT hands back, a sink that buffers) may keep values for
 * as long as it likes, so the scans below it get no such promise.
 */
export function transientScans(roots: readonly PlanNode[]): ReadonlySet<ScanNode> {
  const transient = new Set<ScanNode>();
  const kept = new Set<ScanNode>();
  const builtins = new Set<FunctionDefinition>(builtinFunctions());
  // Per node, how it was reached so far (1: values die, 2: values may be kept): sub-plan reuse shares nodes.
  const reached = new Map<PlanNode, number>();
  const walk = (n: PlanNode, dies: boolean): void => {
    const bit = dies ? 1 : 2;
    const was = reached.get(n) ?? 0;
    if ((was & bit) !== 0) return;
    reached.set(n, was | bit);
    switch (n.kind) {
      case 'scan':
        (dies ? transient : kept).add(n);
        return;
      case 'calc':
        walk(n.input, dies && callsBuiltinsOnly(n.condition === null ? n.projects : [...n.projects, n.condition], builtins));
        return;
      case 'union':
        for (const i of n.inputs) walk(i, dies);
        return;
      case 'sink':
        walk(n.input, dies && n.sink.keepsRowValues?.() === false);
        return;
      default:
        for (const i of inputsOf(n)) walk(i, false);
    }
  };
  for (const r of roots) walk(r, r.kind === 'sink');
  for (const s of kept) transient.delete(s);
  return transient;
}

/** Whether every call in `exprs` is of a built-in function (or an operator the binder types itself). */
function callsBuiltinsOnly(exprs: readonly RexNode[], builtins: ReadonlySet<FunctionDefinition>): boolean {
  const stack: unknown[] = [...exprs];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null) continue;
    if (Array.isArray(v)) {
      stack.push(...v);
      continue;
    }
    const o = v as { kind?: unknown; fn?: unknown; operands?: unknown };
    if (o.kind === 'call' && o.fn !== undefined && !builtins.has(o.fn as FunctionDefinition)) return false;
    // Walk every nested expression (operands, CASE branches, subfields), whatever its node kind names them.
    for (const x of Object.values(o)) if (typeof x === 'object' && x !== null && x !== o.fn) stack.push(x);
  }
  return true;
}
