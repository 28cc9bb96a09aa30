import type { SourcePosition } from '../position.js';
import type { PrimaryKeyDefinition } from './ddl.js';
import type { Name, ObjectName, Property } from './names.js';
import type { Query } from './query.js';
import type { PartitionSpecEntry } from './statements.js';

/** The units Flink's FRESHNESS accepts (a month or year is refused, as in Flink's parser). */
export type FreshnessUnit = 'SECOND' | 'MINUTE' | 'HOUR' | 'DAY';

/** `FRESHNESS = INTERVAL '<num>' unit`; `interval` is the text between the quotes, checked by the executor. */
export interface FreshnessClause {
  readonly interval: string;
  readonly unit: FreshnessUnit;
  readonly pos: SourcePosition;
}

/** How a materialized table is refreshed: a streaming job (CONTINUOUS) or scheduled batch jobs (FULL). */
export type RefreshMode = 'CONTINUOUS' | 'FULL';

/**
 * CREATE [OR ALTER] MATERIALIZED TABLE name [(constraint)] [COMMENT] [PARTITIONED BY] [WITH] [FRESHNESS = ...]
 * [REFRESH_MODE = ...] AS query, as Flink 2.3 parses it. `freshness` and `refreshMode` are null when
 * absent: the executor derives them (Flink's MaterializedTableEnricher rules).
 */
export interface CreateMaterializedTableStatement {
  readonly kind: 'create-materialized-table';
  /** CREATE OR ALTER: an existing materialized table takes this definition (its query as ALTER ... AS does). */
  readonly orAlter: boolean;
  readonly name: ObjectName;
  readonly primaryKey: PrimaryKeyDefinition | null;
  readonly comment: string | null;
  readonly partitionedBy: readonly Name[];
  readonly options: readonly Property[];
  readonly freshness: FreshnessClause | null;
  readonly refreshMode: RefreshMode | null;
  readonly query: Query;
  readonly pos: SourcePosition;
}

/** DROP MATERIALIZED TABLE [IF EXISTS] name. */
export interface DropMaterializedTableStatement {
  readonly kind: 'drop-materialized-table';
  readonly ifExists: boolean;
  readonly name: ObjectName;
  readonly pos: SourcePosition;
}

/** What ALTER MATERIALIZED TABLE does to the refresh pipeline. */
export type AlterMaterializedTableAction =
  | { readonly kind: 'suspend' }
  /** RESUME [WITH (...)]: the options are dynamic options of the sink for the resumed job only, not stored. */
  | { readonly kind: 'resume'; readonly options: readonly Property[] }
  | { readonly kind: 'refresh'; readonly partition: readonly PartitionSpecEntry[] }
  /** AS query: the table's new query; its columns may only grow by nullable columns at the end. */
  | { readonly kind: 'as-query'; readonly query: Query };

/** ALTER MATERIALIZED TABLE name SUSPEND | RESUME [WITH (...)] | REFRESH [PARTITION (...)] | AS query. */
export interface AlterMaterializedTableStatement {
  readonly kind: 'alter-materialized-table';
  readonly name: ObjectName;
  readonly action: AlterMaterializedTableAction;
  readonly pos: SourcePosition;
}

export type MaterializedTableStatement = CreateMaterializedTableStatement | DropMaterializedTableStatement | AlterMaterializedTableStatement;
