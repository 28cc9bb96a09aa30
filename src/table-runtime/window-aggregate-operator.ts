import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import { Row } from '../types/row.js';
import { RowKind } from '../types/row-kind.js';
import { hashFields, hashValue, valuesEqual } from '../types/values/equality.js';
import type { StateKey } from '../runtime/state/state.js';
import { accumulator, distinctIdentity } from './group-aggregate-operator.js';
import type { AggregateSpec } from './group-aggregate-operator.js';
import { windowStart } from './window-assigner-operator.js';
import type { WindowAssignment } from './window-assigner-operator.js';

/** One group of one window: its key values (non-window keys), accumulators and DISTINCT sets. */
interface WindowGroup {
  readonly key: unknown[];
  readonly accs: unknown[];
  /** Per call: the distinct argument identities seen (DISTINCT calls only), else null. */
  readonly seen: (Set<unknown> | null)[] | null;
  /** COUNT(*) calls counted as a plain number (no BigInt per row); converted when the window fires. */
  readonly counts: number[] | null;
  /** Next group whose key hash collides with this one. */
  next: WindowGroup | null;
}

/** The groups of one window (windows are told apart by their end). */
interface WindowBucket {
  readonly start: unknown;
  readonly end: number;
  readonly groups: Map<number, WindowGroup>;
}

/** What `snapshotState` returns: per window, its start, end and groups. */
interface Snapshot {
  readonly windows: { start: unknown; end: number; groups: { key: unknown[]; accs: unknown[]; seen: unknown[][] | null; counts: number[] | null }[] }[];
}

/** Where each group key comes from: the window start / end, or a field of the input row. */
export type WindowKeySlot = { readonly kind: 'start' } | { readonly kind: 'end' } | { readonly kind: 'field'; readonly index: number };

/**
 * How the operator finds a row's window: `fields` for rows of the window TVF (window_start / window_end
 * columns), `assign` for the TVF's input rows when the TVF is fused into the aggregate (the operator
 * assigns the windows from the time column; rows with a NULL time are dropped, as the TVF does).
 */
export type WindowAggregateInput =
  | { readonly kind: 'fields'; readonly startField: number; readonly endField: number }
  | { readonly kind: 'assign'; readonly timeIndex: number; readonly window: Exclude<WindowAssignment, { kind: 'SESSION' }> };

/** A group key as the operator keeps it: window start / end, or an index into `WindowGroup.key`. */
type KeySlot = { readonly kind: 'start' } | { readonly kind: 'end' } | { readonly kind: 'key'; readonly index: number };

export interface WindowAggregateSpec {
  readonly input: WindowAggregateInput;
  /** Group keys in output order. */
  readonly keys: readonly WindowKeySlot[];
  /** Output columns as indexes into [keys..., aggregate results...]; null for all of them in that order. */
  readonly output: readonly number[] | null;
}

/**
 * Window aggregate over the output of a window TVF (Flink's WindowAggregate): groups by keys that include
 * window_start and window_end; each window's final rows (+I) are emitted when the watermark passes
 * window_end - 1, windows in ascending order. Rows of windows already fired are late: dropped and counted
 * in `lateRecordsDropped`. Insert-only input (-U / -D rows are ignored). At end of input every open window
 * is emitted.
 *
 * Speed: groups live in operator memory, one map per window keyed by a numeric hash of the non-window
 * keys (window fields are not hashed per row, no key array per row); consecutive rows of the same window
 * reuse the last bucket; COUNT(*) counts in a number. State is checkpointed through `snapshotState`.
 */
export class WindowAggregateOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private readonly adders: ((acc: unknown, f: readonly unknown[]) => void)[];
  /** Group-key input fields other than window_start / window_end. */
  private readonly plainKeys: number[];
  private readonly slots: KeySlot[];
  private readonly output: readonly number[] | null;
  private readonly countStar: boolean[];
  private readonly anyDistinct: boolean;
  private readonly anyCount: boolean;
  /** Every call is COUNT(*): groups need no accumulator array. */
  private readonly onlyCounts: boolean;
  private readonly windows = new Map<number, WindowBucket>();
  private last: WindowBucket | null = null;
  private watermark = Number.NEGATIVE_INFINITY;
  /** Rows dropped because their window had already fired. */
  lateRecordsDropped = 0;

  constructor(
    private readonly spec: WindowAggregateSpec,
    private readonly aggs: readonly AggregateSpec[],
  ) {
    this.adders = aggs.map((a) => accumulator(a, true));
    this.plainKeys = [];
    this.slots = spec.keys.map((k): KeySlot => (k.kind === 'field' ? { kind: 'key', index: this.plainKeys.push(k.index) - 1 } : k));
    this.countStar = aggs.map((a) => a.countStar === true && !a.distinct);
    this.anyDistinct = aggs.some((a) => a.distinct);
    this.anyCount = this.countStar.some((c) => c);
    this.onlyCounts = this.countStar.every((c) => c);
    this.output = spec.output;
  }

  initializeState(restored: unknown): void {
    const s = restored as Snapshot | undefined;
    if (s !== undefined) this.restoreWindows(s, () => true);
  }

  /**
   * A restore at another parallelism: the groups of every old subtask whose key this subtask now owns.
   * The exchange in front keys rows by the hash of the non-window group keys, in order.
   */
  initializeRescaledState(restored: readonly unknown[], owns: (key: StateKey) => boolean): void {
    const all = this.plainKeys.map((_, i) => i);
    for (const s of restored) this.restoreWindows(s as Snapshot, (key) => owns(hashFields(key, all)));
  }

  private restoreWindows(s: Snapshot, keep: (key: unknown[]) => boolean): void {
    for (const w of s.windows) {
      let bucket = this.windows.get(w.end);
      if (bucket === undefined) this.windows.set(w.end, (bucket = { start: w.start, end: w.end, groups: new Map() }));
      for (const g of w.groups) {
        if (!keep(g.key)) continue;
        this.insertGroup(bucket, this.hashKey(g.key), {
          key: g.key,
          accs: g.accs,
          seen: g.seen === null ? null : g.seen.map((x, i) => (this.aggs[i]!.distinct ? new Set(x) : null)),
          counts: g.counts,
          next: null,
        });
      }
    }
  }

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    this.watermark = ctx.timerService.currentWatermark();
  }

  processBatch(rows: Row[]): void {
    const input = this.spec.input;
    if (input.kind === 'fields') {
      const ws = input.startField;
      const we = input.endField;
      for (let r = 0; r < rows.length; r++) {
        const row = rows[r]!;
        if (row.kind !== RowKind.INSERT && row.kind !== RowKind.UPDATE_AFTER) continue;
        const f = row.fields;
        this.add(f, f[ws], f[we] as number, this.hashRow(f));
      }
      return;
    }
    const ti = input.timeIndex;
    const w = input.window;
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      if (row.kind !== RowKind.INSERT && row.kind !== RowKind.UPDATE_AFTER) continue;
      const f = row.fields;
      const ts = f[ti] as number | null;
      if (ts === null) continue;
      // The key is hashed once per row, whatever the number of windows the row falls in; windows are
      // enumerated in place (ascending, as assignWindows lists them) rather than as an array per row.
      const h = this.hashRow(f);
      switch (w.kind) {
        case 'TUMBLE': {
          const start = windowStart(ts, w.size, w.offset);
          this.add(f, start, start + w.size, h);
          break;
        }
        case 'HOP': {
          const last = windowStart(ts, w.slide, w.offset);
          let start = last;
          while (start - w.slide > ts - w.size) start -= w.slide;
          for (; start <= last; start += w.slide) if (start > ts - w.size) this.add(f, start, start + w.size, h);
          break;
        }
        case 'CUMULATE': {
          const start = windowStart(ts, w.size, w.offset);
          for (let end = start + w.step; end <= start + w.size; end += w.step) if (ts < end) this.add(f, start, end, h);
          break;
        }
        default: {
          const never: never = w;
          return never;
        }
      }
    }
  }

  /** The hash of a row's non-window group keys (the groups map of a window is keyed by it). */
  private hashRow(f: readonly unknown[]): number {
    const keys = this.plainKeys;
    const nk = keys.length;
    if (nk === 0) return 0;
    if (nk === 1) return hashValue(f[keys[0]!]) & SMI_MASK;
    let h = 17;
    for (let i = 0; i < nk; i++) h = (Math.imul(h, 31) + hashValue(f[keys[i]!])) | 0;
    return h & SMI_MASK;
  }

  /** Accumulates one input row, whose keys hash to `h`, into its group of window [start, end). */
  private add(f: readonly unknown[], start: unknown, end: number, h: number): void {
    if (end - 1 <= this.watermark) {
      this.lateRecordsDropped++;
      return;
    }
    let bucket = this.last;
    if (bucket === null || bucket.end !== end) {
      bucket = this.windows.get(end) ?? null;
      if (bucket === null) {
        bucket = { start, end, groups: new Map() };
        this.windows.set(end, bucket);
      }
      this.last = bucket;
    }
    const keys = this.plainKeys;
    let g: WindowGroup | null = bucket.groups.get(h) ?? null;
    while (g !== null && !sameKey(g.key, f, keys)) g = g.next;
    if (g === null) {
      g = this.newGroup(f);
      this.insertGroup(bucket, h, g);
    }
    const aggs = this.aggs;
    for (let i = 0; i < aggs.length; i++) {
      const a = aggs[i]!;
      if (a.filterArg >= 0 && f[a.filterArg] !== true) continue;
      if (this.countStar[i]) {
        g.counts![i]!++;
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

  processWatermark(watermark: number): void {
    this.watermark = watermark;
    this.fire((end) => end - 1 <= watermark);
    this.ctx.output.emitWatermark(watermark);
  }

  finish(): void {
    this.fire(() => true);
  }

  snapshotState(): Snapshot {
    const windows: Snapshot['windows'] = [];
    for (const b of this.windows.values()) {
      const groups: Snapshot['windows'][number]['groups'] = [];
      for (const head of b.groups.values()) {
        for (let x: WindowGroup | null = head; x !== null; x = x.next) {
          groups.push({ key: x.key, accs: x.accs, seen: x.seen === null ? null : x.seen.map((s) => (s === null ? [] : [...s])), counts: x.counts });
        }
      }
      windows.push({ start: b.start, end: b.end, groups });
    }
    return { windows };
  }

  /** Emits (ascending by end) and drops every window `due` says is complete. */
  private fire(due: (end: number) => boolean): void {
    if (this.windows.size === 0) return;
    const ends: number[] = [];
    for (const end of this.windows.keys()) if (due(end)) ends.push(end);
    if (ends.length === 0) return;
    ends.sort((a, b) => a - b);
    const out: Row[] = [];
    for (const end of ends) {
      const b = this.windows.get(end)!;
      for (const head of b.groups.values()) for (let g: WindowGroup | null = head; g !== null; g = g.next) out.push(this.emit(b, g));
      this.windows.delete(end);
      if (this.last === b) this.last = null;
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }

  private emit(b: WindowBucket, g: WindowGroup): Row {
    const slots = this.slots;
    const fields = new Array<unknown>(slots.length + this.aggs.length);
    for (let i = 0; i < slots.length; i++) {
      const s = slots[i]!;
      fields[i] = s.kind === 'start' ? b.start : s.kind === 'end' ? b.end : g.key[s.index];
    }
    for (let i = 0; i < this.aggs.length; i++) {
      fields[slots.length + i] = this.countStar[i] ? BigInt(g.counts![i]!) : this.aggs[i]!.fn.getValue(g.accs[i]);
    }
    const out = this.output;
    if (out === null) return new Row(RowKind.INSERT, fields);
    const projected = new Array<unknown>(out.length);
    for (let i = 0; i < out.length; i++) projected[i] = fields[out[i]!];
    return new Row(RowKind.INSERT, projected);
  }

  private newGroup(f: readonly unknown[]): WindowGroup {
    const keys = this.plainKeys;
    const key = new Array<unknown>(keys.length);
    for (let i = 0; i < keys.length; i++) key[i] = f[keys[i]!];
    let accs: unknown[] = NO_ACCS;
    if (!this.onlyCounts) {
      accs = new Array<unknown>(this.aggs.length);
      for (let i = 0; i < this.aggs.length; i++) accs[i] = this.countStar[i] ? null : this.aggs[i]!.fn.createAccumulator();
    }
    return {
      key,
      accs,
      seen: this.anyDistinct ? this.aggs.map((a) => (a.distinct ? new Set<unknown>() : null)) : null,
      counts: this.anyCount ? this.aggs.map(() => 0) : null,
      next: null,
    };
  }

  private insertGroup(b: WindowBucket, h: number, g: WindowGroup): void {
    const head = b.groups.get(h);
    if (head !== undefined) g.next = head;
    b.groups.set(h, g);
  }

  private hashKey(key: readonly unknown[]): number {
    if (key.length === 0) return 0;
    if (key.length === 1) return hashValue(key[0]) & SMI_MASK;
    let h = 17;
    for (let i = 0; i < key.length; i++) h = (Math.imul(h, 31) + hashValue(key[i])) | 0;
    return h & SMI_MASK;
  }
}

/**
 * Group map keys are cut to 30 bits so they are small integers to V8 (no heap number per lookup, cheaper
 * Map hashing); colliding keys chain through `WindowGroup.next`. The hash is not part of any checkpoint
 * (restores recompute it), so its width is free to change.
 */
const SMI_MASK = 0x3fffffff;

/** The accumulators of a group whose calls are all COUNT(*) (counted in `counts`); never written. */
const NO_ACCS: unknown[] = [];

function sameKey(key: readonly unknown[], f: readonly unknown[], keys: readonly number[]): boolean {
  for (let i = 0; i < keys.length; i++) {
    const a = key[i];
    const b = f[keys[i]!];
    if (a !== b && !valuesEqual(a, b)) return false;
  }
  return true;
}

export function windowAggregateFactory(name: string, spec: WindowAggregateSpec, aggs: () => AggregateSpec[]): OperatorFactory {
  return { name, create: () => new WindowAggregateOperator(spec, aggs()) };
}
