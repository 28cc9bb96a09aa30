import { PlanningError } from '../../errors/sluice-error.js';
import type { AggregateFunction, InlineAccumulator } from './aggregate-function.js';
import { Decimal } from '../../types/decimal.js';
import type { LogicalType } from '../../types/logical-type.js';
import { compareValues, toBigInt, toDecimal, toNumber } from '../../types/values/value-ops.js';
import { valueKey } from '../../types/values/value-key.js';
import { bigintOf } from '../../types/values/small-bigint.js';
import { arrayAgg, collect } from './collection-aggregates.js';
import { variance } from './variance-aggregates.js';

/**
 * The built-in aggregates, one implementation each (COUNT, SUM, SUM0, AVG, MIN, MAX, FIRST_VALUE, LAST_VALUE,
 * LISTAGG here; ARRAY_AGG and COLLECT in collection-aggregates.ts; the variance family in variance-aggregates.ts),
 * all with retraction, on the AggregateFunction contract. Accumulators are plain data so the state codec can
 * store them. DISTINCT is the operators' part, never the function's.
 */

type Num = number | bigint | Decimal;

/**
 * BIGINT counts and sums are kept as a plain number while they are a safe integer (no BigInt allocated per
 * row), and as a bigint from the first step that would leave that range, so results stay exact past 2^53;
 * accumulators written as bigint by earlier versions keep working. Results are always bigint (BIGINT).
 */
type Long = number | bigint;

function addLong(a: Long, b: bigint): Long {
  if (typeof a === 'number') {
    const n = Number(b);
    if (Number.isSafeInteger(n)) {
      const r = a + n;
      if (Number.isSafeInteger(r)) return r;
    }
    return BigInt.asIntN(64, BigInt(a) + b);
  }
  return BigInt.asIntN(64, a + b);
}

function subLong(a: Long, b: bigint): Long {
  if (typeof a === 'number') {
    const n = Number(b);
    if (Number.isSafeInteger(n)) {
      const r = a - n;
      if (Number.isSafeInteger(r)) return r;
    }
    return BigInt.asIntN(64, BigInt(a) - b);
  }
  return BigInt.asIntN(64, a - b);
}

const longValue = (a: Long): bigint => (typeof a === 'number' ? bigintOf(a) : a);

function zeroOf(t: LogicalType): Num {
  if (t.kind === 'BIGINT') return 0;
  if (t.kind === 'DECIMAL') return Decimal.ZERO;
  return 0;
}

function add(a: Num, b: unknown, t: LogicalType): Num {
  switch (t.kind) {
    case 'BIGINT':
      return addLong(a as Long, toBigInt(b));
    case 'DECIMAL':
      return (a as Decimal).add(toDecimal(b));
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT':
      return ((a as number) + toNumber(b)) | 0;
    case 'FLOAT':
      return Math.fround((a as number) + toNumber(b));
    default:
      return (a as number) + toNumber(b);
  }
}

function sub(a: Num, b: unknown, t: LogicalType): Num {
  switch (t.kind) {
    case 'BIGINT':
      return subLong(a as Long, toBigInt(b));
    case 'DECIMAL':
      return (a as Decimal).subtract(toDecimal(b));
    case 'TINYINT':
    case 'SMALLINT':
    case 'INT':
      return ((a as number) - toNumber(b)) | 0;
    default:
      return (a as number) - toNumber(b);
  }
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const countUp = (c: Long): Long => (typeof c === 'number' && c < MAX_SAFE ? c + 1 : BigInt(c) + 1n);
const countDown = (c: Long): Long => (typeof c === 'number' ? c - 1 : c - 1n);
const countAdd = (a: Long, b: Long): Long => {
  if (typeof a === 'number' && typeof b === 'number' && Number.isSafeInteger(a + b)) return a + b;
  return BigInt(a) + BigInt(b);
};

/**
 * A boxed aggregate (its accumulator an array of its own) over an inline one: the array is the slots from 0,
 * so both forms share one implementation and one state layout.
 */
function boxed<Acc extends unknown[]>(inl: InlineAccumulator, merge: (acc: Acc, other: Acc) => void): AggregateFunction<Acc> {
  return {
    createAccumulator() {
      const a = new Array(inl.width) as Acc;
      inl.init(a, 0);
      return a;
    },
    accumulate: (acc, v) => inl.accumulate(acc, 0, v),
    retract: (acc, v) => inl.retract(acc, 0, v),
    merge,
    getValue: (acc) => inl.getValue(acc, 0),
    inline: inl,
  };
}

const mergeCounts = (acc: [Long], other: [Long]): void => {
  acc[0] = countAdd(acc[0], other[0]);
};

/** COUNT(*): no argument, so no rest-parameter array per call. Acc: [count] (see Long). */
const countStar = boxed<[Long]>(
  {
    width: 1,
    init(a, at) {
      a[at] = 0;
    },
    accumulate(a, at) {
      a[at] = countUp(a[at] as Long);
    },
    retract(a, at) {
      a[at] = countDown(a[at] as Long);
    },
    getValue: (a, at) => longValue(a[at] as Long),
  },
  mergeCounts,
);

/** COUNT(x): non-null x. Acc: [count] (see Long). */
const count = boxed<[Long]>(
  {
    width: 1,
    init(a, at) {
      a[at] = 0;
    },
    accumulate(a, at, v) {
      if (v !== null) a[at] = countUp(a[at] as Long);
    },
    retract(a, at, v) {
      if (v !== null) a[at] = countDown(a[at] as Long);
    },
    getValue: (a, at) => longValue(a[at] as Long),
  },
  mergeCounts,
);

/**
 * The [sum, non-null count] slots SUM, SUM0 and AVG share; `value` turns them into the result. With
 * `overflows`, a sum for which it holds becomes NULL and stays NULL (Flink's AVG of DECIMAL: its sum is a
 * DECIMAL(38, s), NULL once it overflows, and NULL plus anything is NULL); `value` then sees null.
 */
function sumSlots(sumType: LogicalType, value: (sum: Num | null, n: number) => unknown, overflows?: (sum: Num) => boolean): InlineAccumulator {
  const settle = (s: Num): Num | null => (overflows !== undefined && overflows(s) ? null : s);
  return {
    width: 2,
    init(a, at) {
      a[at] = zeroOf(sumType);
      a[at + 1] = 0;
    },
    accumulate(a, at, v) {
      if (v === null) return;
      if (a[at] !== null) a[at] = settle(add(a[at] as Num, v, sumType));
      (a[at + 1] as number)++;
    },
    retract(a, at, v) {
      if (v === null) return;
      if (a[at] !== null) a[at] = settle(sub(a[at] as Num, v, sumType));
      (a[at + 1] as number)--;
    },
    getValue: (a, at) => value(a[at] as Num | null, a[at + 1] as number),
  };
}

/** SUM / SUM0. Acc: [sum, non-null count]. */
function sum(resultType: LogicalType, zeroWhenEmpty: boolean): AggregateFunction<[Num, number]> {
  const scaleTo = (v: Num): unknown =>
    resultType.kind === 'DECIMAL' ? (v as Decimal).toPrecision(resultType.precision, resultType.scale) : resultType.kind === 'BIGINT' ? longValue(v as Long) : v;
  const inl = sumSlots(resultType, (s, n) => (n === 0 ? (zeroWhenEmpty ? scaleTo(zeroOf(resultType)) : null) : s === null ? null : scaleTo(s)));
  return boxed<[Num, number]>(inl, (acc, o) => {
    acc[0] = add(acc[0], o[0], resultType);
    acc[1] += o[1];
  });
}

/** AVG; integer inputs average with integer division as Flink. Acc: [sum, count]. */
function avg(argType: LogicalType, resultType: LogicalType): AggregateFunction<[Num, number]> {
  const sumType: LogicalType = argType.kind === 'DECIMAL' ? argType : argType.kind === 'FLOAT' || argType.kind === 'DOUBLE' ? argType : { kind: 'BIGINT', nullable: true };
  // Flink sums DECIMAL(p, s) into a DECIMAL(38, s); once that overflows, the sum and the average are NULL.
  const overflows = argType.kind === 'DECIMAL' ? (x: Num): boolean => !(x as Decimal).fits(38, argType.scale) : undefined;
  const inl = sumSlots(
    sumType,
    (s, n) => {
    if (n === 0 || s === null) return null;
    switch (resultType.kind) {
      case 'DECIMAL':
        return (s as Decimal).divide(Decimal.fromBigInt(BigInt(n)), resultType.scale).toPrecision(resultType.precision, resultType.scale);
      case 'BIGINT':
        return longValue(s as Long) / BigInt(n);
      case 'TINYINT':
      case 'SMALLINT':
      case 'INT':
        return Number(longValue(s as Long) / BigInt(n));
      case 'FLOAT':
        return Math.fround((s as number) / n);
      default:
        return (s as number) / n;
    }
    },
    overflows,
  );
  return boxed<[Num, number]>(inl, (acc, o) => {
    // Merging partial sums: an overflowed (NULL) side keeps the whole NULL, as Flink's plus does.
    const merged = acc[0] === null || o[0] === null ? null : add(acc[0], o[0], sumType);
    acc[0] = (merged !== null && overflows?.(merged) === true ? null : merged) as Num;
    acc[1] += o[1];
  });
}

/**
 * MIN / MAX. With retraction, a multiset of the values seen, so the next best is known when the best is
 * retracted; over insert-only input (Flink's MaxAggFunction rather than MaxWithRetractAggFunction) only the
 * best value, with no Map entry per distinct value. Acc: [Map<key, [value, count]> or null, best].
 */
type MinMaxAcc = [Map<unknown, [unknown, number]> | null, unknown];

function minMax(sign: 1 | -1, retracts: boolean): AggregateFunction<MinMaxAcc> {
  const recompute = (acc: MinMaxAcc): void => {
    let best: unknown = null;
    for (const [v] of acc[0]!.values()) if (best === null || sign * compareValues(v, best) < 0) best = v;
    acc[1] = best;
  };
  // Two numbers, two bigints or two strings compare with < / > directly, as compareValues does for them: that
  // generic comparison (not inlined, every type's branches) was a twentieth of a GROUP BY with MAX.
  const better = (v: unknown, best: unknown): boolean => {
    if (best === null) return true;
    const t = typeof v;
    if (t === typeof best && (t === 'bigint' || t === 'number' || t === 'string')) return sign < 0 ? (v as number) > (best as number) : (v as number) < (best as number);
    return sign * compareValues(v, best) < 0;
  };
  return {
    createAccumulator: () => [retracts ? new Map() : null, null],
    accumulate(acc, v) {
      if (v === null) return;
      const m = acc[0];
      if (m !== null) {
        const k = valueKey(v);
        const e = m.get(k);
        if (e === undefined) m.set(k, [v, 1]);
        else e[1]++;
      }
      if (better(v, acc[1])) acc[1] = v;
    },
    retract(acc, v) {
      const m = acc[0];
      if (v === null || m === null) return;
      const k = valueKey(v);
      const e = m.get(k);
      if (e === undefined) return;
      if (--e[1] <= 0) {
        m.delete(k);
        if (acc[1] !== null && compareValues(v, acc[1]) === 0) recompute(acc);
      }
    },
    merge(acc, o) {
      const m = acc[0];
      if (m === null || o[0] === null) {
        // Without retraction only the best value matters.
        acc[0] = null;
        if (o[1] !== null && better(o[1], acc[1])) acc[1] = o[1];
        return;
      }
      for (const [k, [v, c]] of o[0]) {
        const e = m.get(k);
        if (e === undefined) m.set(k, [v, c]);
        else e[1] += c;
      }
      recompute(acc);
    },
    getValue: (acc) => acc[1],
  };
}

/** FIRST_VALUE / LAST_VALUE with retraction: values in arrival order. Acc: [values]. */
function firstLast(last: boolean): AggregateFunction<[unknown[]]> {
  return {
    createAccumulator: () => [[]],
    accumulate(acc, v) {
      if (v !== null) acc[0].push(v);
    },
    retract(acc, v) {
      if (v === null) return;
      const k = valueKey(v);
      const i = acc[0].findIndex((x) => valueKey(x) === k);
      if (i >= 0) acc[0].splice(i, 1);
    },
    getValue: (acc) => (acc[0].length === 0 ? null : last ? acc[0][acc[0].length - 1] : acc[0][0]),
  };
}

/** LISTAGG(x[, sep]) in arrival order, retractable. Acc: [values, separator]. */
const listagg: AggregateFunction<[string[], string]> = {
  createAccumulator: () => [[], ','],
  accumulate(acc, v, sep) {
    if (typeof sep === 'string') acc[1] = sep;
    if (v !== null) acc[0].push(v as string);
  },
  retract(acc, v) {
    const i = acc[0].indexOf(v as string);
    if (i >= 0) acc[0].splice(i, 1);
  },
  getValue: (acc) => (acc[0].length === 0 ? null : acc[0].join(acc[1])),
};

/** How the operator will call a built-in aggregate. */
export interface BuiltinAggregateOptions {
  /**
   * Whether `retract` may be called (updating input, sliding OVER frames). False lets MIN and MAX keep only
   * the best value. Default true.
   */
  readonly retracts?: boolean;
}

/** The implementation of built-in aggregate `name` for these argument and result types. */
export function builtinAggregate(
  name: string,
  argTypes: readonly LogicalType[],
  resultType: LogicalType,
  options: BuiltinAggregateOptions = {},
): AggregateFunction<unknown> {
  const retracts = options.retracts !== false;
  const f = (() => {
    switch (name) {
      case 'COUNT':
        return argTypes.length === 0 ? countStar : count;
      case 'SUM':
        return sum(resultType, false);
      case 'SUM0':
        return sum(resultType, true);
      case 'AVG':
        return avg(argTypes[0]!, resultType);
      case 'MIN':
        return minMax(1, retracts);
      case 'MAX':
        return minMax(-1, retracts);
      case 'FIRST_VALUE':
        return firstLast(false);
      case 'LAST_VALUE':
        return firstLast(true);
      case 'LISTAGG':
        return listagg;
      case 'ARRAY_AGG':
        return arrayAgg;
      case 'COLLECT':
        return collect;
      case 'VAR_POP':
      case 'VAR_SAMP':
      case 'STDDEV_POP':
      case 'STDDEV_SAMP':
        return variance(name, argTypes[0]!);
      case 'VARIANCE':
        return variance('VAR_SAMP', argTypes[0]!);
      case 'STDDEV':
        return variance('STDDEV_SAMP', argTypes[0]!);
      default:
        return undefined;
    }
  })();
  if (f === undefined) throw new PlanningError(`Unsupported aggregate function ${name}`);
  return f as unknown as AggregateFunction<unknown>;
}
