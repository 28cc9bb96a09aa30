/**
 * An aggregate's implementation, as Flink's `AggregateFunction<T, ACC>` with retraction and merging.
 *
 * Accumulators are plain data (arrays, objects, numbers, bigint, Decimal, Map) so state backends and
 * checkpoints can serialize them with the state codec. The aggregate operator calls these methods
 * synchronously, per record or per batch, from one task; none may await.
 */
export interface AggregateFunction<Acc> {
  /** A fresh accumulator for a new group. Called once per group (and for merge targets). */
  createAccumulator(): Acc;
  /** Add one input row's arguments (`args` is empty for COUNT(*)); mutates and returns nothing. */
  accumulate(acc: Acc, ...args: unknown[]): void;
  /**
   * Remove one previously accumulated row's arguments (for -U / -D input). Undefined when the function
   * cannot retract (the planner then rejects updating input for it).
   */
  retract?(acc: Acc, ...args: unknown[]): void;
  /** Fold `other` into `acc` (session window merges, two-phase aggregation). Undefined when unsupported. */
  merge?(acc: Acc, other: Acc): void;
  /** The current result in the docs/values.md representation; null for SQL NULL. Must not mutate `acc`. */
  getValue(acc: Acc): unknown;
  /** Empty the accumulator in place (optional; used when a window fires and is reused). */
  resetAccumulator?(acc: Acc): void;
}
