import type { ResolvedSchema } from '../types/schema.js';
import type { MaterializedTableDefinition } from './materialized-table.js';

/**
 * A table as a catalog stores it: its schema, partition keys, comment and the `WITH` options, which
 * are not validated until a factory is asked to build a source or sink from them (as in Flink).
 */
export interface CatalogTable {
  readonly kind: 'table';
  readonly schema: ResolvedSchema;
  readonly partitionKeys: readonly string[];
  readonly options: Readonly<Record<string, string>>;
  readonly comment?: string;
  /**
   * Set when the table is a materialized table (CREATE MATERIALIZED TABLE): it reads and is written like a table, and
   * this holds its query, freshness and refresh pipeline.
   */
  readonly materialized?: MaterializedTableDefinition;
}

/**
 * A view: its query as SQL text (`originalQuery` as written, `expandedQuery` with fully qualified names)
 * and the schema the query produces.
 */
export interface CatalogView {
  readonly kind: 'view';
  readonly schema: ResolvedSchema;
  readonly originalQuery: string;
  readonly expandedQuery: string;
  readonly comment?: string;
}

export type CatalogBaseTable = CatalogTable | CatalogView;

export interface CatalogDatabase {
  readonly comment?: string;
  readonly properties: Readonly<Record<string, string>>;
}

/** A function registered by `CREATE FUNCTION f AS 'module.js#export'`. */
export interface CatalogFunction {
  readonly identifier: string;
  readonly language: 'JAVASCRIPT' | 'JAVA' | 'SCALA' | 'PYTHON';
}
