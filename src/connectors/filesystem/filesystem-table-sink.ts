import type { ChangelogMode } from '../../factories/changelog-mode.js';
import type { DynamicTableSink, SinkContext, SinkRuntimeProvider } from '../../factories/dynamic-table-sink.js';
import type { EncodingFormat } from '../../factories/format.js';
import { ValidationError } from '../../errors/sluice-error.js';
import type { BulkEncodingFormat } from '../../formats/arrow/bulk-format.js';
import type { Sink } from '../../runtime/index.js';
import type { LogicalType, RowType } from '../../types/logical-type.js';
import { Row } from '../../types/row.js';
import { FileSink, type PartitionCommitSettings } from './file-sink.js';
import { partitionPath, partitionValueToString } from './partitions.js';

export type EncodingFormatOf = { readonly kind: 'lines'; readonly format: EncodingFormat } | { readonly kind: 'bulk'; readonly format: BulkEncodingFormat };

export interface FileSystemSinkSettings {
  readonly root: string;
  readonly columns: readonly { readonly name: string; readonly type: LogicalType }[];
  readonly partitionKeys: readonly string[];
  readonly defaultPartitionName: string;
  readonly format: EncodingFormatOf;
  readonly rollingFileSize: number;
  readonly rolloverIntervalMs: number;
  readonly inactivityIntervalMs: number;
  readonly checkIntervalMs: number;
  readonly commit: PartitionCommitSettings;
  readonly parallelism: number | undefined;
}

/** `'connector' = 'filesystem'` as a sink: partition folders, part files committed on checkpoints, overwrite. */
export class FileSystemTableSink implements DynamicTableSink {
  private overwrite = false;
  private staticPartition: ReadonlyMap<string, string> = new Map();

  constructor(private readonly s: FileSystemSinkSettings) {}

  getChangelogMode(_requested: ChangelogMode): ChangelogMode {
    return this.s.format.format.getChangelogMode();
  }

  applyOverwrite(overwrite: boolean): void {
    this.overwrite = overwrite;
  }

  applyStaticPartition(partition: ReadonlyMap<string, string>): void {
    this.staticPartition = partition;
  }

  getSinkRuntimeProvider(ctx: SinkContext): SinkRuntimeProvider {
    const s = this.s;
    if (this.overwrite && !ctx.bounded) throw new ValidationError('Streaming mode not support overwrite.');
    const partIdx = s.partitionKeys.map((k) => s.columns.findIndex((c) => c.name === k));
    const payloadIdx = s.columns.map((_, i) => i).filter((i) => !partIdx.includes(i));
    const payloadType: RowType = { kind: 'ROW', fields: payloadIdx.map((i) => ({ name: s.columns[i]!.name, type: s.columns[i]!.type })), nullable: false };
    const staticValues = s.partitionKeys.map((k) => this.staticPartition.get(k));
    const f = s.format;
    const sink = new FileSink({
      root: s.root,
      format: f.kind === 'lines' ? { kind: 'lines', encoder: () => f.format.createRuntimeEncoder(payloadType) } : { kind: 'bulk', encoder: () => f.format.createBulkEncoder(payloadType) },
      bucketOf:
        partIdx.length === 0
          ? () => ''
          : (row) =>
              partitionPath(
                s.partitionKeys,
                partIdx.map((ci, k) => staticValues[k] ?? partitionValueToString(row.fields[ci], s.columns[ci]!.type, s.defaultPartitionName)),
              ),
      payloadOf: partIdx.length === 0 ? (row) => row : (row) => new Row(row.kind, payloadIdx.map((i) => row.fields[i])),
      rollingFileSize: s.rollingFileSize,
      rolloverIntervalMs: s.rolloverIntervalMs,
      inactivityIntervalMs: s.inactivityIntervalMs,
      checkIntervalMs: s.checkIntervalMs,
      overwrite: this.overwrite,
      partitioned: partIdx.length > 0,
      commit: s.commit,
    }) as Sink<Row, unknown, unknown>;
    return s.parallelism === undefined ? { sink } : { sink, parallelism: s.parallelism };
  }

  asSummaryString(): string {
    return `Filesystem(path=${this.s.root})`;
  }

  /**
   * A line format encodes each row to bytes as it is written. A bulk format keeps the rows until its part file
   * rolls, and a partitioned sink keeps each partition's path, made from the row's values, for as long as it runs.
   */
  keepsRowValues(): boolean {
    return this.s.format.kind === 'bulk' || this.s.partitionKeys.length > 0;
  }
}
