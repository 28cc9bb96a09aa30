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
  /** HOP with several slices per window: groups link to their key's group in the nearest older slice. */
  private readonly linked: boolean;
  /** The window length (HOP: how far back a slice shares a window with another). */
  private readonly span: number;
  /** HOP: window fires so far, cycling through small positive integers (marks merged groups). */
  private fires = 0;
  /** The end of the newest slice so far. */
  private newest = Number.NEGATIVE_INFINITY;
  /** Windows ending at or before watermark + 1 have fired. */
  watermark = Number.NEGATIVE_INFINITY;
  /** Per late row, the windows holding it that had already fired. */
  late = 0;

  constructor(
    window: Exclude<WindowAssignment, { kind: 'SESSION' }>,
    private readonly groups: WindowGroups,
  ) {
    this.assigner = new SliceAssigner(window);
    this.span = window.size;
    this.linked = window.kind === 'HOP' && window.size > this.assigner.slice;
  }

  /** Accumulates row `f` with event time `ts` (keys hashing to `h`) into its slice. */
  add(f: readonly unknown[], ts: number, h: number): void {
    const se = this.assigner.sliceEnd(ts);
    if (se !== se) return; // in no window
    this.addToSlice(f, se, h);
  }

  /**
   * Accumulates row `f` (keys hashing to `h`) into the slice ending at `se`: a raw row of that slice, or a local
   * phase's partial result for it. A slice whose first window has fired takes it into the windows not yet fired.
   */
  addToSlice(f: readonly unknown[], se: number, h: number): void {
    if (!(se - 1 > this.watermark)) {
      this.addLate(f, se, h);
      return;
    }
    let b = this.last;
    if (b === null || b.end !== se) {
      b = this.slices.get(se) ?? this.newSlice(se);
      this.last = b;
    }
    this.groups.accumulate(this.groupOf(b, f, h), f);
  }

  /** The group of row `f` in slice `b`; a new one is linked to its key's groups in neighbouring slices (HOP). */
  private groupOf(b: WindowBucket, f: readonly unknown[], h: number): WindowGroup {
    const g = this.groups.groupOf(b, f, h);
    if (this.linked && this.groups.created) this.link(g, h);
    return g;
  }

  /**
   * Links new group `g` between the groups of its key in the nearest older and newer slices it shares a window
   * with (a newer one exists only when rows come out of order).
   */
  private link(g: WindowGroup, h: number): void {
    const p = this.assigner.slice;
    const se = g.slice!.end;
    for (let o = se - p; o > se - this.span; o -= p) {
      const b = this.slices.get(o);
      const x = b === undefined ? null : this.groups.findKey(b, g.key, h);
      if (x !== null) {
        g.prev = x;
        break;
      }
    }
    for (let n = se + p; n <= this.newest && n < se + this.span; n += p) {
      const b = this.slices.get(n);
      const x = b === undefined ? null : this.groups.findKey(b, g.key, h);
      if (x !== null) {
        x.prev = g;
        break;
      }
    }
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
      this.groups.accumulate(this.groups.groupOf(b, f, h), f);
      return;
    }
    b = this.slices.get(se) ?? this.newSlice(se);
    this.groups.accumulate(this.groupOf(b, f, h), f);
  }

  private newSlice(se: number): WindowBucket {
    const b: WindowBucket = { start: se - this.assigner.slice, end: se, groups: new Map() };
    this.slices.set(se, b);
    if (se > this.newest) this.newest = se;
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
        // Newest slice first: a key's group there leads through `prev` to its groups in the window's older
        // slices (each merged once, marked by the window's end); a key with one group emits it as it is.
        const groups = this.groups;
        this.fires = (this.fires % 0x3fffffff) + 1;
        const token = this.fires;
        for (let se = e; se > start; se -= a.slice) {
          const b = this.slices.get(se);
          if (b === undefined) continue;
          for (const head of b.groups.values()) {
            for (let g: WindowGroup | null = head; g !== null; g = g.next) {
              if (g.mergedInto === token) continue;
              g.mergedInto = token;
              let x = g.prev;
              if (x === null || x.slice!.end <= start) {
                // Links to slices before this window are never followed again (later windows start later).
                g.prev = null;
                out.push(groups.emit(start, e, g));
                continue;
              }
              groups.beginMerge();
              groups.mergeIn(g);
              let last = g;
              for (; x !== null && x.slice!.end > start; x = x.prev) {
                groups.mergeIn(x);
                x.mergedInto = token;
                last = x;
              }
              last.prev = null;
              out.push(groups.emitMerged(start, e, g.key));
            }
          }
        }
        this.dropSlices(start + a.slice, start + Math.min(w.slide, w.size));
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
      if (this.groups.restoreGroups(b, x.groups, keep)) {
        this.slices.set(x.end, b);
        if (x.end > this.newest) this.newest = x.end;
        this.register(a.firstWindowEnd(x.end), a.lastWindowEnd(x.end), s.watermark);
      }
    }
    for (const x of s.targets) {
      const start = x.start as number;
      let b = this.targets.get(start);
      if (b === undefined) b = { start, end: x.end, groups: new Map() };
      if (this.groups.restoreGroups(b, x.groups, keep)) {
        this.targets.set(start, b);
        this.register(start + a.windowStep, x.end, s.watermark);
      }
    }
    if (s.watermark > this.watermark) this.watermark = s.watermark;
    if (this.linked) this.relink();
  }

  /** Links every group to its key's group in the nearest older slice (after a restore; links are not state). */
  private relink(): void {
    const ends = [...this.slices.keys()].sort((x, y) => x - y);
    for (const se of ends) {
      for (const [h, head] of this.slices.get(se)!.groups) {
        for (let g: WindowGroup | null = head; g !== null; g = g.next) {
          g.prev = null;
          this.link(g, h);
        }
      }
    }
  }
}
