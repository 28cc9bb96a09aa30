import type { ChangelogMode } from '../../factories/changelog-mode.js';
import type { MetadataTypes, ScanContext, ScanRuntimeProvider, ScanTableSource, TableStats } from '../../factories/dynamic-table-source.js';
import type { DecodingFormat, DeserializationSchema } from '../../factories/format.js';
import type { FilterPushDownResult, SourceExpression } from '../../factories/source-filter.js';
import type { BulkDecodingFormat } from '../../formats/arrow/bulk-format.js';
import { ValidationError } from '../../errors/sluice-error.js';
import type { Source } from '../../runtime/index.js';
import type { LogicalType, RowType } from '../../types/logical-type.js';
import type { Row } from '../../types/row.js';
import type { SplitSizing } from './file-ranges.js';
import { FileSource, type FieldSource, type FileEnumState, type FileSplit } from './file-source.js';
import { inputBytesAtLeast } from './input-size.js';
import { listPartitionSpecs, partitionPathRegex, partitionStringToValue } from './partitions.js';

export type DecodingFormatOf = { readonly kind: 'lines'; readonly format: DecodingFormat } | { readonly kind: 'bulk'; readonly format: BulkDecodingFormat };

export interface FileSystemSourceSettings {
  readonly root: string;
  readonly columns: readonly { readonly name: string; readonly type: LogicalType }[];
  readonly partitionKeys: readonly string[];
  readonly defaultPartitionName: string;
  readonly pathRegex: RegExp | undefined;
  readonly monitorIntervalMs: number | undefined;
  readonly format: DecodingFormatOf;
  readonly parallelism: number | undefined;
  /** 'source.max-record-size' in bytes. */
  readonly maxRecordBytes?: number;
  /** Byte ranges for large files of a splittable line format (file-ranges.ts); absent = a split per file. */
  readonly split?: SplitSizing;
}

const METADATA: MetadataTypes = new Map<string, LogicalType>([
  ['file.path', { kind: 'VARCHAR', length: 2147483647, nullable: false }],
  ['file.name', { kind: 'VARCHAR', length: 2147483647, nullable: false }],
  ['file.size', { kind: 'BIGINT', nullable: false }],
  ['file.modification-time', { kind: 'TIMESTAMP_LTZ', precision: 3, nullable: false }],
]);

/** A typical CSV or JSON line: the bytes per row of the estimate `reportStatistics` makes from file sizes. */
const ESTIMATED_ROW_BYTES = 100;
/** Past this many rows the exact estimate no longer matters to the planner (planner/default-parallelism.ts). */
const LARGE_INPUT_ROWS = 10_000_000;

type MetadataKey = 'file.path' | 'file.name' | 'file.size' | 'file.modification-time';

/** `'connector' = 'filesystem'` as a scan source: partitions from `k=v/` folders, projection, file metadata. */
export class FileSystemTableSource implements ScanTableSource {
  readonly kind = 'scan-source';
  private projection: readonly number[] | undefined;
  private metadata: readonly MetadataKey[] = [];
  /** Set by partition push-down: only these partition folders are read. */
  private partitions: readonly ReadonlyMap<string, string | null>[] | undefined;

  constructor(private readonly s: FileSystemSourceSettings) {}

  getChangelogMode(): ChangelogMode {
    return this.s.format.format.getChangelogMode();
  }

  listReadableMetadata(): MetadataTypes {
    return METADATA;
  }

  applyReadableMetadata(keys: readonly string[]): void {
    this.metadata = keys.map((k) => {
      if (!METADATA.has(k)) throw new ValidationError(`Invalid metadata key '${k}' for the filesystem connector. Supported keys are: [${[...METADATA.keys()].join(', ')}]`);
      return k as MetadataKey;
    });
  }

  applyProjection(fieldIndexes: readonly number[]): boolean {
    this.projection = [...fieldIndexes];
    return true;
  }

  /**
   * SupportsFilterPushDown as Flink's filesystem source: every filter is taken (shown in the scan's
   * digest) and also left to the planner, since no format here skips data by filter yet.
   */
  applyFilters(filters: readonly SourceExpression[]): FilterPushDownResult {
    return { accepted: filters, remaining: filters };
  }

  /**
   * SupportsPartitionPushDown. As Flink's filesystem source, the partitions are the folders that exist
   * when the query is planned: a monitored (streaming) source whose partitions were pruned keeps
   * discovering new files in the surviving folders, but not new partition folders.
   */
  listPartitions(): readonly ReadonlyMap<string, string | null>[] {
    return listPartitionSpecs(this.s.root, this.s.partitionKeys, this.s.defaultPartitionName);
  }

  applyPartitions(remaining: readonly ReadonlyMap<string, string | null>[]): void {
    this.partitions = remaining;
  }

  /**
   * A bounded source is estimated at ESTIMATED_ROW_BYTES per row from the size of its files (every partition:
   * pruning only makes the input smaller); listing stops once the input is large. A monitored one reports
   * nothing: its files arrive one by one, and a reader with none would hold back event time.
   */
  reportStatistics(): TableStats | undefined {
    if (this.s.monitorIntervalMs !== undefined) return undefined;
    const enough = LARGE_INPUT_ROWS * ESTIMATED_ROW_BYTES;
    return { rowCount: Math.floor(inputBytesAtLeast(this.s.root, this.s.pathRegex, enough) / ESTIMATED_ROW_BYTES) };
  }

  getScanRuntimeProvider(ctx: ScanContext): ScanRuntimeProvider {
    const s = this.s;
    const fileColumns = s.columns.filter((c) => !s.partitionKeys.includes(c.name));
    const fileType: RowType = { kind: 'ROW', fields: fileColumns.map((c) => ({ name: c.name, type: c.type })), nullable: false };
    const wanted = this.projection ?? s.columns.map((_, i) => i);
    const f = s.format;
    // A projectable line format decodes only the file columns the query reads, straight into the produced row
    // (one row per record, see FileSource's pass-through); the `file` fields then index the decoded row.
    const decoded: number[] = [];
    const projecting = f.kind === 'lines' && f.format.createProjectedDecoder !== undefined;
    const fields: FieldSource[] = wanted.map((i) => {
      const c = s.columns[i]!;
      const p = s.partitionKeys.indexOf(c.name);
      if (p >= 0) return { kind: 'partition', index: p, convert: (text: string) => partitionStringToValue(text, c.type, s.defaultPartitionName, c.name) };
      const index = fileColumns.indexOf(c);
      if (!projecting) return { kind: 'file', index };
      if (!decoded.includes(index)) decoded.push(index);
      return { kind: 'file', index: decoded.indexOf(index) };
    });
    for (const key of this.metadata) fields.push({ kind: 'metadata', key });
    const source = new FileSource({
      root: s.root,
      partitionKeys: s.partitionKeys,
      pathRegex: this.partitions === undefined ? s.pathRegex : partitionPathRegex(s.root, s.partitionKeys, this.partitions, s.defaultPartitionName, s.pathRegex),
      monitorIntervalMs: s.monitorIntervalMs,
      format: f.kind === 'bulk' ? { kind: 'bulk', decoder: () => f.format.createBulkDecoder(fileType) } : { kind: 'lines', decoder: () => lineDecoder(f.format, fileType, projecting ? decoded : undefined, ctx.transientValues === true), projected: projecting },
      fields,
      ...(s.maxRecordBytes === undefined ? {} : { maxRecordBytes: s.maxRecordBytes }),
      ...(s.split ? { split: s.split } : {}),
    }) as Source<Row, FileSplit, FileEnumState> as ScanRuntimeProvider['source'];
    const bounded = s.monitorIntervalMs === undefined;
    return s.parallelism === undefined ? { source, bounded } : { source, bounded, parallelism: s.parallelism };
  }

  asSummaryString(): string {
    return `filesystem(path=${this.s.root})`;
  }
}

/** The format's decoder of whole rows, or of the `projection` of them (the format is then projectable). */
function lineDecoder(format: DecodingFormat, fileType: RowType, projection: readonly number[] | undefined, transientValues: boolean): DeserializationSchema {
  return projection !== undefined && format.createProjectedDecoder !== undefined
    ? format.createProjectedDecoder(fileType, projection, { transientValues })
    : format.createRuntimeDecoder(fileType);
}
