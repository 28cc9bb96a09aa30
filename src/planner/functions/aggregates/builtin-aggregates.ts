import { DataTypes } from '../../../types/data-types.js';
import { Decimal } from '../../../types/decimal.js';
import { decimalAvgType, decimalSumType } from '../../../types/decimal-type-rules.js';
import { withNullability } from '../../../types/logical-type.js';
import type { LogicalType } from '../../../types/logical-type.js';
import { valuesEqual } from '../../../types/values/equality.js';
import { runtime } from '../../expressions/runtime.js';
import { cannotApply, isCharacterString, isIntegral, isNumeric } from '../../expressions/type-rules.js';
import type { AggregateCallOptions, AggregateFunctionDefinition } from '../function-definition.js';
import type { AggregateFunction } from '../../../table-runtime/aggregates/aggregate-function.js';
import { keyOf } from './accumulator-keys.js';
import { jsonAggregateFunctions } from './json-aggregates.js';

/**
 * Built-in aggregate functions with Flink's result types and retraction. Accumulators are plain objects,
 * arrays, numbers, bigint, Decimal and Map so checkpoints can store them.
 */

type Agg = AggregateFunction<unknown>;

function erase<A>(f: AggregateFunction<A>): Agg {
  return f as unknown as Agg;
}

/** DISTINCT wrapper: the inner aggregate sees each distinct value once; a count map makes retraction exact. */
function distinct<A>(inner: AggregateFunction<A>): AggregateFunction<{ seen: Map<unknown, number>; inner: A }> {
  return {
    createAccumulator: () => ({ seen: new Map(), inner: inner.createAccumulator() }),
    accumulate(acc, ...args) {
      if (args[0] === null) return;
      const k = args.length === 1 ? keyOf(args[0]) : keyOf(args);
      const n = acc.seen.get(k) ?? 0;
      acc.seen.set(k, n + 1);
      if (n === 0) inner.accumulate(acc.inner, ...args);
    },
    retract(acc, ...args) {
      if (args[0] === null) return;
      const k = args.length === 1 ? keyOf(args[0]) : keyOf(args);
      const n = acc.seen.get(k) ?? 0;
      if (n <= 1) {
        acc.seen.delete(k);
        if (n === 1) inner.retract?.(acc.inner, ...args);
      } else {
        acc.seen.set(k, n - 1);
      }
    },
    getValue: (acc) => inner.getValue(acc.inner),
  };
}

function definition(
  name: string,
  inferType: (argTypes: readonly LogicalType[], options: AggregateCallOptions) => LogicalType,
  make: (argTypes: readonly LogicalType[], options: AggregateCallOptions) => Agg,
): AggregateFunctionDefinition {
  return {
    kind: 'aggregate',
    name,
    inferType,
    create(argTypes, options) {
      inferType(argTypes, options);
      const f = make(argTypes, options);
      return options.distinct ? erase(distinct(f)) : f;
    },
  };
}

function requireArgs(name: string, argTypes: readonly LogicalType[], n: number, check: (t: LogicalType) => boolean, form: string): void {
  if (argTypes.length !== n || !check(argTypes[0]!)) throw cannotApply(name, argTypes, [form]);
}

// ---- COUNT ----

const count = definition(
  'COUNT',
  () => withNullability(DataTypes.BIGINT(), false),
  (argTypes, options) =>
    erase<{ n: number }>({
      createAccumulator: () => ({ n: 0 }),
      accumulate(acc, ...args) {
        if (options.star === true || argTypes.length === 0 || args.every((a) => a !== null)) acc.n++;
      },
      retract(acc, ...args) {
        if (options.star === true || argTypes.length === 0 || args.every((a) => a !== null)) acc.n--;
      },
      merge(acc, other) {
        acc.n += other.n;
      },
      getValue: (acc) => BigInt(acc.n),
      resetAccumulator(acc) {
        acc.n = 0;
      },
    }),
);

// ---- SUM, SUM0, AVG ----

/** Exact addition for the representation of `t`, wrapping integers as Java does. */
function adder(t: LogicalType): { zero: unknown; add(a: unknown, b: unknown): unknown; sub(a: unknown, b: unknown): unknown } {
  switch (t.kind) {
    case 'TINYINT':
      return { zero: 0, add: (a, b) => (((a as number) + (b as number)) << 24) >> 24, sub: (a, b) => (((a as number) - (b as number)) << 24) >> 24 };
    case 'SMALLINT':
      return { zero: 0, add: (a, b) => (((a as number) + (b as number)) << 16) >> 16, sub: (a, b) => (((a as number) - (b as number)) << 16) >> 16 };
    case 'INT':
      return { zero: 0, add: (a, b) => ((a as number) + (b as number)) | 0, sub: (a, b) => ((a as number) - (b as number)) | 0 };
    case 'BIGINT':
      return { zero: 0n, add: (a, b) => BigInt.asIntN(64, (a as bigint) + (b as bigint)), sub: (a, b) => BigInt.asIntN(64, (a as bigint) - (b as bigint)) };
    case 'DECIMAL':
      return { zero: Decimal.ZERO, add: (a, b) => (a as Decimal).add(b as Decimal), sub: (a, b) => (a as Decimal).subtract(b as Decimal) };
    case 'FLOAT':
      return { zero: 0, add: (a, b) => Math.fround((a as number) + (b as number)), sub: (a, b) => Math.fround((a as number) - (b as number)) };
    default:
      return { zero: 0, add: (a, b) => (a as number) + (b as number), sub: (a, b) => (a as number) - (b as number) };
  }
}

function sumType(name: string, argTypes: readonly LogicalType[]): LogicalType {
  requireArgs(name, argTypes, 1, isNumeric, `${name}(<NUMERIC>)`);
  const t = argTypes[0]!;
  return t.kind === 'DECIMAL' ? decimalSumType(t.precision, t.scale) : withNullability(t, true);
}

function sumImpl(argTypes: readonly LogicalType[], zeroWhenEmpty: boolean): Agg {
  const t = argTypes[0]!;
  const a = adder(t);
  const finish = (v: unknown): unknown => (t.kind === 'DECIMAL' ? (v as Decimal).toPrecision(38, t.scale) : v);
  return erase<{ sum: unknown; n: number }>({
    createAccumulator: () => ({ sum: a.zero, n: 0 }),
    accumulate(acc, v) {
      if (v === null) return;
      acc.sum = a.add(acc.sum, v);
      acc.n++;
    },
    retract(acc, v) {
      if (v === null) return;
      acc.sum = a.sub(acc.sum, v);
      acc.n--;
    },
    merge(acc, other) {
      acc.sum = a.add(acc.sum, other.sum);
      acc.n += other.n;
    },
    getValue: (acc) => (acc.n === 0 ? (zeroWhenEmpty ? finish(a.zero) : null) : finish(acc.sum)),
    resetAccumulator(acc) {
      acc.sum = a.zero;
      acc.n = 0;
    },
  });
}

const sum = definition('SUM', (ts) => sumType('SUM', ts), (ts) => sumImpl(ts, false));
const sum0 = definition('$SUM0', (ts) => withNullability(sumType('$SUM0', ts), false), (ts) => sumImpl(ts, true));

function avgType(argTypes: readonly LogicalType[]): LogicalType {
  requireArgs('AVG', argTypes, 1, isNumeric, 'AVG(<NUMERIC>)');
  const t = argTypes[0]!;
  return t.kind === 'DECIMAL' ? decimalAvgType(t.precision, t.scale) : withNullability(t, true);
}

const avg = definition('AVG', avgType, (argTypes) => {
  const t = argTypes[0]!;
  const result = avgType(argTypes);
  // Integral sums are kept in a bigint so the average of many INTs cannot overflow midway.
  const integral = isIntegral(t);
  const a = integral ? adder(DataTypes.BIGINT()) : adder(t);
  const toAcc = (v: unknown): unknown => (integral ? BigInt(v as number) : v);
  return erase<{ sum: unknown; n: number }>({
    createAccumulator: () => ({ sum: a.zero, n: 0 }),
    accumulate(acc, v) {
      if (v === null) return;
      acc.sum = a.add(acc.sum, toAcc(v));
      acc.n++;
    },
    retract(acc, v) {
      if (v === null) return;
      acc.sum = a.sub(acc.sum, toAcc(v));
      acc.n--;
    },
    merge(acc, other) {
      acc.sum = a.add(acc.sum, other.sum);
      acc.n += other.n;
    },
    getValue(acc) {
      if (acc.n === 0) return null;
      if (integral) {
        const q = (acc.sum as bigint) / BigInt(acc.n);
        return t.kind === 'BIGINT' ? q : Number(q);
      }
      if (result.kind === 'DECIMAL') {
        return (acc.sum as Decimal).divide(Decimal.fromBigInt(BigInt(acc.n)), result.scale).toPrecision(result.precision, result.scale);
      }
      const r = (acc.sum as number) / acc.n;
      return t.kind === 'FLOAT' ? Math.fround(r) : r;
    },
  });
});

// ---- MIN / MAX over a sorted count list ----

interface SortedCounts {
  /** Distinct values ascending, each with how many times it is present. */
  entries: [unknown, number][];
}

function findIndex(entries: readonly [unknown, number][], v: unknown): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (runtime.compare(entries[mid]![0], v) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function extreme(name: 'MIN' | 'MAX'): AggregateFunctionDefinition {
  return definition(
    name,
    (ts) => {
      if (ts.length !== 1 || ts[0]!.kind === 'MAP' || ts[0]!.kind === 'MULTISET') throw cannotApply(name, ts, [`${name}(<COMPARABLE_TYPE>)`]);
      return withNullability(ts[0]!, true);
    },
    () =>
      erase<SortedCounts>({
        createAccumulator: () => ({ entries: [] }),
        accumulate(acc, v) {
          if (v === null) return;
          const i = findIndex(acc.entries, v);
          const e = acc.entries[i];
          if (e !== undefined && runtime.compare(e[0], v) === 0) e[1]++;
          else acc.entries.splice(i, 0, [v, 1]);
        },
        retract(acc, v) {
          if (v === null) return;
          const i = findIndex(acc.entries, v);
          const e = acc.entries[i];
          if (e === undefined || runtime.compare(e[0], v) !== 0) return;
          if (--e[1] <= 0) acc.entries.splice(i, 1);
        },
        merge(acc, other) {
          for (const [v, n] of other.entries) {
            const i = findIndex(acc.entries, v);
            const e = acc.entries[i];
            if (e !== undefined && runtime.compare(e[0], v) === 0) e[1] += n;
            else acc.entries.splice(i, 0, [v, n]);
          }
        },
        getValue(acc) {
          const e = name === 'MIN' ? acc.entries[0] : acc.entries[acc.entries.length - 1];
          return e === undefined ? null : e[0];
        },
      }),
  );
}

// ---- ordered lists: LISTAGG, FIRST_VALUE, LAST_VALUE, ARRAY_AGG ----

interface ItemList {
  items: unknown[];
}

function removeOne(items: unknown[], v: unknown): void {
  const i = items.findIndex((x) => valuesEqual(x, v));
  if (i >= 0) items.splice(i, 1);
}

function listAgg(keepNulls: boolean, value: (items: readonly unknown[], args: readonly unknown[]) => unknown): (ts: readonly LogicalType[]) => Agg {
  return () => {
    let extra: readonly unknown[] = [];
    return erase<ItemList>({
      createAccumulator: () => ({ items: [] }),
      accumulate(acc, v, ...rest) {
        extra = rest;
        if (v !== null || keepNulls) acc.items.push(v);
      },
      retract(acc, v) {
        if (v !== null || keepNulls) removeOne(acc.items, v);
      },
      merge(acc, other) {
        acc.items.push(...other.items);
      },
      getValue: (acc) => value(acc.items, extra),
    });
  };
}

const listagg = definition(
  'LISTAGG',
  (ts) => {
    if (ts.length < 1 || ts.length > 2 || !ts.every((t) => isCharacterString(t) || t.kind === 'NULL')) throw cannotApply('LISTAGG', ts, ['LISTAGG(<STRING>)', 'LISTAGG(<STRING>, <STRING>)']);
    return DataTypes.STRING();
  },
  listAgg(false, (items, extra) => (items.length === 0 ? null : items.join((extra[0] as string | null | undefined) ?? ','))),
);

function anyOne(name: string): (ts: readonly LogicalType[]) => LogicalType {
  return (ts) => {
    if (ts.length !== 1) throw cannotApply(name, ts, [`${name}(<ANY>)`]);
    return withNullability(ts[0]!, true);
  };
}

const firstValue = definition('FIRST_VALUE', anyOne('FIRST_VALUE'), listAgg(false, (items) => (items.length === 0 ? null : items[0])));
const lastValue = definition('LAST_VALUE', anyOne('LAST_VALUE'), listAgg(false, (items) => (items.length === 0 ? null : items[items.length - 1])));
const arrayAgg = definition(
  'ARRAY_AGG',
  (ts) => {
    if (ts.length !== 1) throw cannotApply('ARRAY_AGG', ts, ['ARRAY_AGG(<ANY>)']);
    return DataTypes.ARRAY(ts[0]!);
  },
  listAgg(true, (items) => (items.length === 0 ? null : [...items])),
);

const collect = definition(
  'COLLECT',
  (ts) => {
    if (ts.length !== 1) throw cannotApply('COLLECT', ts, ['COLLECT(<ANY>)']);
    return withNullability(DataTypes.MULTISET(ts[0]!), false);
  },
  () =>
    erase<{ counts: Map<unknown, [unknown, number]> }>({
      createAccumulator: () => ({ counts: new Map() }),
      accumulate(acc, v) {
        if (v === null) return;
        const k = keyOf(v);
        const e = acc.counts.get(k);
        if (e === undefined) acc.counts.set(k, [v, 1]);
        else e[1]++;
      },
      retract(acc, v) {
        if (v === null) return;
        const k = keyOf(v);
        const e = acc.counts.get(k);
        if (e !== undefined && --e[1] <= 0) acc.counts.delete(k);
      },
      getValue: (acc) => new Map([...acc.counts.values()].map(([v, n]) => [v, n])),
    }),
);

// ---- variance family ----

type VarKind = 'VAR_POP' | 'VAR_SAMP' | 'STDDEV_POP' | 'STDDEV_SAMP';

function variance(name: string, kind: VarKind): AggregateFunctionDefinition {
  const type = (ts: readonly LogicalType[]): LogicalType => {
    requireArgs(name, ts, 1, isNumeric, `${name}(<NUMERIC>)`);
    const t = ts[0]!;
    return isIntegral(t) ? withNullability(t, true) : DataTypes.DOUBLE();
  };
  return definition(name, type, (ts) => {
    const t = ts[0]!;
    const num = (v: unknown): number => (v instanceof Decimal ? v.toNumber() : Number(v));
    return erase<{ n: number; sum: number; sumSq: number }>({
      createAccumulator: () => ({ n: 0, sum: 0, sumSq: 0 }),
      accumulate(acc, v) {
        if (v === null) return;
        const x = num(v);
        acc.n++;
        acc.sum += x;
        acc.sumSq += x * x;
      },
      retract(acc, v) {
        if (v === null) return;
        const x = num(v);
        acc.n--;
        acc.sum -= x;
        acc.sumSq -= x * x;
      },
      merge(acc, o) {
        acc.n += o.n;
        acc.sum += o.sum;
        acc.sumSq += o.sumSq;
      },
      getValue(acc) {
        const sample = kind.endsWith('SAMP');
        if (acc.n === 0 || (sample && acc.n === 1)) return null;
        const v = Math.max(0, (acc.sumSq - (acc.sum * acc.sum) / acc.n) / (sample ? acc.n - 1 : acc.n));
        const r = kind.startsWith('STDDEV') ? Math.sqrt(v) : v;
        if (!isIntegral(t)) return r;
        return t.kind === 'BIGINT' ? BigInt(Math.trunc(r)) : Math.trunc(r);
      },
    });
  });
}

/** All built-in aggregate definitions. */
export function aggregateFunctions(): AggregateFunctionDefinition[] {
  return [
    count,
    sum,
    sum0,
    avg,
    extreme('MIN'),
    extreme('MAX'),
    listagg,
    firstValue,
    lastValue,
    arrayAgg,
    collect,
    variance('VAR_POP', 'VAR_POP'),
    variance('VAR_SAMP', 'VAR_SAMP'),
    variance('VARIANCE', 'VAR_SAMP'),
    variance('STDDEV_POP', 'STDDEV_POP'),
    variance('STDDEV_SAMP', 'STDDEV_SAMP'),
    variance('STDDEV', 'STDDEV_SAMP'),
    ...jsonAggregateFunctions(),
  ];
}


