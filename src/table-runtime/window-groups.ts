import { Row } from '../types/row.js';
import { RowKind } from '../types/row-kind.js';
import { fieldsEqual, hashValue, valuesEqual } from '../types/values/equality.js';
import { bigintOf } from '../types/values/small-bigint.js';
import { accumulator, distinctIdentity } from './group-aggregate-operator.js';
import type { AggregateSpec } from './group-aggregate-operator.js';

/** One group of one window (or slice): its key values (non-window keys), accumulators and DISTINCT sets. */
export interface WindowGroup {
  readonly key: unknown[];
  /**
   * Per call its accumulator; a COUNT(*) call's is its count as a plain number (no BigInt per row, converted
   * when the window fires), held here rather than in an array of its own: a HOP slice's groups outlive several
   * young-generation collections, so every object per group is copied and promoted.
   */
  readonly accs: unknown[];
  /** Per call: the distinct argument identities seen (DISTINCT calls only), else null. */
  readonly seen: (Set<unknown> | null)[] | null;
  /** Next group whose key hash collides with this one. */
  next: WindowGroup | null;
  /**
   * HOP by slice: the group of the same key in the nearest older slice that has one (or null), so a window
   * gathers a key's slices by following links instead of looking the key up in each slice.
   */
  prev: WindowGroup | null;
  /** HOP by slice: this group's slice (a reference: a time would be a boxed number, one more object per group). */
  slice: WindowBucket | null;
  /**
   * HOP by slice: the sequence number of the last window fire that merged this group (a small integer: no box,
   * and no old-to-young pointer for the garbage collector to track, as a per-fire object would be).
   */
  mergedInto: number;
}

/** The groups of one window or one slice, keyed by the hash of their non-window keys. */
export interface WindowBucket {
  readonly start: unknown;
  readonly end: number;
  readonly groups: Map<number, WindowGroup>;
}

/** A group as a checkpoint holds it. */
export interface GroupSnapshot {
  key: unknown[];
  accs: unknown[];
  seen: unknown[][] | null;
  counts: number[] | null;
}

/** A window's or a slice's groups as a checkpoint holds them. */
export interface BucketSnapshot {
  start: unknown;
  end: number;
  groups: GroupSnapshot[];
}

/** Where each output group key comes from: the window start / end, or an index into `WindowGroup.key`. */
export type KeySlot = { readonly kind: 'start' } | { readonly kind: 'end' } | { readonly kind: 'key'; readonly index: number };

/**
 * The groups of a window aggregate, whatever holds them (one bucket per window, or one per slice): finds a
 * row's group, accumulates a row into it, merges two groups of one key, and builds a window's output row.
 * One instance per operator; it keeps no groups itself.
 */
export class WindowGroups {
  private readonly adders: ((acc: unknown, f: readonly unknown[]) => void)[];
  private readonly countStar: boolean[];
  private readonly anyDistinct: boolean;
  private readonly anyCount: boolean;
  /** The merged result `beginMerge` starts: reused, so a window's merge allocates only accumulators. */
  private readonly scratch: WindowGroup;

  constructor(
    /** Group-key input fields other than window_start / window_end. */
    readonly plainKeys: readonly number[],
    private readonly slots: readonly KeySlot[],
    private readonly aggs: readonly AggregateSpec[],
    /** Output columns as indexes into [keys..., aggregate results...]; null for all of them in that order. */
    private readonly output: readonly number[] | null,
    /**
     * -1 when input rows are raw rows to accumulate; else rows are partial results of a local window aggregate
     * (`partialRow`), whose accumulators start at this field: `accumulate` then merges them.
     */
    private readonly partialAt = -1,
  ) {
    this.adders = aggs.map((a) => accumulator(a, true));
    this.countStar = aggs.map((a) => a.countStar === true && !a.distinct);
    this.anyDistinct = aggs.some((a) => a.distinct);
    this.anyCount = this.countStar.some((c) => c);
    this.scratch = this.newGroup([]);
  }

  /** The number of aggregate calls. */
  get callCount(): number {
    return this.aggs.length;
  }

  /**
   * Whether groups of different slices of one window can be merged into the window's result: no DISTINCT
   * call (a value seen in two slices would count twice) and every other call is COUNT(*) or has `merge`.
   */
  mergeable(): boolean {
    return this.aggs.every((a, i) => !a.distinct && (this.countStar[i] || a.fn.merge !== undefined));
  }

  /** The hash of a row's non-window group keys (a bucket's map is keyed by it). */
  hashRow(f: readonly unknown[]): number {
    const keys = this.plainKeys;
    const nk = keys.length;
    if (nk === 0) return 0;
    if (nk === 1) return hashValue(f[keys[0]!]) & SMI_MASK;
    let h = 17;
    for (let i = 0; i < nk; i++) h = (Math.imul(h, 31) + hashValue(f[keys[i]!])) | 0;
    return h & SMI_MASK;
  }

  /** The same hash from a group's key values. */
  hashKey(key: readonly unknown[]): number {
    if (key.length === 0) return 0;
    if (key.length === 1) return hashValue(key[0]) & SMI_MASK;
    let h = 17;
    for (let i = 0; i < key.length; i++) h = (Math.imul(h, 31) + hashValue(key[i])) | 0;
    return h & SMI_MASK;
  }

  /**
   * The group of `bucket` that row `f` (keys hashing to `h`) belongs to, created when new (then `created` is
   * true until the next call), with one map lookup whether it finds or creates it.
   */
  groupOf(bucket: WindowBucket, f: readonly unknown[], h: number): WindowGroup {
    const keys = this.plainKeys;
    const head = bucket.groups.get(h) ?? null;
    let g = head;
    while (g !== null && !sameKey(g.key, f, keys)) g = g.next;
    this.created = g === null;
    if (g !== null) return g;
    g = this.newGroup(this.keyOf(f));
    g.slice = bucket;
    g.next = head;
    bucket.groups.set(h, g);
    return g;
  }

  /** Whether the last `groupOf` created its group. */
  created = false;

  /** The group of key values `key` (hashing to `h`) in `bucket`, or null. */
  findKey(bucket: WindowBucket, key: readonly unknown[], h: number): WindowGroup | null {
    let g: WindowGroup | null = bucket.groups.get(h) ?? null;
    while (g !== null && !fieldsEqual(g.key, key)) g = g.next;
    return g;
  }

  private keyOf(f: readonly unknown[]): unknown[] {
    const keys = this.plainKeys;
    const key = new Array<unknown>(keys.length);
    for (let i = 0; i < keys.length; i++) key[i] = f[keys[i]!];
    return key;
  }

  /** Accumulates row `f` into group `g` (FILTER and DISTINCT honoured); merges it when rows are partial results. */
  accumulate(g: WindowGroup, f: readonly unknown[]): void {
    const aggs = this.aggs;
    if (this.partialAt >= 0) {
      const at = this.partialAt;
      for (let i = 0; i < aggs.length; i++) {
        if (this.countStar[i]) (g.accs[i] as number) += f[at + i] as number;
        else aggs[i]!.fn.merge!(g.accs[i], f[at + i]);
      }
      return;
    }
    for (let i = 0; i < aggs.length; i++) {
      const a = aggs[i]!;
      if (a.filterArg >= 0 && f[a.filterArg] !== true) continue;
      if (this.countStar[i]) {
        (g.accs[i] as number)++;
        continue;
      }
      const seen = g.seen === null ? null : g.seen[i]!;
      if (seen !== null) {
        const args = a.args.map((j) => f[j]);
        if (args.some((v) => v === null)) continue;
        const id = distinctIdentity(args);
        if (seen.has(id)) continue;
        seen.add(id);
      }
      this.adders[i]!(g.accs[i], f);
    }
  }

  /** Starts the one merged result built at a time (by `mergeIn`, read by `emitMerged`). */
  beginMerge(): void {
    const aggs = this.aggs;
    const accs = this.scratch.accs;
    for (let i = 0; i < aggs.length; i++) accs[i] = this.countStar[i] ? 0 : aggs[i]!.fn.createAccumulator();
  }

  /** Folds group `src` into the merged result. */
  mergeIn(src: WindowGroup): void {
    this.merge(this.scratch, src);
  }

  /** The result row of the merged result for key values `key` in window [start, end). */
  emitMerged(start: unknown, end: number, key: unknown[]): Row {
    const s = this.scratch;
    return this.emitValues(start, end, key, s.accs);
  }

  /** Folds `src` (a group of the same key) into `dst`; only when `mergeable()`. */
  merge(dst: WindowGroup, src: WindowGroup): void {
    const aggs = this.aggs;
    for (let i = 0; i < aggs.length; i++) {
      if (this.countStar[i]) (dst.accs[i] as number) += src.accs[i] as number;
      else aggs[i]!.fn.merge!(dst.accs[i], src.accs[i]);
    }
  }

  /**
   * Moves every group of `src` into `dst`: merged into the group of its key there, or the group object itself
   * relinked when `dst` has none (no copy). `src` must not be used afterwards.
   */
  absorbBucket(dst: Map<number, WindowGroup>, src: WindowBucket): void {
    for (const [h, head] of src.groups) {
      let s: WindowGroup | null = head;
      while (s !== null) {
        const next: WindowGroup | null = s.next;
        let d: WindowGroup | null = dst.get(h) ?? null;
        while (d !== null && !fieldsEqual(d.key, s.key)) d = d.next;
        if (d === null) {
          s.next = null;
          insertGroup(dst, h, s);
        } else this.merge(d, s);
        s = next;
      }
    }
  }

  /**
   * Appends a local window aggregate's partial result of every group of `groups` to `out`: the group's key values,
   * one accumulator per call (COUNT(*) as its plain count), then `sliceEnd`. The accumulators are handed over, not
   * copied: the caller drops the groups.
   */
  emitPartials(groups: Map<number, WindowGroup>, sliceEnd: number, out: Row[]): void {
    const aggs = this.aggs;
    const nk = this.plainKeys.length;
    for (const head of groups.values()) {
      for (let g: WindowGroup | null = head; g !== null; g = g.next) {
        const fields = new Array<unknown>(nk + aggs.length + 1);
        for (let i = 0; i < nk; i++) fields[i] = g.key[i];
        for (let i = 0; i < aggs.length; i++) fields[nk + i] = g.accs[i];
        fields[nk + aggs.length] = sliceEnd;
        out.push(new Row(RowKind.INSERT, fields));
      }
    }
  }

  /** Appends the result row of every group of `groups` for window [start, end) to `out`. */
  emitAll(groups: Map<number, WindowGroup>, start: unknown, end: number, out: Row[]): void {
    for (const head of groups.values()) for (let g: WindowGroup | null = head; g !== null; g = g.next) out.push(this.emit(start, end, g));
  }

  /** The result row of group `g` of window [start, end). */
  emit(start: unknown, end: number, g: WindowGroup): Row {
    return this.emitValues(start, end, g.key, g.accs);
  }

  private emitValues(start: unknown, end: number, key: readonly unknown[], accs: readonly unknown[]): Row {
    const slots = this.slots;
    const aggs = this.aggs;
    const fields = new Array<unknown>(slots.length + aggs.length);
    for (let i = 0; i < slots.length; i++) {
      const s = slots[i]!;
      fields[i] = s.kind === 'start' ? start : s.kind === 'end' ? end : key[s.index];
    }
    for (let i = 0; i < aggs.length; i++) {
      fields[slots.length + i] = this.countStar[i] ? bigintOf(accs[i] as number) : aggs[i]!.fn.getValue(accs[i]);
    }
    const out = this.output;
    if (out === null) return new Row(RowKind.INSERT, fields);
    const projected = new Array<unknown>(out.length);
    for (let i = 0; i < out.length; i++) projected[i] = fields[out[i]!];
    return new Row(RowKind.INSERT, projected);
  }

  /** A new empty group of these key values. */
  newGroup(key: unknown[]): WindowGroup {
    const aggs = this.aggs;
    const accs = new Array<unknown>(aggs.length);
    for (let i = 0; i < aggs.length; i++) accs[i] = this.countStar[i] ? 0 : aggs[i]!.fn.createAccumulator();
    return {
      key,
      accs,
      seen: this.anyDistinct ? aggs.map((a) => (a.distinct ? new Set<unknown>() : null)) : null,
      next: null,
      prev: null,
      slice: null,
      mergedInto: 0,
    };
  }

  /**
   * A group's accumulators as checkpoints hold them: COUNT(*) counts apart in `counts` (null when there is no
   * such call), null in their place in `accs`, and `accs` empty when every call is one.
   */
  private splitCounts(accs: unknown[]): { accs: unknown[]; counts: number[] | null } {
    const cs = this.countStar;
    if (!this.anyCount) return { accs, counts: null };
    const counts = accs.map((a, i) => (cs[i] ? (a as number) : 0));
    return { accs: cs.every((c) => c) ? NO_ACCS : accs.map((a, i) => (cs[i] ? null : a)), counts };
  }

  /** The inverse of `splitCounts`, for a checkpointed group. */
  private joinCounts(accs: unknown[], counts: number[] | null): unknown[] {
    if (counts === null) return accs;
    const out = new Array<unknown>(this.aggs.length);
    for (let i = 0; i < out.length; i++) out[i] = this.countStar[i] ? counts[i]! : accs[i];
    return out;
  }

  /** The groups of a bucket as a checkpoint holds them (accumulators by reference: the codec copies). */
  snapshotBucket(b: WindowBucket): BucketSnapshot {
    const groups: GroupSnapshot[] = [];
    for (const head of b.groups.values()) {
      for (let x: WindowGroup | null = head; x !== null; x = x.next) {
        const { accs, counts } = this.splitCounts(x.accs);
        groups.push({ key: x.key, accs, seen: x.seen === null ? null : x.seen.map((s) => (s === null ? [] : [...s])), counts });
      }
    }
    return { start: b.start, end: b.end, groups };
  }

  /** Adds the checkpointed groups `keep` accepts to `groups`; whether any was kept. */
  restoreGroups(bucket: WindowBucket, from: readonly GroupSnapshot[], keep: (key: unknown[]) => boolean): boolean {
    let kept = false;
    for (const g of from) {
      if (!keep(g.key)) continue;
      kept = true;
      insertGroup(bucket.groups, this.hashKey(g.key), {
        key: g.key,
        accs: this.joinCounts(g.accs, g.counts),
        seen: g.seen === null ? null : g.seen.map((x, i) => (this.aggs[i]!.distinct ? new Set(x) : null)),
        next: null,
        prev: null,
        slice: bucket,
        mergedInto: 0,
      });
    }
    return kept;
  }
}

/** Adds `g` to the chain of hash `h` (newest first). */
export function insertGroup(groups: Map<number, WindowGroup>, h: number, g: WindowGroup): void {
  const head = groups.get(h);
  if (head !== undefined) g.next = head;
  groups.set(h, g);
}

/**
 * Group map keys are cut to 30 bits so they are small integers to V8 (no heap number per lookup, cheaper
 * Map hashing); colliding keys chain through `WindowGroup.next`. The hash is not part of any checkpoint
 * (restores recompute it), so its width is free to change.
 */
const SMI_MASK = 0x3fffffff;

/** The accumulators of a group whose calls are all COUNT(*), as checkpoints hold them (counts apart). */
const NO_ACCS: unknown[] = [];

function sameKey(key: readonly unknown[], f: readonly unknown[], keys: readonly number[]): boolean {
  for (let i = 0; i < keys.length; i++) {
    const a = key[i];
    const b = f[keys[i]!];
    if (a !== b && !valuesEqual(a, b)) return false;
  }
  return true;
}

