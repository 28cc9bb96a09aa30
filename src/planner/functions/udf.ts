import { ExecutionError, PlanningError, ValidationError } from '../../errors/sluice-error.js';
import { DataTypes, FIELD } from '../../types/data-types.js';
import { withNullability } from '../../types/logical-type.js';
import type { LogicalType } from '../../types/logical-type.js';
import { canCast } from '../expressions/cast.js';
import { cannotApply } from '../expressions/type-rules.js';
import type { AggregateFunction } from '../../table-runtime/aggregates/aggregate-function.js';
import type { AggregateFunctionDefinition, ScalarFunctionDefinition, TableFunctionDefinition } from './function-definition.js';
import type { FunctionRegistry } from './function-registry.js';
import { resolveUdfArgumentTypes, resolveUdfType, type UdfType } from './udf-types.js';

export type { UdfType } from './udf-types.js';

/**
 * User-defined functions for `TableEnvironment.createTemporarySystemFunction(name, fn)`.
 *
 * @example
 * createTemporarySystemFunction(registry, 'count_char', {
 *   eval: (s: string, c: string) => s.split(c).length - 1,
 *   argumentTypes: [DataTypes.STRING(), DataTypes.STRING()],
 *   resultType: DataTypes.INT(),
 * });
 */

/** A scalar UDF. `eval` receives docs/values.md values; it is called per row, synchronously, and must not await. */
export interface ScalarUdf {
  readonly eval: (...args: never[]) => unknown;
  /** Result type, a DataTypes value or a Flink type string ('BIGINT'); default nullable STRING. */
  readonly resultType?: UdfType;
  /** Declared argument types: arguments are implicitly cast to them; absent means any arguments as they are. */
  readonly argumentTypes?: readonly UdfType[];
  /** Called with NULL arguments too (default false: any NULL argument gives NULL without calling `eval`). */
  readonly callOnNull?: boolean;
  /** Default true; false keeps constant folding away. */
  readonly deterministic?: boolean;
}

/** An aggregate UDF: the AggregateFunction methods plus its result type. */
export interface AggregateUdf<Acc> extends AggregateFunction<Acc> {
  /** A DataTypes value or a Flink type string. */
  readonly resultType: UdfType;
  readonly argumentTypes?: readonly UdfType[];
}

/**
 * A table UDF (Flink's TableFunction), used as `FROM t, LATERAL TABLE(f(t.x)) AS u(a, b)`: `eval` is called
 * once per input row, synchronously, and yields that row's output rows (zero or more).
 *
 * @example
 * createTemporarySystemFunction(registry, 'split', {
 *   kind: 'table',
 *   eval: function* (s: string) { for (const w of s.split(' ')) yield [w, w.length]; },
 *   resultType: DataTypes.ROW(FIELD('word', DataTypes.STRING()), FIELD('len', DataTypes.INT())),
 * });
 */
export interface TableUdf {
  /** The marker that tells a table UDF from a scalar one (both have `eval`). */
  readonly kind: 'table';
  /**
   * Yields one fields array per output row when `resultType` is a ROW, else one plain value per row
   * (a single column named `f0`, as Flink names an atomic result). Receives NULL arguments as null.
   */
  readonly eval: (...args: never[]) => Iterable<unknown>;
  /** The produced row type: a ROW (one column per field) or any other type (one column `f0`); a DataTypes value or a type string. */
  readonly resultType: UdfType;
  /** Declared argument types: arguments are implicitly cast to them; absent means any arguments as they are. */
  readonly argumentTypes?: readonly UdfType[];
}

/** Marks `udf` as a table UDF; the same as writing `kind: 'table'` in the object. */
export function tableFunction(udf: Omit<TableUdf, 'kind'>): TableUdf {
  return { ...udf, kind: 'table' };
}

export type UdfInput = ((...args: never[]) => unknown) | ScalarUdf | AggregateUdf<unknown> | TableUdf;

function isTable(u: UdfInput): u is TableUdf {
  return typeof u === 'object' && 'kind' in u && u.kind === 'table';
}

function isAggregate(u: UdfInput): u is AggregateUdf<unknown> {
  return typeof u === 'object' && 'createAccumulator' in u && 'accumulate' in u && 'getValue' in u;
}

function checkArgs(name: string, declared: readonly LogicalType[] | undefined, argTypes: readonly LogicalType[]): void {
  if (declared === undefined) return;
  if (declared.length !== argTypes.length || !argTypes.every((t, i) => canCast(t, declared[i]!))) {
    throw cannotApply(name, argTypes, [`${name}(${declared.map((t) => `<${t.kind}>`).join(', ')})`]);
  }
}

/** A UDF's declared types, resolved to logical types at registration (`resolveUdfType`). */
export interface UdfTypes {
  readonly resultType: LogicalType | undefined;
  readonly argumentTypes: readonly LogicalType[] | undefined;
}

/** A scalar definition for a UDF. */
export function scalarUdf(name: string, udf: ScalarUdf, types: UdfTypes): ScalarFunctionDefinition {
  const upper = name.toUpperCase();
  const result = types.resultType ?? DataTypes.STRING();
  const argumentTypes = types.argumentTypes;
  const f = udf.eval;
  return {
    kind: 'scalar',
    name: upper,
    deterministic: udf.deterministic ?? true,
    coerceOperands(argTypes) {
      checkArgs(upper, argumentTypes, argTypes);
      return argumentTypes;
    },
    inferType(argTypes) {
      return udf.callOnNull === true || argTypes.some((t) => t.nullable) || result.nullable ? withNullability(result, true) : result;
    },
    codegen: udf.callOnNull === true ? { kind: 'runtime', fn: wrap(upper, f) } : { kind: 'runtime-strict', fn: wrap(upper, f) },
  };
}

/** Normalise `undefined` results to NULL so nothing downstream ever sees undefined. */
function wrap(name: string, f: (...args: never[]) => unknown): (...args: never[]) => unknown {
  return (...args) => {
    const r = f(...args);
    if (r instanceof Promise) throw new PlanningError(`Function '${name}' returned a Promise; user-defined functions must be synchronous.`);
    return r === undefined ? null : r;
  };
}

/** An aggregate definition for a UDAF. */
export function aggregateUdf(name: string, udaf: AggregateUdf<unknown>, types: UdfTypes & { readonly resultType: LogicalType }): AggregateFunctionDefinition {
  const upper = name.toUpperCase();
  return {
    kind: 'aggregate',
    name: upper,
    inferType(argTypes) {
      checkArgs(upper, types.argumentTypes, argTypes);
      return withNullability(types.resultType, true);
    },
    create() {
      return udaf;
    },
  };
}

/** A table function definition for a table UDF; rows always come out as fields arrays of the ROW type. */
export function tableUdf(name: string, udtf: TableUdf, types: UdfTypes & { readonly resultType: LogicalType }): TableFunctionDefinition {
  const upper = name.toUpperCase();
  const declared = types.resultType;
  const argumentTypes = types.argumentTypes;
  // An atomic result type is one column `f0`; normalising here keeps the planner and runtime ROW-only.
  const rowType = declared.kind === 'ROW' ? declared : DataTypes.ROW(FIELD('f0', declared));
  const width = rowType.fields.length;
  const atomic = declared.kind !== 'ROW';
  const f = udtf.eval as (...args: unknown[]) => Iterable<unknown>;
  return {
    kind: 'table',
    name: upper,
    coerceOperands(argTypes) {
      checkArgs(upper, argumentTypes, argTypes);
      return argumentTypes;
    },
    inferType(argTypes) {
      checkArgs(upper, argumentTypes, argTypes);
      return rowType;
    },
    *eval(...args) {
      const rows = f(...args);
      if (rows === null || rows === undefined || typeof (rows as Partial<Iterable<unknown>>)[Symbol.iterator] !== 'function') {
        throw new ExecutionError(`Table function '${upper}' must return an iterable of rows (write eval as a generator: function* (...) { yield [...] }).`);
      }
      for (const r of rows) {
        if (atomic) {
          yield [r === undefined ? null : r];
          continue;
        }
        if (!Array.isArray(r) || r.length !== width) {
          throw new ExecutionError(`Table function '${upper}' yielded ${JSON.stringify(r)}; each row must be an array of ${width} field values (${rowType.fields.map((x) => x.name).join(', ')}).`);
        }
        // Nothing downstream may see undefined (docs/values.md): a missing value is NULL.
        yield r.includes(undefined) ? r.map((v: unknown) => (v === undefined ? null : v)) : (r as unknown[]);
      }
    },
  };
}

/**
 * Register a UDF under `name` (case-insensitive): a plain function (result STRING), a `ScalarUdf`, a
 * `TableUdf` (`kind: 'table'`), or an object with createAccumulator/accumulate/[retract]/[merge]/getValue
 * and a resultType. Types may be DataTypes values or Flink type strings. `origin` says where the UDF came
 * from in errors (`export 'shout' of module './udf.mjs'`). `mainThread`: why its callers must run on the
 * main thread (see `ScalarFunctionDefinition.mainThread`).
 * @throws ValidationError when the name is taken, the object is neither form, or a declared type is wrong.
 */
export function createTemporarySystemFunction(registry: FunctionRegistry, name: string, udf: UdfInput, origin?: string, mainThread?: string): void {
  const owner = origin === undefined ? `Function '${name}'` : `Function '${name}' (${origin})`;
  const pinned: Pick<FunctionRegistry, 'register'> =
    mainThread === undefined ? registry : { register: (n, def) => registry.register(n, def.kind === 'window-tvf' ? def : { ...def, mainThread }) };
  createIn(pinned, owner, name, udf);
}

function createIn(registry: Pick<FunctionRegistry, 'register'>, owner: string, name: string, udf: UdfInput): void {
  if (typeof udf === 'function') {
    registry.register(name, scalarUdf(name, { eval: udf }, { resultType: undefined, argumentTypes: undefined }));
  } else if (typeof udf !== 'object' || udf === null) {
    throw new ValidationError(`${owner}: cannot register ${udf === null ? 'null' : `a ${typeof udf}`}; ${EXPECTED}`);
  } else if (isTable(udf)) {
    if (udf.resultType === undefined) throw new ValidationError(`${owner}: a table function must declare its resultType.`);
    if (typeof udf.eval !== 'function') throw new ValidationError(`${owner}: a table function must have an eval generator function.`);
    registry.register(name, tableUdf(name, udf, resolvedTypes(udf, owner, udf.resultType)));
  } else if (isAggregate(udf)) {
    if (udf.resultType === undefined) throw new ValidationError(`${owner}: an aggregate function must declare its resultType.`);
    registry.register(name, aggregateUdf(name, udf, resolvedTypes(udf, owner, udf.resultType)));
  } else if (typeof udf.eval === 'function') {
    registry.register(name, scalarUdf(name, udf, resolvedTypes(udf, owner, udf.resultType)));
  } else {
    throw new ValidationError(`${owner}: cannot register it; ${EXPECTED}`);
  }
}

const EXPECTED =
  "expected a function, { eval, resultType }, { kind: 'table', eval, resultType } or an aggregate with createAccumulator/accumulate/getValue.";

function resolvedTypes<R extends UdfType | undefined>(
  udf: { readonly argumentTypes?: readonly UdfType[] },
  owner: string,
  resultType: R,
): { resultType: R extends UdfType ? LogicalType : LogicalType | undefined; argumentTypes: LogicalType[] | undefined } {
  return {
    resultType: (resultType === undefined ? undefined : resolveUdfType(resultType, 'resultType', owner)) as R extends UdfType ? LogicalType : LogicalType | undefined,
    argumentTypes: resolveUdfArgumentTypes(udf.argumentTypes, owner),
  };
}
