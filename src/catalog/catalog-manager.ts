import { ObjectAlreadyExistsError, ObjectNotFoundError, ValidationError } from '../errors/sluice-error.js';
import { nearest } from '../util/suggest.js';
import type { Catalog } from './catalog.js';
import { applyCatalogChange, type CatalogChange, type CatalogDescriptor } from './catalog-descriptor.js';
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
  /**
   * The definitions of the catalogs made by CREATE CATALOG, by name: the session's catalog store (Flink's default
   * one, `generic_in_memory`, also lives as long as the session). Catalogs registered in code have none.
   */
  private readonly descriptors = new Map<string, CatalogDescriptor>();
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

  /**
   * CREATE CATALOG: builds the catalog from `descriptor` with `init` (which validates the options), opens it and
   * keeps the descriptor. A name already taken is an error unless `ignoreIfExists`, and then nothing is built, as in
   * Flink (the options of `CREATE CATALOG IF NOT EXISTS` for an existing catalog are not looked at).
   */
  async createCatalog(descriptor: CatalogDescriptor, init: (d: CatalogDescriptor) => Catalog, ignoreIfExists: boolean): Promise<void> {
    if (this.catalogs.has(descriptor.name)) {
      if (ignoreIfExists) return;
      throw new ObjectAlreadyExistsError(`Catalog ${descriptor.name} already exists.`);
    }
    const catalog = init(descriptor);
    await catalog.open();
    this.catalogs.set(descriptor.name, catalog);
    this.descriptors.set(descriptor.name, descriptor);
  }

  /**
   * ALTER CATALOG: the catalog becomes the one its changed descriptor builds, as Flink's CatalogManager.alterCatalog
   * does for every change (a comment too): an in-memory catalog starts empty again, a file catalog reads its
   * directory. The new catalog is built and opened before the old one closes, so a change the factory refuses (an
   * unknown option, a path it cannot open) leaves the catalog as it was. The current database stays what it was.
   */
  async alterCatalog(name: string, change: CatalogChange, init: (d: CatalogDescriptor) => Catalog): Promise<void> {
    const old = this.getCatalogDescriptor(name);
    if (old === undefined) throw new ObjectNotFoundError(`Catalog ${name} does not exist in the catalog store.${notCreatedBySql(this.catalogs.has(name))}`);
    const descriptor = applyCatalogChange(old, change);
    const catalog = init(descriptor);
    await catalog.open();
    const previous = this.catalogs.get(name)!;
    this.catalogs.set(name, catalog);
    this.descriptors.set(name, descriptor);
    await previous.close();
  }

  /** What CREATE CATALOG (and any ALTER CATALOG since) made of catalog `name`; undefined for one registered in code. */
  getCatalogDescriptor(name: string): CatalogDescriptor | undefined {
    return this.catalogs.has(name) ? this.descriptors.get(name) : undefined;
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
    this.descriptors.delete(name);
  }

  listCatalogs(): string[] {
    return [...this.catalogs.keys()].sort();
  }

  /** The catalog `name`; Flink's message (getCatalogOrThrowException) when there is none, with the nearest name if one is close. */
  getCatalog(name: string): Catalog {
    const c = this.catalogs.get(name);
    if (c) return c;
    const near = nearest(name, this.catalogs.keys());
    throw new ObjectNotFoundError(`Catalog ${name} does not exist${near === undefined ? '' : `; did you mean '${near}'?`}`);
  }

  getCurrentCatalog(): Catalog {
    return this.getCatalog(this.current.catalog);
  }

  /** USE CATALOG, with Flink's own message for a missing catalog there. */
  setCurrentCatalog(name: string): void {
    const c = this.catalogs.get(name);
    if (!c) throw new ObjectNotFoundError(`A catalog with name [${name}] does not exist.`);
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

  /**
   * Like `getTable`, with Flink's message when nothing is found: Calcite names the first part of the name that does
   * not resolve, within what did (`Object 'nodb' not found within 'default_catalog'`, `Object 't' not found within
   * 'default_catalog.default_database'`; a one-part name, or a missing catalog or database written first, alone).
   */
  async resolveTable(names: readonly string[]): Promise<ResolvedTable> {
    const t = await this.getTable(names);
    if (!t) throw new ObjectNotFoundError(await this.notFoundMessage(names));
    return t;
  }

  private async notFoundMessage(names: readonly string[]): Promise<string> {
    const object = names.at(-1)!;
    if (names.length < 2 || names.length > 3) return `Object '${names.join('.')}' not found`;
    const [catalogName, database] = names.length === 3 ? [names[0]!, names[1]!] : [this.current.catalog, names[0]!];
    const catalog = this.catalogs.get(catalogName);
    if (catalog === undefined) return `Object '${names[0]}' not found`;
    if (!(await catalog.databaseExists(database))) return names.length === 3 ? `Object '${database}' not found within '${catalogName}'` : `Object '${database}' not found`;
    return `Object '${object}' not found within '${catalogName}.${database}'`;
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

/**
 * Why a catalog that exists has no descriptor, appended to Flink's message: it was registered in code (the session's
 * `default_catalog`, `--catalog-dir`), not made by CREATE CATALOG, so there are no options to show or change.
 */
export function notCreatedBySql(exists: boolean): string {
  return exists ? ' It was not created by CREATE CATALOG (it is the session\'s own catalog), so it has no options to show or change.' : '';
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
