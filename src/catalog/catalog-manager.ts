import { ObjectAlreadyExistsError, ObjectNotFoundError, ValidationError } from '../errors/sluice-error.js';
import type { Catalog } from './catalog.js';
import type { CatalogBaseTable } from './catalog-table.js';
import { identifierToString, objectIdentifier, type ObjectIdentifier } from './object-identifier.js';

/** A table or view found by name, and whether a temporary object shadowed the permanent one. */
export interface ResolvedTable {
  readonly identifier: ObjectIdentifier;
  readonly table: CatalogBaseTable;
  readonly isTemporary: boolean;
}

/**
 * The session's view of all catalogs (Flink's `CatalogManager`): the registered catalogs, the current
 * catalog and database, and temporary tables and views, which shadow permanent objects of the same
 * name and live only as long as the session.
 */
export class CatalogManager {
  private readonly catalogs = new Map<string, Catalog>();
  private readonly temporaryTables = new Map<string, { identifier: ObjectIdentifier; table: CatalogBaseTable }>();
  private current: { catalog: string; database: string };

  constructor(defaultCatalogName: string, defaultCatalog: Catalog) {
    this.catalogs.set(defaultCatalogName, defaultCatalog);
    this.current = { catalog: defaultCatalogName, database: defaultCatalog.defaultDatabase };
  }

  get currentCatalog(): string {
    return this.current.catalog;
  }

  get currentDatabase(): string {
    return this.current.database;
  }

  async registerCatalog(name: string, catalog: Catalog, ignoreIfExists = false): Promise<void> {
    if (this.catalogs.has(name)) {
      if (ignoreIfExists) return;
      throw new ObjectAlreadyExistsError(`Catalog ${name} already exists.`);
    }
    await catalog.open();
    this.catalogs.set(name, catalog);
  }

  async unregisterCatalog(name: string, ignoreIfNotExists: boolean): Promise<void> {
    const c = this.catalogs.get(name);
    if (!c) {
      if (ignoreIfNotExists) return;
      throw new ObjectNotFoundError(`Catalog ${name} does not exist.`);
    }
    if (name === this.current.catalog) throw new ValidationError(`Cannot drop a catalog which is currently in use.`);
    await c.close();
    this.catalogs.delete(name);
  }

  listCatalogs(): string[] {
    return [...this.catalogs.keys()].sort();
  }

  getCatalog(name: string): Catalog {
    const c = this.catalogs.get(name);
    if (!c) throw new ObjectNotFoundError(`A catalog with name [${name}] does not exist.`);
    return c;
  }

  getCurrentCatalog(): Catalog {
    return this.getCatalog(this.current.catalog);
  }

  setCurrentCatalog(name: string): void {
    const c = this.getCatalog(name);
    this.current = { catalog: name, database: c.defaultDatabase };
  }

  async setCurrentDatabase(name: string): Promise<void> {
    if (!(await this.getCurrentCatalog().databaseExists(name))) {
      throw new ObjectNotFoundError(`A database with name [${name}] does not exist in the catalog: [${this.current.catalog}].`);
    }
    this.current = { catalog: this.current.catalog, database: name };
  }

  /** Completes `t`, `db.t` or `cat.db.t` with the current catalog and database. */
  qualify(names: readonly string[]): ObjectIdentifier {
    switch (names.length) {
      case 1:
        return objectIdentifier(this.current.catalog, this.current.database, names[0]!);
      case 2:
        return objectIdentifier(this.current.catalog, names[0]!, names[1]!);
      case 3:
        return objectIdentifier(names[0]!, names[1]!, names[2]!);
      default:
        throw new ValidationError(`Object identifier '${names.join('.')}' has ${names.length} parts; expected 1 to 3.`);
    }
  }

  /** The table or view a name refers to: a temporary object first, then the catalog's. */
  async getTable(names: readonly string[]): Promise<ResolvedTable | undefined> {
    const id = this.qualify(names);
    const temp = this.temporaryTables.get(key(id));
    if (temp) return { identifier: id, table: temp.table, isTemporary: true };
    const catalog = this.catalogs.get(id.catalog);
    if (!catalog) return undefined;
    const path = { database: id.database, object: id.object };
    if (!(await catalog.databaseExists(id.database))) return undefined;
    if (!(await catalog.tableExists(path))) return undefined;
    return { identifier: id, table: await catalog.getTable(path), isTemporary: false };
  }

  /** Like `getTable`, with Flink's message when nothing is found. */
  async resolveTable(names: readonly string[]): Promise<ResolvedTable> {
    const t = await this.getTable(names);
    if (!t) throw new ObjectNotFoundError(`Object '${names.join('.')}' not found`);
    return t;
  }

  /**
   * The tables and views of the database `names` points into (`t`: the current one, `db.t`, `cat.db.t`),
   * temporary ones included, by object name; empty when that catalog or database does not exist.
   */
  async listTableNames(names: readonly string[]): Promise<string[]> {
    const id = this.qualify(names);
    const out = new Set(this.listTemporaryTables(id.catalog, id.database).keys());
    const catalog = this.catalogs.get(id.catalog);
    if (catalog && (await catalog.databaseExists(id.database))) for (const t of await catalog.listTables(id.database)) out.add(t);
    return [...out].sort();
  }

  async createTable(id: ObjectIdentifier, table: CatalogBaseTable, ignoreIfExists: boolean): Promise<void> {
    await this.getCatalog(id.catalog).createTable({ database: id.database, object: id.object }, table, ignoreIfExists);
  }

  createTemporaryTable(id: ObjectIdentifier, table: CatalogBaseTable, ignoreIfExists: boolean): void {
    const k = key(id);
    if (this.temporaryTables.has(k)) {
      if (ignoreIfExists) return;
      throw temporaryObjectExists(id, table.kind);
    }
    this.temporaryTables.set(k, { identifier: id, table });
  }

  /** Drops a temporary object; true if one existed. */
  dropTemporaryTable(id: ObjectIdentifier): boolean {
    return this.temporaryTables.delete(key(id));
  }

  /** Temporary tables and views of one database, by name. */
  listTemporaryTables(catalog: string, database: string): Map<string, CatalogBaseTable> {
    const out = new Map<string, CatalogBaseTable>();
    for (const { identifier, table } of this.temporaryTables.values()) {
      if (identifier.catalog === catalog && identifier.database === database) out.set(identifier.object, table);
    }
    return out;
  }

  async close(): Promise<void> {
    for (const c of this.catalogs.values()) await c.close();
  }
}

function key(id: ObjectIdentifier): string {
  return `${id.catalog}\u0000${id.database}\u0000${id.object}`;
}

/** A temporary table or view name taken in this session, with what to write instead. */
export function temporaryObjectExists(id: ObjectIdentifier, what: 'table' | 'view'): ObjectAlreadyExistsError {
  const keyword = what === 'view' ? 'VIEW' : 'TABLE';
  return new ObjectAlreadyExistsError(
    `Temporary ${what} '${identifierToString(id)}' already exists in this session. ` +
      `Write CREATE TEMPORARY ${keyword} IF NOT EXISTS to keep it, or DROP TEMPORARY ${keyword} first to replace it.`,
  );
}
