// A function for the worker-thread metrics test, loaded with CREATE FUNCTION ... AS 'worker-udfs.mjs#name'
// on the main thread and in every worker.
import { threadId } from 'node:worker_threads';

/** Spins 3 ms per row in a worker thread only (the main thread runs subtask 0 and passes rows on at once). */
export const spinInWorker = {
  eval: (x) => {
    if (threadId !== 0) {
      const end = performance.now() + 3;
      while (performance.now() < end) {
        // busy on purpose
      }
    }
    return x;
  },
  resultType: 'BIGINT',
  argumentTypes: ['BIGINT'],
};

/** Spins 0.2 ms per row in a worker thread only: a slow consumer there, with batches short enough to report between. */
export const slowInWorker = {
  eval: (x) => {
    if (threadId !== 0) {
      const end = performance.now() + 0.2;
      while (performance.now() < end) {
        // busy on purpose
      }
    }
    return x;
  },
  resultType: 'BIGINT',
  argumentTypes: ['BIGINT'],
};
