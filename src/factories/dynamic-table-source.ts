import type { ReadableConfig } from '../config/configuration.js';
import type { AnySource } from '../runtime/source/source.js';
import type { LogicalType, RowType } from '../types/logical-type.js';
import type { Row } from '../types/row.js';
import type { ChangelogMode } from './changelog-mode.js';
import type { FilterCompiler, FilterPushDownResult, SourceExpression } from './source-filter.js';

/** What the planner tells a source when it asks for the runtime implementation. */
export interface ScanContext {
  /** True if the job runs in batch mode; a source that cannot end must then refuse. */
  readonly batchMode: boolean;
  /**
   * True when nothing keeps the scan's values after the batch that carries them has been written: a chain of
   * stateless built-in operators into sinks that encode or drop each row at once (`DynamicTableSink.keepsRowValues`).
   * A source may then produce strings that are views into its read buffers instead of copies: a view keeps its
   * whole buffer alive, which is harmless only when the value dies with its batch. Absent: false.
   */
  readonly transientValues?: boolean;
}

/** What a source knows of its size when the query is planned (Flink's `TableStats`, as far as Sluice reads it). */
export interface TableStats {
  /** Rows the scan reads, exact or estimated; Infinity for a generator that does not end by itself. */
  readonly rowCount: number;
  /** The rate the source paces its rows at, shared by all its readers (datagen's `rows-per-second`), if it does. */
  readonly rowsPerSecond?: number;
}

/** The runtime side of a scan: a FLIP-27 source producing rows of the source's produced type. */
export interface ScanRuntimeProvider {
  readonly source: AnySource<Row>;
  /** True if the source ends by itself (batch mode requires it). */
  readonly bounded: boolean;
  /** `scan.parallelism`, if the table sets it. */
  readonly parallelism?: number;
}

/** A key of readable metadata (`METADATA FROM 'offset'`) and its type. */
export type MetadataTypes = ReadonlyMap<string, LogicalType>;

/**
 * A table source the planner can scan (Flink's `ScanTableSource` with its abilities as optional
 * methods). The produced row holds the physical columns (after projection push-down, in the projected
 * order) followed by the metadata columns the planner applied, in the order it applied them.
 * Instances are created per query and mutated by the `apply*` calls before `getScanRuntimeProvider`.
 */
export interface ScanTableSource {
  readonly kind: 'scan-source';
  getChangelogMode(): ChangelogMode;
  getScanRuntimeProvider(ctx: ScanContext): ScanRuntimeProvider;
  /** One line for EXPLAIN, e.g. `kafka(topic=[orders])`. */
  asSummaryString(): string;

  /** SupportsReadingMetadata: metadata keys this source can append. */
  listReadableMetadata?(): MetadataTypes;
  /** SupportsReadingMetadata: the keys the query needs, appended after the physical columns. */
  applyReadableMetadata?(keys: readonly string[], producedType: RowType): void;
  /**
   * SupportsProjectionPushDown: top-level indexes of physical columns to produce, in this order. Return
   * false to refuse (the planner then projects itself).
   */
  applyProjection?(fieldIndexes: readonly number[], producedType: RowType): boolean;
  /** SupportsLimitPushDown. */
  applyLimit?(limit: number): void;
  /**
   * SupportsFilterPushDown: called by the planner at most once per query, at planning time, with the
   * deterministic conjuncts of the filter directly above the scan that read physical columns only (see
   * SourceExpression). The source says which it applies (`accepted`) and which the planner must still
   * evaluate (`remaining`); see FilterPushDownResult. `compiler` compiles a filter with the planner's
   * expression engine for a source that evaluates filters on rows.
   */
  applyFilters?(filters: readonly SourceExpression[], compiler: FilterCompiler): FilterPushDownResult;
  /**
   * SupportsPartitionPushDown: every partition of the table as partition key to value text (null = the
   * default partition, i.e. a NULL value), or null if the source cannot list them (the planner then
   * offers the partition predicates to `applyFilters`). Called by the planner at most once per query,
   * at planning time, only if the query filters on partition columns; may do synchronous I/O.
   */
  listPartitions?(): readonly ReadonlyMap<string, string | null>[] | null;
  /**
   * SupportsPartitionPushDown: the partitions (from `listPartitions`) that survive the planner's pruning;
   * the source reads only these. Called at most once per query, after `listPartitions`.
   */
  applyPartitions?(remaining: readonly ReadonlyMap<string, string | null>[]): void;
  /** SupportsWatermarkPushDown: the source wants to generate watermarks per split itself. */
  readonly supportsWatermarkPushDown?: boolean;
  /**
   * SupportsStatisticReport: the source's size, after the `apply*` calls, without reading its data (a
   * file source may list and stat files). The planner uses it to choose a job's parallelism when
   * `parallelism.default` is not set (planner/default-parallelism.ts). Only a source whose splits spread
   * over any parallelism reports Infinity (an endless generator); a source that may have fewer splits than
   * subtasks (partitions, files that keep coming) reports nothing, and its jobs keep parallelism 1.
   */
  reportStatistics?(): TableStats | undefined;
}

/**
 * A source looked up by key (Flink's `LookupTableSource`) for lookup joins: given the key values,
 * the matching rows.
 */
export interface LookupTableSource {
  readonly kind: 'lookup-source';
  lookup(keyIndexes: readonly number[]): (key: readonly unknown[]) => Promise<Row[]>;
  asSummaryString(): string;
}

export type DynamicTableSource = ScanTableSource | LookupTableSource;

export type { ReadableConfig };
