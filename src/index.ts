/**
 * Sluice: Flink SQL for Node.js. The programmatic entry point is `TableEnvironment`; connector and
 * format authors implement the factory interfaces and build on the runtime's FLIP-27 source and
 * Sink V2 APIs, all exported here.
 *
 * @example
 * ```ts
 * import { TableEnvironment } from 'sluice';
 * const env = TableEnvironment.create({ mode: 'batch' });
 * const result = await env.executeSql('SELECT 1 + 1 AS two');
 * for await (const row of result.collect()) console.log(row.fields); // [ 2 ]
 * ```
 */
export { TableEnvironment } from './api/table-environment.js';
export type { SessionOptions, RuntimeMode } from './api/session.js';
export type { TableEnvironmentOptions, WebOptions } from './api/table-environment.js';
export type { TableResult, ResultKind, ResultOrigin } from './api/table-result.js';
export { Table } from './api/table.js';
export { StatementSet } from './api/statement-set.js';
export { TableDescriptor, TableDescriptorBuilder, Schema, SchemaBuilder } from './api/table-descriptor.js';
export type { ScalarUdf, AggregateUdf, UdfInput, UdfType } from './planner/functions/udf.js';
export type { CodeModuleOptions } from './api/code-function.js';

export * from './types/index.js';
export * from './errors/index.js';
export * from './config/index.js';
export * from './factories/index.js';
export * from './runtime/index.js';
// Both layers name their restart settings RestartStrategyConfig; the runtime's is what a job takes.
export type { RestartStrategyConfig } from './runtime/runtime-config.js';
export type { Catalog, ObjectPath } from './catalog/catalog.js';
export type { CatalogTable, CatalogView, CatalogBaseTable, CatalogDatabase, CatalogFunction } from './catalog/catalog-table.js';
export type { ObjectIdentifier } from './catalog/object-identifier.js';
export { InMemoryCatalog } from './catalog/in-memory-catalog.js';
export { FileCatalog } from './catalog/file-catalog.js';
