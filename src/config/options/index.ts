export * from './execution-options.js';
export * from './checkpointing-options.js';
export * from './restart-strategy-options.js';
export * from './table-options.js';
export * from './session-options.js';
export * from './state-backend-options.js';
export * from './materialized-table-options.js';
