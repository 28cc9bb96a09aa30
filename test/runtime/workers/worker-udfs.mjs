// Functions for the worker thread tests, loaded with CREATE FUNCTION ... AS 'worker-udfs.mjs#name' on the
// main thread and in every worker.
import { isMainThread, threadId } from 'node:worker_threads';

/** The thread a row was computed on (0: the main thread). */
export const tid = { eval: (_x) => threadId, resultType: 'INT', argumentTypes: ['BIGINT'] };

/** Fails the subtask in a worker (the main thread runs subtask 0) at its first row. */
export const boom = {
  eval: (x) => {
    if (threadId !== 0) throw new Error(`boom at ${x} on thread ${threadId}`);
    return x;
  },
  resultType: 'BIGINT',
  argumentTypes: ['BIGINT'],
};

/** Ends a worker thread at its first row (as an out-of-memory or a native crash would). */
export const die = {
  eval: (x) => {
    if (threadId !== 0) process.exit(7);
    return x;
  },
  resultType: 'BIGINT',
  argumentTypes: ['BIGINT'],
};

/** 1 on the main thread, 0 in a worker: registered in code with this export as its module. */
export const onMain = { eval: (_x) => (isMainThread ? 1 : 0), resultType: 'INT', argumentTypes: ['BIGINT'] };

/** A factory no table uses, registered in code with this export as its module: a worker registers it too. */
export const unusedFactory = { factoryIdentifier: 'test-unused', requiredOptions: () => [], optionalOptions: () => [] };
