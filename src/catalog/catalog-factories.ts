import { resolve } from 'node:path';
import { ConfigOptions } from '../config/config-options.js';
import type { CatalogFactory, CatalogFactoryContext } from '../factories/catalog-factory.js';
import type { Catalog } from './catalog.js';
import { FileCatalog } from './file-catalog.js';
import { InMemoryCatalog } from './in-memory-catalog.js';
import { PravegaCatalogFactory } from './pravega/pravega-catalog-factory.js';

/** `default-database`, whose default differs between Flink's generic_in_memory catalog and Sluice's own ones. */
function defaultDatabaseOption(defaultName: string) {
  return ConfigOptions.key('default-database').stringType().defaultValue(defaultName).withDescription('The database USE CATALOG switches to; created if missing.');
}

/** Options of the built-in catalogs (`CREATE CATALOG c WITH ('type' = 'file', 'path' = '...')`). */
export const CatalogOptions = {
  TYPE: ConfigOptions.key('type').stringType().noDefaultValue().withDescription('The catalog factory identifier: generic_in_memory, in-memory, file or pravega.'),
  DEFAULT_DATABASE: defaultDatabaseOption('default_database'),
  PATH: ConfigOptions.key('path').stringType().noDefaultValue().withDescription('Directory holding the catalog files (relative to the working directory).'),
} as const;

/**
 * A catalog held in memory for the session: `'type' = 'generic_in_memory'` as Flink names it (GenericInMemoryCatalog,
 * whose default database is `default`), and Sluice's `'type' = 'in-memory'` (default database `default_database`, as
 * the session's own catalog).
 */
export class InMemoryCatalogFactory implements CatalogFactory {
  readonly description = 'Catalog held in memory for the session.';
  private readonly defaultDatabase;

  constructor(
    readonly factoryIdentifier: 'in-memory' | 'generic_in_memory' = 'in-memory',
    defaultDatabaseName = 'default_database',
  ) {
    this.defaultDatabase = defaultDatabaseOption(defaultDatabaseName);
  }
  requiredOptions() {
    return [];
  }
  optionalOptions() {
    return [this.defaultDatabase];
  }
  createCatalog(ctx: CatalogFactoryContext): Catalog {
    return new InMemoryCatalog(ctx.name, ctx.options.get(this.defaultDatabase));
  }
}

/** `'type' = 'file'`: databases, tables and views as JSON files under `path` (docs/catalog-format.md). */
export class FileCatalogFactory implements CatalogFactory {
  readonly factoryIdentifier = 'file';
  readonly description = 'Catalog persisted as human-readable JSON files in a directory.';
  requiredOptions() {
    return [CatalogOptions.PATH];
  }
  optionalOptions() {
    return [CatalogOptions.DEFAULT_DATABASE];
  }
  createCatalog(ctx: CatalogFactoryContext): Catalog {
    return new FileCatalog(ctx.name, resolve(ctx.baseDir, ctx.options.get(CatalogOptions.PATH)!), ctx.options.get(CatalogOptions.DEFAULT_DATABASE));
  }
}

export const builtinCatalogFactories = [new InMemoryCatalogFactory(), new InMemoryCatalogFactory('generic_in_memory', 'default'), new FileCatalogFactory(), new PravegaCatalogFactory()];
