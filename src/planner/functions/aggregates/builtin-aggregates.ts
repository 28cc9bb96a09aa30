import { DataTypes } from '../../../types/data-types.js';
import { Decimal } from '../../../types/decimal.js';
import { withNullability } from '../../../types/logical-type.js';
import type { LogicalType } from '../../../types/logical-type.js';
import { valuesEqual } from '../../../types/values/equality.js';
import { cannotApply, isIntegral, isNumeric } from '../../expressions/type-rules.js';
import type { AggregateCallOptions, AggregateFunctionDefinition } from '../function-definition.js';
import type { AggregateFunction } from '../../../table-runtime/aggregates/aggregate-function.js';
import { keyOf } from './accumulator-keys.js';
import { jsonAggregateFunctions } from './json-aggregates.js';
import { builtinAggregate } from '../../../table-runtime/aggregates/builtin-aggregates.js';
import { builtinAggregateType } from './builtin-aggregate-types.js';

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

// ---- COUNT, SUM, SUM0, AVG, MIN, MAX, LISTAGG, FIRST_VALUE, LAST_VALUE ----

/**
 * A built-in the operators run through table-runtime's builtinAggregate: the type rules the binder uses and
 * that one implementation, so there is no second copy of them here. `$SUM0` is Calcite's name for SUM0.
 */
function runtimeBuiltin(name: string): AggregateFunctionDefinition {
  const runtimeName = name === '$SUM0' ? 'SUM0' : name;
  const type = (ts: readonly LogicalType[]): LogicalType => builtinAggregateType(runtimeName, ts, false)!;
  return definition(name, type, (ts) => builtinAggregate(runtimeName, ts, type(ts)));
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
    ...['COUNT', 'SUM', '$SUM0', 'AVG', 'MIN', 'MAX', 'LISTAGG', 'FIRST_VALUE', 'LAST_VALUE'].map(runtimeBuiltin),
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


