import { identifierToString } from '../../catalog/object-identifier.js';
import { CheckpointingOptions } from '../../config/options/checkpointing-options.js';
import { ExecutionOptions } from '../../config/options/execution-options.js';
import { ObjectNotFoundError, ValidationError } from '../../errors/sluice-error.js';
import { executeJob } from '../../runtime/job-master.js';
import type { JobGraph } from '../../runtime/job-graph.js';
import type { ExplainStatement, InsertStatement, QueryStatement, StopJobStatement } from '../../sql/ast/statements.js';
import { Columns } from '../../types/column.js';
import { DataTypes } from '../../types/data-types.js';
import { Row } from '../../types/row.js';
import { ResolvedSchema } from '../../types/schema.js';
import { ResultQueue } from '../result-queue.js';
import { runtimeConfigFromSession } from '../runtime-config-from-session.js';
import type { Session } from '../session.js';
import type { SessionPlanner } from '../session-planner.js';
import { distinctSinkColumnNames, insertResult, queryResult, staticResult } from '../table-results.js';
import type { TableResult } from '../table-result.js';
import { sqlWorkerRecipe } from '../worker-job.js';
import type { RuntimeConfig } from '../../runtime/runtime-config.js';
import type { JobHooks } from '../../runtime/job-master.js';
import { unparseStatement } from '../../sql/unparse.js';
import type { JobInfo } from '../job-registry.js';

/** SELECT: plan, start the job, and hand its rows to the caller through a bounded queue. */
export async function executeQuery(session: Session, planner: SessionPlanner, stmt: QueryStatement): Promise<TableResult> {
  const planned = await planner.planQuery(stmt.query);
  const queue = new ResultQueue();
  const jobName = session.config.get(ExecutionOptions.PIPELINE_NAME) ?? 'collect';
  const config = runtimeConfigFromSession(session.config);
  const graph = planned.toJobGraph(queue, jobName);
  const job = executeJob(withRecipe(graph, config, () => sqlWorkerRecipe(session, { kind: 'query', query: stmt.query, jobName }, planned)), config, hooks(session));
  session.jobs.add(job, jobInfo(session, () => `${unparseStatement(stmt)};`, planned));
  job.waitForCompletion().then(
    () => queue.end(),
    (e: unknown) => queue.fail(e),
  );
  return queryResult(planned.schema, job, queue, !planned.changelogMode.isInsertOnly(), session.mode === 'streaming');
}

/** INSERT or a statement set: plan all into one job and start it; the caller decides whether to wait. */
export async function executeInserts(session: Session, planner: SessionPlanner, inserts: readonly InsertStatement[], origin: 'insert' | 'statement-set'): Promise<TableResult> {
  if (inserts.length === 0) throw new ValidationError('No statement in the statement set.');
  const planned = await planner.planInserts(inserts);
  const sinkNames = distinctSinkColumnNames(planned.sinks.map(identifierToString));
  const name = session.config.get(ExecutionOptions.PIPELINE_NAME) ?? `insert-into_${sinkNames.join(',')}`;
  const config = runtimeConfigFromSession(session.config);
  const graph = withRecipe(planned.toJobGraph(name), config, () => sqlWorkerRecipe(session, { kind: 'inserts', inserts, jobName: name }, planned));
  const job = executeJob(graph, config, hooks(session));
  const sql = (): string => {
    const statements = inserts.map((i) => `${unparseStatement(i)};`);
    return origin === 'statement-set' ? `EXECUTE STATEMENT SET\nBEGIN\n${statements.join('\n')}\nEND;` : statements.join('\n');
  };
  session.jobs.add(job, jobInfo(session, sql, planned));
  // A restore path applies to the next job only, as Flink's client clears it once a job was submitted from it.
  session.config.remove(CheckpointingOptions.SAVEPOINT_PATH);
  return insertResult(sinkNames, job, origin);
}

/** The recipe is built only when workers may be used: small jobs and the default pay nothing. */
function withRecipe(graph: JobGraph, config: RuntimeConfig, recipe: () => JobGraph['workerRecipe']): JobGraph {
  return config.workerThreads === 'off' ? graph : { ...graph, workerRecipe: recipe() };
}

/** The job's statement, plan and configuration for the dashboard; the texts are built only if asked for, once. */
function jobInfo(session: Session, sql: () => string, planned: { explain(details?: readonly string[]): string }): JobInfo {
  let explained: string | undefined;
  let printed: string | undefined;
  return { sql: () => (printed ??= sql()), config: session.config.toMap(), explain: () => (explained ??= planned.explain()) };
}

function hooks(session: Session): JobHooks {
  return { warn: (m) => session.warn(m) };
}

/** EXPLAIN: the three sections of Flink's plan text. */
export async function executeExplain(planner: SessionPlanner, stmt: ExplainStatement): Promise<TableResult> {
  const inner = stmt.statement;
  const planned =
    inner.kind === 'query'
      ? await planner.planQuery(inner.query)
      : await planner.planInserts(inner.kind === 'insert' ? [inner] : inner.inserts);
  const text = planned.explain(stmt.details);
  return staticResult('explain', ResolvedSchema.of([Columns.physical('result', DataTypes.STRING())]), [Row.insert(text)]);
}

/** STOP JOB 'id' [WITH SAVEPOINT]: cancels, or stops with a savepoint and returns its path. */
export async function executeStopJob(session: Session, stmt: StopJobStatement): Promise<TableResult> {
  const job = session.jobs.get(stmt.jobId);
  if (!job) throw new ObjectNotFoundError(`Could not stop job ${stmt.jobId}: no such job in this session.`);
  if (!stmt.withSavepoint) {
    await job.client.cancel();
    return staticResult('stop-job', ResolvedSchema.of([Columns.physical('result', DataTypes.STRING())]), [], 'SUCCESS');
  }
  const dir = session.config.get(CheckpointingOptions.SAVEPOINT_DIRECTORY);
  if (dir === undefined) {
    throw new ValidationError(
      `No savepoint directory is configured. Set 'execution.checkpointing.savepoint-dir' (or 'state.savepoints.dir') before STOP JOB ... WITH SAVEPOINT.`,
    );
  }
  const path = await job.client.stopWithSavepoint(dir);
  return staticResult('stop-job', ResolvedSchema.of([Columns.physical('savepoint path', DataTypes.STRING())]), [Row.insert(path)]);
}
