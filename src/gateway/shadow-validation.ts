import type { CatalogTable } from '../catalog/catalog-table.js';
import type { Session } from '../api/session.js';
import type { SessionPlanner } from '../api/session-planner.js';
import { executeStatement, isDdlStatement } from '../api/statement-executor.js';
import type { CreateTableStatement } from '../sql/ast/ddl.js';
import type { Query } from '../sql/ast/query.js';
import type { Statement } from '../sql/ast/statements.js';
import { withoutTimeAttribute } from '../types/logical-type.js';
import { ResolvedSchema } from '../types/schema.js';
import type { ClusterOnlyObjects } from './cluster-only-objects.js';
import { checkRunnableOnCluster, clusterAdvice } from './cluster-refusals.js';

/**
 * Sluice's own checks of a statement bound for a cluster, against a local "shadow" session that mirrors the
 * gateway session: what the cluster cannot run is refused; DDL, SET, RESET and USE are applied to the shadow
 * (so later statements see the tables); queries and INSERTs are planned but never run. Statements about the
 * cluster's state (SHOW, DESCRIBE, STOP JOB) are left to the cluster, and so are Java functions and every
 * statement that calls one (see leftToCluster). Throws what a local run would throw.
 */
export async function validateForCluster(
  session: Session,
  planner: SessionPlanner,
  stmt: Statement,
  warn: (m: string) => void,
  clusterOnly: ClusterOnlyObjects,
): Promise<void> {
  checkRunnableOnCluster(stmt);
  const advice = clusterAdvice(stmt);
  if (advice !== undefined) warn(advice);
  if (leftToCluster(stmt, clusterOnly)) return;
  if (stmt.kind === 'create-table' && stmt.asQuery) return shadowCreateTableAs(session, planner, stmt, stmt.asQuery);
  if (isDdlStatement(stmt)) {
    await executeStatement(session, planner, stmt, warn);
    return;
  }
  switch (stmt.kind) {
    case 'query':
      await planner.planQuery(stmt.query);
      return;
    case 'insert':
      await planner.planInserts([stmt]);
      return;
    case 'statement-set':
      await planner.planInserts(stmt.inserts);
      return;
    case 'execute':
      return validateForCluster(session, planner, stmt.statement, warn, clusterOnly);
    case 'create-materialized-table': {
      // The cluster runs the refresh job (and FULL mode, with its workflow scheduler); the shadow only needs the
      // table, to check what later statements say of it, and the query planned as its job's INSERT.
      const { name, primaryKey, comment, partitionedBy, options, query, pos } = stmt;
      const existing = stmt.orAlter ? await session.catalogs.getTable(name.parts) : undefined;
      if (existing !== undefined && !existing.isTemporary) {
        const id = existing.identifier;
        await session.catalogs.getCatalog(id.catalog).dropTable({ database: id.database, object: id.object }, true);
      }
      const asTable: CreateTableStatement = { kind: 'create-table', temporary: false, ifNotExists: false, name, columns: [], watermarks: [], primaryKey, comment, partitionedBy, options, like: null, asQuery: query, pos };
      return shadowCreateTableAs(session, planner, asTable, query);
    }
    case 'drop-materialized-table': {
      const id = session.catalogs.qualify(stmt.name.parts);
      await session.catalogs.getCatalog(id.catalog).dropTable({ database: id.database, object: id.object }, true);
      return;
    }
    case 'alter-materialized-table': {
      if (stmt.action.kind !== 'as-query') return;
      // The new query's columns, for later statements; the cluster checks the schema evolution and swaps the job.
      const found = await session.catalogs.getTable(stmt.name.parts);
      if (found === undefined || found.table.kind !== 'table') return;
      const id = found.identifier;
      await session.catalogs.getCatalog(id.catalog).dropTable({ database: id.database, object: id.object }, true);
      const options = Object.entries(found.table.options).map(([key, value]) => ({ key, value, pos: stmt.pos }));
      const partitionedBy = found.table.partitionKeys.map((value) => ({ value, pos: stmt.pos }));
      const query = stmt.action.query;
      const asTable: CreateTableStatement = { kind: 'create-table', temporary: false, ifNotExists: false, name: stmt.name, columns: [], watermarks: [], primaryKey: null, comment: null, partitionedBy, options, like: null, asQuery: query, pos: stmt.pos };
      return shadowCreateTableAs(session, planner, asTable, query);
    }
    case 'show':
    case 'show-create':
    case 'describe':
    case 'describe-catalog':
    case 'stop-job':
      return;
    default:
      // SET, RESET, USE, EXPLAIN: as locally (EXPLAIN only plans); the rest fails as it does locally.
      await executeStatement(session, planner, stmt, warn);
  }
}

/**
 * True for a statement the cluster validates instead of the shadow, recording what it defines or drops:
 * - CREATE FUNCTION (a JavaScript one was refused before): Flink loads the class from its jars, and Sluice
 *   cannot know its signature; DROP FUNCTION, since the shadow holds no functions; ADD / REMOVE JAR;
 * - a statement that calls such a function or names a view or table built on one; a view or table it
 *   defines (or renames) is then the cluster's alone too.
 * Everything else is still checked by Sluice first, so a typo elsewhere in the file is found before line 1
 * runs; the cluster's own errors for these statements gain the file position as any cluster error does.
 */
function leftToCluster(stmt: Statement, clusterOnly: ClusterOnlyObjects): boolean {
  switch (stmt.kind) {
    case 'add-jar':
    case 'remove-jar':
      return true;
    case 'create-function':
      clusterOnly.addFunction(stmt.name);
      return true;
    case 'drop':
      if (stmt.objectType === 'FUNCTION') {
        clusterOnly.dropFunction(stmt.name);
        return true;
      }
      return (stmt.objectType === 'TABLE' || stmt.objectType === 'VIEW') && clusterOnly.dropTable(stmt.name);
    default:
      break;
  }
  if (clusterOnly.referencedBy(stmt) === undefined) return false;
  if (stmt.kind === 'create-table' || stmt.kind === 'create-view' || stmt.kind === 'alter-view') clusterOnly.addTable(stmt.name);
  if ((stmt.kind === 'alter-table' || stmt.kind === 'alter-view') && stmt.action.kind === 'rename') clusterOnly.addTable(stmt.action.newName);
  return true;
}

/** CREATE TABLE ... AS SELECT in the shadow: the table with the query's columns, and the INSERT planned, not run. */
async function shadowCreateTableAs(session: Session, planner: SessionPlanner, stmt: CreateTableStatement, query: Query): Promise<void> {
  if ((await session.catalogs.getTable(stmt.name.parts)) && stmt.ifNotExists) return;
  const schema = await planner.inferViewSchema(query, []);
  const table: CatalogTable = {
    kind: 'table',
    schema: ResolvedSchema.of(schema.columns.map((c) => ({ kind: 'physical', name: c.name, type: withoutTimeAttribute(c.type) }))),
    partitionKeys: stmt.partitionedBy.map((n) => n.value),
    options: Object.fromEntries(stmt.options.map((p) => [p.key, p.value])),
  };
  const id = session.catalogs.qualify(stmt.name.parts);
  if (stmt.temporary) session.catalogs.createTemporaryTable(id, table, false);
  else await session.catalogs.createTable(id, table, false);
  await planner.planInserts([{ kind: 'insert', overwrite: false, table: stmt.name, hints: [], partition: [], columns: [], query, pos: stmt.pos }]);
}
