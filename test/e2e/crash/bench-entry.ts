// What bench/crash-trials.mjs bundles: the jobs and the harness, without vitest.
export { allJobs } from './jobs.js';
export { crashTrial, limiter } from './harness.js';
