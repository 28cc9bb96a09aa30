import { parseDuration } from '../../config/units.js';
import type { PlannerConfig } from '../planner-context.js';
import type { PhysicalPlanner } from './physical-planner.js';
import type { AggregateNode, PlanNode } from '../logical/plan-node.js';
import { inputsOf } from '../logical/plan-node.js';

/** One piece of EXPLAIN PLAN_ADVICE: the nodes it is printed on (`advice=[id]`) and its text after the plan. */
export interface PlanAdvice {
  readonly targets: ReadonlySet<PlanNode>;
  /** `[ADVICE] You might want to ...`, as `advice[id]: ` is followed by in Flink's output. */
  readonly text: string;
}

/**
 * Flink's GroupAggregationAnalyzer: a streaming GroupAggregate that the local-global (two-phase) rule could split
 * but that runs in one phase, because mini-batch is off or incomplete. Its targets are the aggregates
 * TwoStageOptimizedAggregateRule.matchesTwoStage accepts: an Exchange in front (the input is not already distributed
 * by the keys), every call mergeable, and an agg-phase strategy other than ONE_PHASE. The text lists the options
 * still to set, in Flink's order and wording. Sluice has no other analyzer (Flink's NonDeterministicUpdateAnalyzer
 * warns about non-deterministic updates), so a plan without such an aggregate has no advice.
 */
export function groupAggregationAdvice(roots: readonly PlanNode[], physical: PhysicalPlanner, config: PlannerConfig): PlanAdvice | undefined {
  if (physical.mode !== 'streaming') return undefined;
  const strategy = (config.get('table.optimizer.agg-phase-strategy') ?? 'AUTO').trim().toUpperCase();
  const enabled = (config.get('table.exec.mini-batch.enabled') ?? 'false').trim().toLowerCase() === 'true';
  const latency = parseDuration(config.get('table.exec.mini-batch.allow-latency') ?? '0') ?? 0;
  const size = Number(config.get('table.exec.mini-batch.size') ?? '-1');
  // With all three set, Flink splits the aggregate (LocalGroupAggregate / GlobalGroupAggregate): nothing to advise.
  if (strategy === 'ONE_PHASE' || (enabled && latency > 0 && size > 0)) return undefined;
  const targets = new Set<PlanNode>();
  const seen = new Set<PlanNode>();
  const visit = (n: PlanNode): void => {
    if (seen.has(n)) return;
    seen.add(n);
    if (n.kind === 'aggregate' && twoPhaseCandidate(n, physical)) targets.add(n);
    inputsOf(n).forEach(visit);
  };
  roots.forEach(visit);
  if (targets.size === 0) return undefined;
  const settings: string[] = [];
  if (!enabled) settings.push("'table.exec.mini-batch.enabled' to 'true'");
  if (latency <= 0) settings.push("'table.exec.mini-batch.allow-latency' to a positive long value");
  if (size <= 0) settings.push("'table.exec.mini-batch.size' to a positive long value");
  return { targets, text: `[ADVICE] You might want to enable local-global two-phase optimization by configuring (${settings.join(', ')}).` };
}

/** Built-in aggregates whose accumulators merge (Flink's doAllSupportPartialMerge), with or without DISTINCT. */
const MERGEABLE = new Set(['COUNT', 'SUM', 'SUM0', '$SUM0', 'MIN', 'MAX', 'AVG', 'LISTAGG']);

function twoPhaseCandidate(n: AggregateNode, physical: PhysicalPlanner): boolean {
  if (n.window !== undefined || n.aggCalls.length === 0) return false;
  return n.aggCalls.every((c) => MERGEABLE.has(c.name.toUpperCase())) && physical.hasExchange(n, n.input);
}
