import type { CatalogBaseTable, CatalogTable } from '../catalog/catalog-table.js';
import type { ObjectIdentifier } from '../catalog/object-identifier.js';
import type { ChangelogMode } from '../factories/changelog-mode.js';
import type { DynamicTableSink } from '../factories/dynamic-table-sink.js';
import type { DynamicTableSource } from '../factories/dynamic-table-source.js';
import type { JobGraph } from '../runtime/job-graph.js';
import type { Row } from '../types/row.js';
import type { ResolvedSchema } from '../types/schema.js';
import type { FunctionLookup } from './functions/function-registry.js';

/** The narrow view of session configuration the planner reads (a Configuration also fits via `toMap`). */
export type PlannerConfig = ReadonlyMap<string, string>;

/** A table resolved against the current catalog and database. */
export interface ResolvedTable {
  readonly identifier: ObjectIdentifier;
  readonly table: CatalogBaseTable;
  readonly isTemporary: boolean;
}

/**
 * What the planner needs from the session (implemented by TableEnvironment). Methods are called while
 * planning one statement, never on a per-row path.
 */
export interface PlannerContext {
  readonly mode: 'streaming' | 'batch';
  /** Session config: `table.exec.*`, `parallelism.default`, `table.local-time-zone`. */
  readonly config: PlannerConfig;
  /**
   * Resolves a (possibly partial) table name against the current catalog/database. May await a catalog.
   * @throws ObjectNotFoundError when there is no such table or view.
   */
  resolveTable(names: readonly string[]): Promise<ResolvedTable>;
  /**
   * The tables and views (temporary ones included) of the database a possibly partial name points into,
   * by their last name part, for "did you mean" hints when `resolveTable` finds nothing. Absent: no hints.
   */
  listTableNames?(names: readonly string[]): Promise<string[]>;
  /** Builds a source for a catalog table via the factories (validation included). Called once per scan. */
  createSource(identifier: ObjectIdentifier, table: CatalogTable, isTemporary: boolean): DynamicTableSource;
  /** Builds a sink for a catalog table via the factories. Called once per INSERT target. */
  createSink(identifier: ObjectIdentifier, table: CatalogTable, isTemporary: boolean): DynamicTableSink;
  /** Built-in and user functions; the planner falls back to its own core operators when absent. */
  readonly functions?: FunctionLookup;
}

/**
 * Where a SELECT's result rows go. `push` is called once per batch; a returned promise is backpressure
 * (the collect sink awaits it before taking the next batch). `end` is called once when the input ended.
 */
export interface ResultCollector {
  push(rows: Row[]): void | Promise<void>;
  end(): void;
}

/** A planned SELECT. */
export interface PlannedQuery {
  readonly kind: 'query';
  /** Columns of the result, as `DESCRIBE`/`TableResult.getResolvedSchema()` show them. */
  readonly schema: ResolvedSchema;
  /** Kinds of rows the result contains: insert-only, or with updates / deletes. */
  readonly changelogMode: ChangelogMode;
  /** The EXPLAIN text (three sections). */
  explain(details?: readonly string[]): string;
  /** A fresh job graph ending in a collect sink feeding `collector`. Call once per execution. */
  toJobGraph(collector: ResultCollector, jobName?: string): JobGraph;
}

/** A planned INSERT (or several, for a statement set). */
export interface PlannedInsert {
  readonly kind: 'insert';
  /** Sink identifiers in statement order (for TableResult's "default_catalog.default_database.t" column). */
  readonly sinks: readonly ObjectIdentifier[];
  explain(details?: readonly string[]): string;
  toJobGraph(jobName?: string): JobGraph;
}

/** `table.local-time-zone` of the session; 'default' (Flink's default value) means the system zone. */
export function sessionTimeZone(config: PlannerConfig): string {
  const z = config.get('table.local-time-zone');
  if (z === undefined || z === '') return 'UTC';
  return z === 'default' ? Intl.DateTimeFormat().resolvedOptions().timeZone : z;
}
