import type { LogicalType } from '../../../types/logical-type.js';
import type { AggregateFunctionDefinition } from '../function-definition.js';
import { jsonAggregateFunctions } from './json-aggregates.js';
import { builtinAggregate } from '../../../table-runtime/aggregates/builtin-aggregates.js';
import { builtinAggregateType } from './builtin-aggregate-types.js';

/**
 * The built-in aggregates as the function registry lists them (SHOW FUNCTIONS, lookups by name). Their one
 * implementation is table-runtime's builtinAggregate and their types builtinAggregateType; the lowering calls
 * those directly, and DISTINCT is the operators' part. `$SUM0` is Calcite's name for SUM0.
 */
function runtimeBuiltin(name: string): AggregateFunctionDefinition {
  const runtimeName = name === '$SUM0' ? 'SUM0' : name;
  const type = (ts: readonly LogicalType[]): LogicalType => builtinAggregateType(runtimeName, ts, false)!;
  return {
    kind: 'aggregate',
    name,
    inferType: type,
    create: (ts) => builtinAggregate(runtimeName, ts, type(ts)),
  };
}

const BUILTIN_NAMES = [
  'COUNT',
  'SUM',
  '$SUM0',
  'AVG',
  'MIN',
  'MAX',
  'LISTAGG',
  'FIRST_VALUE',
  'LAST_VALUE',
  'ARRAY_AGG',
  'COLLECT',
  'VAR_POP',
  'VAR_SAMP',
  'VARIANCE',
  'STDDEV_POP',
  'STDDEV_SAMP',
  'STDDEV',
];

/** All built-in aggregate definitions. */
export function aggregateFunctions(): AggregateFunctionDefinition[] {
  return [...BUILTIN_NAMES.map(runtimeBuiltin), ...jsonAggregateFunctions()];
}
