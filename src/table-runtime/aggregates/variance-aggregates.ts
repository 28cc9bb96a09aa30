import type { AggregateFunction } from './aggregate-function.js';
import { unwrapDistinct } from './wrapped-distinct-accumulator.js';
import { Decimal } from '../../types/decimal.js';
import type { LogicalType } from '../../types/logical-type.js';

export type VarianceKind = 'VAR_POP' | 'VAR_SAMP' | 'STDDEV_POP' | 'STDDEV_SAMP';

type Moments = { n: number; sum: number; sumSq: number };

const INTEGRAL: ReadonlySet<string> = new Set(['TINYINT', 'SMALLINT', 'INT', 'BIGINT']);
const num = (v: unknown): number => (v instanceof Decimal ? v.toNumber() : Number(v));

/**
 * VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP (VARIANCE and STDDEV are the sample forms) over the count, sum
 * and sum of squares, in doubles as Flink computes them; over an integral argument the result is truncated to
 * the argument's type, as Flink's result type is.
 */
export function variance(kind: VarianceKind, argType: LogicalType): AggregateFunction<Moments> {
  const sample = kind.endsWith('SAMP');
  const root = kind.startsWith('STDDEV');
  return {
    createAccumulator: () => ({ n: 0, sum: 0, sumSq: 0 }),
    accumulate(boxed, v) {
      if (v === null) return;
      const acc = unwrapDistinct(boxed);
      const x = num(v);
      acc.n++;
      acc.sum += x;
      acc.sumSq += x * x;
    },
    retract(boxed, v) {
      if (v === null) return;
      const acc = unwrapDistinct(boxed);
      const x = num(v);
      acc.n--;
      acc.sum -= x;
      acc.sumSq -= x * x;
    },
    merge(boxed, other) {
      const acc = unwrapDistinct(boxed);
      const o = unwrapDistinct(other);
      acc.n += o.n;
      acc.sum += o.sum;
      acc.sumSq += o.sumSq;
    },
    getValue(boxed) {
      const acc = unwrapDistinct(boxed);
      if (acc.n === 0 || (sample && acc.n === 1)) return null;
      const v = Math.max(0, (acc.sumSq - (acc.sum * acc.sum) / acc.n) / (sample ? acc.n - 1 : acc.n));
      const r = root ? Math.sqrt(v) : v;
      if (!INTEGRAL.has(argType.kind)) return r;
      return argType.kind === 'BIGINT' ? BigInt(Math.trunc(r)) : Math.trunc(r);
    },
  };
}
