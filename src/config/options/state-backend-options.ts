import { ConfigOptions } from '../config-options.js';

/**
 * State backend options (Flink's `StateBackendOptions`, with lmdb in the place of RocksDB). 'rocksdb' is
 * read as 'lmdb' so a Flink configuration asking for on-disk state gets on-disk state
 * (docs/differences-from-flink.md).
 */
export const StateBackendOptions = {
  STATE_BACKEND: ConfigOptions.key('state.backend.type')
    .enumType(['hashmap', 'lmdb', 'rocksdb'])
    .defaultValue('hashmap')
    .withDescription("Where keyed state lives: 'hashmap' on the heap, 'lmdb' in an embedded on-disk store for state larger than memory ('rocksdb' is read as 'lmdb')."),

  LMDB_CACHE_SIZE: ConfigOptions.key('state.backend.lmdb.memory.cache-size')
    .memoryType()
    .defaultValue(128 * 1024 * 1024)
    .withDescription('Memory for decoded state values kept on the heap per operator and subtask with the lmdb backend (an estimate); the rest is read from disk.'),

  LMDB_LOCAL_DIR: ConfigOptions.key('state.backend.lmdb.localdir')
    .stringType()
    .noDefaultValue()
    .withFallbackKeys('state.backend.rocksdb.localdir')
    .withDescription('Directory of the lmdb state stores (deleted when a job ends); the system temp directory when unset.'),
} as const;
