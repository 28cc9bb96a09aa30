import type { LargeMap } from './large-map.js';
import type { StateKey } from './state.js';

/**
 * The incremental TTL cleanup's place in a state's write times (a `LargeMap` ordered oldest first: a
 * write deletes its key and sets it again at the end). It keeps one live `Map` iterator across calls
 * instead of starting a new one each time: V8 leaves a deleted entry as a hole until the Map is rehashed,
 * so a fresh iterator over a Map whose front was just expired skips every hole again, which made each
 * write cost time proportional to the keys expired since the last rehash (quadratic: 100,000 live keys
 * took 7.5 s for 200,000 writes). A Map iterator stays valid while its Map changes, skips deleted
 * entries and reaches entries added behind it, so the cursor resumes where it stopped.
 */
export class ExpiryCursor {
  private shard: Map<StateKey, number> | undefined;
  private iter: Iterator<[StateKey, number]> | undefined;
  /** The entry the cursor stands on: seen and still live last time, so not consumed yet. */
  private head: [StateKey, number] | undefined;

  constructor(private readonly written: LargeMap<StateKey, number>) {}

  /**
   * The oldest entry still in place, without moving past it; undefined when none is left. An entry the
   * iterator passed whose key was since rewritten (moved to the end) or deleted is skipped.
   */
  peek(): readonly [StateKey, number] | undefined {
    for (;;) {
      const h = this.head;
      if (h !== undefined && this.shard!.get(h[0]) === h[1]) return h;
      this.head = this.next();
      if (this.head === undefined) return undefined;
    }
  }

  /** Moves past the entry `peek` gave (the caller deletes it). */
  consume(): void {
    this.head = undefined;
  }

  private next(): [StateKey, number] | undefined {
    const shards = this.written.maps;
    for (let hops = 0; hops <= shards.length; hops++) {
      if (this.iter === undefined) {
        this.shard = shards[0]!;
        this.iter = this.shard.entries();
      }
      const r = this.iter.next();
      if (!r.done) return r.value;
      // A finished Map iterator never yields again, so entries written later are reached by a new one:
      // from the next shard, or from the start once all were passed (by then the front holds no holes
      // for long: V8 shrinks a Map that empties, and an emptied shard is dropped).
      const i = shards.indexOf(this.shard!);
      this.iter = undefined;
      if (i < 0 || i + 1 >= shards.length) return undefined;
      this.shard = shards[i + 1]!;
      this.iter = this.shard.entries();
    }
    return undefined;
  }
}
