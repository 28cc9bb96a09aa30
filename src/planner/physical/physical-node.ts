import type { ChangelogMode } from '../../factories/changelog-mode.js';
import type { PlanNode } from '../logical/plan-node.js';
import type { Distribution, RequiredDistribution } from './distribution.js';

/**
 * A node of the physical plan (Flink's ExecNode graph): a logical node as it runs, with its output traits, or an
 * exchange the planner put in front of one of its inputs. Immutable; a logical node shared by several readers (sub-plan
 * reuse) is one physical node with several readers.
 */
export type PhysicalNode = PhysicalOperator | PhysicalExchange;

/** A logical node as it runs: what it computes is `logical`'s, how its rows leave is its traits. */
export interface PhysicalOperator<N extends PlanNode = PlanNode> {
  readonly kind: 'operator';
  readonly logical: N;
  /**
   * One per input of `logical`, in its order: that input's operator when it already is where this node needs it
   * (or this node needs nothing of it), else an exchange over it.
   */
  readonly inputs: readonly PhysicalNode[];
  /** How its output rows are spread over its subtasks. */
  readonly distribution: Distribution;
  /** Which row kinds it emits (changelog.ts). */
  readonly changelog: ChangelogMode;
}

/** Redistributes its input's rows: a hash or single exchange (Flink's StreamPhysicalExchange). */
export interface PhysicalExchange {
  readonly kind: 'exchange';
  /** Always an operator: an exchange is only put in front of a node's input, never over another exchange. */
  readonly input: PhysicalOperator;
  readonly distribution: RequiredDistribution;
  /** Its input's: an exchange moves rows, it does not change them. */
  readonly changelog: ChangelogMode;
}
