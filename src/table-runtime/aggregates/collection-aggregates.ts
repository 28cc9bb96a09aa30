import type { AggregateFunction } from './aggregate-function.js';
import { keyOf } from './accumulator-keys.js';
import { unwrapDistinct } from './wrapped-distinct-accumulator.js';
import { valuesEqual } from '../../types/values/equality.js';

/** ARRAY_AGG: every value in arrival order, NULLs included (Flink's ArrayAggFunction); NULL over no rows. */
export const arrayAgg: AggregateFunction<{ items: unknown[] }> = {
  createAccumulator: () => ({ items: [] }),
  accumulate(acc, v) {
    unwrapDistinct(acc).items.push(v);
  },
  retract(acc, v) {
    const items = unwrapDistinct(acc).items;
    const i = items.findIndex((x) => valuesEqual(x, v));
    if (i >= 0) items.splice(i, 1);
  },
  merge(acc, other) {
    unwrapDistinct(acc).items.push(...unwrapDistinct(other).items);
  },
  getValue(acc) {
    const items = unwrapDistinct(acc).items;
    return items.length === 0 ? null : [...items];
  },
};

/**
 * COLLECT: the non-NULL values as a MULTISET (a Map from value to its count), empty over no rows. Values equal
 * as SQL values (1.5 and 1.50) count as one entry: keyOf.
 */
export const collect: AggregateFunction<{ counts: Map<unknown, [unknown, number]> }> = {
  createAccumulator: () => ({ counts: new Map() }),
  accumulate(acc, v) {
    if (v === null) return;
    const counts = unwrapDistinct(acc).counts;
    const k = keyOf(v);
    const e = counts.get(k);
    if (e === undefined) counts.set(k, [v, 1]);
    else e[1]++;
  },
  retract(acc, v) {
    if (v === null) return;
    const counts = unwrapDistinct(acc).counts;
    const k = keyOf(v);
    const e = counts.get(k);
    if (e !== undefined && --e[1] <= 0) counts.delete(k);
  },
  getValue: (acc) => new Map([...unwrapDistinct(acc).counts.values()].map(([v, n]) => [v, n])),
};
