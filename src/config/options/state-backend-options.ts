import { ConfigOptions } from '../config-options.js';

/**
 * State backend options (Flink's `StateBackendOptions`). 'lmdb' and 'rocksdb' are one backend (a cache of
 * decoded values in front of an embedded store, the `state.backend.lmdb.*` options apply to both) with a
 * different store: lmdb's B-tree or RocksDB's LSM tree (docs/state-format.md).
 */
export const StateBackendOptions = {
  STATE_BACKEND: ConfigOptions.key('state.backend.type')
    .enumType(['hashmap', 'lmdb', 'rocksdb'])
    .defaultValue('hashmap')
    .withDescription("Where keyed state lives: 'hashmap' on the heap; 'lmdb' or 'rocksdb' in an embedded on-disk store (lmdb's B-tree or RocksDB's LSM tree, whose writes stay cheap at tens of millions of keys) for state larger than memory."),

  LMDB_CACHE_SIZE: ConfigOptions.key('state.backend.lmdb.memory.cache-size')
    .memoryType()
    .defaultValue(128 * 1024 * 1024)
    .withDescription('Memory for decoded state values kept on the heap per operator and subtask with the lmdb backend (an estimate); the rest is read from disk.'),

  LMDB_LOCAL_DIR: ConfigOptions.key('state.backend.lmdb.localdir')
    .stringType()
    .noDefaultValue()
    .withFallbackKeys('state.backend.rocksdb.localdir')
    .withDescription('Directory of the lmdb state stores (deleted when a job ends); the system temp directory when unset.'),

  INCREMENTAL: ConfigOptions.key('state.backend.incremental')
    .booleanType()
    .defaultValue(false)
    .withDescription("With 'lmdb' or 'rocksdb' and a checkpoint directory: a checkpoint after a completed one writes only the state written since, building on it (every 8th is full again); restores merge the chain. Savepoints are always full."),
} as const;
