// The module a worker thread of a SQL job runs (`execution.worker-threads`): it rebuilds the job graph
// from the recipe the main thread sent and then runs the subtasks deployed into it.
import { runWorker } from '../runtime/workers/worker-runtime.js';
import { buildSqlWorkerGraph } from './worker-job-builder.js';
import type { SqlWorkerPayload } from './worker-job.js';

runWorker((payload) => buildSqlWorkerGraph(payload as SqlWorkerPayload));
