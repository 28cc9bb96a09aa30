import type { ReadableConfig } from '../config/configuration.js';
import type { CatalogTable } from '../catalog/catalog-table.js';
import type { ObjectIdentifier } from '../catalog/object-identifier.js';
import type { DynamicTableSink } from './dynamic-table-sink.js';
import type { DynamicTableSource } from './dynamic-table-source.js';
import type { Factory } from './factory.js';
import type { FactoryRegistry } from './factory-registry.js';

/** What a table factory is given to build a source or sink (Flink's `DynamicTableFactory.Context`). */
export interface DynamicTableFactoryContext {
  readonly identifier: ObjectIdentifier;
  /** The table with its options already merged with any `/*+ OPTIONS(...) *\/` hint. */
  readonly table: CatalogTable;
  /** The session configuration (`SET` keys). */
  readonly configuration: ReadableConfig;
  readonly isTemporary: boolean;
  /** Where format factories are found (`'format' = 'json'`). */
  readonly factories: FactoryRegistry;
}

export interface DynamicTableSourceFactory extends Factory {
  createDynamicTableSource(ctx: DynamicTableFactoryContext): DynamicTableSource;
}

export interface DynamicTableSinkFactory extends Factory {
  createDynamicTableSink(ctx: DynamicTableFactoryContext): DynamicTableSink;
}

export function isSourceFactory(f: Factory): f is DynamicTableSourceFactory {
  return typeof (f as Partial<DynamicTableSourceFactory>).createDynamicTableSource === 'function';
}

export function isSinkFactory(f: Factory): f is DynamicTableSinkFactory {
  return typeof (f as Partial<DynamicTableSinkFactory>).createDynamicTableSink === 'function';
}
