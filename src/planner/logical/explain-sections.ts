import type { JobGraph, JobVertex } from '../../runtime/job-graph.js';
import { ChangelogInference } from './changelog.js';
import { CostEstimator } from './explain-cost.js';
import { jsonExecutionPlan } from './explain-json.js';
import { explainLogical, physicalNodeText, physicalTree } from './explain-plan.js';
import type { PhysicalAnnotations } from './explain-plan.js';
import { reuseSinks } from './explain-sink-reuse.js';
import { node, renderTree } from './explain-tree.js';
import type { ExplainTree } from './explain-tree.js';
import type { PlanNode } from './plan-node.js';
import { inputsOf } from './plan-node.js';

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
}

/**
 * Scans read by more than one statement of a set: Sluice reads them once (JobGraphBuilder.planShared), which
 * Flink's execution plan shows as `(reuse_id=[n])` on the first and `Reused(reference_id=[n])` on the others.
 */
function sharedScans(statements: readonly PlanNode[], mode: 'streaming' | 'batch'): Map<string, number> {
  const counts = new Map<string, number>();
  const visit = (n: PlanNode): void => {
    if (n.kind === 'scan') {
      const t = physicalNodeText(n, mode, 'infix');
      counts.set(t, (counts.get(t) ?? 0) + 1);
    }
    inputsOf(n).forEach(visit);
  };
  if (statements.length > 1) statements.forEach(visit);
  const ids = new Map<string, number>();
  for (const [t, c] of counts) if (c > 1) ids.set(t, ids.size + 1);
  return ids;
}

/** The scan texts each root reads. */
function scansOf(root: PlanNode, mode: 'streaming' | 'batch'): Set<string> {
  const out = new Set<string>();
  const visit = (n: PlanNode): void => {
    if (n.kind === 'scan') out.add(physicalNodeText(n, mode, 'infix'));
    inputsOf(n).forEach(visit);
  };
  visit(root);
  return out;
}

/**
 * A shared scan that several trees read is printed first as a block of its own; one read only inside one tree
 * (the INSERTs of a reused sink) is printed in place, where it first occurs, as Flink 2.x does.
 */
function executionPlan(statements: readonly PlanNode[], roots: readonly PlanNode[], mode: 'streaming' | 'batch'): string {
  const shared = sharedScans(statements, mode);
  const readers = new Map<string, number>();
  for (const r of roots) for (const t of scansOf(r, mode)) readers.set(t, (readers.get(t) ?? 0) + 1);
  const printed = new Set<string>();
  const replace = (n: PlanNode): ExplainTree | undefined => {
    if (n.kind !== 'scan') return undefined;
    const text = physicalNodeText(n, mode, 'infix');
    const id = shared.get(text);
    if (id === undefined) return undefined;
    if ((readers.get(text) ?? 0) > 1 || printed.has(text)) return node(`Reused(reference_id=[${id}])`);
    printed.add(text);
    return node(`${text}(reuse_id=[${id}])`);
  };
  const blocks = [...shared].filter(([text]) => (readers.get(text) ?? 0) > 1).map(([text, id]) => `${text}(reuse_id=[${id}])`);
  return [...blocks, ...roots.map((r) => renderTree(physicalTree(r, mode, 'infix', { replace })))].join('\n\n');
}

/**
 * The text of Flink's EXPLAIN: the AST, the optimized physical plan (with changelog modes and costs when
 * asked, "With Advice" for PLAN_ADVICE), the optimized execution plan and, for JSON_EXECUTION_PLAN, the
 * physical execution plan as JSON. Statements of a set are separated by a blank line in each section.
 */
export function explainPlans(p: ExplainablePlans, details: readonly string[]): string {
  const annotations: PhysicalAnnotations = {
    ...(details.includes('CHANGELOG_MODE') ? { changelog: changelogOf(p.mode) } : {}),
    ...(details.includes('ESTIMATED_COST') ? { costs: new CostEstimator() } : {}),
  };
  const advice = details.includes('PLAN_ADVICE');
  const optimized = reuseSinks(p.optimized);
  const out = [
    '== Abstract Syntax Tree ==',
    p.logical.map(explainLogical).join('\n\n'),
    '',
    advice ? '== Optimized Physical Plan With Advice ==' : '== Optimized Physical Plan ==',
    optimized.map((r) => renderTree(physicalTree(r, p.mode, 'prefix', annotations))).join('\n\n'),
    '',
  ];
  // Sluice has no plan analyzers yet, so there is never advice; Flink prints this line in that case.
  if (advice) out.push('No available advice...', '');
  out.push('== Optimized Execution Plan ==', executionPlan(p.optimized, optimized, p.mode), '');
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

function changelogOf(mode: 'streaming' | 'batch'): NonNullable<PhysicalAnnotations['changelog']> {
  const inference = new ChangelogInference(mode);
  return (n) => inference.of(n);
}
