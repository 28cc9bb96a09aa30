import type { Row } from '../types/row.js';
import type { WindowAssignment } from './window-assigner-operator.js';
import type { BucketSnapshot, WindowBucket, WindowGroup, WindowGroups } from './window-groups.js';
import { SliceAssigner } from './window-slice-assigner.js';

/** What a sliced window aggregate checkpoints (`docs/state-format.md`, window aggregate state). */
export interface SlicedSnapshot {
  /** Open slices (CUMULATE: those not yet folded into their window's target). */
  readonly slices: BucketSnapshot[];
  /** CUMULATE: per window start, the slices of its fired windows folded together (`end` is the last end). */
  readonly targets: BucketSnapshot[];
  /** The watermark up to which windows have fired. */
  readonly watermark: number;
}

/**
 * The groups of a TUMBLE, HOP or CUMULATE window aggregate kept per slice (Flink's slicing window aggregation):
 * a row updates the group of its key in the one slice it falls in, whatever the number of windows that hold
 * it; a window, when it fires, merges its slices' groups (HOP), or folds its last slice into the groups of its
 * earlier slices kept from its predecessor (CUMULATE, like Flink's shared merge target), or is its one slice
 * (TUMBLE). A slice is dropped when the last window that holds it has fired.
 *
 * Late rows behave as with one bucket per window: a row counts in every window of its slice that has not fired
 * yet, and `late` counts, per row, the windows holding it that had already fired.
 */
export class WindowSlices {
  private readonly assigner: SliceAssigner;
  private readonly slices = new Map<number, WindowBucket>();
  /** CUMULATE: per window start, the groups of the slices of its windows fired so far. */
  private readonly targets = new Map<number, WindowBucket>();
  /** Ends of the windows that hold some slice and have not fired. */
  private readonly pending = new Set<number>();
  private last: WindowBucket | null = null;
  /** Windows ending at or before watermark + 1 have fired. */
  watermark = Number.NEGATIVE_INFINITY;
  /** Per late row, the windows holding it that had already fired. */
  late = 0;

  constructor(
    window: Exclude<WindowAssignment, { kind: 'SESSION' }>,
    private readonly groups: WindowGroups,
  ) {
    this.assigner = new SliceAssigner(window);
  }

  /** Accumulates row `f` with event time `ts` (keys hashing to `h`) into its slice. */
  add(f: readonly unknown[], ts: number, h: number): void {
    const se = this.assigner.sliceEnd(ts);
    if (!(se - 1 > this.watermark)) {
      if (se !== se) return; // in no window
      this.addLate(f, se, h);
      return;
    }
    let b = this.last;
    if (b === null || b.end !== se) {
      b = this.slices.get(se) ?? this.newSlice(se);
      this.last = b;
    }
    this.groups.accumulate(this.groups.groupOf(b, f, h), f);
  }

  /** A row whose slice's first window has fired: into the windows of it that have not. */
  private addLate(f: readonly unknown[], se: number, h: number): void {
    const a = this.assigner;
    const first = a.firstWindowEnd(se);
    const last = a.lastWindowEnd(se);
    const step = a.windowStep;
    const wm = this.watermark;
    for (let e = first; e <= last && e - 1 <= wm; e += step) this.late++;
    if (last - 1 <= wm) return;
    let b: WindowBucket;
    if (a.window.kind === 'CUMULATE') {
      // The slice was folded into its window's target when its window fired: later windows read the target.
      const start = a.windowStart(last);
      b = this.targets.get(start) ?? this.newTarget(start, last);
    } else b = this.slices.get(se) ?? this.newSlice(se);
    this.groups.accumulate(this.groups.groupOf(b, f, h), f);
  }

  private newSlice(se: number): WindowBucket {
    const b: WindowBucket = { start: se - this.assigner.slice, end: se, groups: new Map() };
    this.slices.set(se, b);
    this.register(this.assigner.firstWindowEnd(se), this.assigner.lastWindowEnd(se), this.watermark);
    return b;
  }

  private newTarget(start: number, end: number): WindowBucket {
    const b: WindowBucket = { start, end, groups: new Map() };
    this.targets.set(start, b);
    this.register(start + this.assigner.windowStep, end, this.watermark);
    return b;
  }

  /** Marks the windows ending in [first, last] after watermark `wm` as pending. */
  private register(first: number, last: number, wm: number): void {
    const step = this.assigner.windowStep;
    for (let e = first; e <= last; e += step) if (e - 1 > wm) this.pending.add(e);
  }

  /** Emits into `out` (ascending by end) every pending window ending at or before `upTo` + 1; all when null. */
  fire(upTo: number | null, out: Row[]): void {
    if (this.pending.size === 0) return;
    const ends: number[] = [];
    for (const e of this.pending) if (upTo === null || e - 1 <= upTo) ends.push(e);
    if (ends.length === 0) return;
    ends.sort((a, b) => a - b);
    for (const e of ends) {
      this.pending.delete(e);
      this.fireWindow(e, out);
    }
  }

  private fireWindow(e: number, out: Row[]): void {
    const a = this.assigner;
    const w = a.window;
    const start = a.windowStart(e);
    switch (w.kind) {
      case 'TUMBLE': {
        const b = this.slices.get(e);
        if (b !== undefined) this.groups.emitAll(b.groups, start, e, out);
        this.dropSlices(e, e);
        return;
      }
      case 'HOP': {
        const p = a.slice;
        let only: WindowBucket | null = null;
        let merged: Map<number, WindowGroup> | null = null;
        for (let se = start + p; se <= e; se += p) {
          const b = this.slices.get(se);
          if (b === undefined || b.groups.size === 0) continue;
          if (only === null && merged === null) only = b;
          else {
            if (merged === null) {
              merged = new Map();
              this.groups.mergeBucket(merged, only!);
              only = null;
            }
            this.groups.mergeBucket(merged, b);
          }
        }
        // A window with data in one slice only emits that slice's groups as they are.
        if (merged !== null) this.groups.emitAll(merged, start, e, out);
        else if (only !== null) this.groups.emitAll(only.groups, start, e, out);
        this.dropSlices(start + p, start + Math.min(w.slide, w.size));
        return;
      }
      case 'CUMULATE': {
        const b = this.slices.get(e);
        let t = this.targets.get(start);
        if (b !== undefined) {
          if (t === undefined) {
            // The window's first slice with data becomes its target as it is.
            t = { start, end: start + w.size, groups: b.groups };
            this.targets.set(start, t);
          } else this.groups.absorbBucket(t.groups, b);
          this.dropSlices(e, e);
        }
        if (t !== undefined) {
          this.groups.emitAll(t.groups, start, e, out);
          if (e >= t.end) this.targets.delete(start);
        }
        return;
      }
      default: {
        const never: never = w;
        return never;
      }
    }
  }

  /** Drops the slices ending in [first, last]. */
  private dropSlices(first: number, last: number): void {
    const p = this.assigner.slice;
    for (let se = first; se <= last; se += p) {
      const b = this.slices.get(se);
      if (b === undefined) continue;
      this.slices.delete(se);
      if (this.last === b) this.last = null;
    }
  }

  snapshot(): SlicedSnapshot {
    return {
      slices: [...this.slices.values()].map((b) => this.groups.snapshotBucket(b)),
      targets: [...this.targets.values()].map((b) => this.groups.snapshotBucket(b)),
      watermark: this.watermark,
    };
  }

  /**
   * Adds the groups `keep` accepts from a checkpoint (one of several when rescaled) and the windows they make
   * pending as of that checkpoint's watermark. The watermark becomes the highest restored: rows late for the
   * job before the failure stay late after it.
   */
  restore(s: SlicedSnapshot, keep: (key: unknown[]) => boolean): void {
    const a = this.assigner;
    for (const x of s.slices) {
      let b = this.slices.get(x.end);
      if (b === undefined) b = { start: x.start, end: x.end, groups: new Map() };
      if (this.groups.restoreGroups(b.groups, x.groups, keep)) {
        this.slices.set(x.end, b);
        this.register(a.firstWindowEnd(x.end), a.lastWindowEnd(x.end), s.watermark);
      }
    }
    for (const x of s.targets) {
      const start = x.start as number;
      let b = this.targets.get(start);
      if (b === undefined) b = { start, end: x.end, groups: new Map() };
      if (this.groups.restoreGroups(b.groups, x.groups, keep)) {
        this.targets.set(start, b);
        this.register(start + a.windowStep, x.end, s.watermark);
      }
    }
    if (s.watermark > this.watermark) this.watermark = s.watermark;
  }
}
