import { mkdirSync } from 'node:fs';
import { ExecutionError } from '../../errors/sluice-error.js';
import { loadNativeModule } from './native-module.js';
import type { LmdbDatabase } from './lmdb-store.js';
import { newStoreDir, removeStoreDir, ScratchStore, trackStore } from './lmdb-store.js';

/**
 * The part of @nxtedition/rocksdb (a RocksDB binding on abstract-level 1) this store uses. Its chained
 * batch writes, `getMany` and iterator steps have synchronous forms (`_writeSync`, `_getManySync`,
 * `_nextvSync`): the backend's contract is synchronous (operators read state within a record, and a
 * checkpoint is encoded at its barrier), so the asynchronous API (and LevelDB's classic-level, which has
 * nothing else for writes and iteration) cannot serve it.
 */
interface RocksLevel {
  open(): Promise<void>;
  close(): Promise<void>;
  batch(): RocksBatch;
  iterator(options: Record<string, unknown>): RocksIterator;
  _getManySync(keys: Uint8Array[]): Array<Buffer | undefined | null>;
  /** Without `limit`, one synchronous DeleteRange over the bounds; the callback only reports (on the next tick). */
  _clear(options: { gte: Uint8Array; lt: Uint8Array }, callback: (e: unknown) => void): void;
}

interface RocksBatch {
  _put(key: Uint8Array, value: Uint8Array, options: Record<string, never>): void;
  _del(key: Uint8Array, options: Record<string, never>): void;
  _writeSync(options?: Record<string, never>): void;
  _closeSync(): void;
  readonly length: number;
}

interface RocksIterator {
  /** Up to `size` entries as [key, value, key, value, ...]; `finished` once the range is exhausted. */
  _nextvSync(size: number, options?: Record<string, never>): { rows: Buffer[]; finished: boolean };
  close(): Promise<void>;
}

interface RocksModule {
  RocksLevel: new (location: string, options: Record<string, unknown>) => RocksLevel;
}

function loadRocks(): RocksModule {
  return loadNativeModule<RocksModule>('@nxtedition/rocksdb', 'RocksDB', "'lmdb' or 'hashmap'");
}

const NONE: Record<string, never> = {};
/** Entries per synchronous iterator step: large enough to amortise the native call, small enough to stay cheap. */
const ITERATOR_STEP = 1024;

/**
 * The store's database as the backend sees it (the same contract as lmdb's): puts and removals inside
 * `transactionSync` go into one RocksDB write batch, written synchronously when the action returns; outside
 * one, each is a batch of its own. Reads see what earlier batches wrote, never the open batch (the backend
 * does not read inside a transaction). An iteration reads the store as of its first step (a RocksDB
 * iterator pins its own snapshot).
 */
class RocksDatabase implements LmdbDatabase {
  private batch: RocksBatch | undefined;
  private readonly iterators = new Set<RocksIterator>();

  constructor(private readonly db: RocksLevel) {}

  getBinaryFast(key: Uint8Array): Buffer | undefined {
    return this.db._getManySync([key])[0] ?? undefined;
  }

  putSync(key: Uint8Array, value: Uint8Array): void {
    if (this.batch !== undefined) this.batch._put(key, value, NONE);
    else this.transactionSync(() => this.putSync(key, value));
  }

  /** Always true: a RocksDB delete does not say whether the key was there (the backend does not ask). */
  removeSync(key: Uint8Array): boolean {
    if (this.batch !== undefined) this.batch._del(key, NONE);
    else this.transactionSync(() => this.removeSync(key));
    return true;
  }

  transactionSync<T>(action: () => T): T {
    if (this.batch !== undefined) return action();
    const b = this.db.batch();
    this.batch = b;
    try {
      const out = action();
      if (b.length > 0) b._writeSync(NONE);
      return out;
    } finally {
      this.batch = undefined;
      b._closeSync();
    }
  }

  /**
   * One range tombstone, which iterators seek past, where deleting key by key left a tombstone per key that
   * every later iteration of the range stepped over until a compaction dropped them.
   */
  removeRange(start: Uint8Array, end: Uint8Array): void {
    // Only a completed checkpoint's markers are removed this way. Ones left behind by a failure take room
    // but change nothing: later deltas read the markers of later epochs only.
    this.db._clear({ gte: start, lt: end }, () => undefined);
  }

  /** Counted by iterating the keys (RocksDB keeps only an estimate): a pass over the range's keys. */
  getKeysCount(options: { start?: Uint8Array; end?: Uint8Array }): number {
    let n = 0;
    for (const _ of this.entries(options, false)) n++;
    return n;
  }

  getRange(options: { start?: Uint8Array; end?: Uint8Array; snapshot?: boolean; limit?: number }): Iterable<{ key: Buffer; value: Buffer }> {
    return this.entries(options, true);
  }

  private *entries(options: { start?: Uint8Array; end?: Uint8Array; limit?: number }, values: boolean): Generator<{ key: Buffer; value: Buffer }> {
    const range: Record<string, unknown> = { limit: options.limit ?? -1, keys: true, values, keyEncoding: 'buffer', valueEncoding: 'buffer' };
    // Bounds only when given: a bound present but undefined makes abstract-level 1 select nothing.
    if (options.start !== undefined) range.gte = options.start;
    if (options.end !== undefined) range.lt = options.end;
    const it = this.db.iterator(range);
    this.iterators.add(it);
    const none = Buffer.alloc(0);
    try {
      for (;;) {
        const { rows, finished } = it._nextvSync(ITERATOR_STEP, NONE);
        for (let i = 0; i < rows.length; i += 2) yield { key: rows[i]!, value: values ? rows[i + 1]! : none };
        if (finished || rows.length === 0) return;
      }
    } finally {
      this.iterators.delete(it);
      void it.close().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    // An iteration left unfinished (a checkpoint's encoder failed midway) pins a snapshot: closed first.
    await Promise.all([...this.iterators].map((it) => it.close().catch(() => undefined)));
    this.iterators.clear();
    await this.db.close();
  }
}

/**
 * A fresh RocksDB store (see ScratchStore): working memory as the lmdb store is, so writes skip fsync
 * (RocksDB still keeps its write-ahead log, which the binding cannot turn off).
 *
 * Opening is asynchronous (RocksDB opens in a worker thread), so the backend opens it in `open()`, which
 * the operator chain awaits before restoring state or processing records.
 */
export async function openRocksStore(localDir: string | undefined): Promise<ScratchStore> {
  const mod = loadRocks();
  const dir = newStoreDir(localDir, 'rocksdb');
  try {
    mkdirSync(dir, { recursive: true });
    const level = new mod.RocksLevel(dir, {
      keyEncoding: 'buffer',
      valueEncoding: 'buffer',
      // Bloom filters (ribbon) and hashed data-block indexes: the backend reads single keys, never ranges
      // except at checkpoints, and most reads of a key the store does not have stop at a filter.
      optimize: 'point-lookup',
      // Values are small encoded rows; compression costs CPU at every flush and compaction for a store
      // that lives on local disk only as long as the job (6 M keys: 4.9 against 6.2 us per put, see
      // docs/state-format.md).
      compression: false,
      // The write-ahead log (which the binding always writes) uncompressed too: 2 M sorted puts, 4.36
      // against 4.62 us of CPU each.
      walCompression: false,
      // No info LOG file in the store's directory.
      infoLogLevel: 'fatal',
    });
    await level.open();
    trackStore(dir, true);
    return new ScratchStore(dir, new RocksDatabase(level));
  } catch (e) {
    removeStoreDir(dir);
    throw new ExecutionError(`The RocksDB state backend could not open a store in '${dir}' (state.backend.lmdb.localdir): ${(e as Error).message}`, { cause: e });
  }
}
