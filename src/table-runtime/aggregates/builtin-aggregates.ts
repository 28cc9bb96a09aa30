import { PlanningError } from '../../errors/sluice-error.js';
import type { AggregateFunction } from './aggregate-function.js';
import { Decimal } from '../../types/decimal.js';
import type { LogicalType } from '../../types/logical-type.js';
import { compareValues, toBigInt, toDecimal, toNumber } from '../../types/values/value-ops.js';

/**
 * The core aggregates with retraction (COUNT, SUM, SUM0, AVG, MIN, MAX, FIRST_VALUE, LAST_VALUE,
 * LISTAGG), on the AggregateFunction contract of planner/functions. Accumulators are plain arrays so the
 * state codec can store them.
 */

type Num = number | bigint | Decimal;

function zeroOf(t: LogicalType): Num {
  if (t.kind === 'BIGINT') return 0n;
  if (t.kind === 'DECIMAL') return Decimal.ZERO;
  return 0;
}

function add(a: Num, b: unknown, t: LogicalType): Num {
  switch (t.kind) {
    case 'BIGINT':
      return BigInt.asIntN(64, (a as bigint) + toBigInt(b));
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
      return BigInt.asIntN(64, (a as bigint) - toBigInt(b));
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

/** COUNT(*) (no args) or COUNT(x) (non-null x). Acc: [count]. */
const count: AggregateFunction<[bigint]> = {
  createAccumulator: () => [0n],
  accumulate(acc, ...args) {
    if (args.length === 0 || args[0] !== null) acc[0]++;
  },
  retract(acc, ...args) {
    if (args.length === 0 || args[0] !== null) acc[0]--;
  },
  merge(acc, other) {
    acc[0] += other[0];
  },
  getValue: (acc) => acc[0],
};

/** SUM / SUM0. Acc: [sum, non-null count]. */
function sum(resultType: LogicalType, zeroWhenEmpty: boolean): AggregateFunction<[Num, number]> {
  const scaleTo = (v: Num): unknown => (resultType.kind === 'DECIMAL' ? (v as Decimal).toPrecision(resultType.precision, resultType.scale) : v);
  return {
    createAccumulator: () => [zeroOf(resultType), 0],
    accumulate(acc, v) {
      if (v === null) return;
      acc[0] = add(acc[0], v, resultType);
      acc[1]++;
    },
    retract(acc, v) {
      if (v === null) return;
      acc[0] = sub(acc[0], v, resultType);
      acc[1]--;
    },
    merge(acc, o) {
      acc[0] = add(acc[0], o[0], resultType);
      acc[1] += o[1];
    },
    getValue: (acc) => (acc[1] === 0 ? (zeroWhenEmpty ? scaleTo(zeroOf(resultType)) : null) : scaleTo(acc[0])),
  };
}

/** AVG; integer inputs average with integer division as Flink. Acc: [sum, count]. */
function avg(argType: LogicalType, resultType: LogicalType): AggregateFunction<[Num, number]> {
  const sumType: LogicalType = argType.kind === 'DECIMAL' ? argType : argType.kind === 'FLOAT' || argType.kind === 'DOUBLE' ? argType : { kind: 'BIGINT', nullable: true };
  return {
    createAccumulator: () => [zeroOf(sumType), 0],
    accumulate(acc, v) {
      if (v === null) return;
      acc[0] = add(acc[0], v, sumType);
      acc[1]++;
    },
    retract(acc, v) {
      if (v === null) return;
      acc[0] = sub(acc[0], v, sumType);
      acc[1]--;
    },
    merge(acc, o) {
      acc[0] = add(acc[0], o[0], sumType);
      acc[1] += o[1];
    },
    getValue(acc) {
      if (acc[1] === 0) return null;
      switch (resultType.kind) {
        case 'DECIMAL':
          return (acc[0] as Decimal).divide(Decimal.fromBigInt(BigInt(acc[1])), resultType.scale).toPrecision(resultType.precision, resultType.scale);
        case 'BIGINT':
          return (acc[0] as bigint) / BigInt(acc[1]);
        case 'TINYINT':
        case 'SMALLINT':
        case 'INT':
          return Number((acc[0] as bigint) / BigInt(acc[1]));
        case 'FLOAT':
          return Math.fround((acc[0] as number) / acc[1]);
        default:
          return (acc[0] as number) / acc[1];
      }
    },
  };
}

/** A value's identity as a Map key: primitives as they are, Decimal by normalized text. */
function keyOf(v: unknown): unknown {
  if (v instanceof Decimal) return 'D' + v.stripTrailingZeros().toString();
  if (v instanceof Uint8Array || Array.isArray(v)) return 'J' + JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x));
  return v;
}

/** MIN / MAX with retraction: a multiset of the values seen. Acc: [Map<key, [value, count]>, best]. */
function minMax(sign: 1 | -1): AggregateFunction<[Map<unknown, [unknown, number]>, unknown]> {
  const recompute = (acc: [Map<unknown, [unknown, number]>, unknown]): void => {
    let best: unknown = null;
    for (const [v] of acc[0].values()) if (best === null || sign * compareValues(v, best) < 0) best = v;
    acc[1] = best;
  };
  return {
    createAccumulator: () => [new Map(), null],
    accumulate(acc, v) {
      if (v === null) return;
      const k = keyOf(v);
      const e = acc[0].get(k);
      if (e === undefined) acc[0].set(k, [v, 1]);
      else e[1]++;
      if (acc[1] === null || sign * compareValues(v, acc[1]) < 0) acc[1] = v;
    },
    retract(acc, v) {
      if (v === null) return;
      const k = keyOf(v);
      const e = acc[0].get(k);
      if (e === undefined) return;
      if (--e[1] <= 0) {
        acc[0].delete(k);
        if (acc[1] !== null && compareValues(v, acc[1]) === 0) recompute(acc);
      }
    },
    merge(acc, o) {
      for (const [k, [v, c]] of o[0]) {
        const e = acc[0].get(k);
        if (e === undefined) acc[0].set(k, [v, c]);
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
      const k = keyOf(v);
      const i = acc[0].findIndex((x) => keyOf(x) === k);
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

/** The implementation of built-in aggregate `name` for these argument and result types. */
export function builtinAggregate(name: string, argTypes: readonly LogicalType[], resultType: LogicalType): AggregateFunction<unknown> {
  const f = (() => {
    switch (name) {
      case 'COUNT':
        return count;
      case 'SUM':
        return sum(resultType, false);
      case 'SUM0':
        return sum(resultType, true);
      case 'AVG':
        return avg(argTypes[0]!, resultType);
      case 'MIN':
        return minMax(1);
      case 'MAX':
        return minMax(-1);
      case 'FIRST_VALUE':
        return firstLast(false);
      case 'LAST_VALUE':
        return firstLast(true);
      case 'LISTAGG':
        return listagg;
      default:
        return undefined;
    }
  })();
  if (f === undefined) throw new PlanningError(`Unsupported aggregate function ${name}`);
  return f as unknown as AggregateFunction<unknown>;
}
