import type { CatalogTable } from '../../catalog/catalog-table.js';
import type { MaterializedTableDefinition } from '../../catalog/materialized-table.js';
import { identifierToSql, type ObjectIdentifier } from '../../catalog/object-identifier.js';
import { CheckpointingOptions } from '../../config/options/checkpointing-options.js';
import { ValidationError } from '../../errors/sluice-error.js';
import type { Query } from '../../sql/ast/query.js';
import { unparseQuery } from '../../sql/unparse/unparse-query.js';
import type { Column } from '../../types/column.js';
import { withoutTimeAttribute } from '../../types/logical-type.js';
import { ResolvedSchema } from '../../types/schema.js';
import { typeToString } from '../../types/type-to-string.js';
import {
  expandedQueryText,
  refreshJobError,
  runningJob,
  startRefreshJob,
  stopRefreshJobWithSavepoint,
  storedInsert,
  updateDefinition,
} from '../ddl/materialized-refresh.js';
import type { Session } from '../session.js';
import type { SessionPlanner } from '../session-planner.js';
import { okResult } from '../table-results.js';
import type { TableResult } from '../table-result.js';

/**
 * ALTER MATERIALIZED TABLE t AS query in CONTINUOUS mode, as Flink 2.3's callAlterMaterializedTableChangeOperation: the
 * new query's columns must be the old ones, in order and of the same types, with nullable columns added at the end
 * only. A running refresh job is stopped with a savepoint, the table takes the new schema and query, and a new job
 * starts from the beginning of its sources, not from that savepoint (its state belongs to the old query); should it
 * not start, the old definition is put back and the old job resumed from the savepoint. A suspended table just takes
 * the new query, its savepoint forgotten, and RESUME starts it afresh.
 */
export async function alterMaterializedQuery(
  session: Session,
  planner: SessionPlanner,
  id: ObjectIdentifier,
  table: CatalogTable,
  definition: MaterializedTableDefinition,
  query: Query,
  reshape: Reshape = {},
): Promise<TableResult> {
  const name = identifierToSql(id);
  const querySchema = await planner.inferViewSchema(query, []);
  const columns: Column[] = querySchema.columns.map((c) => ({ kind: 'physical', name: c.name, type: withoutTimeAttribute(c.type) }));
  checkEvolution(name, table.schema.columns, columns);
  // Old columns keep their own types (a primary key's NOT NULL with them); only the new ones come from the query.
  const schema = ResolvedSchema.of([...table.schema.columns, ...columns.slice(table.schema.columnCount)], [], table.schema.primaryKey);
  const originalQuery = unparseQuery(query);
  const altered: CatalogTable = { ...reshaped(table, reshape), schema };
  const newDefinition: MaterializedTableDefinition = {
    ...definition,
    ...reshape.definition,
    originalQuery,
    expandedQuery: await expandedQueryText(session, planner, query, originalQuery, querySchema),
    refreshStatus: 'SUSPENDED',
    ...(definition.refreshHandler === undefined ? {} : { refreshHandler: { jobId: definition.refreshHandler.jobId } }),
  };
  const job = definition.refreshStatus === 'ACTIVATED' ? runningJob(session, definition.refreshHandler) : undefined;
  if (job === undefined) {
    await updateDefinition(session, id, altered, newDefinition);
    if (definition.refreshStatus !== 'ACTIVATED') return okResult('ddl');
    // ACTIVATED without a job running here (it ended, or another run started it): the new query's job starts now.
    return startRefreshJob(session, planner, id, altered, newDefinition, storedInsert(id, newDefinition, []));
  }
  const dir = session.config.get(CheckpointingOptions.SAVEPOINT_DIRECTORY);
  if (dir === undefined) {
    throw new ValidationError(
      `Failed to suspend the continuous refresh job for materialized table ${name}: savepoint directory is not configured, can't stop job with savepoint. ` +
        "Set 'execution.checkpointing.savepoint-dir' first: the old job is stopped with a savepoint, kept should the new query's job not start.",
    );
  }
  let savepointPath: string;
  try {
    savepointPath = await stopRefreshJobWithSavepoint(job, dir);
  } catch (e) {
    // A bounded job may have finished meanwhile: then there is nothing to stop, and the new job just starts.
    if (job.status() === 'FINISHED') return alterMaterializedQuery(session, planner, id, table, definition, query, reshape);
    throw refreshJobError(`Failed to suspend the continuous refresh job for materialized table ${name}`, e);
  }
  await updateDefinition(session, id, altered, newDefinition);
  try {
    return await startRefreshJob(session, planner, id, altered, newDefinition, storedInsert(id, newDefinition, []));
  } catch (e) {
    // Roll back to the old query and resume its job from the savepoint just taken, as Flink does.
    const suspended: MaterializedTableDefinition = { ...definition, refreshStatus: 'SUSPENDED', refreshHandler: { jobId: job.jobId, savepointPath } };
    await updateDefinition(session, id, table, suspended);
    await startRefreshJob(session, planner, id, table, suspended, storedInsert(id, suspended, []), savepointPath);
    throw refreshJobError(`Failed to start the continuous refresh job using new query ${newDefinition.expandedQuery} when altering materialized table ${name} select query`, e);
  }
}

/**
 * What CREATE OR ALTER changes besides the query (Flink's buildNewCatalogMaterializedTableFromOldTable): the options,
 * partition keys and comment as the statement gives them, and its freshness and refresh mode.
 */
export interface Reshape {
  readonly table?: { readonly options: CatalogTable['options']; readonly partitionKeys: readonly string[]; readonly comment: string | undefined };
  readonly definition?: Pick<MaterializedTableDefinition, 'freshness' | 'logicalRefreshMode' | 'refreshMode'>;
}

/** The table with the options, partition keys and comment CREATE OR ALTER gives (no COMMENT leaves none). */
function reshaped(table: CatalogTable, reshape: Reshape): CatalogTable {
  if (reshape.table === undefined) return table;
  const { comment: _, ...rest } = table;
  const { options, partitionKeys, comment } = reshape.table;
  return { ...rest, options, partitionKeys, ...(comment === undefined ? {} : { comment }) };
}

/** Flink's schema evolution rule for a materialized table's new query: the old columns, then nullable new ones. */
function checkEvolution(name: string, old: readonly Column[], next: readonly Column[]): void {
  if (next.length < old.length) {
    throw new ValidationError(
      `Failed to modify query because drop column is unsupported. When modifying a query, you can only append new columns at the end of original schema. The original schema has ${old.length} columns, but the newly derived schema from the query has ${next.length} columns.`,
    );
  }
  old.forEach((o, i) => {
    const n = next[i]!;
    if (o.name !== n.name || typeToString(o.type) !== typeToString(n.type)) {
      throw new ValidationError(
        `When modifying the query of a materialized table, currently only support appending columns at the end of original schema, dropping, renaming, and reordering columns are not supported.\nColumn mismatch at position ${i}: Original column is [${describe(o)}], but new column is [${describe(n)}].`,
      );
    }
  });
  for (const n of next.slice(old.length)) {
    if (!n.type.nullable) {
      throw new ValidationError(
        `The column ${n.name} of materialized table ${name}'s new query is NOT NULL (${typeToString(n.type)}): a column added by ALTER MATERIALIZED TABLE ... AS must be nullable, since the rows already written have none.`,
      );
    }
  }
}

function describe(c: Column): string {
  return `\`${c.name}\` ${typeToString(c.type)}`;
}
