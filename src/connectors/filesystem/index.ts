export { FileSystemOptions } from './filesystem-options.js';
export { FileSource, listFiles, type FileSplit, type FileEnumState, type FileReadFormat, type FieldSource, type FileSourceSettings } from './file-source.js';
export { FileSink, type PendingFile, type FileSinkSettings, type FileWriteFormat, type PartitionCommitSettings } from './file-sink.js';
export { FileSystemTableSource, type FileSystemSourceSettings } from './filesystem-table-source.js';
export { FileSystemTableSink, type FileSystemSinkSettings } from './filesystem-table-sink.js';
export { FileSystemTableFactory, extractPartitionTime } from './filesystem-table-factory.js';
export * from './partitions.js';
