export { NexmarkOptions } from './nexmark-options.js';
export { NexmarkGenerator, DEFAULT_NEXMARK_CONFIG, EVENT_PERSON, EVENT_AUCTION, EVENT_BID, type NexmarkConfig } from './nexmark-generator.js';
export { NexmarkTableSource, type NexmarkSettings } from './nexmark-table-source.js';
export { NexmarkTableSourceFactory } from './nexmark-table-source-factory.js';
export { NEXMARK_TABLE_DDL, NEXMARK_VIEWS_DDL, nexmarkDdl } from './nexmark-ddl.js';
