import type { AggregateFunction } from './aggregate-function.js';
import { unwrapDistinct } from './wrapped-distinct-accumulator.js';
import { Decimal } from '../../types/decimal.js';
import type { LogicalType } from '../../types/logical-type.js';

export type VarianceKind = 'VAR_POP' | 'VAR_SAMP' | 'STDDEV_POP' | 'STDDEV_SAMP';

/** Welford's running state: the count, the mean and M2, the sum of squared distances from the mean. */
type Welford = { n: number; mean: number; m2: number };

const INTEGRAL: ReadonlySet<string> = new Set(['TINYINT', 'SMALLINT', 'INT', 'BIGINT']);
const num = (v: unknown): number => (v instanceof Decimal ? v.toNumber() : Number(v));

/**
 * The accumulator, turned in place into Welford's form when a checkpoint of an earlier release holds the count, sum
 * and sum of squares instead.
 */
function welford(boxed: unknown): Welford {
  const acc = unwrapDistinct(boxed as Welford) as Welford & { sum?: number; sumSq?: number };
  if (acc.sumSq !== undefined) {
    const { n, sum = 0, sumSq } = acc;
    acc.mean = n > 0 ? sum / n : 0;
    acc.m2 = n > 0 ? sumSq - (sum * sum) / n : 0;
    delete acc.sum;
    delete acc.sumSq;
  }
  return acc;
}

/**
 * VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP (VARIANCE and STDDEV are the sample forms) as Flink 2.x computes
 * them: it rewrites each into its internal WELFORD_M2 aggregate and COUNT, then M2 / n (or n - 1) and, for the
 * deviations, POWER(.., 0.5). Welford's updates, in doubles, in the same order, give the same last digits in every
 * intermediate update, with retraction too (a sum of squares minus the squared sum gives others: after 1.0, 1.0, 2.0
 * Flink's var_pop is 0.22222222222222224, not 0.22222222222222232). Over an integral argument the result is
 * truncated to the argument's type, as Flink's result type is.
 */
export function variance(kind: VarianceKind, argType: LogicalType): AggregateFunction<Welford> {
  const sample = kind.endsWith('SAMP');
  const root = kind.startsWith('STDDEV');
  return {
    createAccumulator: () => ({ n: 0, mean: 0, m2: 0 }),
    accumulate(boxed, v) {
      if (v === null) return;
      const acc = welford(boxed);
      acc.n++;
      // A count at or below zero (more retractions than rows) keeps counting only, as Flink's does.
      if (acc.n <= 0) return;
      const x = num(v);
      const delta = x - acc.mean;
      acc.mean += delta / acc.n;
      acc.m2 += delta * (x - acc.mean);
    },
    retract(boxed, v) {
      if (v === null) return;
      const acc = welford(boxed);
      acc.n--;
      if (acc.n <= 0) {
        if (acc.n === 0) {
          acc.mean = 0;
          acc.m2 = 0;
        }
        return;
      }
      const x = num(v);
      const delta2 = x - acc.mean;
      acc.mean -= delta2 / acc.n;
      acc.m2 -= (x - acc.mean) * delta2;
    },
    merge(boxed, other) {
      const acc = welford(boxed);
      const o = welford(other);
      // An accumulator with no valid count adds its count only, after the others (Flink's negativeSum).
      if (o.n <= 0) {
        acc.n += o.n;
      } else if (acc.n === 0) {
        acc.n = o.n;
        acc.mean = o.mean;
        acc.m2 = o.m2;
      } else {
        const n = acc.n + o.n;
        const deltaMean = o.mean - acc.mean;
        const mean = acc.mean + (o.n / n) * deltaMean;
        acc.m2 = acc.m2 + o.m2 + ((acc.n * o.n) / n) * deltaMean * deltaMean;
        acc.mean = mean;
        acc.n = n;
      }
      if (acc.n <= 0) {
        acc.mean = 0;
        acc.m2 = 0;
      }
    },
    // Flink's plan aggregates WELFORD_M2 (null without rows or when rounding made M2 negative) and COUNT, and emits
    // an update when either changes.
    emitState(boxed) {
      const acc = welford(boxed);
      return [acc.n <= 0 || acc.m2 < 0 ? null : acc.m2, acc.n];
    },
    getValue(boxed) {
      const acc = welford(boxed);
      // WELFORD_M2 is null without rows or when rounding made M2 negative; VAR_SAMP of one row divides by null.
      if (acc.n <= 0 || acc.m2 < 0 || (sample && acc.n === 1)) return null;
      const v = acc.m2 / (sample ? acc.n - 1 : acc.n);
      const r = root ? Math.pow(v, 0.5) : v;
      if (!INTEGRAL.has(argType.kind)) return r;
      return argType.kind === 'BIGINT' ? BigInt(Math.trunc(r)) : Math.trunc(r);
    },
  };
}
