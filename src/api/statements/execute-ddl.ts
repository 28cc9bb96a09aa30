import type { CatalogTable, CatalogView } from '../../catalog/catalog-table.js';
import { identifierToSql, identifierToString, type ObjectIdentifier } from '../../catalog/object-identifier.js';
import { permanentObjectExists } from '../ddl/already-exists.js';
import { temporaryObjectExists } from '../../catalog/catalog-manager.js';
import { ObjectNotFoundError, ValidationError } from '../../errors/sluice-error.js';
import type {
  AlterTableStatement,
  CreateCatalogStatement,
  CreateDatabaseStatement,
  CreateFunctionStatement,
  CreateTableStatement,
  CreateViewStatement,
  DdlStatement,
  DropStatement,
} from '../../sql/ast/ddl.js';
import { unparseQuery } from '../../sql/unparse/unparse-query.js';
import type { Query } from '../../sql/ast/query.js';
import type { InsertStatement } from '../../sql/ast/statements.js';
import { withoutTimeAttribute } from '../../types/logical-type.js';
import { ResolvedSchema } from '../../types/schema.js';
import { typeToString } from '../../types/type-to-string.js';
import { executeInserts } from './execute-dml.js';
import { functionLanguage, type FunctionLanguage } from './function-language.js';
import { catalogTableFromDdl } from '../ddl/catalog-table-from-ddl.js';
import { alterTable } from '../ddl/alter-table.js';
import { expandViewQuery } from '../ddl/expand-view-query.js';
import { alterCatalog } from '../ddl/alter-catalog.js';
import { catalogFromDescriptor } from '../ddl/catalog-from-descriptor.js';
import type { Session } from '../session.js';
import { okResult } from '../table-results.js';
import type { TableResult } from '../table-result.js';
import type { SessionPlanner } from '../session-planner.js';

/** CREATE / DROP / ALTER of tables, views, databases, catalogs and functions. */
export async function executeDdl(session: Session, planner: SessionPlanner, stmt: DdlStatement): Promise<TableResult> {
  switch (stmt.kind) {
    case 'create-table':
      if (stmt.asQuery) return createTableAsSelect(session, planner, stmt, stmt.asQuery);
      await createTable(session, planner, stmt);
      break;
    case 'create-view':
      await createView(session, planner, stmt);
      break;
    case 'create-database':
      await createDatabase(session, stmt);
      break;
    case 'create-catalog':
      await createCatalog(session, stmt);
      break;
    case 'create-function':
      await createFunction(session, planner, stmt);
      break;
    case 'drop':
      await drop(session, planner, stmt);
      break;
    case 'alter-table':
      await alter(session, planner, stmt);
      break;
    case 'alter-view': {
      const id = session.catalogs.qualify(stmt.name.parts);
      const existing = await session.catalogs.resolveTable(stmt.name.parts);
      if (existing.table.kind !== 'view') throw new ValidationError(`ALTER VIEW for a table is not allowed: '${identifierToString(id)}' is a table.`);
      if (stmt.action.kind === 'rename') {
        const to = session.catalogs.qualify(stmt.action.newName.parts);
        await session.catalogs.getCatalog(id.catalog).renameTable({ database: id.database, object: id.object }, to.object, false);
      } else {
        const view = await viewOf(session, planner, stmt.action.query, existing.table.comment);
        await session.catalogs.getCatalog(id.catalog).alterTable({ database: id.database, object: id.object }, view, false);
      }
      break;
    }
    case 'alter-catalog':
      await alterCatalog(session, stmt);
      break;
    case 'alter-database': {
      const [catalog, db] = stmt.name.parts.length === 2 ? stmt.name.parts : [session.catalogs.currentCatalog, stmt.name.parts[0]!];
      const c = session.catalogs.getCatalog(catalog!);
      const old = await c.getDatabase(db!);
      const properties = { ...old.properties };
      for (const p of stmt.options) properties[p.key] = p.value;
      await c.alterDatabase(db!, { ...old, properties });
      break;
    }
    default: {
      const never: never = stmt;
      throw new ValidationError(`Unsupported statement ${(never as { kind: string }).kind}`);
    }
  }
  return okResult('ddl');
}

async function createTable(session: Session, planner: SessionPlanner, stmt: CreateTableStatement): Promise<void> {
  const id = session.catalogs.qualify(stmt.name.parts);
  let likeSource: CatalogTable | undefined;
  if (stmt.like) {
    const src = await session.catalogs.resolveTable(stmt.like.source.parts);
    if (src.table.kind !== 'table') {
      throw new ValidationError(`Source table for LIKE must be a table, but '${identifierToString(src.identifier)}' is a view.`);
    }
    likeSource = src.table;
  }
  const table = catalogTableFromDdl(stmt, (expr, columns) => planner.typeComputedColumn(expr, columns), likeSource);
  if (stmt.temporary) {
    session.catalogs.createTemporaryTable(id, table, stmt.ifNotExists);
  } else {
    if (!stmt.ifNotExists && (await permanentExists(session, id))) throw permanentObjectExists(session, id, 'table');
    await session.catalogs.createTable(id, table, stmt.ifNotExists);
  }
}

/** Whether the catalog holds a permanent table or view `id` (a temporary one of the same name does not count). */
async function permanentExists(session: Session, id: ObjectIdentifier): Promise<boolean> {
  const catalog = session.catalogs.getCatalog(id.catalog);
  return (await catalog.databaseExists(id.database)) && (await catalog.tableExists({ database: id.database, object: id.object }));
}

/**
 * CREATE TABLE t WITH (...) AS SELECT ...: the table gets the query's columns and the given options,
 * then the query is inserted into it as one job (Flink's CTAS). The table is created before the job is
 * planned, so a query the sink refuses leaves the table behind as Flink does.
 */
async function createTableAsSelect(session: Session, planner: SessionPlanner, stmt: CreateTableStatement, query: Query): Promise<TableResult> {
  if (stmt.columns.length > 0 || stmt.watermarks.length > 0 || stmt.primaryKey || stmt.like) {
    throw new ValidationError(
      'CREATE TABLE ... AS SELECT takes its columns from the query: a column list, WATERMARK, PRIMARY KEY or LIKE cannot be combined with AS SELECT yet.',
    );
  }
  const id = session.catalogs.qualify(stmt.name.parts);
  const existing = await session.catalogs.getTable(stmt.name.parts);
  if (existing && existing.isTemporary === stmt.temporary) {
    if (stmt.ifNotExists) return okResult('ddl');
    throw stmt.temporary ? temporaryObjectExists(id, 'table') : permanentObjectExists(session, id, 'table');
  }
  if (!stmt.temporary && (await permanentExists(session, id))) {
    if (stmt.ifNotExists) return okResult('ddl');
    throw permanentObjectExists(session, id, 'table');
  }
  const querySchema = await planner.inferViewSchema(query, []);
  const options: Record<string, string> = {};
  for (const p of stmt.options) options[p.key] = p.value;
  const table: CatalogTable = {
    kind: 'table',
    schema: ResolvedSchema.of(querySchema.columns.map((c) => ({ kind: 'physical', name: c.name, type: withoutTimeAttribute(c.type) }))),
    partitionKeys: stmt.partitionedBy.map((n) => n.value),
    options,
    ...(stmt.comment === null ? {} : { comment: stmt.comment }),
  };
  if (stmt.temporary) session.catalogs.createTemporaryTable(id, table, false);
  else await session.catalogs.createTable(id, table, false);
  const insert: InsertStatement = { kind: 'insert', overwrite: false, table: stmt.name, hints: [], partition: [], columns: [], query, pos: stmt.pos };
  return executeInserts(session, planner, [insert], 'insert');
}

/**
 * A view of `query`: its schema, the query as written, and the query expanded as Flink stores it (full table names,
 * qualified columns: see expandViewQuery). The expansion is kept only when it binds to the very same columns and
 * types; a query it does not handle keeps its text as written in both.
 */
async function viewOf(
  session: Session,
  planner: SessionPlanner,
  query: CreateViewStatement['query'],
  comment: string | undefined,
  columns: readonly string[] = [],
): Promise<CatalogView> {
  const schema = await planner.inferViewSchema(query, columns);
  const text = unparseQuery(query);
  let expandedQuery = text;
  const expanded = await expandViewQuery(query, async (names) => {
    const t = await session.catalogs.getTable(names);
    return t === undefined ? undefined : { identifier: t.identifier, columns: t.table.schema.columns.map((c) => c.name) };
  });
  if (expanded !== undefined && (await bindsAlike(planner, expanded, columns, schema))) expandedQuery = unparseQuery(expanded);
  return { kind: 'view', schema, originalQuery: text, expandedQuery, ...(comment === undefined ? {} : { comment }) };
}

/** Whether the expanded query binds to the columns and types of the query as written; one that fails to bind does not. */
async function bindsAlike(planner: SessionPlanner, expanded: CreateViewStatement['query'], columns: readonly string[], schema: ResolvedSchema): Promise<boolean> {
  let a: ResolvedSchema;
  try {
    a = await planner.inferViewSchema(expanded, columns);
  } catch {
    // The query as written bound: a flaw of the expansion must not fail the CREATE VIEW, which keeps the text as written.
    return false;
  }
  return a.columnCount === schema.columnCount && a.columns.every((c, i) => c.name === schema.columns[i]!.name && typeToString(c.type) === typeToString(schema.columns[i]!.type));
}

async function createView(session: Session, planner: SessionPlanner, stmt: CreateViewStatement): Promise<void> {
  const id = session.catalogs.qualify(stmt.name.parts);
  const view = await viewOf(session, planner, stmt.query, stmt.comment ?? undefined, stmt.columns.map((c) => c.value));
  if (stmt.temporary) session.catalogs.createTemporaryTable(id, view, stmt.ifNotExists);
  else {
    if (!stmt.ifNotExists && (await permanentExists(session, id))) throw permanentObjectExists(session, id, 'view');
    await session.catalogs.createTable(id, view, stmt.ifNotExists);
  }
}

async function createDatabase(session: Session, stmt: CreateDatabaseStatement): Promise<void> {
  const [catalog, db] = stmt.name.parts.length === 2 ? stmt.name.parts : [session.catalogs.currentCatalog, stmt.name.parts[0]!];
  const properties: Record<string, string> = {};
  for (const p of stmt.options) properties[p.key] = p.value;
  await session.catalogs
    .getCatalog(catalog!)
    .createDatabase(db!, { properties, ...(stmt.comment === null ? {} : { comment: stmt.comment }) }, stmt.ifNotExists);
}

async function createCatalog(session: Session, stmt: CreateCatalogStatement): Promise<void> {
  const descriptor = { name: stmt.name.value, options: Object.fromEntries(stmt.options.map((p) => [p.key, p.value])), comment: stmt.comment };
  await session.catalogs.createCatalog(descriptor, (d) => catalogFromDescriptor(session, d), stmt.ifNotExists);
}

/**
 * Sluice runs JavaScript functions only; a Flink cluster runs the others, so the error names the function,
 * its language and the way to the cluster.
 */
function notLocal(stmt: CreateFunctionStatement, language: FunctionLanguage): ValidationError {
  const name = stmt.name.parts.join('.');
  const what = `CREATE FUNCTION ${name} AS '${stmt.className}' (LANGUAGE ${language}) cannot run locally: Sluice runs JavaScript functions only (CREATE FUNCTION ${name} AS './module.js#export').`;
  if (language === 'SQL') return new ValidationError(what);
  const where = language === 'PYTHON' ? 'with Flink\'s Python support' : `that loads '${stmt.className}' from the jar ADD JAR or USING JAR names`;
  return new ValidationError(`${what} Run the statements on a Flink cluster ${where}: sluice --endpoint <SQL Gateway URL> (TableEnvironment.create({ endpoint })).`);
}

async function createFunction(session: Session, planner: SessionPlanner, stmt: CreateFunctionStatement): Promise<void> {
  const language = functionLanguage(stmt);
  if (language !== undefined && language !== 'JAVASCRIPT') throw notLocal(stmt, language);
  if (stmt.scope === 'catalog') {
    const id = session.catalogs.qualify(stmt.name.parts);
    await planner.loadFunction(stmt.name.parts.at(-1)!, stmt.className, false);
    await session.catalogs
      .getCatalog(id.catalog)
      .createFunction({ database: id.database, object: id.object }, { identifier: stmt.className, language: 'JAVASCRIPT' }, stmt.ifNotExists);
  } else {
    await planner.loadFunction(stmt.name.parts.at(-1)!, stmt.className, stmt.ifNotExists);
  }
}

async function drop(session: Session, planner: SessionPlanner, stmt: DropStatement): Promise<void> {
  switch (stmt.objectType) {
    case 'TABLE':
    case 'VIEW': {
      const id = session.catalogs.qualify(stmt.name.parts);
      if (stmt.scope !== 'catalog') {
        if (!session.catalogs.dropTemporaryTable(id) && !stmt.ifExists) {
          throw new ObjectNotFoundError(`Temporary ${stmt.objectType === 'TABLE' ? 'table' : 'view'} with identifier '${identifierToString(id)}' does not exist.`);
        }
        return;
      }
      const found = await session.catalogs.getTable(stmt.name.parts);
      if (!found) {
        if (stmt.ifExists) return;
        throw new ObjectNotFoundError(`${stmt.objectType === 'TABLE' ? 'Table' : 'View'} with identifier '${identifierToString(id)}' does not exist.`);
      }
      if (found.isTemporary) {
        throw new ValidationError(
          `Temporary ${stmt.objectType === 'TABLE' ? 'table' : 'view'} with identifier '${identifierToSql(id)}' exists. Drop it first before removing the permanent ${stmt.objectType.toLowerCase()}.`,
        );
      }
      if (stmt.objectType === 'VIEW' && found.table.kind !== 'view') throw new ValidationError(`DROP VIEW for a table is not allowed: '${identifierToString(id)}' is a table.`);
      if (stmt.objectType === 'TABLE' && found.table.kind !== 'table') throw new ValidationError(`DROP TABLE for a view is not allowed: '${identifierToString(id)}' is a view; use DROP VIEW.`);
      if (stmt.objectType === 'TABLE' && found.table.kind === 'table' && found.table.materialized !== undefined) {
        // Dropping only the table would leave its refresh job writing into a table that is gone.
        throw new ValidationError(`DROP TABLE for a materialized table is not allowed: '${identifierToString(id)}' is a materialized table; use DROP MATERIALIZED TABLE, which stops its refresh job too.`);
      }
      await session.catalogs.getCatalog(id.catalog).dropTable({ database: id.database, object: id.object }, stmt.ifExists);
      return;
    }
    case 'DATABASE': {
      const [catalog, db] = stmt.name.parts.length === 2 ? stmt.name.parts : [session.catalogs.currentCatalog, stmt.name.parts[0]!];
      if (catalog === session.catalogs.currentCatalog && db === session.catalogs.currentDatabase) {
        throw new ValidationError(`Cannot drop a database which is currently in use.`);
      }
      await session.catalogs.getCatalog(catalog!).dropDatabase(db!, stmt.ifExists, stmt.behavior === 'CASCADE');
      return;
    }
    case 'CATALOG':
      await session.catalogs.unregisterCatalog(stmt.name.parts[0]!, stmt.ifExists);
      return;
    case 'FUNCTION': {
      const name = stmt.name.parts.at(-1)!;
      if (stmt.scope === 'catalog') {
        const id = session.catalogs.qualify(stmt.name.parts);
        await session.catalogs.getCatalog(id.catalog).dropFunction({ database: id.database, object: id.object }, stmt.ifExists);
        planner.unloadFunction(name);
      } else if (!planner.unloadFunction(name) && !stmt.ifExists) {
        throw new ObjectNotFoundError(`Temporary system function ${name} doesn't exist`);
      }
      return;
    }
  }
}

async function alter(session: Session, planner: SessionPlanner, stmt: AlterTableStatement): Promise<void> {
  const found = await session.catalogs.getTable(stmt.name.parts);
  const id = session.catalogs.qualify(stmt.name.parts);
  if (!found) {
    if (stmt.ifExists) return;
    throw new ObjectNotFoundError(`Table \`${id.catalog}\`.\`${id.database}\`.\`${id.object}\` doesn't exist or is a temporary table.`);
  }
  if (found.table.kind !== 'table') throw new ValidationError(`ALTER TABLE for a view is not allowed: '${identifierToString(id)}' is a view.`);
  if (found.table.materialized !== undefined) {
    throw new ValidationError(`ALTER TABLE for a materialized table is not allowed: '${identifierToString(id)}' is a materialized table; its schema is its query's (ALTER MATERIALIZED TABLE SUSPEND / RESUME manage its refresh job).`);
  }
  const path = { database: id.database, object: id.object };
  if (stmt.action.kind === 'rename') {
    const to = session.catalogs.qualify(stmt.action.newName.parts);
    if (found.isTemporary) throw new ValidationError(`Temporary table '${identifierToString(id)}' cannot be renamed.`);
    await session.catalogs.getCatalog(id.catalog).renameTable(path, to.object, false);
    return;
  }
  const altered = alterTable(found.table, stmt.action, (expr, columns) => planner.typeComputedColumn(expr, columns));
  if (found.isTemporary) {
    session.catalogs.dropTemporaryTable(id);
    session.catalogs.createTemporaryTable(id, altered, false);
  } else {
    await session.catalogs.getCatalog(id.catalog).alterTable(path, altered, false);
  }
}
