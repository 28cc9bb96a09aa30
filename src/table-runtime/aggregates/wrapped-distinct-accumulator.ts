/**
 * Checkpoints of releases before the built-in aggregates were one set hold the accumulator of a DISTINCT
 * ARRAY_AGG, COLLECT or variance-family call wrapped as `{ seen, inner }`: the function definition then applied
 * DISTINCT itself, on top of the operator's own DISTINCT state (which checkpoints hold as well, so dropping the
 * wrapper loses nothing). Such an accumulator restores as it was written; these functions work on its `inner`.
 */
export function unwrapDistinct<A>(acc: A): A {
  const o = acc as { seen?: unknown; inner?: A };
  return o.seen instanceof Map && o.inner !== undefined ? o.inner : acc;
}
