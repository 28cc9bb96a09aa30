import type { Catalog } from '../catalog/catalog.js';
import type { ReadableConfig } from '../config/configuration.js';
import type { Factory } from './factory.js';

export interface CatalogFactoryContext {
  readonly name: string;
  readonly options: ReadableConfig;
  /** Base directory for relative paths (the CLI's working directory). */
  readonly baseDir: string;
}

/** `CREATE CATALOG c WITH ('type' = 'x', ...)` finds this by `'type'`. */
export interface CatalogFactory extends Factory {
  createCatalog(ctx: CatalogFactoryContext): Catalog;
}

export function isCatalogFactory(f: Factory): f is CatalogFactory {
  return typeof (f as Partial<CatalogFactory>).createCatalog === 'function';
}
