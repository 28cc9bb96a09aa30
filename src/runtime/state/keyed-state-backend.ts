import { HeapKeyedStateBackend, type KeyedStateSnapshot } from './heap-state-backend.js';
import { LmdbKeyedStateBackend } from './lmdb-state-backend.js';
import type { KeyedStateStore, StateKey } from './state.js';

/**
 * What the operator chain needs of a keyed state backend besides the operators' handles: checkpoint
 * snapshots in the one format every backend reads (`KeyedStateSnapshot`), so a checkpoint of one
 * backend restores into the other, and a restore at another parallelism by key group.
 */
export interface KeyedStateBackend extends KeyedStateStore {
  /**
   * The state as of now, as plain values no later write changes once encoded. With `checkpointId` (a
   * checkpoint's, or a savepoint's) a backend with incremental checkpoints may answer with a delta on the
   * newest checkpoint it was told is complete (`KeyedStateSnapshot.base`).
   */
  snapshot(checkpointId?: number): KeyedStateSnapshot;
  /** Checkpoint `checkpointId` completed: a backend with incremental checkpoints may build on it from now on. */
  notifyCheckpointComplete?(checkpointId: number): void;
  restore(s: KeyedStateSnapshot): void;
  restoreRescaled(parts: readonly KeyedStateSnapshot[], owns: (key: StateKey) => boolean): void;
  /**
   * Opens what the backend needs before its first use (the RocksDB store opens in a worker thread); the
   * operator chain awaits it before any restore or record.
   */
  open?(): Promise<void>;
  /** Releases what the backend holds outside the heap (files). */
  dispose?(): void;
  /**
   * Set by a backend whose state is on disk: its operators' snapshots are written to scratch files under
   * `localDir` at the barrier (spilled-snapshot.ts), since held in memory they grow with the keys.
   */
  readonly spillSnapshots?: { readonly localDir: string | undefined };
}

/** `state.backend.type` and its backend's settings, as the runtime reads them. */
export type StateBackendSettings =
  | { readonly type: 'hashmap' }
  | {
      readonly type: 'lmdb';
      /** The store behind the cache: lmdb for `state.backend.type` = 'lmdb', RocksDB for 'rocksdb' (default lmdb). */
      readonly engine?: 'lmdb' | 'rocksdb';
      /** `state.backend.lmdb.memory.cache-size`: bytes of decoded values kept on the heap, about. */
      readonly cacheBytes: number;
      /** `state.backend.lmdb.localdir`: where stores live; the system temp directory when unset. */
      readonly localDir: string | undefined;
      /**
       * `state.backend.incremental`, in effect only where checkpoints go to a checkpoint directory (their
       * files stay while a later delta needs them); default false.
       */
      readonly incremental?: boolean;
    };

export function createKeyedStateBackend(settings: StateBackendSettings | undefined): KeyedStateBackend {
  if (settings?.type === 'lmdb') return new LmdbKeyedStateBackend({ engine: settings.engine, cacheBytes: settings.cacheBytes, localDir: settings.localDir, incremental: settings.incremental });
  return new HeapKeyedStateBackend();
}
