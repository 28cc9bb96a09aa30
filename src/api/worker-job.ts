import { existsSync } from 'node:fs';
import type { InsertStatement } from '../sql/ast/statements.js';
import type { Query } from '../sql/ast/query.js';
import { isMainThread } from 'node:worker_threads';
import type { WorkerRecipe } from '../runtime/job-graph.js';
import { prewarmWorkers } from '../runtime/workers/idle-workers.js';
import { autoWorkers, type WorkerThreadsSetting } from '../runtime/workers/placement.js';
import type { Session } from './session.js';
import { CODE_FUNCTION_ADVICE, codeFunctionSpec, type CodeFunctionSpec } from './code-function.js';
import type { RecordedJob } from './job-recording.js';

/** What a worker thread needs to rebuild a SQL job's graph: the job's statement, and what its planning was told. */
export interface SqlWorkerPayload {
  readonly baseDir: string;
  readonly discoverPackages: boolean;
  /** The session's CREATE FUNCTION and DROP FUNCTION statements, in order (parsed: structured-clonable plain data). */
  readonly functionLog: readonly unknown[];
  /** The session configuration as the job was planned with. */
  readonly config: Readonly<Record<string, string>>;
  readonly job: { readonly kind: 'query'; readonly query: Query; readonly jobName: string } | { readonly kind: 'inserts'; readonly inserts: readonly InsertStatement[]; readonly jobName: string };
  /** Functions registered in code in the main thread's session: each imported from its module, or a stand-in. */
  readonly codeFunctions: readonly CodeFunctionSpec[];
  /** Modules of the factories registered in code (`'file.js#export'`), registered in this order. */
  readonly factoryModules: readonly string[];
  /**
   * The tables the main thread's planning resolved, and what the sources and sinks built with code factories
   * answered: the worker plans against these, never against a catalog (job-recording.ts).
   */
  readonly recorded: RecordedJob;
}

/** The worker entry next to this module: `sql-worker-main.js` in the bundle and in dist/api. */
function workerEntry(): string {
  const here = new URL('./sql-worker-main.js', import.meta.url);
  if (here.protocol === 'file:' && !existsSync(here)) {
    // Running from src/ (tests): the runtime maps the .ts entry to its build in dist/.
    return new URL('./sql-worker-main.ts', import.meta.url).href;
  }
  return here.href;
}

/**
 * How worker threads rebuild a SQL job (`JobGraph.workerRecipe`), or why they cannot. `planned` is the job's plan, by
 * which the session keeps what its planning asked the catalogs and the code factories. Sources and sinks built with
 * connector or format factories registered in code without a module, and functions registered so, travel as
 * stand-ins: the planner pins the vertices running them, and the callers of the functions.
 */
export function sqlWorkerRecipe(session: Session, job: SqlWorkerPayload['job'], planned: object): WorkerRecipe | string {
  const recording = session.jobRecordings.get(planned);
  if (recording === undefined) return "internal: the job's planning was not recorded for worker threads";
  const recorded = recording.recorded();
  if (typeof recorded === 'string') return `${recorded}; register the factory with a module a worker can import, registerFactory(factory, { module: 'file.js#export' })`;
  const codeFunctions = [...session.codeFunctions].map(([name, f]) => codeFunctionSpec(name, f));
  const unclonable = codeFunctions.find((f) => !clonable(f));
  if (unclonable !== undefined) {
    return `function '${unclonable.name}' is registered in code with properties that cannot be sent to a worker thread; give it a module a worker can import, createTemporarySystemFunction(name, fn, { module: 'file.js#export' })`;
  }
  const payload: SqlWorkerPayload = {
    baseDir: session.baseDir,
    discoverPackages: session.discoverPackages,
    functionLog: [...session.functionLog],
    config: session.config.toMap(),
    job,
    codeFunctions,
    factoryModules: session.codeFactories.flatMap((f) => (f.module === undefined ? [] : [f.module])),
    recorded,
  };
  return { entry: workerEntry(), payload, mainThreadAdvice: CODE_FUNCTION_ADVICE };
}

/** Whether a worker can receive `v` (postMessage clones it): a UDF may carry data of its own. */
function clonable(v: unknown): boolean {
  try {
    structuredClone(v);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts the workers a session's jobs will use (`SET 'execution.worker-threads'`, `'parallelism.default'`)
 * in the background, so they have loaded Sluice by the time a job needs them; they never keep the process
 * alive. The main thread runs subtask slot 0 itself, so a job at parallelism P uses at most P - 1 workers:
 * starting more would only take CPU from the main thread while it plans the job.
 */
export function prewarmSqlWorkers(setting: WorkerThreadsSetting, parallelism: number | undefined): void {
  // A worker replaying the session's SET must not start workers of its own.
  if (setting === 'off' || !isMainThread || parallelism === undefined || parallelism <= 1) return;
  prewarmWorkers(workerEntry(), Math.min(autoWorkers(setting), parallelism - 1));
}
