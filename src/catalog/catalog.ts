import type { CatalogBaseTable, CatalogDatabase, CatalogFunction } from './catalog-table.js';

/** A database-qualified object name inside one catalog. */
export interface ObjectPath {
  readonly database: string;
  readonly object: string;
}

/**
 * A catalog of databases, tables, views and functions (Flink's `Catalog`). Methods are async because
 * catalogs may live on disk or behind a service; callers await each call. Errors are
 * `ObjectNotFoundError` / `ObjectAlreadyExistsError` with messages naming the object.
 */
export interface Catalog {
  /** The database `USE CATALOG` switches to. */
  readonly defaultDatabase: string;
  /** Called once before first use. */
  open(): Promise<void>;
  close(): Promise<void>;

  listDatabases(): Promise<string[]>;
  getDatabase(name: string): Promise<CatalogDatabase>;
  databaseExists(name: string): Promise<boolean>;
  createDatabase(name: string, db: CatalogDatabase, ignoreIfExists: boolean): Promise<void>;
  /** `cascade` drops the tables, views and functions inside; otherwise a non-empty database is refused. */
  dropDatabase(name: string, ignoreIfNotExists: boolean, cascade: boolean): Promise<void>;
  alterDatabase(name: string, db: CatalogDatabase): Promise<void>;

  listTables(database: string): Promise<string[]>;
  listViews(database: string): Promise<string[]>;
  getTable(path: ObjectPath): Promise<CatalogBaseTable>;
  tableExists(path: ObjectPath): Promise<boolean>;
  createTable(path: ObjectPath, table: CatalogBaseTable, ignoreIfExists: boolean): Promise<void>;
  alterTable(path: ObjectPath, table: CatalogBaseTable, ignoreIfNotExists: boolean): Promise<void>;
  renameTable(path: ObjectPath, newName: string, ignoreIfNotExists: boolean): Promise<void>;
  dropTable(path: ObjectPath, ignoreIfNotExists: boolean): Promise<void>;

  listFunctions(database: string): Promise<string[]>;
  getFunction(path: ObjectPath): Promise<CatalogFunction>;
  functionExists(path: ObjectPath): Promise<boolean>;
  createFunction(path: ObjectPath, fn: CatalogFunction, ignoreIfExists: boolean): Promise<void>;
  dropFunction(path: ObjectPath, ignoreIfNotExists: boolean): Promise<void>;
}
