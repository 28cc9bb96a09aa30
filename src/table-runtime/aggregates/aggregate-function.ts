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
  /**
   * Optional: what Flink's aggregate holds for this call besides its value, when Flink rewrites the call into others
   * that a Calc above combines (VAR_POP into WELFORD_M2 and COUNT, divided above). A streaming group aggregate
   * compares these too before it leaves an update out, as Flink's emits -U / +U whenever they change, even when the
   * combined value does not. Must not mutate `acc`.
   */
  emitState?(acc: Acc): readonly unknown[];
  /** Empty the accumulator in place (optional; used when a window fires and is reused). */
  resetAccumulator?(acc: Acc): void;
  /**
   * Optional: the same aggregate with its accumulator held inline in slots of the caller's array rather
   * than as an object of its own, so a group costs no allocation per aggregate (the group aggregate uses
   * it). The slots hold, in order, exactly the elements of the array `createAccumulator` returns, so an
   * accumulator stored boxed converts to the inline form by copying its elements.
   */
  readonly inline?: InlineAccumulator;
}

/**
 * An accumulator of `width` slots starting at `at` of a caller-owned array. Methods take the one argument
 * of the call (undefined for COUNT(*)); same contract as the boxed methods otherwise.
 */
export interface InlineAccumulator {
  readonly width: number;
  init(a: unknown[], at: number): void;
  accumulate(a: unknown[], at: number, v: unknown): void;
  retract(a: unknown[], at: number, v: unknown): void;
  getValue(a: readonly unknown[], at: number): unknown;
}
