export * from './config-option.js';
export * from './config-options.js';
export * from './option-type.js';
export * from './configuration.js';
export * from './secrets.js';
export * from './units.js';
export * from './structured-options.js';
export * from './options/index.js';
