export * from './sluice-error.js';
