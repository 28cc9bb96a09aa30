import { PlanningError, ValidationError } from '../../errors/sluice-error.js';
import { DataTypes } from '../../types/data-types.js';
import { withNullability } from '../../types/logical-type.js';
import type { LogicalType } from '../../types/logical-type.js';
import { canCast } from '../expressions/cast.js';
import { cannotApply } from '../expressions/type-rules.js';
import type { AggregateFunction } from './aggregates/aggregate-function.js';
import type { AggregateFunctionDefinition, ScalarFunctionDefinition } from './function-definition.js';
import type { FunctionRegistry } from './function-registry.js';

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
  /** Result type; default nullable STRING. */
  readonly resultType?: LogicalType;
  /** Declared argument types: arguments are implicitly cast to them; absent means any arguments as they are. */
  readonly argumentTypes?: readonly LogicalType[];
  /** Called with NULL arguments too (default false: any NULL argument gives NULL without calling `eval`). */
  readonly callOnNull?: boolean;
  /** Default true; false keeps constant folding away. */
  readonly deterministic?: boolean;
}

/** An aggregate UDF: the AggregateFunction methods plus its result type. */
export interface AggregateUdf<Acc> extends AggregateFunction<Acc> {
  readonly resultType: LogicalType;
  readonly argumentTypes?: readonly LogicalType[];
}

export type UdfInput = ((...args: never[]) => unknown) | ScalarUdf | AggregateUdf<unknown>;

function isAggregate(u: UdfInput): u is AggregateUdf<unknown> {
  return typeof u === 'object' && 'createAccumulator' in u && 'accumulate' in u && 'getValue' in u;
}

function checkArgs(name: string, declared: readonly LogicalType[] | undefined, argTypes: readonly LogicalType[]): void {
  if (declared === undefined) return;
  if (declared.length !== argTypes.length || !argTypes.every((t, i) => canCast(t, declared[i]!))) {
    throw cannotApply(name, argTypes, [`${name}(${declared.map((t) => `<${t.kind}>`).join(', ')})`]);
  }
}

/** A scalar definition for a UDF. */
export function scalarUdf(name: string, udf: ScalarUdf): ScalarFunctionDefinition {
  const upper = name.toUpperCase();
  const result = udf.resultType ?? DataTypes.STRING();
  const f = udf.eval;
  return {
    kind: 'scalar',
    name: upper,
    deterministic: udf.deterministic ?? true,
    coerceOperands(argTypes) {
      checkArgs(upper, udf.argumentTypes, argTypes);
      return udf.argumentTypes;
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
export function aggregateUdf(name: string, udaf: AggregateUdf<unknown>): AggregateFunctionDefinition {
  const upper = name.toUpperCase();
  return {
    kind: 'aggregate',
    name: upper,
    inferType(argTypes) {
      checkArgs(upper, udaf.argumentTypes, argTypes);
      return withNullability(udaf.resultType, true);
    },
    create() {
      return udaf;
    },
  };
}

/**
 * Register a UDF under `name` (case-insensitive): a plain function (result STRING), a `ScalarUdf`, or an
 * object with createAccumulator/accumulate/[retract]/[merge]/getValue and a resultType.
 * @throws ValidationError when the name is taken or the object is neither form.
 */
export function createTemporarySystemFunction(registry: FunctionRegistry, name: string, udf: UdfInput): void {
  if (typeof udf === 'function') {
    registry.register(name, scalarUdf(name, { eval: udf }));
  } else if (isAggregate(udf)) {
    if (udf.resultType === undefined) throw new ValidationError(`Aggregate function '${name}' must declare its resultType.`);
    registry.register(name, aggregateUdf(name, udf));
  } else if (typeof udf === 'object' && typeof udf.eval === 'function') {
    registry.register(name, scalarUdf(name, udf));
  } else {
    throw new ValidationError(`Cannot register '${name}': expected a function, { eval, resultType } or an aggregate with createAccumulator/accumulate/getValue.`);
  }
}


