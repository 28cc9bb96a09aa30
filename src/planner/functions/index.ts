export * from './function-definition.js';
export * from './function-registry.js';
export * from './builtin-registry.js';
export * from './udf.js';
export * from '../../table-runtime/aggregates/aggregate-function.js';
export { scalar, inFamily } from './define.js';
export type { Family, ScalarSpec, NullRule } from './define.js';
export * from './operator-names.js';
