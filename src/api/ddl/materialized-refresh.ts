import type { CatalogTable } from '../../catalog/catalog-table.js';
import type { MaterializedTableDefinition, RefreshHandler } from '../../catalog/materialized-table.js';
import { freshnessMillis } from '../../catalog/materialized-table.js';
import { identifierToSql, type ObjectIdentifier } from '../../catalog/object-identifier.js';
import { CheckpointingOptions } from '../../config/options/checkpointing-options.js';
import { ExecutionOptions } from '../../config/options/execution-options.js';
import { ValidationError } from '../../errors/sluice-error.js';
import type { JobClient } from '../../runtime/job-client.js';
import type { Property } from '../../sql/ast/names.js';
import type { Query } from '../../sql/ast/query.js';
import type { InsertStatement } from '../../sql/ast/statements.js';
import { parseStatement } from '../../sql/parse.js';
import { unparseQuery } from '../../sql/unparse/unparse-query.js';
import type { ResolvedSchema } from '../../types/schema.js';
import type { Session } from '../session.js';
import type { SessionPlanner } from '../session-planner.js';
import { executeInserts } from '../statements/execute-dml.js';
import { okResult } from '../table-results.js';
import type { TableResult } from '../table-result.js';
import { expandViewQuery } from './expand-view-query.js';

/*
 * The parts of a materialized table's refresh pipeline its statements share (Flink's MaterializedTableManager): the
 * stored expanded query, the refresh job's INSERT and how it is started, and the table's definition kept up to date.
 */

/**
 * The query as Flink stores it for the refresh job (full table names, qualified columns; see expandViewQuery), kept
 * only when it binds to the same columns as the query written; otherwise the query as written.
 */
export async function expandedQueryText(
  session: Session,
  planner: SessionPlanner,
  query: Query,
  originalQuery: string,
  schema: ResolvedSchema,
): Promise<string> {
  const expanded = await expandViewQuery(query, async (names) => {
    const t = await session.catalogs.getTable(names);
    return t === undefined ? undefined : { identifier: t.identifier, columns: t.table.schema.columns.map((c) => c.name) };
  });
  if (expanded === undefined) return originalQuery;
  const again = await planner.inferViewSchema(expanded, []);
  const same = again.columnCount === schema.columnCount && again.columns.every((c, i) => c.name === schema.columns[i]!.name);
  return same ? unparseQuery(expanded) : originalQuery;
}

export function quote(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

/** `INSERT INTO <table> [/*+ OPTIONS(dynamic options) *\/] <expanded query>`, the refresh job Flink's RESUME runs. */
export function storedInsert(id: ObjectIdentifier, definition: MaterializedTableDefinition, dynamicOptions: readonly Property[]): InsertStatement {
  const hint = dynamicOptions.length > 0 ? ` /*+ OPTIONS(${dynamicOptions.map((p) => `${quote(p.key)}=${quote(p.value)}`).join(', ')}) */` : '';
  return parseStatement(`INSERT INTO ${identifierToSql(id)}${hint}\n${definition.expandedQuery}`) as InsertStatement;
}

/**
 * Starts the continuous refresh job `insert` in streaming mode, named `Materialized_table_<id>_continuous_refresh_job`,
 * checkpointed every FRESHNESS unless the session sets 'execution.checkpointing.interval', and restored from
 * `restorePath` when resuming (Flink's executeContinuousRefreshJob). The table's refresh status becomes ACTIVATED with the new job's id.
 */
export async function startRefreshJob(
  session: Session,
  planner: SessionPlanner,
  id: ObjectIdentifier,
  table: CatalogTable,
  definition: MaterializedTableDefinition,
  insert: InsertStatement,
  restorePath?: string,
): Promise<TableResult> {
  const config = session.config;
  const overrides: Record<string, string> = {
    [ExecutionOptions.RUNTIME_MODE.key]: 'streaming',
    [ExecutionOptions.PIPELINE_NAME.key]: `Materialized_table_${identifierToSql(id)}_continuous_refresh_job`,
  };
  if (config.get(CheckpointingOptions.CHECKPOINTING_INTERVAL) === undefined) overrides[CheckpointingOptions.CHECKPOINTING_INTERVAL.key] = `${freshnessMillis(definition.freshness)} ms`;
  if (restorePath !== undefined) overrides[CheckpointingOptions.SAVEPOINT_PATH.key] = restorePath;
  // The job is planned with these settings only: the session's own are put back whatever happens.
  const result = await withSettings(session, overrides, () => executeInserts(session, planner, [insert], 'insert'));
  const job = result.getJobClient()!;
  await updateDefinition(session, id, table, { ...definition, refreshStatus: 'ACTIVATED', refreshHandler: { jobId: job.jobId } });
  // Flink answers OK and shows the job through DESCRIBE JOB / SHOW JOBS; the client still sees it for `-f`'s end.
  const ok = okResult('ddl');
  return { ...ok, getJobClient: () => job };
}

export async function updateDefinition(session: Session, id: ObjectIdentifier, table: CatalogTable, definition: MaterializedTableDefinition): Promise<void> {
  await session.catalogs.getCatalog(id.catalog).alterTable({ database: id.database, object: id.object }, { ...table, materialized: definition }, false);
}

/** The refresh job of this session with that id, if it is still running. */
export function runningJob(session: Session, handler: RefreshHandler | undefined): JobClient | undefined {
  if (handler === undefined) return undefined;
  const job = session.jobs.get(handler.jobId)?.client;
  return job !== undefined && (job.status() === 'RUNNING' || job.status() === 'CREATED') ? job : undefined;
}


/**
 * Stops a refresh job with a savepoint into `dir`, resolving with its path. A job just submitted is still CREATED (its
 * tasks deploying), and a savepoint needs it RUNNING: that is waited for, up to a minute.
 */
export async function stopRefreshJobWithSavepoint(job: JobClient, dir: string): Promise<string> {
  const deadline = Date.now() + 60_000;
  while (job.status() === 'CREATED' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return job.stopWithSavepoint(dir);
}

/** Runs `action` with the session's configuration changed by `overrides`, and puts the session's own values back. */
export async function withSettings<T>(session: Session, overrides: Readonly<Record<string, string>>, action: () => Promise<T>): Promise<T> {
  const config = session.config;
  const saved = Object.keys(overrides).map((k) => [k, config.toMap()[k]] as const);
  for (const [k, v] of Object.entries(overrides)) config.set(k, v);
  try {
    return await action();
  } finally {
    for (const [k, v] of saved) {
      if (v === undefined) config.remove(k);
      else config.set(k, v);
    }
  }
}

/** Flink's wording for a refresh job that could not be started or stopped, with the reason Sluice was given. */
export function refreshJobError(what: string, cause: unknown): ValidationError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new ValidationError(`${what}: ${reason}`, { cause });
}

