export * from './json-value.js';
export * from './temporal.js';
export * from './number-format.js';
export * from './format-value.js';
export * from './jsonl.js';
export * from './equality.js';
export * from './state-codec.js';
export * from './conformance.js';
