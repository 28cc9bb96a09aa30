/**
 * V8 refuses to grow one `Map` past 2^24 entries ("Map maximum size exceeded"); at ~130 bytes per key a
 * subtask reaches that with about 2 GB of state, well inside the heap. A state holds this many entries per
 * `Map` at most, then opens another.
 */
export const SHARD_ENTRIES = 1 << 23;

/**
 * A `Map` of any size, as a list of Maps of at most `shardEntries` entries each: new keys go to the last
 * one. Iteration follows the shards in order, then insertion order within each, so deleting a key and
 * setting it again moves it to the end, as in one `Map` (the TTL bookkeeping relies on that order).
 * With one shard (nearly every state) a lookup is one `Map` lookup; a miss costs one per shard.
 */
export class LargeMap<K, V> {
  private readonly shards: Map<K, V>[];

  constructor(
    shards: Map<K, V>[] = [],
    private readonly shardEntries = SHARD_ENTRIES,
  ) {
    this.shards = shards.length > 0 ? shards : [new Map()];
  }

  /** The shards, in order (a snapshot stores each as one Map). */
  get maps(): readonly Map<K, V>[] {
    return this.shards;
  }

  get size(): number {
    let n = 0;
    for (const m of this.shards) n += m.size;
    return n;
  }

  get(k: K): V | undefined {
    const s = this.shards;
    if (s.length === 1) return s[0]!.get(k);
    for (let i = s.length - 1; i >= 0; i--) {
      const v = s[i]!.get(k);
      if (v !== undefined || s[i]!.has(k)) return v;
    }
    return undefined;
  }

  has(k: K): boolean {
    const s = this.shards;
    for (let i = s.length - 1; i >= 0; i--) if (s[i]!.has(k)) return true;
    return false;
  }

  set(k: K, v: V): this {
    const s = this.shards;
    if (s.length === 1 && (s[0]!.size < this.shardEntries || s[0]!.has(k))) {
      s[0]!.set(k, v);
      return this;
    }
    for (let i = s.length - 1; i >= 0; i--) {
      if (s[i]!.has(k)) {
        s[i]!.set(k, v);
        return this;
      }
    }
    let last = s[s.length - 1]!;
    if (last.size >= this.shardEntries) {
      // Emptied shards go first (not while deleting: an iteration over the shards may be under way).
      for (let i = s.length - 1; i >= 0; i--) if (s[i]!.size === 0) s.splice(i, 1);
      s.push((last = new Map()));
    }
    last.set(k, v);
    return this;
  }

  delete(k: K): boolean {
    const s = this.shards;
    for (let i = s.length - 1; i >= 0; i--) {
      if (s[i]!.delete(k)) return true;
    }
    return false;
  }

  keys(): IterableIterator<K> {
    return this.shards.length === 1 ? this.shards[0]!.keys() : allKeys(this.shards);
  }

  entries(): IterableIterator<[K, V]> {
    return this.shards.length === 1 ? this.shards[0]!.entries() : allEntries(this.shards);
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries();
  }
}

function* allKeys<K>(shards: readonly Map<K, unknown>[]): IterableIterator<K> {
  for (const m of shards) yield* m.keys();
}

function* allEntries<K, V>(shards: readonly Map<K, V>[]): IterableIterator<[K, V]> {
  for (const m of shards) yield* m.entries();
}
