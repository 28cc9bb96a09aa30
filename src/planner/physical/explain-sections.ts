import type { JobGraph, JobVertex } from '../../runtime/job-graph.js';
import { CostEstimator } from '../logical/explain-cost.js';
import { jsonExecutionPlan } from '../logical/explain-json.js';
import { explainLogical, physicalNodeText } from '../logical/explain-plan.js';
import { physicalRootTree } from './explain-physical.js';
import type { PhysicalAnnotations } from './explain-physical.js';
import { reuseSinks } from '../logical/explain-sink-reuse.js';
import { node, renderTree } from '../logical/explain-tree.js';
import { reuseSubplans } from '../logical/subplan-reuse.js';
import type { ReuseOptions } from '../logical/subplan-reuse.js';
import type { ExplainTree } from '../logical/explain-tree.js';
import type { PlanNode } from '../logical/plan-node.js';
import { groupAggregationAdvice } from './plan-advice.js';
import type { PlannerConfig } from '../planner-context.js';
import { inputsOf } from '../logical/plan-node.js';
import { PhysicalPlanner } from './physical-planner.js';

/** EXPLAIN's optional keywords, as the SQL parser gives them. */
export type ExplainDetailName = 'ESTIMATED_COST' | 'CHANGELOG_MODE' | 'JSON_EXECUTION_PLAN' | 'PLAN_ADVICE';

/** What EXPLAIN needs of a planned statement: one logical and one optimized root per query or INSERT. */
export interface ExplainablePlans {
  readonly logical: readonly PlanNode[];
  readonly optimized: readonly PlanNode[];
  readonly mode: 'streaming' | 'batch';
  /** Builds the job graph for JSON_EXECUTION_PLAN; called at most once, only when that detail is asked for. */
  readonly jobGraph: () => JobGraph;
  /** True for a SELECT: its collect sink is left out of the JSON plan, as Flink's EXPLAIN shows no sink. */
  readonly isQuery: boolean;
  /** Sub-plan reuse as the job graph does it: the execution plan shows each shared node once. */
  readonly reuse: ReuseOptions;
  /** The session's options, which PLAN_ADVICE reads (mini-batch, agg-phase strategy); none: the defaults. */
  readonly config?: PlannerConfig;
}

/**
 * Flink's reuse ids (ExecNodePlanDumper's ReuseIdBuilder): walking the roots depth-first, inputs in order, a node
 * met a second time is a reused one; ids count from 1 in the order of those second meetings.
 */
function reuseIds(roots: readonly ExplainTree[]): Map<string, number> {
  const visited = new Set<string>();
  const ids = new Map<string, number>();
  const visit = (t: ExplainTree): void => {
    const k = t.key;
    if (k !== undefined) {
      if (visited.has(k)) {
        if (!ids.has(k)) ids.set(k, ids.size + 1);
        return;
      }
      visited.add(k);
    }
    t.children.forEach(visit);
  };
  roots.forEach(visit);
  return ids;
}

/**
 * The Optimized Execution Plan, as Flink's ExecNodePlanDumper prints its exec node graph, where a sub-plan that
 * sub-plan reuse shared is one node with several consumers. One root (a query, or the INSERTs of one reused sink)
 * prints as a tree: a shared node in full with `(reuse_id=[n])` where first met, `Reused(reference_id=[n])` after.
 * Several roots print as a DAG: each shared node first as a block of its own (after the shared nodes below it),
 * then each root, every shared node in them as `Reused(reference_id=[n])`; blocks are separated by a blank line.
 */
function executionPlan(roots: readonly ExplainTree[]): string {
  const ids = reuseIds(roots);
  const idOf = (t: ExplainTree): number | undefined => (t.key === undefined ? undefined : ids.get(t.key));
  if (roots.length === 1) {
    const printed = new Set<string>();
    const tree = (t: ExplainTree): ExplainTree => {
      const id = idOf(t);
      if (id === undefined) return node(t.text, t.children.map(tree));
      if (printed.has(t.key!)) return node(`Reused(reference_id=[${id}])`);
      printed.add(t.key!);
      return node(`${t.text}(reuse_id=[${id}])`, t.children.map(tree));
    };
    return renderTree(tree(roots[0]!));
  }
  const visits = new Set<string>();
  const done = new Set<string>();
  const blocks: string[] = [];
  // `head` is the shared node whose own block is being printed: it alone is printed in full.
  const tree = (t: ExplainTree, head: ExplainTree): ExplainTree => {
    const id = idOf(t);
    if (id === undefined) return node(t.text, t.children.map((c) => tree(c, head)));
    if (t !== head) return node(`Reused(reference_id=[${id}])`);
    return node(`${t.text}(reuse_id=[${id}])`, t.children.map((c) => tree(c, head)));
  };
  const visit = (t: ExplainTree, root: boolean): void => {
    const first = t.key === undefined || !visits.has(t.key);
    if (t.key !== undefined) visits.add(t.key);
    if (first) t.children.forEach((c) => visit(c, false));
    const shared = idOf(t) !== undefined;
    if (root || (shared && first && !done.has(t.key!))) {
      blocks.push(renderTree(tree(t, t)));
      if (shared) done.add(t.key!);
    }
  };
  roots.forEach((r) => visit(r, true));
  return blocks.join('\n\n');
}

/**
 * The text of Flink's EXPLAIN: the AST, the optimized physical plan (with changelog modes and costs when
 * asked, "With Advice" for PLAN_ADVICE), the optimized execution plan and, for JSON_EXECUTION_PLAN, the
 * physical execution plan as JSON. Statements of a set are separated by a blank line in each section.
 */
export function explainPlans(p: ExplainablePlans, details: readonly string[]): string {
  const advice = details.includes('PLAN_ADVICE');
  const optimized = reuseSinks(p.optimized);
  // One physical plan for both sections: the execution plan's shared nodes are other objects, planned on demand.
  const physical = new PhysicalPlanner(p.mode);
  const found = advice ? groupAggregationAdvice(optimized, physical, p.config ?? new Map<string, string>()) : undefined;
  const annotations: PhysicalAnnotations = {
    ...(details.includes('CHANGELOG_MODE') ? { changelog: (n: PlanNode) => physical.of(n).changelog } : {}),
    ...(details.includes('ESTIMATED_COST') ? { costs: new CostEstimator((parent, input) => physical.hasExchange(parent, input)) } : {}),
    ...(found === undefined ? {} : { advice: (n: PlanNode) => (found.targets.has(n) ? 1 : undefined) }),
  };
  const out = [
    '== Abstract Syntax Tree ==',
    p.logical.map(explainLogical).join('\n\n'),
    '',
    advice ? '== Optimized Physical Plan With Advice ==' : '== Optimized Physical Plan ==',
    optimized.map((r) => renderTree(physicalRootTree(r, physical, 'prefix', annotations))).join('\n\n'),
    '',
  ];
  // Flink prints this line when its analyzers find nothing.
  if (advice) out.push(found === undefined ? 'No available advice...' : `advice[1]: ${found.text}`, '');
  const shared = reuseSubplans(optimized, p.reuse);
  out.push('== Optimized Execution Plan ==', executionPlan(shared.map((r) => physicalRootTree(r, physical, 'infix'))), '');
  if (details.includes('JSON_EXECUTION_PLAN')) {
    const graph = p.jobGraph();
    const skip = p.isQuery ? (v: JobVertex): boolean => v.kind === 'sink' && v.name === 'collect' : undefined;
    // Flink's plan ends with the JSON's closing brace, without the line break the other sections end with.
    out.push('== Physical Execution Plan ==', jsonExecutionPlan(graph, skip, infixNames(p.optimized, p.mode)));
  }
  return out.join('\n');
}

/**
 * Job graph vertices and operators are named by their node's physical plan text (to-job-graph.ts); Flink names
 * them as its execution plan prints the node, with infix expressions (`where=[(a > 10)]`). Maps the one to the other.
 */
function infixNames(roots: readonly PlanNode[], mode: 'streaming' | 'batch'): (name: string) => string {
  const infix = new Map<string, string>();
  const visit = (n: PlanNode): void => {
    infix.set(physicalNodeText(n, mode), physicalNodeText(n, mode, 'infix'));
    inputsOf(n).forEach(visit);
  };
  roots.forEach(visit);
  return (name) => infix.get(name) ?? name;
}
