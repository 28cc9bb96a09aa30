import type { AnySink } from '../runtime/sink/sink.js';
import type { RowType } from '../types/logical-type.js';
import type { Row } from '../types/row.js';
import type { ChangelogMode } from './changelog-mode.js';
import type { MetadataTypes } from './dynamic-table-source.js';

export interface SinkContext {
  /** True if the input ends (batch mode, or a bounded streaming query). */
  readonly bounded: boolean;
  /** Explicit target columns of `INSERT INTO t (a, b)`, if any. */
  readonly targetColumns?: readonly string[];
}

export interface SinkRuntimeProvider {
  readonly sink: AnySink<Row>;
  /** `sink.parallelism`, if the table sets it. */
  readonly parallelism?: number;
}

/**
 * A table sink (Flink's `DynamicTableSink`). The consumed row holds the physical columns followed by
 * the writable metadata columns the planner applied.
 */
export interface DynamicTableSink {
  /**
   * The kinds this sink accepts, given what the query produces. An insert-only sink returns
   * `insertOnly()`; the planner then rejects an updating query naming this sink.
   */
  getChangelogMode(requested: ChangelogMode): ChangelogMode;
  getSinkRuntimeProvider(ctx: SinkContext): SinkRuntimeProvider;
  asSummaryString(): string;

  /**
   * Whether the sink may hold on to a row's values after its writer's `write` returned (buffers the rows or
   * their values, hands them to the caller as objects). A sink that encodes or drops every row at once says
   * false, and the planner may then let a source hand out views into its read buffers (ScanContext.transientValues).
   * Absent: assumed true.
   */
  keepsRowValues?(): boolean;

  /** SupportsWritingMetadata. */
  listWritableMetadata?(): MetadataTypes;
  applyWritableMetadata?(keys: readonly string[], consumedType: RowType): void;
  /** SupportsOverwrite: `INSERT OVERWRITE`. Absent means the sink refuses it. */
  applyOverwrite?(overwrite: boolean): void;
  /** SupportsPartitioning: static partition values from `PARTITION (k = 'v')`. */
  applyStaticPartition?(partition: ReadonlyMap<string, string>): void;
}
