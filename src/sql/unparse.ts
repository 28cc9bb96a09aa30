/**
 * Canonical Flink SQL from the AST. For every node n, parse(unparse(n)) equals n apart from
 * positions; catalogs store computed columns and watermarks as `unparseExpression` text.
 */
export { unparseDataType } from './unparse/unparse-data-type.js';
export { unparseExpression } from './unparse/unparse-expression.js';
export { unparseQuery, unparseTableRef } from './unparse/unparse-query.js';
export { unparseColumn, unparsePrimaryKey, unparseStatement, unparseWatermark } from './unparse/unparse-statement.js';
