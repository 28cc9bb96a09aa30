import type { CatalogBaseTable, CatalogTable } from '../../catalog/catalog-table.js';
import type { MaterializedTableDefinition, RefreshHandler } from '../../catalog/materialized-table.js';
import { identifierToSql, identifierToString, quoteIdentifier, type ObjectIdentifier } from '../../catalog/object-identifier.js';
import { CheckpointingOptions } from '../../config/options/checkpointing-options.js';
import { ExecutionOptions } from '../../config/options/execution-options.js';
import { ObjectNotFoundError, ValidationError } from '../../errors/sluice-error.js';
import type { AlterMaterializedTableStatement, CreateMaterializedTableStatement, MaterializedTableStatement } from '../../sql/ast/materialized-table.js';
import type { InsertStatement, PartitionSpecEntry } from '../../sql/ast/statements.js';
import { parseStatement } from '../../sql/parse.js';
import { unparseExpression } from '../../sql/unparse/unparse-expression.js';
import { unparseQuery } from '../../sql/unparse/unparse-query.js';
import { Columns } from '../../types/column.js';
import { DataTypes } from '../../types/data-types.js';
import { Row } from '../../types/row.js';
import { withoutTimeAttribute } from '../../types/logical-type.js';
import { ResolvedSchema } from '../../types/schema.js';
import { permanentObjectExists } from '../ddl/already-exists.js';
import { type DerivedRefresh, deriveRefresh, fullModeRefused } from '../ddl/materialized-table-definition.js';
import type { Session } from '../session.js';
import type { SessionPlanner } from '../session-planner.js';
import { okResult, staticResult } from '../table-results.js';
import {
  expandedQueryText,
  quote,
  refreshJobError,
  runningJob,
  startRefreshJob,
  stopRefreshJobWithSavepoint,
  storedInsert,
  updateDefinition,
  withSettings,
} from '../ddl/materialized-refresh.js';
import type { TableResult } from '../table-result.js';
import { alterMaterializedQuery, type Reshape } from './alter-materialized-query.js';
import { executeInserts } from './execute-dml.js';

/**
 * CREATE / DROP / ALTER MATERIALIZED TABLE in CONTINUOUS mode, as Flink 2.3's gateway runs them (its
 * MaterializedTableManager): the table is a catalog table with the query's columns and a `materialized` definition,
 * and its refresh job is an ordinary streaming `INSERT INTO` the table of the stored expanded query, started detached
 * and checkpointed every FRESHNESS. SUSPEND stops the job with a savepoint, RESUME starts the next one from it, DROP
 * cancels the job and drops the table.
 */
export async function executeMaterializedTable(session: Session, planner: SessionPlanner, stmt: MaterializedTableStatement): Promise<TableResult> {
  switch (stmt.kind) {
    case 'create-materialized-table':
      return create(session, planner, stmt);
    case 'drop-materialized-table': {
      const id = session.catalogs.qualify(stmt.name.parts);
      const found = await session.catalogs.getTable(stmt.name.parts);
      if (found === undefined || found.isTemporary) {
        if (stmt.ifExists) return okResult('ddl');
        throw new ObjectNotFoundError(`Materialized table with identifier ${identifierToSql(id)} does not exist.`);
      }
      const { definition } = materializedTableOf(id, found.table);
      if (definition.refreshStatus === 'ACTIVATED') await cancelRefreshJob(session, id, definition.refreshHandler);
      await session.catalogs.getCatalog(id.catalog).dropTable({ database: id.database, object: id.object }, false);
      return okResult('ddl');
    }
    case 'alter-materialized-table':
      return alter(session, planner, stmt);
  }
}

/** The table and its materialized definition, or Flink's error for a table or view that is not materialized. */
function materializedTableOf(id: ObjectIdentifier, table: CatalogTable | { kind: 'view' }): { table: CatalogTable; definition: MaterializedTableDefinition } {
  if (table.kind !== 'table' || table.materialized === undefined) {
    throw new ValidationError(`Table ${identifierToSql(id)} is not a materialized table, does not support materialized table related operation.`);
  }
  return { table, definition: table.materialized };
}

async function create(session: Session, planner: SessionPlanner, stmt: CreateMaterializedTableStatement): Promise<TableResult> {
  const id = session.catalogs.qualify(stmt.name.parts);
  const derived = deriveRefresh(stmt, session.config);
  if (derived.refreshMode === 'FULL') throw fullModeRefused(identifierToSql(id), derived, session.config);
  const catalog = session.catalogs.getCatalog(id.catalog);
  if (!(await catalog.databaseExists(id.database))) throw new ObjectNotFoundError(`Database ${id.database} does not exist in Catalog ${id.catalog}.`);
  if (await catalog.tableExists({ database: id.database, object: id.object })) {
    if (!stmt.orAlter) throw permanentObjectExists(session, id, 'table');
    return createOrAlter(session, planner, stmt, id, await catalog.getTable({ database: id.database, object: id.object }), derived);
  }

  const querySchema = await planner.inferViewSchema(stmt.query, []);
  checkPartitionKeys(id, stmt, querySchema.columns.map((c) => c.name));
  const pk = stmt.primaryKey;
  if (pk !== null && pk.enforced) {
    throw new ValidationError(
      "Flink doesn't support ENFORCED mode for PRIMARY KEY constraint. ENFORCED/NOT ENFORCED controls if the constraint checks are performed on the incoming/outgoing data. Flink does not own the data therefore the only supported mode is the NOT ENFORCED mode",
    );
  }
  const schema = ResolvedSchema.of(
    querySchema.columns.map((c) => ({ kind: 'physical' as const, name: c.name, type: withoutTimeAttribute(c.type) })),
    [],
    pk === null ? undefined : ResolvedSchema.primaryKey(pk.columns.map((c) => c.value), ...(pk.constraintName === null ? [] : [pk.constraintName])),
  );
  const originalQuery = unparseQuery(stmt.query);
  const definition: MaterializedTableDefinition = {
    originalQuery,
    expandedQuery: await expandedQueryText(session, planner, stmt.query, originalQuery, querySchema),
    freshness: derived.freshness,
    logicalRefreshMode: derived.logicalRefreshMode,
    refreshMode: derived.refreshMode,
    refreshStatus: 'INITIALIZING',
  };
  const table: CatalogTable = {
    kind: 'table',
    schema,
    partitionKeys: stmt.partitionedBy.map((n) => n.value),
    options: Object.fromEntries(stmt.options.map((p) => [p.key, p.value])),
    ...(stmt.comment === null ? {} : { comment: stmt.comment }),
    materialized: definition,
  };
  await session.catalogs.createTable(id, table, false);
  try {
    // The query as written, so that an error points into the statement the user wrote.
    const insert: InsertStatement = { kind: 'insert', overwrite: false, table: stmt.name, hints: [], partition: [], columns: [], query: stmt.query, pos: stmt.pos };
    return await startRefreshJob(session, planner, id, table, definition, insert);
  } catch (e) {
    // As Flink: a table whose refresh job cannot start is dropped again (weak atomicity).
    await catalog.dropTable({ database: id.database, object: id.object }, true);
    throw refreshJobError(`Submit continuous refresh job for materialized table ${identifierToSql(id)} occur exception`, e);
  }
}

/** DROP of an ACTIVATED table: its job is canceled when it still runs (a job of another session is gone already). */
async function cancelRefreshJob(session: Session, id: ObjectIdentifier, handler: RefreshHandler | undefined): Promise<void> {
  const job = runningJob(session, handler);
  if (job === undefined) return;
  try {
    await job.cancel();
  } catch (e) {
    throw refreshJobError(`Failed to drop the materialized table ${identifierToSql(id)} because the continuous refresh job ${job.jobId} could not be canceled`, e);
  }
}

async function alter(session: Session, planner: SessionPlanner, stmt: AlterMaterializedTableStatement): Promise<TableResult> {
  const id = session.catalogs.qualify(stmt.name.parts);
  const found = await session.catalogs.getTable(stmt.name.parts);
  if (found === undefined || found.isTemporary) throw new ObjectNotFoundError(`Materialized table with identifier ${identifierToSql(id)} does not exist.`);
  const { table, definition } = materializedTableOf(id, found.table);
  const name = identifierToSql(id);
  switch (stmt.action.kind) {
    case 'suspend': {
      if (definition.refreshStatus === 'SUSPENDED') {
        throw new ValidationError(`Materialized table ${name} continuous refresh job has been suspended, jobId is ${definition.refreshHandler?.jobId ?? 'unknown'}.`);
      }
      const dir = session.config.get(CheckpointingOptions.SAVEPOINT_DIRECTORY);
      if (dir === undefined) {
        throw new ValidationError(
          `Failed to suspend the continuous refresh job for materialized table ${name}: savepoint directory is not configured, can't stop job with savepoint. ` +
            "Set 'execution.checkpointing.savepoint-dir' first: RESUME starts the next job from that savepoint.",
        );
      }
      const job = runningJob(session, definition.refreshHandler);
      if (job === undefined) {
        throw new ValidationError(
          `Failed to suspend the continuous refresh job for materialized table ${name}: its job ${definition.refreshHandler?.jobId ?? ''} is not running in this session. DROP the table, or RESUME it to start a new refresh job.`,
        );
      }
      let savepointPath: string;
      try {
        savepointPath = await stopRefreshJobWithSavepoint(job, dir);
      } catch (e) {
        throw refreshJobError(`Failed to suspend the continuous refresh job for materialized table ${name}`, e);
      }
      await updateDefinition(session, id, table, { ...definition, refreshStatus: 'SUSPENDED', refreshHandler: { jobId: job.jobId, savepointPath } });
      return okResult('ddl');
    }
    case 'resume': {
      const running = definition.refreshStatus === 'ACTIVATED' ? runningJob(session, definition.refreshHandler) : undefined;
      if (running !== undefined) throw new ValidationError(`Materialized table ${name} continuous refresh job has been resumed, jobId is ${running.jobId}.`);
      try {
        return await startRefreshJob(session, planner, id, table, definition, storedInsert(id, definition, stmt.action.options), definition.refreshHandler?.savepointPath);
      } catch (e) {
        throw refreshJobError(`Failed to resume the continuous refresh job for materialized table ${name}`, e);
      }
    }
    case 'refresh':
      return refreshOnce(session, planner, id, table, definition, stmt.action.partition);
    case 'as-query':
      return alterMaterializedQuery(session, planner, id, table, definition, stmt.action.query);
  }
}

/**
 * ALTER MATERIALIZED TABLE ... REFRESH [PARTITION (k = 'v', ...)], as Flink's refreshMaterializedTable: a one-time
 * batch job `INSERT OVERWRITE <table> SELECT * FROM (<expanded query>) [WHERE k = 'v' AND ...]`, named
 * `Materialized_table_<id>_one_time_refresh_job`, started detached; the answer is its job id and where it runs. The
 * partition keys must be columns of the table, of a character string type (Flink's validatePartitionSpec).
 */
async function refreshOnce(
  session: Session,
  planner: SessionPlanner,
  id: ObjectIdentifier,
  table: CatalogTable,
  definition: MaterializedTableDefinition,
  partition: readonly PartitionSpecEntry[],
): Promise<TableResult> {
  const unknown: string[] = [];
  const nonString: string[] = [];
  const values: [string, string][] = [];
  for (const p of partition) {
    const column = table.schema.columns.find((c) => c.name === p.column.value);
    if (column === undefined) unknown.push(p.column.value);
    else if (column.type.kind !== 'CHAR' && column.type.kind !== 'VARCHAR') nonString.push(p.column.value);
    values.push([p.column.value, p.value.kind === 'string-literal' ? p.value.value : unparseExpression(p.value)]);
  }
  if (unknown.length > 0) {
    throw new ValidationError(`The partition spec contains unknown partition keys:\n\n${unknown.join('\n')}\n\nAll known partition keys are:\n\n${table.partitionKeys.join('\n')}`);
  }
  if (nonString.length > 0) {
    throw new ValidationError(
      `Currently, refreshing materialized table only supports referring to char, varchar and string type partition keys. All specified partition keys in partition specs with unsupported types are:\n\n${nonString.join('\n')}`,
    );
  }
  const where = values.length > 0 ? `\n  WHERE ${values.map(([k, v]) => `${quoteIdentifier(k)} = ${quote(v)}`).join(' AND ')}` : '';
  const insert = parseStatement(`INSERT OVERWRITE ${identifierToSql(id)}\n  SELECT * FROM (${definition.expandedQuery})${where}`) as InsertStatement;
  const result = await withSettings(
    session,
    { [ExecutionOptions.RUNTIME_MODE.key]: 'batch', [ExecutionOptions.PIPELINE_NAME.key]: `Materialized_table_${identifierToSql(id)}_one_time_refresh_job` },
    () => executeInserts(session, planner, [insert], 'insert'),
  );
  const job = result.getJobClient()!;
  const schema = ResolvedSchema.of([Columns.physical('job_id', DataTypes.STRING()), Columns.physical('cluster_info', DataTypes.MAP(DataTypes.STRING(), DataTypes.STRING()))]);
  const answer = staticResult('other', schema, [Row.insert(job.jobId, new Map([['execution.target', 'local']]))]);
  return { ...answer, getJobClient: () => job };
}

/**
 * CREATE OR ALTER of an existing materialized table (Flink 2.3's SqlCreateOrAlterMaterializedTableConverter.handleAlter):
 * its query changes as ALTER ... AS changes it, and it takes the statement's options, partition keys, comment,
 * freshness and refresh mode.
 */
async function createOrAlter(
  session: Session,
  planner: SessionPlanner,
  stmt: CreateMaterializedTableStatement,
  id: ObjectIdentifier,
  existing: CatalogBaseTable,
  derived: DerivedRefresh,
): Promise<TableResult> {
  if (existing.kind !== 'table' || existing.materialized === undefined) {
    throw new ValidationError(`Table ${identifierToString(id)} is not a materialized table. Only materialized table support create or alter operation.`);
  }
  checkPartitionKeys(id, stmt, (await planner.inferViewSchema(stmt.query, [])).columns.map((c) => c.name));
  const options = Object.fromEntries(stmt.options.map((p) => [p.key, p.value]));
  const reshape: Reshape = {
    table: { options, partitionKeys: stmt.partitionedBy.map((n) => n.value), comment: stmt.comment ?? undefined },
    definition: derived,
  };
  return alterMaterializedQuery(session, planner, id, existing, existing.materialized, stmt.query, reshape);
}

function checkPartitionKeys(id: ObjectIdentifier, stmt: CreateMaterializedTableStatement, names: readonly string[]): void {
  for (const p of stmt.partitionedBy) {
    if (!names.includes(p.value)) {
      throw new ValidationError(`Partition column '${p.value}' of materialized table ${identifierToSql(id)} is not a column of its query, which has [${names.join(', ')}].`);
    }
  }
}
