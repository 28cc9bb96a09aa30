import { ValidationError } from '../errors/sluice-error.js';
import type { Factory } from '../factories/factory.js';
import { withFactoriesLoaded } from '../factories/lazy-factory.js';
import { createTemporarySystemFunction } from '../planner/functions/udf.js';
import { planQuery, planStatementSet } from '../planner/planner.js';
import type { JobGraph } from '../runtime/job-graph.js';
import type { Statement } from '../sql/ast/statements.js';
import { codeFunctionPin, standInUdf } from './code-function.js';
import { importExport, importUdf } from './import-udf.js';
import { JobReplayer } from './job-recording.js';
import { sessionPlannerContext } from './session-planner-impl.js';
import { TableEnvironment } from './table-environment.js';
import type { SqlWorkerPayload } from './worker-job.js';

/**
 * Inside a worker thread: a fresh session (warnings dropped: the main thread already reported them) with the main
 * thread's configuration, factories and functions plans the job's statement into the same job graph the main thread
 * built, asking the recording of the main thread's planning about tables (job-recording.ts). Only the graph's shape
 * and operators are used: the worker runs the subtasks the job master deploys into it.
 */
export async function buildSqlWorkerGraph(p: SqlWorkerPayload): Promise<JobGraph> {
  const env = TableEnvironment.create({ config: p.config, baseDir: p.baseDir, discoverPackages: p.discoverPackages, logger: { warn: () => undefined } });
  const session = env.session;
  for (const m of p.factoryModules) session.factories.register(await importFactory(m, p.baseDir));
  // Called while planning: a stand-in evaluated as a constant (its arguments all literals) would be folded on the main thread.
  const calledWhilePlanning = new Set<string>();
  for (const f of p.codeFunctions) {
    if ('module' in f) {
      const udf = await importUdf(f.module, p.baseDir);
      createTemporarySystemFunction(session.functions, f.name, udf.value, `export '${udf.exportName}' of module '${udf.path}'`);
    } else {
      createTemporarySystemFunction(session.functions, f.name, standInUdf(f, (n) => calledWhilePlanning.add(n)), undefined, codeFunctionPin(f.name));
    }
  }
  for (const stmt of p.functionLog) await replayFunctionStatement(env, stmt as Statement);
  const graph = await withFactoriesLoaded(async () => {
    // Afresh on each attempt: a retry after loading a lazy factory asks for every table object again.
    const ctx = sessionPlannerContext(session, new JobReplayer(p.recorded));
    return p.job.kind === 'query'
      ? (await planQuery(p.job.query, ctx)).toJobGraph({ push: () => undefined, end: () => undefined }, p.job.jobName)
      : (await planStatementSet(p.job.inserts, ctx)).toJobGraph(p.job.jobName);
  });
  if (calledWhilePlanning.size > 0) {
    const names = [...calledWhilePlanning].map((n) => `'${n}'`).join(', ');
    throw new ValidationError(
      `functions registered in code without a module (${names}) are called with constant arguments, which the planner evaluates; give them a module a worker can import, createTemporarySystemFunction(name, fn, { module: 'file.js#export' })`,
    );
  }
  return graph;
}

/** A CREATE FUNCTION or DROP FUNCTION the main thread executed, applied to this worker's function registry only. */
async function replayFunctionStatement(env: TableEnvironment, stmt: Statement): Promise<void> {
  if (stmt.kind === 'create-function') {
    await env.planner.loadFunction(stmt.name.parts.at(-1)!, stmt.className, stmt.scope !== 'catalog' && stmt.ifNotExists);
  } else if (stmt.kind === 'drop' && stmt.objectType === 'FUNCTION') {
    env.planner.unloadFunction(stmt.name.parts.at(-1)!);
  }
}

/** A factory registered in code with `{ module }`, as the main thread registered it. */
async function importFactory(module: string, baseDir: string): Promise<Factory> {
  const { value, path, exportName } = await importExport(module, baseDir);
  const f = value as Partial<Factory> | null;
  if (typeof f !== 'object' || f === null || typeof f.factoryIdentifier !== 'string') {
    throw new ValidationError(`Export '${exportName}' of module '${path}' is not a factory (an object with a factoryIdentifier)`);
  }
  return f as Factory;
}
