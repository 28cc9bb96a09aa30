// EXPLAIN's optimized plans (the physical plan and the execution plan): the physical plan as a tree of lines, each
// node with the exchanges the physical plan put in front of its inputs, and its annotations (changelog, cost, advice).
import type { ChangelogMode } from '../../factories/changelog-mode.js';
import { costSuffix, type CostEstimator, type PlanCost } from '../logical/explain-cost.js';
import { physicalNodeText, type PhysicalStyle } from '../logical/explain-plan.js';
import type { ExplainTree } from '../logical/explain-tree.js';
import { hasWatermarkAssigner, watermarkAssignerView } from '../logical/explain-watermark.js';
import type { CalcNode, PlanNode, ScanNode } from '../logical/plan-node.js';
import { inputsOf } from '../logical/plan-node.js';
import { distributionText } from './distribution.js';
import type { PhysicalPlanner } from './physical-planner.js';

/** The Exchange line in front of input `i` of `n`, if the physical plan has an exchange there. */
function exchangeText(physical: PhysicalPlanner, n: PlanNode, i: number): string | undefined {
  const x = physical.exchangeInto(n, i);
  return x === undefined ? undefined : `Exchange(distribution=[${distributionText(x.distribution, inputsOf(n)[i]!.fields.map((f) => f.name))}])`;
}

/** What EXPLAIN appends to each physical node: the ExplainDetails CHANGELOG_MODE, ESTIMATED_COST and PLAN_ADVICE. */
export interface PhysicalAnnotations {
  readonly changelog?: (n: PlanNode) => ChangelogMode;
  readonly costs?: CostEstimator;
  /** The id of the advice a node gets (`GroupAggregate(advice=[1], ...)`), if any. */
  readonly advice?: (n: PlanNode) => number | undefined;
}

/**
 * `Calc(...)` + `, changelogMode=[I]` inside the parentheses + the cost suffix after them (`cost`: the cumulative
 * cost of a line that is not a plan node of its own, the WatermarkAssigner and the Calcs around it).
 */
function annotate(text: string, n: PlanNode, exchangedInput: PlanNode | undefined, a: PhysicalAnnotations, cost?: (c: CostEstimator) => PlanCost): string {
  let out = text;
  const adviceId = exchangedInput === undefined ? a.advice?.(n) : undefined;
  // Flink puts the advice first among the node's attributes.
  if (adviceId !== undefined) out = out.replace('(', `(advice=[${adviceId}], `);
  if (a.changelog !== undefined) {
    // A sink emits nothing downstream, which Flink prints as NONE; an exchange passes its input's mode on.
    const modeText = n.kind === 'sink' && exchangedInput === undefined ? 'NONE' : a.changelog(exchangedInput ?? n).toString().slice(1, -1);
    out = `${out.slice(0, -1)}, changelogMode=[${modeText}])`;
  }
  if (a.costs !== undefined) {
    const c = a.costs;
    if (cost !== undefined) out += costSuffix(c.rowCount(n), cost(c));
    else if (exchangedInput === undefined) out += costSuffix(c.rowCount(n), c.cumulative(n));
    else {
      const x = c.exchangeCost(exchangedInput);
      const below = c.cumulative(exchangedInput);
      out += costSuffix(c.rowCount(exchangedInput), { rows: x.rows + below.rows, cpu: x.cpu + below.cpu, io: x.io + below.io, network: x.network + below.network, memory: x.memory + below.memory });
    }
  }
  return out;
}

/**
 * Whether `input` is the projection a local window aggregate reads, over a scan with a WatermarkAssigner: Flink
 * moves projections below the assigner before it fuses the window TVF into the aggregate, so the Calc the fusion
 * leaves stays above the assigner (test/planner/flink-explain-goldens/window-tvf.txt).
 */
function aboveWatermarkAssigner(n: PlanNode, input: PlanNode): input is CalcNode & { input: ScanNode } {
  return n.kind === 'local-window-aggregate' && input.kind === 'calc' && hasWatermarkAssigner(input.input);
}

const nodeIds = new WeakMap<PlanNode, number>();
let nextNodeId = 1;

/** The exec-node key of a plan node: its identity (after sub-plan reuse, a shared node is one object). */
function identityKey(n: PlanNode): string {
  let id = nodeIds.get(n);
  if (id === undefined) {
    id = nextNodeId++;
    nodeIds.set(n, id);
  }
  return `#${id}`;
}

/**
 * A node the tree adds between plan nodes (an Exchange, a WatermarkAssigner and the Calc split below it): as in
 * Flink, where such a node is a RelNode of its own, it is the same node wherever the same text sits on the same input.
 */
function derived(text: string, input: ExplainTree, annotated = text): ExplainTree {
  return keyed(annotated, [input], `${text}/${input.key ?? ''}`);
}

function keyed(text: string, children: readonly ExplainTree[], key: string): ExplainTree {
  return { text, children, key };
}

/**
 * The physical plan as a tree: each node with its exchanges in front of its inputs. Each tree node carries the
 * key of the exec node it prints (explain-sections.ts prints a node met twice as `Reused(reference_id=[n])`).
 */
export function physicalTree(n: PlanNode, physical: PhysicalPlanner, style: PhysicalStyle, a: PhysicalAnnotations = {}, underOver = false): ExplainTree {
  const mode = physical.mode;
  const wm = watermarkAssignerView(n, underOver);
  if (wm !== undefined) {
    const scan = keyed(annotate(physicalNodeText(wm.scan, mode, style), wm.scan, undefined, a), [], identityKey(wm.scan));
    const lowerText = physicalNodeText(wm.lower ?? wm.scan, mode, style);
    const lower = wm.lower === null ? scan : derived(lowerText, scan, annotate(lowerText, wm.lower, undefined, a, (c) => c.watermarkChain(wm).lower));
    // The assigner passes its input's rows and changelog on unchanged: it is annotated as that input, with its cost.
    const assigner = derived(wm.text(style), lower, annotate(wm.text(style), wm.lower ?? wm.scan, undefined, a, (c) => c.watermarkChain(wm).assigner));
    if (wm.upper === null) return assigner;
    return keyed(annotate(physicalNodeText(wm.upper, mode, style), wm.upper, undefined, a, (c) => c.watermarkChain(wm).top), [assigner], identityKey(n));
  }
  const children = inputsOf(n).map((c, i) => {
    const tree = aboveWatermarkAssigner(n, c)
      ? keyed(annotate(physicalNodeText(c, mode, style), c, undefined, a), [physicalTree(c.input, physical, style, a)], identityKey(c))
      : physicalTree(c, physical, style, a, n.kind === 'rank' || n.kind === 'over');
    const sub = n.kind === 'calc' ? tree : withReorderingCalc(c, tree, a);
    const ex = exchangeText(physical, n, i);
    return ex === undefined ? sub : derived(ex, sub, annotate(ex, n, c, a));
  });
  return keyed(annotate(physicalNodeText(n, mode, style), n, undefined, a), children, identityKey(n));
}

/** physicalTree of a plan's root, which has no Calc above it to reorder a window aggregate's columns. */
export function physicalRootTree(root: PlanNode, physical: PhysicalPlanner, style: PhysicalStyle, a: PhysicalAnnotations = {}): ExplainTree {
  return withReorderingCalc(root, physicalTree(root, physical, style, a), a);
}

/**
 * A GlobalWindowAggregate emits its plain keys, then its calls, then the window properties (Flink's window
 * aggregate row type); when the query's columns come in another order (`SELECT window_start, window_end,
 * COUNT(*)`), Flink prints a Calc above it that puts them in the query's order. A Calc of the plan above it
 * already prints that order, merged, as Flink's does.
 */
function withReorderingCalc(n: PlanNode, tree: ExplainTree, a: PhysicalAnnotations): ExplainTree {
  if (n.kind !== 'global-window-aggregate') return tree;
  const names = n.fields.map((f) => f.name);
  const emitted = [
    ...n.keys.flatMap((k, i) => (k.kind === 'field' ? [names[i]!] : [])),
    ...n.aggCalls.map((c) => c.alias),
    ...n.keys.flatMap((k, i) => (k.kind === 'field' ? [] : [names[i]!])),
  ];
  if (emitted.length !== names.length || emitted.every((e, i) => e === names[i])) return tree;
  const text = `Calc(select=[${names.join(', ')}])`;
  return derived(text, tree, annotate(text, n, undefined, a));
}
