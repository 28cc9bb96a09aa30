import { ValidationError } from '../errors/sluice-error.js';
import type { Factory } from '../factories/factory.js';
import { createTemporarySystemFunction } from '../planner/functions/udf.js';
import type { JobGraph } from '../runtime/job-graph.js';
import type { Statement } from '../sql/ast/statements.js';
import { codeFunctionPin, standInUdf } from './code-function.js';
import { standInFactory } from './code-table-replay.js';
import { importExport, importUdf } from './import-udf.js';
import { TableEnvironment } from './table-environment.js';
import type { SqlWorkerPayload } from './worker-job.js';

/**
 * Inside a worker thread: replays the session's statements into a fresh session (in-memory catalogs,
 * warnings dropped: the main thread already reported them) and plans the job's statement into the
 * same job graph the main thread built. Only the graph's shape and operators are used: the worker runs
 * the subtasks the job master deploys into it.
 */
export async function buildSqlWorkerGraph(p: SqlWorkerPayload): Promise<JobGraph> {
  const env = TableEnvironment.create({ config: p.config, baseDir: p.baseDir, discoverPackages: p.discoverPackages, logger: { warn: () => undefined } });
  const session = env.session;
  for (const m of p.factoryModules) session.factories.register(await importFactory(m, p.baseDir));
  const standIns = p.codeConnectors.map((c) => standInFactory(c.identifier, c, p.codeTables));
  for (const f of standIns) session.factories.register(f);
  // Called while planning: a stand-in evaluated as a constant (its arguments all literals) would be folded on the main thread.
  const calledWhilePlanning = new Set<string>();
  // Registered before the replay, which may read them (a view calling one).
  for (const f of p.codeFunctions) {
    if ('module' in f) {
      const udf = await importUdf(f.module, p.baseDir);
      createTemporarySystemFunction(session.functions, f.name, udf.value, `export '${udf.exportName}' of module '${udf.path}'`);
    } else {
      createTemporarySystemFunction(session.functions, f.name, standInUdf(f, (n) => calledWhilePlanning.add(n)), undefined, codeFunctionPin(f.name));
    }
  }
  for (const stmt of p.replay) await env.executeStatement(stmt as Statement);
  // The configuration the job was planned with wins over what the replayed SETs left.
  const conf = env.getConfig();
  for (const k of conf.keys()) if (!(k in p.config)) conf.remove(k);
  for (const [k, v] of Object.entries(p.config)) conf.set(k, v);
  for (const f of standIns) f.startJob();
  const graph =
    p.job.kind === 'query'
      ? (await env.planner.planQuery(p.job.query)).toJobGraph({ push: () => undefined, end: () => undefined }, p.job.jobName)
      : (await env.planner.planInserts(p.job.inserts)).toJobGraph(p.job.jobName);
  if (calledWhilePlanning.size > 0) {
    const names = [...calledWhilePlanning].map((n) => `'${n}'`).join(', ');
    throw new ValidationError(
      `functions registered in code without a module (${names}) are called with constant arguments, which the planner evaluates; give them a module a worker can import, createTemporarySystemFunction(name, fn, { module: 'file.js#export' })`,
    );
  }
  return graph;
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
