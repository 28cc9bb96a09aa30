// What bench/crash-trials.mjs bundles: the jobs and the harness, without vitest.
export { allJobs, rescaleJobs } from './jobs.js';
export { crashTrial, limiter, rescaleTrial } from './harness.js';
