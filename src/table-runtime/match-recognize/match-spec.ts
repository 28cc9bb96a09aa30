import type { AggregateFunction } from '../aggregates/aggregate-function.js';
import type { SortKeySpec } from '../sort-limit-operator.js';

/**
 * One pattern variable of a PATTERN concatenation: it takes between `min` and `max` rows (null =
 * unbounded). `greedy` (the default quantifier) means a row the variable can still take is never given to
 * the variables after it, as Flink's CEP compiles greedy quantifiers; reluctant ones try both.
 */
export interface PatternElement {
  readonly variable: string;
  readonly min: number;
  readonly max: number | null;
  readonly greedy: boolean;
}

/** AFTER MATCH SKIP: which partial matches a found match discards (Flink's AfterMatchSkipStrategy). */
export type SkipStrategy =
  | { readonly kind: 'past-last-row' }
  | { readonly kind: 'to-next-row' }
  | { readonly kind: 'to-first'; readonly variable: string }
  | { readonly kind: 'to-last'; readonly variable: string };

/** A row's value computed from a single row (a column, or an expression over one variable's row). */
export type RowValue = (fields: readonly unknown[]) => unknown;

/**
 * A value a DEFINE condition or a MEASURES expression reads from the rows of a (partial) match.
 * `variable` null is every row of the match (Flink's default variable `*`).
 * - nav: LAST(v.x, offset) / FIRST(v.x, offset) (a plain `v.x` is LAST(v.x, 0), PREV(x, n) is LAST(*.x, n));
 *   NULL when there is no such row.
 * - agg: an aggregate over the rows of `variable`.
 * - match-rowtime / match-proctime: MATCH_ROWTIME() (the time of the match's last row) / MATCH_PROCTIME().
 */
export type MatchRef =
  | { readonly kind: 'nav'; readonly variable: string | null; readonly from: 'first' | 'last'; readonly offset: number; readonly value: RowValue }
  | { readonly kind: 'agg'; readonly variable: string | null; readonly create: () => AggregateFunction<unknown>; readonly args: readonly RowValue[] }
  | { readonly kind: 'match-rowtime' }
  | { readonly kind: 'match-proctime' };

/** An expression over the values of `refs` (value i of the array passed to `evaluate` is refs[i]'s). */
export interface MatchExpr {
  readonly refs: readonly MatchRef[];
  readonly evaluate: (values: readonly unknown[]) => unknown;
}

/**
 * What the MATCH_RECOGNIZE operator runs. Rows are fed to the matcher per partition in order of
 * `timeIndex` (then `order`): event time when the watermark passes them, processing time as they come,
 * batch at end of input. Output rows are the partition keys followed by the measures.
 */
export interface MatchRecognizeSpec {
  readonly partitionKeys: readonly number[];
  readonly timeIndex: number;
  readonly time: 'event' | 'processing' | 'batch';
  /** Secondary ORDER BY keys: the order of rows with the same time (batch: all ORDER BY keys). */
  readonly order: readonly SortKeySpec[];
  readonly pattern: readonly PatternElement[];
  readonly skip: SkipStrategy;
  /** WITHIN: a partial match whose last row is this many ms or more after its first is dropped. */
  readonly withinMs: number | null;
  /** DEFINE conditions by variable; a variable without one accepts every row. */
  readonly defines: ReadonlyMap<string, MatchExpr>;
  readonly measures: readonly MatchExpr[];
}
