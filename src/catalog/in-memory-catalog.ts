import { ObjectAlreadyExistsError, ObjectNotFoundError, ValidationError } from '../errors/sluice-error.js';
import type { Catalog, ObjectPath } from './catalog.js';
import type { CatalogBaseTable, CatalogDatabase, CatalogFunction } from './catalog-table.js';

export interface DatabaseEntry {
  info: CatalogDatabase;
  readonly tables: Map<string, CatalogBaseTable>;
  readonly functions: Map<string, CatalogFunction>;
}

/**
 * A catalog held in memory (Flink's `GenericInMemoryCatalog`): the default for the API, gone with
 * the process. `FileCatalog` builds persistence on top of it through `onChange`.
 */
export class InMemoryCatalog implements Catalog {
  protected readonly databases = new Map<string, DatabaseEntry>();

  constructor(
    readonly name: string,
    readonly defaultDatabase: string = 'default_database',
  ) {
    this.databases.set(defaultDatabase, { info: { properties: {} }, tables: new Map(), functions: new Map() });
  }

  async open(): Promise<void> {}
  async close(): Promise<void> {}

  /** Called after every change to `database` (undefined: the set of databases changed). */
  protected async onChange(_database: string | undefined): Promise<void> {}

  async listDatabases(): Promise<string[]> {
    return [...this.databases.keys()].sort();
  }

  async getDatabase(name: string): Promise<CatalogDatabase> {
    return this.db(name).info;
  }

  async databaseExists(name: string): Promise<boolean> {
    return this.databases.has(name);
  }

  async createDatabase(name: string, info: CatalogDatabase, ignoreIfExists: boolean): Promise<void> {
    if (this.databases.has(name)) {
      if (ignoreIfExists) return;
      throw new ObjectAlreadyExistsError(`Database ${name} already exists in Catalog ${this.name}.`);
    }
    this.databases.set(name, { info, tables: new Map(), functions: new Map() });
    await this.onChange(name);
  }

  async dropDatabase(name: string, ignoreIfNotExists: boolean, cascade: boolean): Promise<void> {
    const entry = this.databases.get(name);
    if (!entry) {
      if (ignoreIfNotExists) return;
      throw new ObjectNotFoundError(`Database ${name} does not exist in Catalog ${this.name}.`);
    }
    if (!cascade && (entry.tables.size > 0 || entry.functions.size > 0)) {
      throw new ValidationError(`Database ${name} in catalog ${this.name} is not empty.`);
    }
    this.databases.delete(name);
    await this.onChange(name);
  }

  async alterDatabase(name: string, info: CatalogDatabase): Promise<void> {
    this.db(name).info = info;
    await this.onChange(name);
  }

  async listTables(database: string): Promise<string[]> {
    return [...this.db(database).tables.keys()].sort();
  }

  async listViews(database: string): Promise<string[]> {
    return [...this.db(database).tables].filter(([, t]) => t.kind === 'view').map(([n]) => n).sort();
  }

  async getTable(path: ObjectPath): Promise<CatalogBaseTable> {
    const t = this.db(path.database).tables.get(path.object);
    if (!t) throw new ObjectNotFoundError(`Table (or view) ${this.describe(path)} does not exist in Catalog ${this.name}.`);
    return t;
  }

  async tableExists(path: ObjectPath): Promise<boolean> {
    return this.databases.get(path.database)?.tables.has(path.object) ?? false;
  }

  async createTable(path: ObjectPath, table: CatalogBaseTable, ignoreIfExists: boolean): Promise<void> {
    const db = this.db(path.database);
    if (db.tables.has(path.object)) {
      if (ignoreIfExists) return;
      throw new ObjectAlreadyExistsError(`Table (or view) ${this.describe(path)} already exists in Catalog ${this.name}.`);
    }
    db.tables.set(path.object, table);
    await this.onChange(path.database);
  }

  async alterTable(path: ObjectPath, table: CatalogBaseTable, ignoreIfNotExists: boolean): Promise<void> {
    const db = this.db(path.database);
    if (!db.tables.has(path.object)) {
      if (ignoreIfNotExists) return;
      throw new ObjectNotFoundError(`Table (or view) ${this.describe(path)} does not exist in Catalog ${this.name}.`);
    }
    db.tables.set(path.object, table);
    await this.onChange(path.database);
  }

  async renameTable(path: ObjectPath, newName: string, ignoreIfNotExists: boolean): Promise<void> {
    const db = this.db(path.database);
    const t = db.tables.get(path.object);
    if (!t) {
      if (ignoreIfNotExists) return;
      throw new ObjectNotFoundError(`Table (or view) ${this.describe(path)} does not exist in Catalog ${this.name}.`);
    }
    if (db.tables.has(newName)) {
      throw new ObjectAlreadyExistsError(`Table (or view) ${path.database}.${newName} already exists in Catalog ${this.name}.`);
    }
    db.tables.delete(path.object);
    db.tables.set(newName, t);
    await this.onChange(path.database);
  }

  async dropTable(path: ObjectPath, ignoreIfNotExists: boolean): Promise<void> {
    const db = this.databases.get(path.database);
    if (!db?.tables.delete(path.object)) {
      if (ignoreIfNotExists) return;
      throw new ObjectNotFoundError(`Table (or view) ${this.describe(path)} does not exist in Catalog ${this.name}.`);
    }
    await this.onChange(path.database);
  }

  async listFunctions(database: string): Promise<string[]> {
    return [...this.db(database).functions.keys()].sort();
  }

  async getFunction(path: ObjectPath): Promise<CatalogFunction> {
    const f = this.db(path.database).functions.get(path.object);
    if (!f) throw new ObjectNotFoundError(`Function ${this.describe(path)} does not exist in Catalog ${this.name}.`);
    return f;
  }

  async functionExists(path: ObjectPath): Promise<boolean> {
    return this.databases.get(path.database)?.functions.has(path.object) ?? false;
  }

  async createFunction(path: ObjectPath, fn: CatalogFunction, ignoreIfExists: boolean): Promise<void> {
    const db = this.db(path.database);
    if (db.functions.has(path.object)) {
      if (ignoreIfExists) return;
      throw new ObjectAlreadyExistsError(`Function ${this.describe(path)} already exists in Catalog ${this.name}.`);
    }
    db.functions.set(path.object, fn);
    await this.onChange(path.database);
  }

  async dropFunction(path: ObjectPath, ignoreIfNotExists: boolean): Promise<void> {
    const db = this.databases.get(path.database);
    if (!db?.functions.delete(path.object)) {
      if (ignoreIfNotExists) return;
      throw new ObjectNotFoundError(`Function ${this.describe(path)} does not exist in Catalog ${this.name}.`);
    }
    await this.onChange(path.database);
  }

  private db(name: string): DatabaseEntry {
    const entry = this.databases.get(name);
    if (!entry) throw new ObjectNotFoundError(`Database ${name} does not exist in Catalog ${this.name}.`);
    return entry;
  }

  private describe(path: ObjectPath): string {
    return `${path.database}.${path.object}`;
  }
}
