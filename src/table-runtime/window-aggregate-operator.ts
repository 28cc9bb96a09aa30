import { ExecutionError } from '../errors/sluice-error.js';
import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import type { Row } from '../types/row.js';
import { RowKind } from '../types/row-kind.js';
import { hashFields } from '../types/values/equality.js';
import type { StateKey } from '../runtime/state/state.js';
import type { AggregateSpec } from './group-aggregate-operator.js';
import { windowStart } from './window-assigner-operator.js';
import type { WindowAssignment } from './window-assigner-operator.js';
import { WindowGroups } from './window-groups.js';
import { insertGroup } from './window-groups.js';
import type { BucketSnapshot, KeySlot, WindowBucket, WindowGroup } from './window-groups.js';
import { WindowSlices } from './window-slices.js';
import { SliceAssigner } from './window-slice-assigner.js';
import type { SlicedSnapshot } from './window-slices.js';

/** What `snapshotState` returns with one bucket per window (the format before slicing, still written by that path). */
interface WindowsSnapshot {
  readonly windows: BucketSnapshot[];
}

/** Where each group key comes from: the window start / end, or a field of the input row. */
export type WindowKeySlot = { readonly kind: 'start' } | { readonly kind: 'end' } | { readonly kind: 'field'; readonly index: number };

/**
 * How the operator finds a row's window: `fields` for rows of the window TVF (window_start / window_end
 * columns), `assign` for the TVF's input rows when the TVF is fused into the aggregate (the operator
 * assigns the windows from the time column; rows with a NULL time are dropped, as the TVF does).
 */
export type WindowAggregateInput =
  | {
      readonly kind: 'fields';
      readonly startField: number;
      readonly endField: number;
      /** The TVF's window, to take over a checkpoint kept by slice (of a fused or two-phase plan); absent: refused. */
      readonly window?: Exclude<WindowAssignment, { kind: 'SESSION' }>;
    }
  | {
      readonly kind: 'assign';
      readonly timeIndex: number;
      readonly window: Exclude<WindowAssignment, { kind: 'SESSION' }>;
      /**
       * Keep the groups by window even when every call merges (a batch job): each window's calls then see its rows
       * in arrival order, as Flink's batch window aggregate (a group aggregate over the windows' rows) does; merged
       * slices order them otherwise, which MIN / MAX over NaN can tell (a NaN met first stays the MIN in Flink).
       */
      readonly byWindow?: boolean;
    }
  /**
   * The global phase of a two-phase aggregate: rows are a local phase's partial results (`WindowGroups.emitPartials`:
   * the `keyCount` group keys, one accumulator per call, the slice end), merged per slice.
   */
  | { readonly kind: 'partial'; readonly keyCount: number; readonly window: Exclude<WindowAssignment, { kind: 'SESSION' }> };

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
 * in `lateRecordsDropped` (once per fired window that would have held them). Insert-only input (-U / -D rows
 * are ignored). At end of input every open window is emitted.
 *
 * Two layouts of the groups:
 * - by slice (`WindowSlices`) for HOP and CUMULATE when the TVF is fused into the aggregate and every call can
 *   merge (no DISTINCT, no call without `merge`): a row updates one group in one slice however many windows
 *   hold it;
 * - by window otherwise (TUMBLE, whose window is one slice; rows of the TVF, which already carry their window;
 *   DISTINCT; FIRST_VALUE, LISTAGG and user-defined aggregates without `merge`; or a checkpoint taken before
 *   slicing): a row updates a group in every window that holds it.
 * Either way groups live in operator memory, one map per bucket keyed by a numeric hash of the non-window keys
 * (hashed once per row); consecutive rows of one bucket reuse it; COUNT(*) counts in a number. State is
 * checkpointed through `snapshotState`.
 */
export class WindowAggregateOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private readonly groups: WindowGroups;
  /** The groups by slice, or null when they are kept by window. */
  private sliced: WindowSlices | null;
  private readonly windows = new Map<number, WindowBucket>();
  private last: WindowBucket | null = null;
  private watermark = Number.NEGATIVE_INFINITY;
  /** Rows dropped because their window had already fired (the by-window path's count). */
  private lateByWindow = 0;
  /** The global phase's slices kept by window: which windows hold a slice. */
  private assigner: SliceAssigner | undefined;

  constructor(
    private readonly spec: WindowAggregateSpec,
    aggs: readonly AggregateSpec[],
  ) {
    const plainKeys: number[] = [];
    const slots = spec.keys.map((k): KeySlot => (k.kind === 'field' ? { kind: 'key', index: plainKeys.push(k.index) - 1 } : k));
    const input = spec.input;
    this.groups = new WindowGroups(plainKeys, slots, aggs, spec.output, input.kind === 'partial' ? input.keyCount : -1);
    // A TUMBLE window is its own one slice: the bucket per window is the same layout with less to do per row.
    // Partial results are per slice, so a global phase of HOP or CUMULATE keeps slices (its calls all merge).
    this.sliced =
      input.kind !== 'fields' && input.window.kind !== 'TUMBLE' && (input.kind === 'partial' || (this.groups.mergeable() && input.byWindow !== true))
        ? new WindowSlices(input.window, this.groups)
        : null;
  }

  /** Rows dropped because their window had already fired, once per such window. */
  get lateRecordsDropped(): number {
    return this.lateByWindow + (this.sliced?.late ?? 0);
  }

  initializeState(restored: unknown): void {
    if (restored !== undefined) this.restore([restored], () => true);
  }

  /**
   * A restore at another parallelism: the groups of every old subtask whose key this subtask now owns.
   * The exchange in front keys rows by the hash of the non-window group keys, in order.
   */
  initializeRescaledState(restored: readonly unknown[], owns: (key: StateKey) => boolean): void {
    const all = this.groups.plainKeys.map((_, i) => i);
    this.restore(restored, (key) => owns(hashFields(key, all)));
  }

  private restore(snapshots: readonly unknown[], keep: (key: unknown[]) => boolean): void {
    // A checkpoint from before slicing (or of the by-window path) holds whole windows, which cannot be cut into
    // slices: such a job keeps one bucket per window.
    if (this.sliced !== null && snapshots.some((s) => isWindows(s) && s.windows.length > 0)) this.sliced = null;
    for (const s of snapshots) {
      if (isWindows(s)) {
        if (this.sliced === null) this.restoreWindows(s, keep);
      } else if (this.sliced !== null) this.sliced.restore(s as SlicedSnapshot, keep);
      else if (this.spec.input.kind === 'fields' && this.spec.input.window !== undefined && this.groups.mergeable()) {
        this.restoreSlicesAsWindows(s as SlicedSnapshot, this.spec.input.window, keep);
      } else throw new ExecutionError('the checkpoint holds window aggregate state by slice, which this query keeps by window; restore it with the query it was taken with');
    }
  }

  /**
   * A checkpoint kept by slice (a fused or two-phase plan) restored into a query that keeps whole windows (a
   * one-phase plan reading the TVF's rows): each window not yet fired as of the checkpoint's watermark gets the
   * merged groups of its slices (and, CUMULATE, of its fold of the steps already fired).
   */
  private restoreSlicesAsWindows(s: SlicedSnapshot, w: Exclude<WindowAssignment, { kind: 'SESSION' }>, keep: (key: unknown[]) => boolean): void {
    const a = new SliceAssigner(w);
    const groups = this.groups;
    const into = (from: WindowBucket, firstEnd: number, lastEnd: number): void => {
      for (let e = firstEnd; e <= lastEnd; e += a.windowStep) {
        if (e - 1 <= s.watermark) continue;
        let bucket = this.windows.get(e);
        if (bucket === undefined) this.windows.set(e, (bucket = { start: a.windowStart(e), end: e, groups: new Map() }));
        for (const [h, head] of from.groups) {
          for (let g: WindowGroup | null = head; g !== null; g = g.next) {
            let d = groups.findKey(bucket, g.key, h);
            if (d === null) {
              d = groups.newGroup(g.key.slice());
              insertGroup(bucket.groups, h, d);
            }
            groups.merge(d, g);
          }
        }
      }
    };
    for (const x of s.slices) {
      const b: WindowBucket = { start: x.start, end: x.end, groups: new Map() };
      if (groups.restoreGroups(b, x.groups, keep)) into(b, a.firstWindowEnd(x.end), a.lastWindowEnd(x.end));
    }
    for (const x of s.targets) {
      const b: WindowBucket = { start: x.start, end: x.end, groups: new Map() };
      if (groups.restoreGroups(b, x.groups, keep)) into(b, (x.start as number) + a.windowStep, x.end);
    }
    if (s.watermark > this.watermark) this.watermark = s.watermark;
  }

  private restoreWindows(s: WindowsSnapshot, keep: (key: unknown[]) => boolean): void {
    for (const w of s.windows) {
      let bucket = this.windows.get(w.end);
      if (bucket === undefined) this.windows.set(w.end, (bucket = { start: w.start, end: w.end, groups: new Map() }));
      this.groups.restoreGroups(bucket, w.groups, keep);
    }
  }

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    this.watermark = ctx.timerService.currentWatermark();
    if (this.sliced !== null && this.watermark > this.sliced.watermark) this.sliced.watermark = this.watermark;
  }

  processBatch(rows: Row[]): void {
    const input = this.spec.input;
    const groups = this.groups;
    if (input.kind === 'fields') {
      const ws = input.startField;
      const we = input.endField;
      for (let r = 0; r < rows.length; r++) {
        const row = rows[r]!;
        if (row.kind !== RowKind.INSERT && row.kind !== RowKind.UPDATE_AFTER) continue;
        const f = row.fields;
        this.add(f, f[ws], f[we] as number, groups.hashRow(f));
      }
      return;
    }
    if (input.kind === 'partial') {
      this.processPartials(rows, input.keyCount + this.groups.callCount, input.window);
      return;
    }
    const ti = input.timeIndex;
    const sliced = this.sliced;
    if (sliced !== null) {
      for (let r = 0; r < rows.length; r++) {
        const row = rows[r]!;
        if (row.kind !== RowKind.INSERT && row.kind !== RowKind.UPDATE_AFTER) continue;
        const f = row.fields;
        const ts = f[ti] as number | null;
        if (ts !== null) sliced.add(f, ts, groups.hashRow(f));
      }
      return;
    }
    const w = input.window;
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      if (row.kind !== RowKind.INSERT && row.kind !== RowKind.UPDATE_AFTER) continue;
      const f = row.fields;
      const ts = f[ti] as number | null;
      if (ts === null) continue;
      // The key is hashed once per row, whatever the number of windows the row falls in; windows are
      // enumerated in place (ascending, as assignWindows lists them) rather than as an array per row.
      const h = groups.hashRow(f);
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

  /**
   * Merges partial results (slice end at field `seAt`) into their slices; or, kept by window, into every window
   * holding the slice: a TUMBLE window is its slice, and a HOP or CUMULATE job restored from a checkpoint that kept
   * whole windows (a one-phase plan that read the TVF's rows) goes on by window.
   */
  private processPartials(rows: Row[], seAt: number, w: Exclude<WindowAssignment, { kind: 'SESSION' }>): void {
    const groups = this.groups;
    const sliced = this.sliced;
    const a = w.kind === 'TUMBLE' || sliced !== null ? null : (this.assigner ??= new SliceAssigner(w));
    for (let r = 0; r < rows.length; r++) {
      const f = rows[r]!.fields;
      const se = f[seAt] as number;
      const h = groups.hashRow(f);
      if (sliced !== null) sliced.addToSlice(f, se, h);
      else if (a === null) this.add(f, se - w.size, se, h);
      else for (let e = a.firstWindowEnd(se), last = a.lastWindowEnd(se); e <= last; e += a.windowStep) this.add(f, a.windowStart(e), e, h);
    }
  }

  /** Accumulates one input row, whose keys hash to `h`, into its group of window [start, end). */
  private add(f: readonly unknown[], start: unknown, end: number, h: number): void {
    if (end - 1 <= this.watermark) {
      this.lateByWindow++;
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
    this.groups.accumulate(this.groups.groupOf(bucket, f, h), f);
  }

  processWatermark(watermark: number): void {
    this.watermark = watermark;
    const sliced = this.sliced;
    if (sliced !== null) {
      // A restored watermark may be ahead of the first one after a restore: windows follow the higher.
      if (watermark > sliced.watermark) sliced.watermark = watermark;
      const out: Row[] = [];
      sliced.fire(sliced.watermark, out);
      if (out.length > 0) this.ctx.output.collect(out);
    } else this.fire((end) => end - 1 <= watermark);
    this.ctx.output.emitWatermark(watermark);
  }

  finish(): void {
    const sliced = this.sliced;
    if (sliced !== null) {
      const out: Row[] = [];
      sliced.fire(null, out);
      if (out.length > 0) this.ctx.output.collect(out);
    } else this.fire(() => true);
  }

  snapshotState(): WindowsSnapshot | SlicedSnapshot {
    if (this.sliced !== null) return this.sliced.snapshot();
    return { windows: [...this.windows.values()].map((b) => this.groups.snapshotBucket(b)) };
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
      this.groups.emitAll(b.groups, b.start, b.end, out);
      this.windows.delete(end);
      if (this.last === b) this.last = null;
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }
}

function isWindows(s: unknown): s is WindowsSnapshot {
  return typeof s === 'object' && s !== null && Array.isArray((s as { windows?: unknown }).windows);
}

export function windowAggregateFactory(name: string, spec: WindowAggregateSpec, aggs: () => AggregateSpec[]): OperatorFactory {
  return { name, create: () => new WindowAggregateOperator(spec, aggs()) };
}
