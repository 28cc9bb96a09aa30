export * from './logical-type.js';
export * from './data-types.js';
export * from './type-to-string.js';
export * from './parse-logical-type.js';
export * from './decimal.js';
export * from './decimal-type-rules.js';
export * from './row.js';
export * from './row-kind.js';
