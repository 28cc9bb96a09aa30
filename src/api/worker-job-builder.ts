import { ValidationError } from '../errors/sluice-error.js';
import type { JobGraph } from '../runtime/job-graph.js';
import type { Statement } from '../sql/ast/statements.js';
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
  try {
    for (const stmt of p.replay) await env.executeStatement(stmt as Statement);
    // The configuration the job was planned with wins over what the replayed SETs left.
    const conf = env.getConfig();
    for (const k of conf.keys()) if (!(k in p.config)) conf.remove(k);
    for (const [k, v] of Object.entries(p.config)) conf.set(k, v);
    if (p.job.kind === 'query') {
      const planned = await env.planner.planQuery(p.job.query);
      return planned.toJobGraph({ push: () => undefined, end: () => undefined }, p.job.jobName);
    }
    return (await env.planner.planInserts(p.job.inserts)).toJobGraph(p.job.jobName);
  } catch (e) {
    if (p.codeFunctions.length > 0) {
      throw new ValidationError(
        `${e instanceof Error ? e.message : String(e)} (functions registered in code, ${p.codeFunctions.join(', ')}, cannot be loaded in a worker thread; register them with CREATE FUNCTION name AS 'module.js#export')`,
      );
    }
    throw e;
  }
}
