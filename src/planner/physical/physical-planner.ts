import { ChangelogInference } from '../logical/changelog.js';
import { inputsOf } from '../logical/plan-node.js';
import type { PlanNode } from '../logical/plan-node.js';
import { postOrder } from '../logical/subplan-reuse.js';
import { ANY, satisfies } from './distribution.js';
import type { Distribution } from './distribution.js';
import type { PhysicalExchange, PhysicalNode, PhysicalOperator } from './physical-node.js';
import { requiredDistribution } from './required-distribution.js';

/**
 * The exchange-insertion rule: turns an optimized logical plan into the physical plan, each node with its output
 * distribution and changelog mode, and an exchange in front of every input whose distribution does not satisfy what
 * the node requires of it (required-distribution.ts). The job graph (lowering/) and EXPLAIN's Exchange lines both read
 * the exchanges from here, so the plan printed is the plan run.
 *
 * Memoized per logical node object (plans are immutable): nodes shared by sub-plan reuse stay one physical node, and
 * EXPLAIN may ask for any node of a plan. Built bottom-up in a loop, so a plan thousands of nodes deep costs no stack.
 */
export class PhysicalPlanner {
  private readonly nodes = new Map<PlanNode, PhysicalOperator>();
  /** The changelog modes the nodes carry; lowering asks it about rank strategies too. */
  readonly changelog: ChangelogInference;

  constructor(readonly mode: 'streaming' | 'batch') {
    this.changelog = new ChangelogInference(mode);
  }

  /** The physical node of logical node `n`. */
  of<N extends PlanNode>(n: N): PhysicalOperator<N> {
    if (!this.nodes.has(n)) for (const m of postOrder([n], (x) => this.nodes.has(x))) this.nodes.set(m, this.build(m));
    // build(n) made it with `logical: n`.
    return this.nodes.get(n) as PhysicalOperator<N>;
  }

  /** The physical plans of these roots (one graph: a node reachable from several roots is one node). */
  plan(roots: readonly PlanNode[]): readonly PhysicalOperator[] {
    return roots.map((r) => this.of(r));
  }

  /** The exchange in front of input `input` of `n`, if there is one. */
  exchangeInto(n: PlanNode, input: number): PhysicalExchange | undefined {
    const i = this.of(n).inputs[input];
    return i?.kind === 'exchange' ? i : undefined;
  }

  /** Whether an exchange sits between `parent` and its input `input` (EXPLAIN's costs count it). */
  hasExchange(parent: PlanNode, input: PlanNode): boolean {
    return this.exchangeInto(parent, inputsOf(parent).indexOf(input)) !== undefined;
  }

  private build(n: PlanNode): PhysicalOperator {
    const inputs = inputsOf(n).map((logical, i): PhysicalNode => {
      const input = this.nodes.get(logical)!;
      const required = requiredDistribution(n, i);
      if (required === undefined || satisfies(input.distribution, required)) return input;
      return { kind: 'exchange', input, distribution: required, changelog: input.changelog };
    });
    return { kind: 'operator', logical: n, inputs, distribution: outputDistribution(n), changelog: this.changelog.of(n) };
  }
}

/**
 * How an operator's output is spread. Flink's streaming physical nodes derive no distribution: only an exchange
 * promises one, so a node over a keyed node on the same keys still gets its exchange (Flink 2.3.0 prints
 * `Exchange(distribution=[hash[a]])` between `Rank(partitionBy=[a])` and `GroupAggregate(groupBy=[a])`, and two
 * `Exchange(distribution=[single])` for a SortLimit over a global aggregate). Batch plans take the same shapes here;
 * Flink's batch hash aggregates do provide their hash, a derivation to add with those shapes.
 */
function outputDistribution(_n: PlanNode): Distribution {
  return ANY;
}
