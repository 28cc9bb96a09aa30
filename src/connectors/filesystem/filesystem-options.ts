import { ConfigOptions } from '../../config/config-options.js';
import { FactoryOptions } from '../../factories/factory-options.js';

/** Options of `'connector' = 'filesystem'` (Flink's FileSystemConnectorOptions). */
export const FileSystemOptions = {
  PATH: ConfigOptions.key('path').localPathType().noDefaultValue().withDescription(
    "The path (or a 'file:///' URI, as Flink writes it) of a directory (every visible file below it, following symbolic links as Flink does; names starting with '.' or '_' are hidden) or, for a source, of one file. " +
      'A relative path is resolved against the working directory. A bounded source fails when the path does not exist; a monitored ' +
      "one ('source.monitor-interval') waits for it to appear. A sink creates the directory and names it in the error when it cannot write there.",
  ),
  FORMAT: FactoryOptions.FORMAT,
  PARTITION_DEFAULT_NAME: ConfigOptions.key('partition.default-name')
    .stringType()
    .defaultValue('__DEFAULT_PARTITION__')
    .withDescription('The default partition name in case the dynamic partition column value is null/empty string.'),
  SOURCE_MONITOR_INTERVAL: ConfigOptions.key('source.monitor-interval')
    .durationType()
    .noDefaultValue()
    .withDescription('Interval for continuously monitoring the path for new files; unset reads the files once (bounded).'),
  SOURCE_REPORT_STATISTICS: ConfigOptions.key('source.report-statistics')
    .enumType(['NONE', 'ALL'] as const)
    .defaultValue('ALL')
    .withDescription('File statistics for the planner (accepted; Sluice has no cost-based planning yet).'),
  SOURCE_PATH_REGEX_PATTERN: ConfigOptions.key('source.path.regex-pattern')
    .stringType()
    .noDefaultValue()
    .withDescription('Only files whose absolute path matches this regular expression are read.'),
  /** Sluice-specific: Flink's filesystem source cuts files only at file-system blocks, which local files do not have. */
  SOURCE_SPLIT_MAX_SIZE: ConfigOptions.key('source.split-max-size')
    .memoryType()
    .defaultValue(128 * 1024 * 1024)
    .withDescription(
      'Sluice-specific. Files of line formats whose records never span lines (json, raw, csv with csv.disable-quote-character) are read as byte ranges, ' +
        'so a large file is read by several subtasks: each range is the discovered bytes per source subtask, at least 4 mb and at most this size ' +
        '(as Flink\'s table.exec.hive.split-max-size and file-open-cost). A range reads the lines that start in it. Quoted csv, changelog and bulk formats are read one file per split.',
    ),
  /** Sluice-specific: Flink's line reader has no limit and fails on the JVM heap instead. */
  SOURCE_MAX_RECORD_SIZE: ConfigOptions.key('source.max-record-size')
    .memoryType()
    .defaultValue(128 * 1024 * 1024)
    .withDescription(
      'Sluice-specific. The longest record (line) a line format (json, csv, raw, debezium-json, canal-json) may have in a file. ' +
        'A longer one fails the read with the file and the byte offset where the record starts, instead of exhausting memory on a file that is not line-separated.',
    ),
  SINK_ROLLING_POLICY_FILE_SIZE: ConfigOptions.key('sink.rolling-policy.file-size')
    .memoryType()
    .defaultValue(128 * 1024 * 1024)
    .withDescription('The maximum part file size before rolling.'),
  SINK_ROLLING_POLICY_ROLLOVER_INTERVAL: ConfigOptions.key('sink.rolling-policy.rollover-interval')
    .durationType()
    .defaultValue(30 * 60_000)
    .withDescription('The maximum time duration a part file can stay open before rolling.'),
  SINK_ROLLING_POLICY_INACTIVITY_INTERVAL: ConfigOptions.key('sink.rolling-policy.inactivity-interval')
    .durationType()
    .defaultValue(30 * 60_000)
    .withDescription('A part file that received no record for this long is rolled.'),
  SINK_ROLLING_POLICY_CHECK_INTERVAL: ConfigOptions.key('sink.rolling-policy.check-interval')
    .durationType()
    .defaultValue(60_000)
    .withDescription('How often the time-based rolling policies are checked.'),
  SINK_SHUFFLE_BY_PARTITION: ConfigOptions.key('sink.shuffle-by-partition.enable')
    .booleanType()
    .defaultValue(false)
    .withDescription('Shuffle rows by dynamic partition columns before the sink (planner hint).'),
  PARTITION_TIME_EXTRACTOR_KIND: ConfigOptions.key('partition.time-extractor.kind')
    .stringType()
    .defaultValue('default')
    .withDescription("Time extractor of partition-time commits; only 'default' is supported."),
  PARTITION_TIME_EXTRACTOR_CLASS: ConfigOptions.key('partition.time-extractor.class')
    .stringType()
    .noDefaultValue()
    .withDescription('Custom extractor class (not supported by Sluice).'),
  PARTITION_TIME_EXTRACTOR_TIMESTAMP_PATTERN: ConfigOptions.key('partition.time-extractor.timestamp-pattern')
    .stringType()
    .noDefaultValue()
    .withDescription("Builds the partition timestamp from partition values, e.g. '$dt $hour:00:00'; default: the first partition value."),
  PARTITION_TIME_EXTRACTOR_TIMESTAMP_FORMATTER: ConfigOptions.key('partition.time-extractor.timestamp-formatter')
    .stringType()
    .noDefaultValue()
    .withDescription("Formatter of the extracted timestamp string; only 'yyyy-MM-dd HH:mm:ss' style text is supported."),
  SINK_PARTITION_COMMIT_TRIGGER: ConfigOptions.key('sink.partition-commit.trigger')
    .enumType(['process-time', 'partition-time'] as const)
    .defaultValue('process-time')
    .withDescription("When a partition is committed: 'process-time' (creation time + delay) or 'partition-time' (watermark passes partition time + delay)."),
  SINK_PARTITION_COMMIT_DELAY: ConfigOptions.key('sink.partition-commit.delay')
    .durationType()
    .defaultValue(0)
    .withDescription('The partition will not commit until the delay time.'),
  SINK_PARTITION_COMMIT_WATERMARK_TIME_ZONE: ConfigOptions.key('sink.partition-commit.watermark-time-zone')
    .stringType()
    .defaultValue('UTC')
    .withDescription('Time zone to read the watermark as a TIMESTAMP for partition-time commits.'),
  SINK_PARTITION_COMMIT_POLICY_KIND: ConfigOptions.key('sink.partition-commit.policy.kind')
    .stringType()
    .noDefaultValue()
    .withDescription("Comma list of policies: 'success-file' writes the success file; 'metastore' is a no-op without a metastore."),
  SINK_PARTITION_COMMIT_POLICY_CLASS: ConfigOptions.key('sink.partition-commit.policy.class')
    .stringType()
    .noDefaultValue()
    .withDescription('Custom commit policy class (not supported by Sluice).'),
  SINK_PARTITION_COMMIT_POLICY_CLASS_PARAMETERS: ConfigOptions.key('sink.partition-commit.policy.class.parameters')
    .stringType()
    .asList()
    .noDefaultValue()
    .withDescription('Parameters of the custom commit policy (not supported by Sluice).'),
  SINK_PARTITION_COMMIT_SUCCESS_FILE_NAME: ConfigOptions.key('sink.partition-commit.success-file.name')
    .stringType()
    .defaultValue('_SUCCESS')
    .withDescription('The file name of the success-file partition commit policy.'),
  AUTO_COMPACTION: ConfigOptions.key('auto-compaction')
    .booleanType()
    .defaultValue(false)
    .withDescription('Compact small files after checkpoints (accepted; only false is supported).'),
  COMPACTION_FILE_SIZE: ConfigOptions.key('compaction.file-size').memoryType().noDefaultValue().withDescription('Target size of compacted files.'),
  COMPACTION_PARALLELISM: ConfigOptions.key('compaction.parallelism').intType().noDefaultValue().withDescription('Parallelism of compaction.'),
  SINK_PARALLELISM: FactoryOptions.SINK_PARALLELISM,
  SOURCE_PARALLELISM: FactoryOptions.SCAN_PARALLELISM,
} as const;
