import { identifierToSql, identifierToString } from '../../catalog/object-identifier.js';
import { ObjectNotFoundError, ValidationError } from '../../errors/sluice-error.js';
import type { DescribeCatalogStatement, DescribeStatement, ShowCreateStatement, ShowStatement } from '../../sql/ast/statements.js';
import { Columns } from '../../types/column.js';
import { DataTypes } from '../../types/data-types.js';
import { withNullability } from '../../types/logical-type.js';
import { Row } from '../../types/row.js';
import { ResolvedSchema } from '../../types/schema.js';
import { typeToString } from '../../types/type-to-string.js';
import { showCreate } from '../ddl/show-create.js';
import { showCreateMaterializedTable } from '../ddl/show-create-materialized-table.js';
import { describeCatalogRows, showCreateCatalog } from '../ddl/catalog-info.js';
import type { CatalogDescriptor } from '../../catalog/catalog-descriptor.js';
import { notCreatedBySql } from '../../catalog/catalog-manager.js';
import { listMaterializedTables } from '../../catalog/materialized-table.js';
import type { Session } from '../session.js';
import { staticResult } from '../table-results.js';
import type { TableResult } from '../table-result.js';

function listResult(header: string, names: readonly string[]): TableResult {
  return staticResult('show', ResolvedSchema.of([Columns.physical(header, withNullability(DataTypes.STRING(), false))]), names.map((n) => Row.insert(n)));
}

/** SHOW ... with Flink's column headers (`catalog name`, `table name`, ...). */
export async function executeShow(session: Session, stmt: ShowStatement): Promise<TableResult> {
  const cm = session.catalogs;
  const like = (names: string[]): string[] => {
    if (!stmt.like) return names;
    const re = likePattern(stmt.like.pattern, stmt.like.caseInsensitive);
    return names.filter((n) => re.test(n) !== stmt.like!.negated);
  };
  const scope = (): { catalog: string; database: string } => {
    if (!stmt.from) return { catalog: cm.currentCatalog, database: cm.currentDatabase };
    const p = stmt.from.name.parts;
    return p.length === 2 ? { catalog: p[0]!, database: p[1]! } : { catalog: cm.currentCatalog, database: p[0]! };
  };
  switch (stmt.object) {
    case 'CATALOGS':
      return listResult('catalog name', like(cm.listCatalogs()));
    case 'CURRENT CATALOG':
      return listResult('current catalog name', [cm.currentCatalog]);
    case 'CURRENT DATABASE':
      return listResult('current database name', [cm.currentDatabase]);
    case 'DATABASES': {
      const catalog = stmt.from ? stmt.from.name.parts[0]! : cm.currentCatalog;
      return listResult('database name', like(await cm.getCatalog(catalog).listDatabases()));
    }
    case 'TABLES':
    case 'VIEWS': {
      const { catalog, database } = scope();
      const c = cm.getCatalog(catalog);
      if (!(await c.databaseExists(database))) {
        throw new ObjectNotFoundError(`Database '${catalog}.${database}' doesn't exist.`);
      }
      const names = new Set(stmt.object === 'TABLES' ? await c.listTables(database) : await c.listViews(database));
      for (const [n, t] of cm.listTemporaryTables(catalog, database)) if (stmt.object === 'TABLES' || t.kind === 'view') names.add(n);
      return listResult(stmt.object === 'TABLES' ? 'table name' : 'view name', like([...names].sort()));
    }
    case 'MATERIALIZED TABLES': {
      const { catalog, database } = scope();
      const c = cm.getCatalog(catalog);
      if (!(await c.databaseExists(database))) throw new ValidationError(`Database '${catalog}'.'${database}' doesn't exist.`);
      return listResult('materialized table', like(await listMaterializedTables(c, database)));
    }
    case 'FUNCTIONS':
    case 'USER FUNCTIONS': {
      const { catalog, database } = scope();
      const catalogFns = await cm.getCatalog(catalog).listFunctions(database);
      const names = stmt.object === 'FUNCTIONS' ? [...session.functions.names().map((n) => n.toLowerCase()), ...catalogFns] : catalogFns;
      return listResult('function name', like([...new Set(names)].sort()));
    }
    case 'MODULES':
      return listResult('module name', ['core']);
    case 'FULL MODULES':
      return staticResult(
        'show',
        ResolvedSchema.of([Columns.physical('module name', DataTypes.STRING()), Columns.physical('used', DataTypes.BOOLEAN())]),
        [Row.insert('core', true)],
      );
    case 'JOBS':
      return staticResult(
        'show',
        ResolvedSchema.of([
          Columns.physical('job id', DataTypes.STRING()),
          Columns.physical('job name', DataTypes.STRING()),
          Columns.physical('status', DataTypes.STRING()),
          Columns.physical('start time', DataTypes.STRING()),
        ]),
        session.jobs.list().map((j) => Row.insert(j.client.jobId, j.client.jobName, j.client.status(), j.startTime.toISOString())),
      );
    case 'JARS':
      return listResult('jars', []);
    case 'COLUMNS': {
      // DESCRIBE's rows, the columns whose name matches the LIKE (as Flink's SHOW COLUMNS).
      const { schema, rows } = await describeTable(session, stmt.from!.name.parts);
      return staticResult('describe', schema, rows.filter((r) => like([String(r.fields[0])]).length === 1));
    }
    case 'PROCEDURES':
    case 'PARTITIONS':
      throw new ValidationError(`SHOW ${stmt.object} is not supported yet.`);
  }
}

/** SHOW CREATE TABLE / VIEW: the DDL, secrets masked. */
export async function executeShowCreate(session: Session, stmt: ShowCreateStatement): Promise<TableResult> {
  if (stmt.objectType === 'CATALOG') return listResult('result', [showCreateCatalog(catalogDescriptor(session, stmt.name.parts[0]!))]);
  const t = await session.catalogs.getTable(stmt.name.parts);
  const id = session.catalogs.qualify(stmt.name.parts);
  if (!t) {
    // Flink names a missing materialized table by its serializable identifier, a table or view by its summary.
    const what = stmt.objectType === 'TABLE' ? 'Table' : stmt.objectType === 'VIEW' ? 'View' : 'Materialized table';
    const name = stmt.objectType === 'MATERIALIZED TABLE' ? identifierToSql(id) : identifierToString(id);
    throw new ObjectNotFoundError(`Could not execute SHOW CREATE ${stmt.objectType}. ${what} with identifier ${name} does not exist.`);
  }
  // Flink's ShowCreateUtil.validateTableKind: each kind of table has its own SHOW CREATE.
  const kind = t.table.kind === 'view' ? 'VIEW' : t.table.materialized !== undefined ? 'MATERIALIZED TABLE' : 'TABLE';
  if (kind !== stmt.objectType) {
    const expected = stmt.objectType.toLowerCase();
    throw new ValidationError(
      `SHOW CREATE ${stmt.objectType} is only supported for ${expected}s, but ${identifierToSql(id)} is a ${kind.toLowerCase()}. Please use SHOW CREATE ${kind} instead.`,
    );
  }
  if (t.table.kind === 'table' && t.table.materialized !== undefined) return listResult('result', [showCreateMaterializedTable(id, t.table, t.table.materialized)]);
  return listResult('result', [showCreate(id, t.table, t.isTemporary)]);
}

/** DESCRIBE: name, type, null, key, extras, watermark, as Flink prints them. */
export async function executeDescribe(session: Session, stmt: DescribeStatement): Promise<TableResult> {
  const { schema, rows } = await describeTable(session, stmt.name.parts);
  return staticResult('describe', schema, rows);
}

/** DESCRIBE CATALOG [EXTENDED] c: `info name` / `info value` rows, as Flink's. */
export async function executeDescribeCatalog(session: Session, stmt: DescribeCatalogStatement): Promise<TableResult> {
  const rows = describeCatalogRows(catalogDescriptor(session, stmt.name.value), stmt.extended);
  const schema = ResolvedSchema.of([Columns.physical('info name', DataTypes.STRING()), Columns.physical('info value', DataTypes.STRING())]);
  return staticResult('describe', schema, rows.map(([k, v]) => Row.insert(k, v)));
}

/** What CREATE CATALOG made of `name`, with Flink's message when there is nothing to show. */
function catalogDescriptor(session: Session, name: string): CatalogDescriptor {
  const d = session.catalogs.getCatalogDescriptor(name);
  if (d === undefined) {
    const exists = session.catalogs.listCatalogs().includes(name);
    throw new ValidationError(`Cannot obtain metadata information from Catalog ${name}.${notCreatedBySql(exists)}`);
  }
  return d;
}

/** DESCRIBE's result: one row per column of the table or view `names`. */
async function describeTable(session: Session, names: readonly string[]): Promise<{ schema: ResolvedSchema; rows: Row[] }> {
  const t = await session.catalogs.getTable(names);
  if (!t) {
    throw new ObjectNotFoundError(`Tables or views with the identifier '${identifierToString(session.catalogs.qualify(names))}' doesn't exist.`);
  }
  const s = t.table.schema;
  const pk = s.primaryKey;
  const commented = s.columns.some((c) => c.comment !== undefined);
  const rows = s.columns.map((c) => {
    // Nullability has its own column; the type keeps its *ROWTIME* / *PROCTIME* marker as in Flink.
    const typeText = typeToString(withNullability(c.type, true));
    const key = pk?.columns.includes(c.name) ? `PRI(${pk.columns.join(', ')})` : '';
    const extras =
      c.kind === 'computed'
        ? `AS ${c.expression}`
        : c.kind === 'metadata'
          ? `METADATA${c.metadataKey !== undefined ? ` FROM '${c.metadataKey}'` : ''}${c.virtual ? ' VIRTUAL' : ''}`
          : '';
    const wm = s.watermarkSpecs.find((w) => w.rowtimeAttribute === c.name)?.expression ?? '';
    return commented ? Row.insert(c.name, typeText, c.type.nullable, key, extras, wm, c.comment ?? null) : Row.insert(c.name, typeText, c.type.nullable, key, extras, wm);
  });
  const schema = ResolvedSchema.of([
    Columns.physical('name', withNullability(DataTypes.STRING(), false)),
    Columns.physical('type', withNullability(DataTypes.STRING(), false)),
    Columns.physical('null', withNullability(DataTypes.BOOLEAN(), false)),
    Columns.physical('key', DataTypes.STRING()),
    Columns.physical('extras', DataTypes.STRING()),
    Columns.physical('watermark', DataTypes.STRING()),
    // Flink adds the comment column only when some column has a comment.
    ...(commented ? [Columns.physical('comment', DataTypes.STRING())] : []),
  ]);
  return { schema, rows };
}

/** SQL LIKE (`%`, `_`) as a regular expression. */
function likePattern(pattern: string, caseInsensitive: boolean): RegExp {
  const body = [...pattern].map((ch) => (ch === '%' ? '.*' : ch === '_' ? '.' : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${body}$`, caseInsensitive ? 'is' : 's');
}
