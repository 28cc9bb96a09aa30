import { ExecutionError } from '../../errors/sluice-error.js';
import { refuseDelta, type KeyedStateRecord, type KeyedStateSnapshot } from './heap-state-backend.js';
import { decodeStateKey, encodeStateKey, hashKeyBytes, keyOrder } from './lmdb-key-codec.js';
import { createLmdbStore, type ScratchStore } from './lmdb-store.js';
import { openRocksStore } from './rocksdb-store.js';
import { encodeState } from './state-codec.js';
import { StateDecoder } from './state-decoder.js';
import { encodeStateBody, StreamedArray, StreamedMap, UnsupportedStateValue } from './state-encoder.js';
import { SHARD_ENTRIES } from './large-map.js';
import type {
  KeyedStateStore, ListState, MapState, StateDescriptor, StateKey, ValueState,
} from './state.js';
import { mapStateView } from './state.js';

type Kind = 'value' | 'list' | 'map';

/**
 * One key's value as the cache holds it. Operators get the live object and may change it in place
 * without calling `update` (the heap backend allows that), so every slot is encoded and written again
 * when it leaves the cache: a cached slot is the newer copy of its key.
 */
interface Slot {
  value: unknown;
  /** When last written (TTL states only); undefined: before the TTL applied (restored, or no TTL). */
  written: number | undefined;
  deleted: boolean;
  /** Used since the eviction scan last passed it (a second chance, cheaper than moving it on every use). */
  used: boolean;
  /**
   * Handed to the operator or changed since last written back; false: the store holds this very value, so
   * the slot leaves the cache (or a checkpoint passes it) without another put. Any read makes a slot
   * dirty again, since the operator may change the value it got in place.
   */
  dirty: boolean;
}

interface Table {
  readonly id: number;
  readonly name: string;
  readonly kind: Kind;
  ttlMs: number | undefined;
  /** When the TTL was first declared: the write time of entries stored without one. */
  ttlSince: number;
  /** Oldest first; the eviction scan moves used slots to the end (CLOCK, an approximation of LRU). */
  readonly cache: Map<StateKey, Slot>;
  /** Where the incremental TTL cleanup goes on in the stored entries; undefined: from the start. */
  cleanupFrom: Buffer | undefined;
  /** Where the incremental TTL cleanup of the cache stands: a live iterator over `cache`, kept across inserts. */
  cacheSweep: Iterator<[StateKey, Slot]> | undefined;
}

export interface LmdbBackendOptions {
  /**
   * The embedded store behind the cache: 'lmdb' (a B-tree, opened on first use) or 'rocksdb' (an LSM
   * tree, whose writes are sequential: it scales to tens of millions of keys where lmdb copies a random
   * page per put; opened by `open()`). Default 'lmdb'.
   */
  readonly engine?: 'lmdb' | 'rocksdb';
  /** Bytes of cached decoded values to aim for (an estimate: decoded sizes are not measured exactly). */
  readonly cacheBytes: number;
  readonly localDir: string | undefined;
  /** Stored entries per Map of a snapshot at most (tests use a few); default SHARD_ENTRIES. */
  readonly shardEntries?: number;
  /** Bits of the key filter to start with, a power of 2 (tests use a few); default FILTER_BITS. */
  readonly filterBits?: number;
  /**
   * Incremental checkpoints (`state.backend.incremental`): the store records which keys each write-back
   * touched, and a checkpoint after a completed one holds only the entries written (and the keys removed)
   * since, building on it (docs/state-format.md "Incremental checkpoints"). Only where checkpoints are
   * written to files that stay while a later one needs them: the checkpoint storage merges a delta onto
   * its bases when it reads it. Default false.
   */
  readonly incremental?: boolean;
  /** With `incremental`: every this many-th checkpoint of a chain is full again (default FULL_EVERY). */
  readonly fullEvery?: number;
}

/** A snapshot taken for a checkpoint, until that checkpoint is known complete (or a later one is). */
interface PendingSnapshot {
  /** The last write epoch it holds: store writes marked with this epoch or an earlier one are in it. */
  readonly epoch: number;
  /** Deltas between it and the full checkpoint its chain starts from (0: it is full). */
  readonly chain: number;
  /** Live entries of the chain's full checkpoint (for a full one: set as it is encoded). */
  fullEntries: number;
  /** Entries and removed keys of the chain's deltas, this one's included as it is encoded. */
  chainEntries: number;
}

/** Heap bytes of a cached slot beyond its encoded size: Map entry, slot, decoded object headers. */
const SLOT_OVERHEAD = 500;
/** Decoded objects take several times their encoded bytes (each value a heap object or a tagged slot). */
const DECODED_PER_ENCODED = 6;
/** Fewer cached slots than this would evict values an operator is still holding within one record. */
const MIN_CACHED = 1024;
/**
 * Share of the cache an eviction keeps: it writes back the rest (of the slots not used since the last
 * scan) in one transaction. A larger batch shares more copied leaf pages between its puts (3 M-key GROUP
 * BY: CPU 38.2 s keeping 3/4, 29.1 s keeping 1/2, 28.1 s keeping 1/4), but a store much larger than the
 * batch still costs a page per put, and each dirty page is 4 KB of memory until the commit.
 */
const EVICT_KEEP = 0.5;
/** Entries written per write transaction when restoring. */
const RESTORE_BATCH = 50_000;
/** Bits of the filter of keys that may be stored, at first (8 MB): a new key's read skips the store. */
const FILTER_BITS = 1 << 26;
/**
 * The filter doubles (rebuilt from the store's keys) once more than this share of its bits is set: with
 * one hash per key, that share is the chance that a new key's read goes to the store for nothing, a random
 * page read that costs more than the rest of the row (at 50 M keys an 8 MB filter had 54% of its bits set).
 */
const FILTER_MAX_FILL = 1 / 4;
/** At most 64 MB of filter (50 M keys fill 17% of it). */
const FILTER_MAX_BITS = 1 << 29;
/**
 * Cached slots of a TTL state the cleanup examines per insert into its cache (Flink's incremental cleanup
 * checks 5 entries per access): a cache that never fills (state smaller than the budget, no checkpoints)
 * still sheds expired slots, and the budget holds live ones.
 */
const SWEEP_PER_INSERT = 4;
/** Store removals of swept slots gathered before one write transaction removes them. */
const REMOVAL_BATCH = 1024;
/**
 * First byte of the store keys that mark a written key (table ids go up to 254): the marker of store key k
 * written back in epoch e is this byte, e (uint32 big-endian), then k; its value e again, a byte 1 if k is
 * stored (0: removed), and then a copy of k's stored value. With the epoch first, the markers a checkpoint
 * covers are one key range, removed at its completion by one range deletion: removed one by one, RocksDB
 * kept a tombstone per marker, and every later pass over the markers stepped over all of them (at 3 M keys
 * a quarter of the job's CPU). A key written back in several epochs has a marker in each; a delta applies
 * them epoch by epoch, so the last one wins.
 */
const MARKER = 0xff;
const MARK_HEADER = 5;
/** Bytes of a marker's key before the store key: MARKER and the epoch. */
const MARK_PREFIX = 5;
const MARKERS_START = Buffer.from([MARKER]);

/** The first marker key of epoch `epoch` (every marker of an earlier epoch sorts before it). */
function markersFrom(epoch: number): Buffer {
  const b = Buffer.allocUnsafe(MARK_PREFIX);
  b[0] = MARKER;
  b.writeUInt32BE(epoch, 1);
  return b;
}
/** With incremental checkpoints: every 8th checkpoint of a chain is full, so a restore reads 8 files at most. */
const FULL_EVERY = 8;
/**
 * A chain of deltas holding at most this many entries stays incremental even past its full checkpoint's
 * size: merging it costs little either way, and a small state's deltas (a few groups updated and removed
 * over and over) would otherwise make nearly every checkpoint full.
 */
const SMALL_CHAIN = 4096;
/** Value byte 0: whether a write time (8 bytes) follows. */
const NO_TIME = 0;
const HAS_TIME = 1;

/**
 * Keyed state in an embedded lmdb store on local disk (the role of Flink's `EmbeddedRocksDBStateBackend`):
 * state larger than memory. Values live encoded in the store, one entry per (state, key); a cache of
 * decoded values bounded by a memory budget sits in front, written back in batches (one write
 * transaction each) as it fills, so the hot path is a Map lookup and the store sees few, large commits.
 *
 * Checkpoints: the cache is written back, then one read transaction (a consistent snapshot of the
 * store) is read into the same `KeyedStateSnapshot` the heap backend produces, so checkpoints restore
 * into either backend and rescale by key group the same way. Durability comes from checkpoints only:
 * the store is working space, fresh per attempt, and never fsynced.
 *
 * TTL as the heap backend: expired entries are invisible, left out of snapshots, and removed
 * incrementally: each insert into the cache of a TTL state examines a few more cached slots (dropping
 * expired ones from the cache and, in batches, from the store), and each write-back also scans a stretch
 * of stored entries of each TTL state, about twice as many as it writes, so both the cache and the store
 * are bounded by the live entries without reads or checkpoints.
 */
export class LmdbKeyedStateBackend implements KeyedStateStore {
  private readonly tables = new Map<string, Table>();
  private readonly byId: Table[] = [];
  private currentKey: StateKey = null;
  private store: ScratchStore | undefined;
  private cached = 0;
  private maxCached: number;
  /**
   * A bit per hash of the keys ever written to the store (never cleared): a key whose bit is not set is
   * not stored, so reading it costs no store lookup, which is every first row of a new group.
   */
  private mayBeStored = new Uint32Array(0);
  private filterBits = FILTER_BITS;
  /** Bits set in `mayBeStored`. */
  private filterSet = 0;
  /**
   * Store keys of expired slots the cache sweep dropped that may also be stored (an older, so also expired,
   * copy): removed before any later write transaction puts a newer value of the same key.
   */
  private removals: Buffer[] = [];
  /** Closed for good (a RocksDB store that finishes opening afterwards is closed at once). */
  private disposed = false;
  /** Running mean of encoded value sizes, for the cache's entry limit. */
  private meanBytes = 64;
  /**
   * Incremental checkpoints: write-backs mark their keys with this epoch; each checkpoint's snapshot closes
   * one (later writes carry the next), so a checkpoint knows which marked keys it holds.
   */
  private epoch = 1;
  /** Checkpoints snapshotted whose completion is not known yet: id -> what they hold. */
  private readonly pending = new Map<number, PendingSnapshot>();
  /**
   * The newest checkpoint known complete (`notifyCheckpointComplete`): the base of the next delta. An aborted
   * or failed checkpoint is never notified, so it never becomes one; a savepoint is not notified either.
   */
  private base: (PendingSnapshot & { readonly id: number }) | undefined;

  constructor(
    private readonly options: LmdbBackendOptions,
    private readonly clock: () => number = Date.now,
  ) {
    this.maxCached = this.limitFor(this.meanBytes);
  }

  /**
   * Snapshots of a state larger than memory are written out at the barrier, not held (KeyedStateBackend);
   * not those of an operator that has no keyed state (no store), which are a few bytes.
   */
  get spillSnapshots(): { readonly localDir: string | undefined } | undefined {
    return this.store === undefined ? undefined : { localDir: this.options.localDir };
  }

  private limitFor(meanBytes: number): number {
    return Math.max(MIN_CACHED, Math.floor(this.options.cacheBytes / (SLOT_OVERHEAD + DECODED_PER_ENCODED * meanBytes)));
  }

  /**
   * An lmdb store is opened on first use: most operators of a job hold no keyed state and never need one.
   * A RocksDB store opens asynchronously, in `open()`.
   */
  private get db() {
    if (this.store === undefined) {
      if (this.options.engine === 'rocksdb') {
        throw new ExecutionError('The RocksDB state backend was used before open() completed (or after dispose()); its store opens asynchronously.');
      }
      this.useStore(createLmdbStore(this.options.localDir));
    }
    return this.store!.db;
  }

  private useStore(store: ScratchStore): void {
    this.store = store;
    this.filterBits = this.options.filterBits ?? FILTER_BITS;
    this.filterSet = 0;
    this.mayBeStored = new Uint32Array(Math.ceil(this.filterBits / 32));
  }

  /**
   * Opens the RocksDB store (the operator chain awaits this before restoring or processing); nothing for
   * lmdb, which opens synchronously on first use.
   */
  async open(): Promise<void> {
    if (this.options.engine !== 'rocksdb' || this.store !== undefined) return;
    const store = await openRocksStore(this.options.localDir);
    // Disposed while opening (a failed attempt closes its chain), or opened twice at once: not kept.
    if (this.store === undefined && !this.disposed) this.useStore(store);
    else store.dispose();
  }

  setCurrentKey(key: StateKey): void {
    this.currentKey = key;
  }

  getCurrentKey(): StateKey {
    return this.currentKey;
  }

  private table(d: string | StateDescriptor, kind: Kind): Table {
    const name = typeof d === 'string' ? d : d.name;
    const ttlMs = typeof d === 'string' ? undefined : d.ttlMs || undefined;
    let t = this.tables.get(name);
    if (!t) t = this.createTable(name, kind);
    else if (t.kind !== kind) throw new Error(`state '${name}' is a ${t.kind} state, not a ${kind} state`);
    if (ttlMs && t.ttlMs === undefined) {
      t.ttlMs = ttlMs;
      t.ttlSince = this.clock();
    }
    return t;
  }

  private createTable(name: string, kind: Kind): Table {
    const id = this.byId.length;
    if (id > 254) throw new ExecutionError(`The lmdb state backend holds at most 255 states per operator; state '${name}' is one more.`);
    const t: Table = { id, name, kind, ttlMs: undefined, ttlSince: 0, cache: new Map(), cleanupFrom: undefined, cacheSweep: undefined };
    this.tables.set(name, t);
    this.byId.push(t);
    return t;
  }

  private expired(t: Table, written: number | undefined, now: number): boolean {
    return t.ttlMs !== undefined && now - (written ?? t.ttlSince) >= t.ttlMs;
  }

  /** The live slot of `key`, from the cache or the store; undefined if none (or expired). */
  private read(t: Table, key: StateKey): Slot | undefined {
    const hit = t.cache.get(key);
    if (hit !== undefined) {
      if (hit.deleted) return undefined;
      if (t.ttlMs !== undefined && this.expired(t, hit.written, this.clock())) {
        hit.deleted = true;
        hit.dirty = true;
        hit.value = undefined;
        return undefined;
      }
      hit.used = true;
      hit.dirty = true;
      return hit;
    }
    // A view of lmdb's read buffer, valid until the next read: decoded at once.
    if (this.store === undefined) return undefined;
    const k = encodeStateKey(t.id, key);
    const h = hashKeyBytes(k) & (this.filterBits - 1);
    if ((this.mayBeStored[h >>> 5]! & (1 << (h & 31))) === 0) return undefined;
    const bytes = this.db.getBinaryFast(k);
    if (bytes === undefined) return undefined;
    const written = storedTime(bytes);
    if (t.ttlMs !== undefined && this.expired(t, written, this.clock())) {
      this.insert(t, key, { value: undefined, written, deleted: true, used: false, dirty: true });
      return undefined;
    }
    const slot: Slot = { value: decodeValue(bytes), written, deleted: false, used: false, dirty: true };
    this.insert(t, key, slot);
    return slot;
  }

  private write(t: Table, key: StateKey, value: unknown): void {
    const written = t.ttlMs === undefined ? undefined : this.clock();
    const s = t.cache.get(key);
    if (s === undefined) {
      this.insert(t, key, { value, written, deleted: false, used: false, dirty: true });
      return;
    }
    s.value = value;
    s.deleted = false;
    s.used = true;
    s.dirty = true;
    if (written !== undefined) s.written = written;
  }

  private remove(t: Table, key: StateKey): void {
    const s = t.cache.get(key);
    if (s === undefined) this.insert(t, key, { value: undefined, written: undefined, deleted: true, used: false, dirty: true });
    else {
      s.deleted = true;
      s.dirty = true;
      s.value = undefined;
    }
  }

  private insert(t: Table, key: StateKey, s: Slot): void {
    t.cache.set(key, s);
    if (t.ttlMs !== undefined) this.sweepCache(t, SWEEP_PER_INSERT);
    if (++this.cached > this.maxCached) this.evict();
  }

  /**
   * Examines the next `n` cached slots of `t` (going on from where the last sweep stopped, wrapping around)
   * and drops those expired or deleted: exactly what a read would find absent. The current key's slot
   * stays (the operator may hold its value within this record). A dropped slot whose key may be stored
   * leaves its store copy to be removed in the next write transaction, before any put.
   */
  private sweepCache(t: Table, n: number): void {
    const now = this.clock();
    for (let i = 0; i < n; i++) {
      let r = t.cacheSweep?.next();
      if (r === undefined || r.done) {
        // A finished Map iterator never yields again: slots inserted since are reached by a new one.
        t.cacheSweep = t.cache.entries();
        r = t.cacheSweep.next();
        if (r.done) return;
      }
      const [key, s] = r.value;
      if (key === this.currentKey || (!s.deleted && !this.expired(t, s.written, now))) continue;
      const k = this.store === undefined ? undefined : encodeStateKey(t.id, key);
      const h = k === undefined ? 0 : hashKeyBytes(k) & (this.filterBits - 1);
      const stored = k !== undefined && (this.mayBeStored[h >>> 5]! & (1 << (h & 31))) !== 0;
      // A cleared key's store copy may be live: its tombstone stays until written back, or a read
      // before the removal would find the copy again. An expired slot's store copy is older, so expired too.
      if (s.deleted && stored) continue;
      t.cache.delete(key);
      this.cached--;
      if (!stored) continue;
      this.removals.push(Buffer.from(k!));
      if (this.removals.length >= REMOVAL_BATCH) this.db.transactionSync(() => this.removeSwept());
    }
  }

  /** Removes the store copies of swept slots (within a write transaction, before its puts). */
  private removeSwept(): void {
    for (const k of this.removals) this.db.removeSync(k);
    this.removals = [];
  }

  getState<T>(d: string | StateDescriptor): ValueState<T> {
    const t = this.table(d, 'value');
    return {
      value: () => this.read(t, this.currentKey)?.value as T | undefined,
      update: (v: T) => this.write(t, this.currentKey, v),
      clear: () => this.remove(t, this.currentKey),
    };
  }

  getListState<T>(d: string | StateDescriptor): ListState<T> {
    const t = this.table(d, 'list');
    /** The live list; `create` also counts as a write (refreshing a TTL), as on the heap. */
    const list = (create: boolean): T[] | undefined => {
      const l = this.read(t, this.currentKey)?.value as T[] | undefined;
      if (!create) return l;
      const out = l ?? [];
      this.write(t, this.currentKey, out);
      return out;
    };
    const clear = (): void => this.remove(t, this.currentKey);
    return {
      get: () => list(false) ?? [],
      add: (v) => void list(true)!.push(v),
      addAll: (vs) => void list(true)!.push(...vs),
      update: (vs) => {
        if (vs.length === 0) clear();
        else this.write(t, this.currentKey, [...vs]);
      },
      clear,
    };
  }

  getMapState<K, V>(d: string | StateDescriptor): MapState<K, V> {
    const t = this.table(d, 'map');
    const map = (create: boolean): Map<K, V> | undefined => {
      const m = this.read(t, this.currentKey)?.value as Map<K, V> | undefined;
      if (!create) return m;
      const out = m ?? new Map<K, V>();
      this.write(t, this.currentKey, out);
      return out;
    };
    return mapStateView(map, () => this.remove(t, this.currentKey));
  }

  /** Every live key of state `name`, as of the call (keys written while iterating may not show). */
  *keys(name: string): IterableIterator<StateKey> {
    const t = this.tables.get(name);
    if (t === undefined) return;
    this.flushAll();
    const now = this.clock();
    for (const { key, value } of this.range(t)) {
      if (t.ttlMs !== undefined && this.expired(t, storedTime(value), now)) continue;
      yield decodeStateKey(key);
    }
  }

  private range(t: Table, from?: Buffer, limit?: number): Iterable<{ key: Buffer; value: Buffer }> {
    if (this.store === undefined) return [];
    return this.db.getRange({ start: from ?? Buffer.from([t.id]), end: Buffer.from([t.id + 1]), snapshot: true, limit });
  }

  /**
   * The stored bytes of a value: a write-time flag (and time), then the value in the state format without
   * its header (the store never outlives this process, so no version is needed). A view of the encoder's
   * scratch buffer, valid until the next encode: lmdb copies it on put.
   */
  private encodeSlot(value: unknown, written: number | undefined): Buffer {
    let out: Buffer;
    try {
      out = encodeStateBody(value, written === undefined ? 1 : 9);
    } catch (e) {
      // encodeState describes the value it cannot store, and where it is.
      if (e instanceof UnsupportedStateValue) encodeState(value);
      throw e;
    }
    out[0] = written === undefined ? NO_TIME : HAS_TIME;
    if (written !== undefined) out.writeDoubleLE(written, 1);
    this.meanBytes += (out.length - this.meanBytes) / 64;
    return out;
  }

  /** Writes one slot to the store (within a write transaction); returns false if it is gone for good. */
  private flushSlot(t: Table, k: Buffer, s: Slot, now: number): boolean {
    if (s.deleted || (t.ttlMs !== undefined && this.expired(t, s.written, now))) {
      this.db.removeSync(k);
      if (this.options.incremental) this.markWritten(k, undefined);
      return false;
    }
    const v = this.encodeSlot(s.value, s.written);
    this.put(k, v);
    if (this.options.incremental) this.markWritten(k, v);
    return true;
  }

  /**
   * Records that store key `k` changed in the current epoch (within a write transaction): its marker holds
   * the epoch, whether the key is stored, and a copy of the stored value, so that a delta reads the markers
   * alone, in order, and never looks a key up (a random read, 15 to 300 us on a large RocksDB store).
   */
  private markWritten(k: Buffer, value: Buffer | undefined): void {
    const m = Buffer.allocUnsafe(k.length + MARK_PREFIX);
    m[0] = MARKER;
    m.writeUInt32BE(this.epoch, 1);
    k.copy(m, MARK_PREFIX);
    const e = Buffer.allocUnsafe(MARK_HEADER + (value?.length ?? 0));
    e.writeUInt32BE(this.epoch, 0);
    e[4] = value === undefined ? 0 : 1;
    value?.copy(e, MARK_HEADER);
    this.db.putSync(m, e);
  }

  /**
   * Writes slots of `t` back in the store's key order (within a write transaction): hashed keys in cache
   * order would land on random leaves. `gone` gets the keys of those removed for good.
   */
  private writeBack(t: Table, keys: StateKey[], slots: Slot[], now: number, gone?: (key: StateKey) => void): void {
    const enc = keys.map((key) => encodeStateKey(t.id, key));
    for (const i of keyOrder(enc)) {
      const s = slots[i]!;
      if (this.flushSlot(t, enc[i]!, s, now)) s.dirty = false;
      else gone?.(keys[i]!);
    }
  }

  /** Whether `s` must be written back: it changed, or it expired (its store copy is removed). */
  private mustWrite(t: Table, s: Slot, now: number): boolean {
    return s.dirty || (t.ttlMs !== undefined && this.expired(t, s.written, now));
  }

  private put(k: Buffer, v: Buffer): void {
    this.mark(k);
    this.db.putSync(k, v);
  }

  private mark(k: Uint8Array): void {
    const h = hashKeyBytes(k) & (this.filterBits - 1);
    const bit = 1 << (h & 31);
    if ((this.mayBeStored[h >>> 5]! & bit) !== 0) return;
    this.mayBeStored[h >>> 5]! |= bit;
    this.filterSet++;
  }

  /** Doubles the filter, rebuilt from every stored key, while too many of its bits are set (after a write). */
  private growFilter(): void {
    if (this.store === undefined || this.filterSet <= this.filterBits * FILTER_MAX_FILL || this.filterBits >= FILTER_MAX_BITS) return;
    // Once per write transaction at most: if doubling is not enough, the next write doubles again.
    this.filterBits *= 2;
    this.mayBeStored = new Uint32Array(Math.ceil(this.filterBits / 32));
    this.filterSet = 0;
    for (const { key } of this.db.getRange({ end: MARKERS_START, snapshot: true })) this.mark(key);
  }

  /**
   * Writes back about half of the cache, least recently used first, in one transaction, and cleans
   * up expired entries. Slots used since the last scan get a second chance: they move to the end.
   */
  private evict(): void {
    const target = Math.floor(this.maxCached * EVICT_KEEP);
    const excess = this.cached - target;
    const now = this.clock();
    const expired = this.findExpired(2 * excess, now);
    this.db.transactionSync(() => {
      this.removeSwept();
      for (const t of this.byId) {
        let n = Math.ceil((excess * t.cache.size) / this.cached);
        let scan = t.cache.size;
        const again: Array<[StateKey, Slot]> = [];
        const keys: StateKey[] = [];
        const slots: Slot[] = [];
        for (const [key, s] of t.cache) {
          if (n <= 0 || scan-- <= 0) break;
          t.cache.delete(key);
          // The current key's slot stays: the operator holds its value within this record and may still
          // change it in place without `update` (the group aggregate does since its flat layout), and a
          // slot written back and dropped now would lose that change. It is the slot just inserted by a
          // miss, at the end of the cache, yet the scan reaches it when most older slots were used.
          if (s.used || key === this.currentKey) {
            s.used = false;
            again.push([key, s]);
            continue;
          }
          n--;
          if (!this.mustWrite(t, s, now)) continue;
          keys.push(key);
          slots.push(s);
        }
        this.writeBack(t, keys, slots, now);
        for (const [key, s] of again) t.cache.set(key, s);
      }
      for (const k of expired) this.db.removeSync(k);
    });
    this.cached = this.byId.reduce((sum, t) => sum + t.cache.size, 0);
    this.maxCached = this.limitFor(this.meanBytes);
    this.growFilter();
  }

  /**
   * Stored entries of TTL states that expired and are not cached (a cached slot is the newer copy):
   * up to `budget`, going on from where the last scan stopped and wrapping around.
   */
  private findExpired(budget: number, now: number): Buffer[] {
    const out: Buffer[] = [];
    for (const t of this.byId) {
      if (t.ttlMs === undefined) continue;
      let seen = 0;
      let last: Buffer | undefined;
      for (const { key, value } of this.range(t, t.cleanupFrom, budget)) {
        seen++;
        last = Buffer.from(key);
        if (this.expired(t, storedTime(value), now) && !t.cache.has(decodeStateKey(key))) out.push(Buffer.from(key));
      }
      t.cleanupFrom = seen < budget || last === undefined ? undefined : Buffer.concat([last, Buffer.from([0])]);
    }
    return out;
  }

  /** Writes every cached slot to the store; deleted and expired ones leave the cache. */
  private flushAll(): void {
    if (this.cached === 0 && this.removals.length === 0) return;
    const now = this.clock();
    this.db.transactionSync(() => {
      this.removeSwept();
      for (const t of this.byId) {
        const keys: StateKey[] = [];
        const slots: Slot[] = [];
        for (const [key, s] of t.cache) {
          if (!this.mustWrite(t, s, now)) continue;
          keys.push(key);
          slots.push(s);
        }
        this.writeBack(t, keys, slots, now, (key) => t.cache.delete(key));
      }
    });
    this.cached = this.byId.reduce((sum, t) => sum + t.cache.size, 0);
    this.growFilter();
  }

  /**
   * The live state for a checkpoint, read from one read transaction after the cache is written back. The
   * entries are not decoded here: each state's are `StreamedMap`s that the checkpoint's encoder (which runs
   * at once, before any further write) draws from the store one entry at a time, so a checkpoint never
   * holds the decoded state (at 5 M keys that took 2 GB of heap and 40 s). Fresh objects decoded from the
   * store, so later in-place changes by operators do not reach it. The records are cut as the store is read
   * (a `StreamedArray`), so the store is read once, not counted first.
   *
   * With `checkpointId` and incremental checkpoints: a delta on the newest checkpoint known complete when
   * there is one (`base` set), else full; full again every `fullEvery`-th of a chain, when the chain's
   * entries outnumber its full checkpoint's (and SMALL_CHAIN), and whenever a state has a TTL (an entry
   * that expires unwritten leaves no mark, and a delta would bring it back on restore).
   */
  snapshot(checkpointId?: number): KeyedStateSnapshot {
    this.flushAll();
    const now = this.clock();
    const epoch = this.epoch++;
    if (!this.options.incremental || checkpointId === undefined) return { states: new StreamedArray(this.fullRecords(now, undefined)) };
    const b = this.base;
    // An operator without keyed state takes whole (empty) snapshots: a chain of empty deltas would keep the
    // chain of another operator of the same checkpoints on disk for nothing.
    const delta =
      b !== undefined &&
      this.byId.length > 0 &&
      b.chain + 1 < (this.options.fullEvery ?? FULL_EVERY) &&
      (b.chainEntries <= b.fullEntries || b.chainEntries <= SMALL_CHAIN) &&
      this.byId.every((t) => t.ttlMs === undefined);
    const rec: PendingSnapshot = delta
      ? { epoch, chain: b.chain + 1, fullEntries: b.fullEntries, chainEntries: b.chainEntries }
      : { epoch, chain: 0, fullEntries: 0, chainEntries: 0 };
    this.pending.set(checkpointId, rec);
    if (!delta) return { states: new StreamedArray(this.fullRecords(now, rec)) };
    return { states: new StreamedArray(this.deltaRecords(b.epoch, rec)), base: b.id };
  }

  private shardEntries(): number {
    return this.options.shardEntries ?? SHARD_ENTRIES;
  }

  /**
   * Every state's live entries, in records of at most `shardEntries` stored entries (a Map holds 2^24
   * entries at most, and a restore into the heap backend takes each record as one shard); at least one
   * record per state. `rec` counts them.
   */
  private *fullRecords(now: number, rec: PendingSnapshot | undefined): Generator<KeyedStateRecord> {
    for (const t of this.byId) {
      const cursor = new Peekable(() => this.range(t));
      do {
        yield { name: t.name, kind: t.kind, entries: new StreamedMap(this.liveEntries(t, cursor, this.shardEntries(), now, rec)) };
      } while (cursor.peek() !== undefined);
    }
  }

  /** The live entries among the next `max` stored ones of `cursor`, decoded one at a time. */
  private *liveEntries(t: Table, cursor: Peekable, max: number, now: number, rec: PendingSnapshot | undefined): Generator<[StateKey, unknown]> {
    for (let i = 0; i < max; i++) {
      const r = cursor.next();
      if (r === undefined) return;
      const { key, value } = r;
      if (t.ttlMs !== undefined && this.expired(t, storedTime(value), now)) continue;
      if (rec !== undefined) rec.fullEntries++;
      yield [decodeStateKey(key), decodeValue(value)];
    }
  }

  /**
   * The entries written since epoch `after`, from their markers (in store key order: epoch by epoch, state
   * by state), in one record per epoch and state: the value each marked key was written back with in that
   * epoch, or, if it was removed, its key in the record's `removed` (filled as the entries are drawn: the
   * encoder writes `removed` after `entries`). A record holds one epoch only: a merge applies a record's
   * removals before its entries, which is right only if no key is in both.
   */
  private *deltaRecords(after: number, rec: PendingSnapshot): Generator<KeyedStateRecord> {
    const cursor = new Peekable(() => this.db.getRange({ start: markersFrom(after + 1), snapshot: true }));
    for (let next = cursor.peek(); next !== undefined; next = cursor.peek()) {
      const t = this.byId[next.key[MARK_PREFIX]!]!;
      const epoch = next.key.readUInt32BE(1);
      const removed: StateKey[] = [];
      yield { name: t.name, kind: t.kind, entries: new StreamedMap(this.changedEntries(t, epoch, cursor, after, removed, rec)), removed };
    }
  }

  private *changedEntries(t: Table, epoch: number, cursor: Peekable, after: number, removed: StateKey[], rec: PendingSnapshot): Generator<[StateKey, unknown]> {
    for (let i = 0; i < this.shardEntries(); i++) {
      const m = cursor.peek();
      if (m === undefined || m.key[MARK_PREFIX] !== t.id || m.key.readUInt32BE(1) !== epoch) return;
      cursor.next();
      if (m.value.readUInt32BE(0) <= after) continue;
      rec.chainEntries++;
      const key = decodeStateKey(m.key.subarray(MARK_PREFIX));
      if (m.value[4] === 0) removed.push(key);
      else yield [key, decodeValue(m.value.subarray(MARK_HEADER))];
    }
  }

  /**
   * Checkpoint `checkpointId` is complete (every task acknowledged it and it is written): it becomes the base
   * of the next delta, and the marks of the writes it holds are removed (they would only make later deltas
   * larger). Checkpoints snapshotted before it are dropped: a later one supersedes them.
   */
  notifyCheckpointComplete(checkpointId: number): void {
    const rec = this.pending.get(checkpointId);
    if (rec === undefined || this.store === undefined) return;
    for (const id of this.pending.keys()) if (id <= checkpointId) this.pending.delete(id);
    this.base = { ...rec, id: checkpointId };
    this.removeRange(MARKERS_START, markersFrom(rec.epoch + 1));
  }

  /**
   * Removes the store keys in [start, end): one range deletion where the store has it (RocksDB), else in
   * batches as the keys are read (the read sees the store as of its start; the keys of millions of markers
   * held at once took hundreds of MB of heap).
   */
  private removeRange(start: Buffer, end: Buffer): void {
    if (this.db.removeRange !== undefined) return this.db.removeRange(start, end);
    let done: Buffer[] = [];
    const remove = (): void => {
      const batch = done;
      done = [];
      this.db.transactionSync(() => {
        for (const k of batch) this.db.removeSync(k);
      });
    };
    for (const { key } of this.db.getRange({ start, end, snapshot: true })) {
      done.push(Buffer.from(key));
      if (done.length >= RESTORE_BATCH) remove();
    }
    if (done.length > 0) remove();
  }

  restore(s: KeyedStateSnapshot): void {
    this.restoreRescaled([s], () => true);
  }

  /** Restores the keys `owns` accepts from several subtasks' snapshots (a restore at another parallelism). */
  restoreRescaled(parts: readonly KeyedStateSnapshot[], owns: (key: StateKey) => boolean): void {
    for (const p of parts) refuseDelta(p);
    this.reset();
    let batch: Array<[Table, StateKey, unknown]> = [];
    const commit = (): void => {
      const b = batch;
      batch = [];
      this.db.transactionSync(() => {
        for (const [t, k, v] of b) this.put(encodeStateKey(t.id, k), this.encodeSlot(v, undefined));
      });
      this.growFilter();
    };
    for (const p of parts) {
      for (const st of p.states) {
        const t = this.tables.get(st.name) ?? this.createTable(st.name, st.kind);
        for (const [k, v] of st.entries) {
          if (!owns(k)) continue;
          batch.push([t, k, v]);
          if (batch.length >= RESTORE_BATCH) commit();
        }
      }
    }
    if (batch.length > 0) commit();
  }

  private reset(): void {
    if (this.store !== undefined && this.options.engine === 'rocksdb') {
      // A RocksDB store cannot be reopened synchronously: cleared instead (a restore follows open(), so it is
      // nearly always empty already).
      const db = this.store.db;
      const keys = [...db.getRange({})].map(({ key }) => Buffer.from(key));
      db.transactionSync(() => {
        for (const k of keys) db.removeSync(k);
      });
      this.useStore(this.store);
    } else this.closeStore();
    this.tables.clear();
    this.byId.length = 0;
    this.cached = 0;
    this.removals = [];
    // A restored store holds no marks: its first checkpoint is full.
    this.base = undefined;
    this.pending.clear();
  }

  dispose(): void {
    this.disposed = true;
    this.closeStore();
  }

  private closeStore(): void {
    this.store?.dispose();
    this.store = undefined;
    this.mayBeStored = new Uint32Array(0);
    this.filterSet = 0;
  }
}

/** A store cursor, opened on its first use (the store is read when the encoder gets there), that can look one entry ahead. */
class Peekable {
  private it: Iterator<{ key: Buffer; value: Buffer }> | undefined;
  private ahead: { key: Buffer; value: Buffer } | undefined;
  private done = false;

  constructor(private readonly open: () => Iterable<{ key: Buffer; value: Buffer }>) {}

  peek(): { key: Buffer; value: Buffer } | undefined {
    if (this.ahead === undefined && !this.done) {
      const r = (this.it ??= this.open()[Symbol.iterator]()).next();
      if (r.done) this.done = true;
      else this.ahead = r.value;
    }
    return this.ahead;
  }

  next(): { key: Buffer; value: Buffer } | undefined {
    const r = this.peek();
    this.ahead = undefined;
    return r;
  }
}

function storedTime(value: Buffer): number | undefined {
  return value[0] === HAS_TIME ? value.readDoubleLE(1) : undefined;
}

function decodeValue(bytes: Buffer): unknown {
  return new StateDecoder(bytes, bytes[0] === HAS_TIME ? 9 : 1).value();
}
