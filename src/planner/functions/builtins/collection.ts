import { PlanningError } from '../../../errors/sluice-error.js';
import { DataTypes } from '../../../types/data-types.js';
import { withNullability } from '../../../types/logical-type.js';
import type { LogicalType } from '../../../types/logical-type.js';
import { valuesEqual } from '../../../types/values/equality.js';
import { formatValue } from '../../../types/values/format-value.js';
import { ExecutionError } from '../../../errors/sluice-error.js';
import { commonType, sqlTypeName } from '../../expressions/type-rules.js';
import { fn, fnWithNulls, scalar } from '../define.js';
import type { ScalarFunctionDefinition } from '../function-definition.js';

/** ARRAY / MAP / ROW constructors and collection functions (arrays 1-based, as Flink). */

function common(name: string, types: readonly LogicalType[]): LogicalType {
  const t = commonType(types);
  if (t === undefined) throw new PlanningError(`Parameters must be of the same type in ${name}: ${types.map(sqlTypeName).join(', ')}.`);
  return t;
}

function elementType(t: LogicalType): LogicalType {
  return t.kind === 'ARRAY' || t.kind === 'MULTISET' ? t.element : DataTypes.NULL();
}

function indexOf(arr: readonly unknown[], v: unknown): number {
  for (let i = 0; i < arr.length; i++) if (valuesEqual(arr[i], v)) return i;
  return -1;
}

function distinct(arr: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const v of arr) if (indexOf(out, v) < 0) out.push(v);
  return out;
}

function slice(arr: readonly unknown[], start: number, end?: number): unknown[] {
  const n = arr.length;
  const norm = (i: number): number => (i < 0 ? n + i + 1 : i === 0 ? 1 : i);
  const s = norm(start);
  const e = end === undefined ? n : norm(end);
  if (s > e || s > n) return [];
  return arr.slice(Math.max(0, s - 1), Math.min(n, e));
}

function arrayJoin(arr: readonly unknown[], sep: string, nullReplacement?: string | null): string {
  const parts: string[] = [];
  for (const v of arr) {
    if (v === null) {
      if (nullReplacement !== undefined && nullReplacement !== null) parts.push(nullReplacement);
    } else {
      parts.push(String(v));
    }
  }
  return parts.join(sep);
}

function element(arr: readonly unknown[]): unknown {
  if (arr.length === 0) return null;
  if (arr.length > 1) throw new ExecutionError(`ELEMENT expects an array with at most one element, but it has ${arr.length}.`);
  return arr[0] ?? null;
}

export function collectionFunctions(): ScalarFunctionDefinition[] {
  return [
    scalar({
      name: 'ARRAY',
      signatures: [['ANY']],
      variadic: true,
      coerce: (ts) => {
        const t = common('ARRAY', ts);
        return ts.map(() => t);
      },
      result: (ts) => DataTypes.ARRAY(common('ARRAY', ts)),
      nulls: 'not-null',
      codegen: { kind: 'runtime', fn: ((...xs: unknown[]) => xs) as (...a: never[]) => unknown },
    }),
    scalar({
      name: 'MAP',
      signatures: [['ANY', 'ANY']],
      variadic: true,
      coerce: (ts) => {
        if (ts.length % 2 !== 0) throw new PlanningError('MAP requires an even number of arguments: key, value, key, value, ...');
        const k = common('MAP', ts.filter((_, i) => i % 2 === 0));
        const v = common('MAP', ts.filter((_, i) => i % 2 === 1));
        return ts.map((_, i) => (i % 2 === 0 ? k : v));
      },
      result: (ts) => DataTypes.MAP(ts[0]!, ts[1]!),
      nulls: 'not-null',
      codegen: {
        kind: 'runtime',
        fn: ((...xs: unknown[]) => {
          const m = new Map<unknown, unknown>();
          for (let i = 0; i < xs.length; i += 2) m.set(xs[i], xs[i + 1]);
          return m;
        }) as (...a: never[]) => unknown,
      },
    }),
    scalar({
      name: 'ROW',
      signatures: [['ANY']],
      variadic: true,
      result: (ts) => DataTypes.ROW(...ts.map((t, i) => DataTypes.FIELD(`EXPR$${i}`, t))),
      nulls: 'not-null',
      codegen: { kind: 'runtime', fn: ((...xs: unknown[]) => xs) as (...a: never[]) => unknown },
    }),
    scalar({
      name: 'CARDINALITY',
      signatures: [['ARRAY'], ['MAP'], ['ANY']],
      result: DataTypes.INT(),
      codegen: fn((c: unknown) => (c instanceof Map ? c.size : (c as unknown[]).length)),
    }),
    scalar({ name: 'ELEMENT', signatures: [['ARRAY']], result: (ts) => withNullability(elementType(ts[0]!), true), nulls: 'type', codegen: fn(element) }),
    scalar({
      name: 'ARRAY_CONTAINS',
      signatures: [['ARRAY', 'ANY']],
      result: DataTypes.BOOLEAN(),
      nulls: 'type',
      codegen: fnWithNulls((a: unknown[] | null, v: unknown) => (a === null ? null : indexOf(a, v) >= 0)),
    }),
    scalar({ name: 'ARRAY_DISTINCT', signatures: [['ARRAY']], result: (ts) => ts[0]!, codegen: fn(distinct) }),
    scalar({
      name: 'ARRAY_POSITION',
      signatures: [['ARRAY', 'ANY']],
      result: DataTypes.INT(),
      nulls: 'type',
      codegen: fnWithNulls((a: unknown[] | null, v: unknown) => (a === null ? null : indexOf(a, v) + 1)),
    }),
    scalar({
      name: 'ARRAY_REMOVE',
      signatures: [['ARRAY', 'ANY']],
      result: (ts) => ts[0]!,
      nulls: 'type',
      codegen: fnWithNulls((a: unknown[] | null, v: unknown) => (a === null ? null : a.filter((x) => !valuesEqual(x, v)))),
    }),
    scalar({ name: 'ARRAY_SLICE', signatures: [['ARRAY', 'INTEGER'], ['ARRAY', 'INTEGER', 'INTEGER']], result: (ts) => ts[0]!, codegen: fn(slice) }),
    scalar({
      name: 'ARRAY_CONCAT',
      signatures: [['ARRAY']],
      variadic: true,
      coerce: (ts) => {
        const t = common('ARRAY_CONCAT', ts);
        return ts.map(() => t);
      },
      result: (ts) => common('ARRAY_CONCAT', ts),
      codegen: fn((...arrs: unknown[][]) => arrs.flat(1)),
    }),
    scalar({ name: 'ARRAY_REVERSE', signatures: [['ARRAY']], result: (ts) => ts[0]!, codegen: fn((a: unknown[]) => [...a].reverse()) }),
    scalar({
      name: 'ARRAY_JOIN',
      signatures: [['ARRAY', 'STRING'], ['ARRAY', 'STRING', 'STRING']],
      result: DataTypes.STRING(),
      codegen: { kind: 'strict', expr: (args, call, g) => (call.operands[0]!.type.kind === 'ARRAY' && (call.operands[0]!.type as { element: LogicalType }).element.kind.includes('CHAR') ? `${g.constant(arrayJoin)}(${args.join(', ')})` : `${g.constant(arrayJoin)}(${args[0]}.map((x) => x === null ? null : ${g.constant(formatValue)}(x, ${g.constant(elementType(call.operands[0]!.type))})), ${args.slice(1).join(', ')})`) },
    }),
    scalar({ name: 'MAP_KEYS', signatures: [['MAP']], result: (ts) => DataTypes.ARRAY((ts[0] as { key: LogicalType }).key), codegen: fn((m: Map<unknown, unknown>) => [...m.keys()]) }),
    scalar({ name: 'MAP_VALUES', signatures: [['MAP']], result: (ts) => DataTypes.ARRAY((ts[0] as { value: LogicalType }).value), codegen: fn((m: Map<unknown, unknown>) => [...m.values()]) }),
    scalar({
      name: 'MAP_FROM_ARRAYS',
      signatures: [['ARRAY', 'ARRAY']],
      result: (ts) => DataTypes.MAP(elementType(ts[0]!), elementType(ts[1]!)),
      codegen: fn((k: unknown[], v: unknown[]) => {
        if (k.length !== v.length) throw new ExecutionError('MAP_FROM_ARRAYS: the key and value arrays must have the same length.');
        return new Map(k.map((x, i) => [x, v[i]]));
      }),
    }),
  ];
}
