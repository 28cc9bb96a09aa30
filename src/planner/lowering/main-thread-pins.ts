import { mainThreadOnlyReason } from '../../factories/main-thread-only.js';
import type { FunctionLookup } from '../functions/function-registry.js';
import { inputsOf, type PlanNode } from '../logical/plan-node.js';

/**
 * Why the operator(s) of plan node `n` must run on the main thread: the source it reads, for a scan or a lookup
 * join whose connector is registered in code without a module (factories/main-thread-only.ts), then the
 * `mainThread` reasons of the functions it calls (functions registered in code, whose closures no worker thread
 * can load), in order, without repeats; empty when it may run anywhere.
 *
 * Each node kind keeps its expressions in fields of its own (projections, conditions, aggregate calls,
 * MATCH_RECOGNIZE measures, computed columns of a scan), so the node's plain data is walked rather than
 * a list of fields per kind: a node kind added later is covered too. Its inputs (other plan nodes) and
 * connector objects (class instances) are not walked.
 */
export function mainThreadReasons(n: PlanNode, functions: FunctionLookup | undefined): string[] {
  // Literal rows call nothing, and may be many.
  if (n.kind === 'values') return [];
  const inputs = new Set<unknown>(inputsOf(n));
  const reasons = new Set<string>();
  if (n.kind === 'scan' || n.kind === 'lookup-join') addReason(reasons, mainThreadOnlyReason(n.source));
  const seen = new Set<unknown>();
  const stack: unknown[] = Object.values(n);
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null || seen.has(v) || inputs.has(v)) continue;
    seen.add(v);
    if (Array.isArray(v)) {
      stack.push(...v);
      continue;
    }
    if (Object.getPrototypeOf(v) !== Object.prototype) continue;
    const o = v as Record<string, unknown>;
    // A scalar call the binder resolved (a table function's call too: bind-lateral-table.ts).
    if (o.kind === 'call' && typeof o.fn === 'object' && o.fn !== null) addReason(reasons, (o.fn as { mainThread?: unknown }).mainThread);
    // An aggregate call (AggCall, a MATCH_RECOGNIZE aggregate) names its function; the lowering looks it up.
    if (typeof o.name === 'string' && Array.isArray(o.args)) {
      const def = functions?.lookup(o.name);
      if (def?.kind === 'aggregate') addReason(reasons, def.mainThread);
    }
    stack.push(...Object.values(o));
  }
  return [...reasons];
}

function addReason(into: Set<string>, reason: unknown): void {
  if (typeof reason === 'string') into.add(reason);
}
