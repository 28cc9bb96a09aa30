import type { RexNode } from '../rex/rex-node.js';
import type { LogicalType } from '../../types/logical-type.js';
import type { PlanField, PlanNode, SortKey } from './plan-node.js';

/** A pattern variable with its quantifier (max null = unbounded), as the plan keeps it. */
export interface MatchPatternElement {
  readonly variable: string;
  readonly min: number;
  readonly max: number | null;
  /** Whether rows it can take are kept from the variables after it (see table-runtime's PatternElement). */
  readonly greedy: boolean;
  /** Written with a trailing `?` (`*?`, `{2,}?`); EXPLAIN prints it. */
  readonly reluctant: boolean;
}

export type MatchSkip =
  | { readonly kind: 'past-last-row' }
  | { readonly kind: 'to-next-row' }
  | { readonly kind: 'to-first'; readonly variable: string }
  | { readonly kind: 'to-last'; readonly variable: string };

/**
 * A value read from the rows of a match (see table-runtime's MatchRef): `value` / `args` are expressions over
 * one input row; `variable` null is every row (Flink's `*`). `type` is the value's type (NULL when absent).
 */
export type MatchRexRef =
  | { readonly kind: 'nav'; readonly variable: string | null; readonly from: 'first' | 'last'; readonly offset: number; readonly value: RexNode; readonly type: LogicalType }
  | { readonly kind: 'agg'; readonly variable: string | null; readonly name: string; readonly args: readonly RexNode[]; readonly type: LogicalType }
  | { readonly kind: 'match-rowtime'; readonly type: LogicalType }
  | { readonly kind: 'match-proctime'; readonly type: LogicalType };

/** A DEFINE condition or a measure: `rex` reads ref i as input field i. */
export interface MatchRexExpr {
  readonly refs: readonly MatchRexRef[];
  /** How each ref reads in EXPLAIN (`LAST(A.price, 1)`, `SUM(A.price)`). */
  readonly texts: readonly string[];
  readonly rex: RexNode;
}

/**
 * `MATCH_RECOGNIZE (...) ONE ROW PER MATCH` (Flink's Match): per partition, rows ordered by a time attribute
 * (batch: by the ORDER BY keys) are matched against `pattern`; each match gives one insert-only row of the
 * partition keys followed by the measures.
 */
export interface MatchNode {
  readonly kind: 'match';
  readonly input: PlanNode;
  readonly partitionKeys: readonly number[];
  readonly orderKeys: readonly SortKey[];
  /** What the first ORDER BY key is: a rowtime or proctime attribute, or (batch only) any other column. */
  readonly time: 'rowtime' | 'proctime' | 'none';
  readonly pattern: readonly MatchPatternElement[];
  readonly skip: MatchSkip;
  readonly withinMs: number | null;
  /** WITHIN as Calcite prints it in the AST (`3600000:INTERVAL HOUR`). */
  readonly withinText: string | null;
  readonly defines: readonly { readonly variable: string; readonly expr: MatchRexExpr }[];
  readonly measures: readonly { readonly name: string; readonly expr: MatchRexExpr }[];
  readonly fields: readonly PlanField[];
}
