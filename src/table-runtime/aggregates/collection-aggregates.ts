import type { AggregateFunction } from './aggregate-function.js';
import { unwrapDistinct } from './wrapped-distinct-accumulator.js';
import { valuesEqual } from '../../types/values/equality.js';
import { valueKey } from '../../types/values/value-key.js';

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
 * COLLECT's accumulator: value key (valueKey) to the value and its count. `keyed` marks the key form; an
 * accumulator restored from a checkpoint written before it has none (see `counts`).
 */
interface CollectAccumulator {
  counts: Map<unknown, [unknown, number]>;
  keyed?: 'value-key';
}

/**
 * The accumulator's counts, keyed by valueKey. Releases before this one keyed COLLECT's entries by an older
 * form of their own (`d:` / `b:` / `j:` text for DECIMAL, BYTES and other objects); such a restored map is
 * re-keyed once, from the values it holds, so the old and new keys of one value never split its count.
 */
function counts(a: CollectAccumulator): Map<unknown, [unknown, number]> {
  const acc = unwrapDistinct(a);
  if (acc.keyed !== 'value-key') {
    const rekeyed = new Map<unknown, [unknown, number]>();
    for (const [v, n] of acc.counts.values()) {
      const k = valueKey(v);
      const e = rekeyed.get(k);
      if (e === undefined) rekeyed.set(k, [v, n]);
      else e[1] += n;
    }
    acc.counts = rekeyed;
    acc.keyed = 'value-key';
  }
  return acc.counts;
}

/**
 * COLLECT: the non-NULL values as a MULTISET (a Map from value to its count), empty over no rows. Values equal
 * as SQL values (1.5 and 1.50) count as one entry: one valueKey.
 */
export const collect: AggregateFunction<CollectAccumulator> = {
  createAccumulator: () => ({ counts: new Map(), keyed: 'value-key' }),
  accumulate(acc, v) {
    if (v === null) return;
    const c = counts(acc);
    const k = valueKey(v);
    const e = c.get(k);
    if (e === undefined) c.set(k, [v, 1]);
    else e[1]++;
  },
  retract(acc, v) {
    if (v === null) return;
    const c = counts(acc);
    const k = valueKey(v);
    const e = c.get(k);
    if (e !== undefined && --e[1] <= 0) c.delete(k);
  },
  getValue: (acc) => new Map([...counts(acc).values()].map(([v, n]) => [v, n])),
};
