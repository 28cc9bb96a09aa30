import { ExecutionError } from '../../errors/sluice-error.js';
import type {
  KeyedStateStore, ListState, MapState, OperatorStateStore, StateDescriptor, StateKey, ValueState,
} from './state.js';
import { mapStateView } from './state.js';
import { ExpiryCursor } from './expiry-cursor.js';
import { LargeMap, SHARD_ENTRIES } from './large-map.js';
import type { StreamedArray, StreamedMap } from './state-encoder.js';

export type Kind = 'value' | 'list' | 'map';

/**
 * The plain form of a heap backend's contents, as stored in a checkpoint. `entries` is a Map since #18
 * (the live map of the state, encoded at the barrier, rather than an array of [key, value] pairs built
 * for every checkpoint: hundreds of MB for millions of keys); checkpoints written before hold the array.
 * A state larger than one Map may hold comes as several records of the same name, in order.
 */
export interface KeyedStateSnapshot {
  /**
   * The states' records, in order. In a snapshot of an on-disk backend before it is encoded, a
   * `StreamedArray` cut into records as the store is read (decoded back as an Array).
   */
  readonly states: ReadonlyArray<KeyedStateRecord> | StreamedArray<KeyedStateRecord>;
  /**
   * Set in an incremental snapshot (a delta, docs/state-format.md "Incremental checkpoints"): the id of the
   * checkpoint it builds on. Its records then hold only the entries written since that checkpoint, and
   * `removed` the keys removed since; the checkpoint storage merges it onto its base before any restore
   * (`mergeOperatorSnapshots`), so a backend never restores a delta.
   */
  readonly base?: number;
}

/** One state's entries, or a shard of them (a state larger than one Map comes as several records of its name). */
export interface KeyedStateRecord {
  readonly name: string;
  readonly kind: Kind;
  readonly entries: StateEntries;
  /** In a delta only: keys of this state removed (or cleared) since the base. */
  readonly removed?: readonly StateKey[];
}

/**
 * The entries of one state: a Map, or in checkpoints of earlier releases an array of pairs; in a snapshot
 * of the lmdb backend before it is encoded, a `StreamedMap` (decoded back as a Map).
 */
export type StateEntries = ReadonlyMap<StateKey, unknown> | ReadonlyArray<readonly [StateKey, unknown]> | StreamedMap<StateKey, unknown>;

interface Table {
  readonly kind: Kind;
  readonly data: LargeMap<StateKey, unknown>;
  /**
   * With a TTL: when each key was last written (Flink's OnCreateAndWrite update type), in ms since the
   * backend was created, so the times are small integers V8 stores unboxed (not a heap number per key).
   */
  written: LargeMap<StateKey, number> | undefined;
  /** Where the incremental cleanup stands in `written`. */
  sweep: ExpiryCursor | undefined;
  ttlMs: number | undefined;
  /** Keys of a value state cleared since the last sweep (their entry holds CLEARED until then), see `clearValue`. */
  cleared: StateKey[];
}

/**
 * What a cleared value state's entry holds until the next sweep. Deleting a key from a V8 Map and setting it again
 * appends a new entry, and the Map rebuilds itself whenever its deleted entries fill it: an operator clearing and
 * refilling the same keys (an interval join whose keys' rows all expire, then come again) spent most of its state
 * lookups in those rebuilds (about 0.9 us a lookup against 0.03 us). So a clear marks the entry and a later write
 * overwrites it in place; the marked entries are deleted once they outnumber the live ones, and before a snapshot
 * or an iteration of the keys, so memory stays within about twice the live entries.
 */
const CLEARED: unique symbol = Symbol('cleared');
/** Cleared entries kept at least before a sweep. */
const MIN_SWEEP = 4096;

/**
 * Keyed state on the heap (Flink's `HashMapStateBackend`): one `Map` per state from key to value.
 * A descriptor's `ttlMs` makes entries not written for that long invisible (NeverReturnExpired), drops
 * them from snapshots, and removes them incrementally as keys are read and written (Flink's incremental
 * cleanup), so memory stays bounded by the live entries with or without checkpoints, as long as the
 * operator processes records; the write time is not part of checkpoints, so a restore restarts the clock.
 */
export class HeapKeyedStateBackend implements KeyedStateStore {
  private readonly tables = new Map<string, Table>();
  private currentKey: StateKey = null;
  /** The TTL clock: ms since this backend was created. */
  private readonly now: () => number;

  /**
   * `clock` gives the time TTLs are measured in (tests pass their own); `shardEntries` how many entries
   * one Map of a state holds (tests of very large states pass a small one).
   */
  constructor(
    clock: () => number = Date.now,
    private readonly shardEntries?: number,
  ) {
    const epoch = clock();
    this.now = () => clock() - epoch;
  }

  setCurrentKey(key: StateKey): void {
    this.currentKey = key;
  }

  getCurrentKey(): StateKey {
    return this.currentKey;
  }

  private newTable(kind: Kind, shards: Map<StateKey, unknown>[] = []): Table {
    return { kind, data: new LargeMap(shards, this.shardEntries), written: undefined, sweep: undefined, ttlMs: undefined, cleared: [] };
  }

  private table(d: string | StateDescriptor, kind: Kind): LargeMap<StateKey, unknown> {
    const name = typeof d === 'string' ? d : d.name;
    const ttlMs = typeof d === 'string' ? undefined : d.ttlMs;
    let t = this.tables.get(name);
    if (!t) {
      t = this.newTable(kind);
      if (ttlMs) {
        t.written = new LargeMap([], this.shardEntries);
        t.sweep = new ExpiryCursor(t.written);
        t.ttlMs = ttlMs;
      }
      this.tables.set(name, t);
    } else if (t.kind !== kind) {
      throw new Error(`state '${name}' is a ${t.kind} state, not a ${kind} state`);
    } else if (ttlMs && !t.written) {
      // Restored state: its entries count as written now (in their order, so `written` stays ordered).
      const now = this.now();
      const written = new LargeMap<StateKey, number>([], this.shardEntries);
      sweepCleared(t);
      for (const k of t.data.keys()) written.set(k, now);
      t.written = written;
      t.sweep = new ExpiryCursor(written);
      t.ttlMs = ttlMs;
    }
    if (!t.written) return t.data;
    return ttlView(t, this.now);
  }

  private hasTtl(d: string | StateDescriptor): boolean {
    return this.tables.get(typeof d === 'string' ? d : d.name)?.written !== undefined;
  }

  getState<T>(d: string | StateDescriptor): ValueState<T> {
    const data = this.table(d, 'value');
    if (this.hasTtl(d)) {
      return {
        value: () => data.get(this.currentKey) as T | undefined,
        update: (v: T) => void data.set(this.currentKey, v),
        clear: () => void data.delete(this.currentKey),
      };
    }
    const t = this.tables.get(typeof d === 'string' ? d : d.name)!;
    return {
      value: () => {
        const v = data.get(this.currentKey);
        return v === CLEARED ? undefined : (v as T | undefined);
      },
      update: (v: T) => void data.set(this.currentKey, v),
      clear: () => this.clearValue(t),
    };
  }

  private clearValue(t: Table): void {
    const k = this.currentKey;
    const v = t.data.get(k);
    if (v === undefined || v === CLEARED) return;
    t.data.set(k, CLEARED);
    t.cleared.push(k);
    if (t.cleared.length > MIN_SWEEP && t.cleared.length * 2 > t.data.size) sweepCleared(t);
  }

  getListState<T>(d: string | StateDescriptor): ListState<T> {
    const data = this.table(d, 'list');
    const ttl = this.hasTtl(d);
    const list = (create: boolean): T[] | undefined => {
      let l = data.get(this.currentKey) as T[] | undefined;
      if (!l && create) data.set(this.currentKey, (l = []));
      else if (create && ttl) data.set(this.currentKey, l); // an in-place write refreshes the TTL
      return l;
    };
    return listHandle(list, () => data.delete(this.currentKey));
  }

  getMapState<K, V>(d: string | StateDescriptor): MapState<K, V> {
    const data = this.table(d, 'map');
    const ttl = this.hasTtl(d);
    const map = (create: boolean): Map<K, V> | undefined => {
      let m = data.get(this.currentKey) as Map<K, V> | undefined;
      if (!m && create) data.set(this.currentKey, (m = new Map()));
      else if (create && ttl) data.set(this.currentKey, m); // an in-place write refreshes the TTL
      return m;
    };
    return mapStateView(map, () => void data.delete(this.currentKey));
  }

  /** Entries state `name` holds, cleared ones awaiting their sweep included (see CLEARED). */
  heldEntries(name: string): number {
    return this.tables.get(name)?.data.size ?? 0;
  }

  keys(name: string): IterableIterator<StateKey> {
    const t = this.tables.get(name);
    if (t === undefined) return new LargeMap<StateKey, unknown>().keys();
    sweepCleared(t);
    return t.data.keys();
  }

  /**
   * The live contents for a checkpoint. Values are the objects operators keep mutating: encode the
   * snapshot before any further write (the operator chain does so at the barrier).
   */
  snapshot(): KeyedStateSnapshot {
    for (const t of this.tables.values()) {
      if (t.written) expireOldest(t, this.now(), Infinity);
      sweepCleared(t);
    }
    const states = [...this.tables].flatMap(([name, t]) => t.data.maps.map((entries) => ({ name, kind: t.kind, entries })));
    return { states };
  }

  /** Takes the decoded snapshot's maps as they are (decoded afresh for every restore, so no one else holds them). */
  restore(s: KeyedStateSnapshot): void {
    refuseDelta(s);
    this.tables.clear();
    const shards = new Map<string, { kind: Kind; maps: Map<StateKey, unknown>[] }>();
    for (const st of s.states) {
      let t = shards.get(st.name);
      if (!t) shards.set(st.name, (t = { kind: st.kind, maps: [] }));
      if (st.entries instanceof Map && st.entries.size <= (this.shardEntries ?? SHARD_ENTRIES)) t.maps.push(st.entries as Map<StateKey, unknown>);
      else {
        // Pairs of an earlier release (or a Map larger than a shard): through `set`, which opens shards as needed.
        const m = new LargeMap<StateKey, unknown>([], this.shardEntries);
        for (const [k, v] of st.entries) m.set(k, v);
        t.maps.push(...m.maps);
      }
    }
    for (const [name, t] of shards) this.tables.set(name, this.newTable(t.kind, t.maps));
  }

  /** Restores the keys `owns` accepts from several subtasks' snapshots (a restore at another parallelism). */
  restoreRescaled(parts: readonly KeyedStateSnapshot[], owns: (key: StateKey) => boolean): void {
    for (const p of parts) refuseDelta(p);
    this.tables.clear();
    for (const s of parts) {
      for (const st of s.states) {
        let t = this.tables.get(st.name);
        if (!t) this.tables.set(st.name, (t = this.newTable(st.kind)));
        for (const [k, v] of st.entries) if (owns(k)) t.data.set(k, v);
      }
    }
  }
}

/** Deletes the entries of the keys cleared since the last sweep that were not written again. */
function sweepCleared(t: Table): void {
  if (t.cleared.length === 0) return;
  for (const k of t.cleared) if (t.data.get(k) === CLEARED) t.data.delete(k);
  t.cleared = [];
}

/**
 * A delta restored as it is would lose every entry its base holds: the checkpoint storage merges deltas
 * onto their bases when it reads a checkpoint, so one reaching a backend is a bug, reported as such.
 */
export function refuseDelta(s: KeyedStateSnapshot): void {
  if (s.base !== undefined) {
    throw new ExecutionError(`Internal error: an incremental keyed state snapshot (building on checkpoint ${s.base}) reached a state backend without being merged onto its base.`);
  }
}

/**
 * Entries a write expires at most (Flink's incremental cleanup size is 5): each write adds one entry and
 * removes up to this many expired ones, so a steady stream of writes keeps only live entries in memory,
 * with or without checkpoints, and no write pauses long.
 */
const EXPIRE_PER_WRITE = 16;
/**
 * Entries a read expires at most: an operator that mostly reads (a join probing the other side) frees
 * expired keys too, without writes; a read whose oldest entry is live pays one map lookup.
 */
const EXPIRE_PER_READ = 4;

/**
 * Drops up to `limit` expired entries from the front of `written`, which is ordered by write time (a
 * write moves its key to the end), so the scan stops at the first live entry. It goes on from where the
 * last call stopped (`ExpiryCursor`), so a call costs about the entries it drops, whatever the state size.
 */
function expireOldest(t: Table, now: number, limit: number): void {
  const written = t.written!;
  const sweep = t.sweep!;
  const ttl = t.ttlMs!;
  for (let n = 0; n < limit; n++) {
    const e = sweep.peek();
    if (e === undefined || now - e[1] < ttl) return;
    sweep.consume();
    written.delete(e[0]);
    t.data.delete(e[0]);
  }
}

/**
 * The table's map as seen through its TTL: reads of an expired key find nothing (and drop it); writes
 * and in-place list/map updates of the current key refresh its write time and expire the oldest entries.
 */
function ttlView(t: Table, clock: () => number): LargeMap<StateKey, unknown> {
  const written = t.written!;
  const ttl = t.ttlMs!;
  /** Whether `k` has a live entry; an expired one is dropped, and so are up to EXPIRE_PER_READ of the oldest. */
  const live = (k: StateKey): boolean => {
    const now = clock();
    expireOldest(t, now, EXPIRE_PER_READ);
    const w = written.get(k);
    if (w === undefined) return t.data.has(k);
    if (now - w < ttl) return true;
    t.data.delete(k);
    written.delete(k);
    return false;
  };
  return {
    get: (k: StateKey) => {
      if (!live(k)) return undefined;
      return t.data.get(k);
    },
    has: (k: StateKey) => live(k),
    set: (k: StateKey, v: unknown) => {
      const now = clock();
      // Re-inserted so `written` stays ordered by write time.
      written.delete(k);
      written.set(k, now);
      t.data.set(k, v);
      expireOldest(t, now, EXPIRE_PER_WRITE);
      return t.data;
    },
    delete: (k: StateKey) => {
      written.delete(k);
      return t.data.delete(k);
    },
  } as unknown as LargeMap<StateKey, unknown>;
}

function listHandle<T>(list: (create: boolean) => T[] | undefined, clear: () => void): ListState<T> {
  return {
    get: () => list(false) ?? [],
    add: (v) => void list(true)!.push(v),
    addAll: (vs) => void list(true)!.push(...vs),
    update: (vs) => {
      clear();
      if (vs.length > 0) list(true)!.push(...vs);
    },
    clear,
  };
}

/** Operator (non-keyed) list state on the heap. */
export class HeapOperatorStateStore implements OperatorStateStore {
  private readonly lists = new Map<string, unknown[]>();

  getListState<T>(name: string): ListState<T> {
    const list = (create: boolean): T[] | undefined => {
      let l = this.lists.get(name) as T[] | undefined;
      if (!l && create) this.lists.set(name, (l = []));
      return l;
    };
    return listHandle(list, () => void this.lists.delete(name));
  }

  snapshot(): Array<[string, unknown[]]> {
    return [...this.lists].map(([n, l]) => [n, [...l]]);
  }

  restore(s: Array<[string, unknown[]]>): void {
    this.lists.clear();
    for (const [n, l] of s) this.lists.set(n, [...l]);
  }

  /**
   * Subtask `index` of `parallelism`'s even share of every old subtask's lists (Flink's round-robin
   * redistribution of operator list state), for a restore at another parallelism.
   */
  restoreShare(parts: ReadonlyArray<Array<[string, unknown[]]>>, index: number, parallelism: number): void {
    this.lists.clear();
    const all = new Map<string, unknown[]>();
    for (const p of parts) for (const [n, l] of p) (all.get(n) ?? all.set(n, []).get(n)!).push(...l);
    for (const [n, l] of all) {
      const mine: unknown[] = [];
      for (let j = index; j < l.length; j += parallelism) mine.push(l[j]);
      if (mine.length > 0) this.lists.set(n, mine);
    }
  }
}
