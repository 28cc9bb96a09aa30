import { resolve } from 'node:path';
import type { ConfigOption } from '../../config/config-option.js';
import type { DynamicTableFactoryContext, DynamicTableSinkFactory, DynamicTableSourceFactory } from '../../factories/dynamic-table-factory.js';
import type { DynamicTableSink } from '../../factories/dynamic-table-sink.js';
import type { DynamicTableSource } from '../../factories/dynamic-table-source.js';
import { FactoryOptions } from '../../factories/factory-options.js';
import { createTableFactoryHelper, type TableFactoryHelper } from '../../factories/table-factory-helper.js';
import { ValidationError } from '../../errors/sluice-error.js';
import { isBulkFormatFactory, type BulkFormatFactory } from '../../formats/arrow/bulk-format.js';
import { parseDate, parseTimestamp } from '../../types/values/temporal.js';
import type { PartitionCommitSettings } from './file-sink.js';
import { DEFAULT_MIN_SPLIT_BYTES } from './file-ranges.js';
import { FileSystemOptions } from './filesystem-options.js';
import { FileSystemTableSink, type EncodingFormatOf } from './filesystem-table-sink.js';
import { FileSystemTableSource, type DecodingFormatOf } from './filesystem-table-source.js';
import { isSplittableLineFormat } from './line-splitting.js';
import { partitionValuesOf } from './partitions.js';

/**
 * `'connector' = 'filesystem'` (Flink's FileSystemTableFactory): line formats (json, csv, raw, ...) through
 * the format registry's DecodingFormat / EncodingFormat, whole-file formats (arrow) through a BulkFormatFactory.
 */
export class FileSystemTableFactory implements DynamicTableSourceFactory, DynamicTableSinkFactory {
  readonly factoryIdentifier = 'filesystem';
  readonly description = 'Files in a directory, optionally partitioned into k=v folders; exactly-once sink.';

  requiredOptions(): readonly ConfigOption<unknown>[] {
    return [FileSystemOptions.PATH, FileSystemOptions.FORMAT];
  }

  optionalOptions(): readonly ConfigOption<unknown>[] {
    return Object.values(FileSystemOptions).filter((o) => o !== FileSystemOptions.PATH && o !== FileSystemOptions.FORMAT) as ConfigOption<unknown>[];
  }

  private bulkFactory(ctx: DynamicTableFactoryContext): BulkFormatFactory | undefined {
    const id = ctx.table.options['format'];
    return id === undefined ? undefined : ctx.factories.all().filter(isBulkFormatFactory).find((f) => f.factoryIdentifier === id);
  }

  private common(ctx: DynamicTableFactoryContext, helper: TableFactoryHelper) {
    const o = helper.options;
    if (o.get(FileSystemOptions.AUTO_COMPACTION)) {
      throw new ValidationError("'auto-compaction' = 'true' is not supported by Sluice's filesystem connector yet; remove the option or set it to false.");
    }
    const columns = ctx.table.schema.physicalColumns().map((c) => ({ name: c.name, type: c.type }));
    for (const k of ctx.table.partitionKeys) {
      if (!columns.some((c) => c.name === k)) throw new ValidationError(`Partition column '${k}' is not a physical column of table '${ctx.identifier.object}'.`);
    }
    return {
      root: resolve(o.get(FileSystemOptions.PATH)!),
      columns,
      partitionKeys: ctx.table.partitionKeys,
      defaultPartitionName: o.get(FileSystemOptions.PARTITION_DEFAULT_NAME),
    };
  }

  createDynamicTableSource(ctx: DynamicTableFactoryContext): DynamicTableSource {
    const helper = createTableFactoryHelper(this, ctx);
    const bulk = this.bulkFactory(ctx);
    let format: DecodingFormatOf;
    if (bulk) {
      helper.validateExcept(`${bulk.factoryIdentifier}.`);
      format = { kind: 'bulk', format: bulk.createBulkDecodingFormat(ctx, helper.options.subConfiguration(`${bulk.factoryIdentifier}.`)) };
    } else {
      format = { kind: 'lines', format: helper.discoverDecodingFormat(FactoryOptions.FORMAT) };
      helper.validate();
    }
    const o = helper.options;
    const regex = o.get(FileSystemOptions.SOURCE_PATH_REGEX_PATTERN);
    let pathRegex: RegExp | undefined;
    try {
      pathRegex = regex === undefined ? undefined : new RegExp(`^(?:${regex})$`);
    } catch (e) {
      throw new ValidationError(`Invalid value for option 'source.path.regex-pattern': '${regex}'. ${(e as Error).message}`);
    }
    const splittable = format.kind === 'lines' && isSplittableLineFormat(format.format, ctx.table.options['format'], ctx.table.options);
    return new FileSystemTableSource({
      ...this.common(ctx, helper),
      pathRegex,
      monitorIntervalMs: o.get(FileSystemOptions.SOURCE_MONITOR_INTERVAL),
      format,
      parallelism: o.get(FileSystemOptions.SOURCE_PARALLELISM),
      maxRecordBytes: o.get(FileSystemOptions.SOURCE_MAX_RECORD_SIZE),
      ...(splittable ? { split: { maxBytes: o.get(FileSystemOptions.SOURCE_SPLIT_MAX_SIZE), minBytes: DEFAULT_MIN_SPLIT_BYTES } } : {}),
    });
  }

  createDynamicTableSink(ctx: DynamicTableFactoryContext): DynamicTableSink {
    const helper = createTableFactoryHelper(this, ctx);
    const bulk = this.bulkFactory(ctx);
    let format: EncodingFormatOf;
    if (bulk) {
      helper.validateExcept(`${bulk.factoryIdentifier}.`);
      format = { kind: 'bulk', format: bulk.createBulkEncodingFormat(ctx, helper.options.subConfiguration(`${bulk.factoryIdentifier}.`)) };
    } else {
      format = { kind: 'lines', format: helper.discoverEncodingFormat(FactoryOptions.FORMAT) };
      helper.validate();
    }
    const o = helper.options;
    const common = this.common(ctx, helper);
    const kinds = (o.get(FileSystemOptions.SINK_PARTITION_COMMIT_POLICY_KIND) ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter((k) => k !== '');
    for (const k of kinds) {
      if (k === 'custom') throw new ValidationError("Partition commit policy 'custom' is not supported by Sluice (it needs a Java class).");
      if (k !== 'success-file' && k !== 'metastore') {
        throw new ValidationError(`Unsupported partition commit policy kind '${k}'. Supported values are ['metastore', 'success-file'].`);
      }
    }
    if (o.get(FileSystemOptions.PARTITION_TIME_EXTRACTOR_KIND) !== 'default') {
      throw new ValidationError("Only 'partition.time-extractor.kind' = 'default' is supported by Sluice.");
    }
    const pattern = o.get(FileSystemOptions.PARTITION_TIME_EXTRACTOR_TIMESTAMP_PATTERN);
    const keys = common.partitionKeys;
    const commit: PartitionCommitSettings = {
      successFile: kinds.includes('success-file') ? o.get(FileSystemOptions.SINK_PARTITION_COMMIT_SUCCESS_FILE_NAME) : undefined,
      trigger: o.get(FileSystemOptions.SINK_PARTITION_COMMIT_TRIGGER),
      delayMs: o.get(FileSystemOptions.SINK_PARTITION_COMMIT_DELAY),
      partitionTime: (partition) => extractPartitionTime(partitionValuesOf(partition, keys) ?? [], keys, pattern),
    };
    return new FileSystemTableSink({
      ...common,
      format,
      rollingFileSize: o.get(FileSystemOptions.SINK_ROLLING_POLICY_FILE_SIZE),
      rolloverIntervalMs: o.get(FileSystemOptions.SINK_ROLLING_POLICY_ROLLOVER_INTERVAL),
      inactivityIntervalMs: o.get(FileSystemOptions.SINK_ROLLING_POLICY_INACTIVITY_INTERVAL),
      checkIntervalMs: o.get(FileSystemOptions.SINK_ROLLING_POLICY_CHECK_INTERVAL),
      commit,
      parallelism: o.get(FileSystemOptions.SINK_PARALLELISM),
    });
  }
}

/**
 * Flink's DefaultPartTimeExtractor: the pattern with `$key` replaced by partition values (default: the
 * first value), read as `yyyy-MM-dd HH:mm:ss` or `yyyy-MM-dd`. Unreadable text never commits (+Infinity).
 */
export function extractPartitionTime(values: readonly string[], keys: readonly string[], pattern: string | undefined): number {
  let text = values[0] ?? '';
  if (pattern !== undefined) {
    text = pattern;
    // Longest keys first so `$dt` does not eat the start of `$dtx`.
    const order = keys.map((k, i) => [k, values[i] ?? ''] as const).sort((a, b) => b[0].length - a[0].length);
    for (const [k, v] of order) text = text.replaceAll(`$${k}`, v);
  }
  try {
    return /^\d{4}-\d{2}-\d{2}$/.test(text.trim()) ? parseDate(text.trim()) * 86_400_000 : parseTimestamp(text.trim());
  } catch {
    return Infinity;
  }
}
