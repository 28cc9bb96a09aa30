import type { ValueState } from '../runtime/state/state.js';
import type { FiredTimer } from '../runtime/timer-service.js';
import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import { Row } from '../types/row.js';
import { RowKind } from '../types/row-kind.js';
import { hashFields, valuesEqual } from '../types/values/equality.js';
import { compareNullable } from '../types/values/value-ops.js';
import type { AggregateFunction } from './aggregates/aggregate-function.js';
import { accumulator, distinctIdentity } from './group-aggregate-operator.js';

/** A frame ending at the current row: `preceding` rows (ROWS) or order-key distance (RANGE); null = unbounded. */
export interface OverFrame {
  readonly unit: 'ROWS' | 'RANGE';
  readonly preceding: number | null;
}

export interface OverCallSpec {
  readonly create: () => AggregateFunction<unknown>;
  readonly args: readonly number[];
  readonly frame: OverFrame;
  /** `AGG(DISTINCT x)`: each non-NULL argument value counts once per frame. */
  readonly distinct?: boolean;
}

export interface OverSpec {
  readonly partitionKeys: readonly number[];
  readonly orderKey: number;
  readonly descending: boolean;
  readonly calls: readonly OverCallSpec[];
  readonly mode: 'streaming' | 'batch';
}

interface PartitionState {
  readonly key: unknown[];
  /** Released rows in order (kept while some call has a bounded frame). */
  readonly history: unknown[][];
  /** Running accumulators of the unbounded calls (null for bounded ones). */
  readonly accs: unknown[];
  /** Distinct values already accumulated by the unbounded DISTINCT calls (null for the others). */
  readonly seen?: (Set<unknown> | null)[];
  /** Rows waiting for the watermark (streaming) or the end of input (batch). */
  readonly pending: unknown[][];
  /** Per bounded call whose function can retract: its sliding frame (null for the others). */
  readonly sliding?: (SlidingFrame | null)[];
  /** How many rows were trimmed off the front of `history`: history[i] is the partition's row trimmed + i. */
  trimmed?: number;
}

/** A bounded frame kept incrementally: rows enter as they are released and are retracted as they leave. */
interface SlidingFrame {
  readonly acc: unknown;
  /** DISTINCT: how many rows in the frame have each value (a value is retracted when its last row leaves). */
  readonly counts: Map<unknown, number> | null;
  /** Index (in release order) of the oldest row still accumulated. */
  tail: number;
}

/**
 * OVER aggregates (Flink's OverAggregate) with frames ending at the current row. Rows wait until their
 * order key is covered by the watermark (streaming; late rows are dropped) or the input ends (batch),
 * are then released in order, and each is emitted once (+I) with its aggregates appended. RANGE frames
 * include the current row's peers. Unbounded frames keep running accumulators; bounded ones slide: rows
 * enter as they are released and are retracted as they leave the frame (functions without `retract`
 * recompute each frame over the kept history). DISTINCT calls skip NULLs and count each value once per
 * frame: an unbounded frame remembers the values it has seen, a bounded one how many of its rows hold each
 * value, so a value is retracted when its last row leaves and counts again when it comes back.
 */
export class OverAggregateOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private state!: ValueState<PartitionState[]>;
  private readonly fns: AggregateFunction<unknown>[];
  /** Per call: accumulate / retract a row's arguments (no argument array for 0-2 arguments). */
  private readonly adders: ((acc: unknown, f: readonly unknown[]) => void)[];
  private readonly retractors: ((acc: unknown, f: readonly unknown[]) => void)[];
  private readonly keepHistory: boolean;
  lateRecordsDropped = 0;

  constructor(private readonly spec: OverSpec) {
    this.fns = spec.calls.map((c) => c.create());
    this.adders = spec.calls.map((c, i) => accumulator({ fn: this.fns[i]!, args: c.args, distinct: false, filterArg: -1 }, true));
    this.retractors = spec.calls.map((c, i) => accumulator({ fn: this.fns[i]!, args: c.args, distinct: false, filterArg: -1 }, false));
    this.keepHistory = spec.calls.some((c) => c.frame.preceding !== null);
  }

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    this.state = ctx.keyedState.getState<PartitionState[]>('over');
  }

  processBatch(rows: Row[]): void {
    const ks = this.ctx.keyedState;
    const streaming = this.spec.mode === 'streaming';
    const wm = this.ctx.timerService.currentWatermark();
    for (const row of rows) {
      const f = row.fields;
      if (row.kind !== RowKind.INSERT && row.kind !== RowKind.UPDATE_AFTER) continue;
      const ts = f[this.spec.orderKey];
      if (streaming && (ts === null || (ts as number) <= wm)) {
        this.lateRecordsDropped++;
        continue;
      }
      ks.setCurrentKey(hashFields(f, this.spec.partitionKeys));
      const parts = this.state.value() ?? [];
      let p = parts.find((x) => this.spec.partitionKeys.every((k, i) => valuesEqual(x.key[i], f[k])));
      if (p === undefined) {
        const calls = this.spec.calls;
        p = {
          key: this.spec.partitionKeys.map((k) => f[k]),
          history: [],
          accs: calls.map((c, i) => (c.frame.preceding === null ? this.fns[i]!.createAccumulator() : null)),
          pending: [],
          seen: calls.map((c) => (c.frame.preceding === null && c.distinct === true ? new Set<unknown>() : null)),
          sliding: calls.map((c, i) =>
            c.frame.preceding !== null && this.fns[i]!.retract !== undefined
              ? { acc: this.fns[i]!.createAccumulator(), counts: c.distinct === true ? new Map<unknown, number>() : null, tail: 0 }
              : null,
          ),
          trimmed: 0,
        };
        parts.push(p);
        this.state.update(parts);
      }
      p.pending.push(f);
      if (streaming) this.ctx.timerService.registerEventTimeTimer(ts as number);
    }
  }

  onTimer(timer: FiredTimer): void {
    const out: Row[] = [];
    for (const p of this.state.value() ?? []) this.release(p, timer.timestamp, out);
    if (out.length > 0) this.ctx.output.collect(out);
  }

  finish(): void {
    const out: Row[] = [];
    const ks = this.ctx.keyedState;
    for (const k of [...ks.keys('over')]) {
      ks.setCurrentKey(k);
      for (const p of this.state.value() ?? []) this.release(p, Infinity, out);
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }

  private cmp(a: unknown[], b: unknown[]): number {
    const c = compareNullable(a[this.spec.orderKey], b[this.spec.orderKey]);
    return this.spec.descending ? -c : c;
  }

  /** Emits the pending rows whose order key is <= upTo, in order, with their aggregates. */
  private release(p: PartitionState, upTo: number, out: Row[]): void {
    // One pass (a filter against `ready` was quadratic in the rows of a batch partition).
    const ready: unknown[][] = [];
    const rest: unknown[][] = [];
    for (const r of p.pending) (upTo === Infinity || (r[this.spec.orderKey] as number) <= upTo ? ready : rest).push(r);
    if (ready.length === 0) return;
    p.pending.length = 0;
    for (const r of rest) p.pending.push(r);
    ready.sort((a, b) => this.cmp(a, b)); // stable: ties keep arrival order
    const ok = this.spec.orderKey;
    let i = 0;
    let groups = 0;
    while (i < ready.length) {
      // A peer group: rows with an equal order key (they share RANGE results).
      let j = i + 1;
      while (j < ready.length && compareNullable(ready[j]![ok], ready[i]![ok]) === 0) j++;
      const peers = ready.slice(i, j);
      const rowsResults: unknown[][] = peers.map(() => []);
      this.spec.calls.forEach((c, ci) => {
        const fn = this.fns[ci]!;
        if (c.frame.preceding === null) {
          const seen = p.seen?.[ci] ?? null;
          if (c.frame.unit === 'RANGE') {
            for (const r of peers) this.add(ci, p.accs[ci], r, seen);
            const v = fn.getValue(p.accs[ci]);
            rowsResults.forEach((res) => res.push(v));
          } else {
            peers.forEach((r, k) => {
              this.add(ci, p.accs[ci], r, seen);
              rowsResults[k]!.push(fn.getValue(p.accs[ci]));
            });
          }
          return;
        }
        const n = c.frame.preceding;
        const hist = p.history;
        const sliding = p.sliding?.[ci] ?? null;
        if (sliding !== null) {
          this.slide(p, ci, sliding, n, peers, rowsResults);
          return;
        }
        peers.forEach((r, k) => {
          const acc = fn.createAccumulator();
          const seen = c.distinct === true ? new Set<unknown>() : null;
          if (c.frame.unit === 'ROWS') {
            const window = [...hist, ...peers.slice(0, k + 1)];
            for (const w of window.slice(Math.max(0, window.length - 1 - n))) this.add(ci, acc, w, seen);
          } else {
            const key = r[ok] as number;
            for (const w of [...hist, ...peers]) {
              const wk = w[ok] as number;
              if (Math.abs(key - wk) <= n) this.add(ci, acc, w, seen);
            }
          }
          rowsResults[k]!.push(fn.getValue(acc));
        });
      });
      peers.forEach((r, k) => out.push(new Row(RowKind.INSERT, [...r, ...rowsResults[k]!])));
      if (this.keepHistory) p.history.push(...peers);
      i = j;
      // Keep a long release (a batch partition) from holding every row: trim now and then.
      if (++groups % TRIM_EVERY === 0) this.trimHistory(p);
    }
    this.trimHistory(p);
  }

  /**
   * Moves call `ci`'s sliding frame over a peer group: each row enters (ROWS: one at a time, RANGE: the whole
   * group), then the rows that fell out of the frame are retracted, and the frame's value is each row's result.
   */
  private slide(p: PartitionState, ci: number, f: SlidingFrame, n: number, peers: readonly unknown[][], results: unknown[][]): void {
    const fn = this.fns[ci]!;
    const ok = this.spec.orderKey;
    const trimmed = p.trimmed ?? 0;
    const hist = p.history;
    const first = trimmed + hist.length;
    if (this.spec.calls[ci]!.frame.unit === 'ROWS') {
      for (let k = 0; k < peers.length; k++) {
        this.enter(ci, f, peers[k]!);
        while (f.tail < first + k - n) {
          const t = f.tail++;
          this.leave(ci, f, t < first ? hist[t - trimmed]! : peers[t - first]!);
        }
        results[k]!.push(fn.getValue(f.acc));
      }
      return;
    }
    for (const r of peers) this.enter(ci, f, r);
    // RANGE: the rows leaving are all in the history (the current peers are in the frame).
    const key = peers[0]![ok] as number;
    while (f.tail < first && Math.abs(key - (hist[f.tail - trimmed]![ok] as number)) > n) this.leave(ci, f, hist[f.tail++ - trimmed]!);
    const v = fn.getValue(f.acc);
    for (const res of results) res.push(v);
  }

  /** Row `r` enters a sliding frame; DISTINCT: its value is accumulated only if not in the frame yet. */
  private enter(ci: number, f: SlidingFrame, r: readonly unknown[]): void {
    if (f.counts !== null) {
      const id = this.distinctId(ci, r);
      if (id === undefined) return;
      const c = f.counts.get(id) ?? 0;
      f.counts.set(id, c + 1);
      if (c > 0) return;
    }
    this.adders[ci]!(f.acc, r);
  }

  /** Row `r` leaves a sliding frame; DISTINCT: its value is retracted only when its last row leaves. */
  private leave(ci: number, f: SlidingFrame, r: readonly unknown[]): void {
    if (f.counts !== null) {
      const id = this.distinctId(ci, r);
      if (id === undefined) return;
      const c = f.counts.get(id) ?? 0;
      if (c > 1) {
        f.counts.set(id, c - 1);
        return;
      }
      f.counts.delete(id);
    }
    this.retractors[ci]!(f.acc, r);
  }

  /** Accumulates row `r` into call `ci`'s `acc`; with `seen` (DISTINCT), only a non-NULL value not seen yet. */
  private add(ci: number, acc: unknown, r: readonly unknown[], seen: Set<unknown> | null): void {
    if (seen !== null) {
      const id = this.distinctId(ci, r);
      if (id === undefined || seen.has(id)) return;
      seen.add(id);
    }
    this.adders[ci]!(acc, r);
  }

  /** The identity of row `r`'s arguments to call `ci` (DISTINCT), or undefined when one is NULL (never counted). */
  private distinctId(ci: number, r: readonly unknown[]): unknown {
    const args = this.spec.calls[ci]!.args.map((a) => r[a]);
    return args.some((v) => v === null) ? undefined : distinctIdentity(args);
  }

  /** Drops history no bounded frame can reach any more. */
  private trimHistory(p: PartitionState): void {
    if (!this.keepHistory || p.history.length === 0) return;
    let maxRows = 0;
    let maxRange = 0;
    for (const c of this.spec.calls) {
      if (c.frame.preceding === null) continue;
      if (c.frame.unit === 'ROWS') maxRows = Math.max(maxRows, c.frame.preceding);
      else maxRange = Math.max(maxRange, c.frame.preceding);
    }
    const last = p.history[p.history.length - 1]![this.spec.orderKey] as number;
    // ROWS: one row more than the widest frame, the row a sliding frame retracts when the next row enters.
    let drop = Math.max(0, p.history.length - maxRows - 1);
    while (drop > 0 && Math.abs(last - (p.history[drop - 1]![this.spec.orderKey] as number)) <= maxRange) drop--;
    if (drop > 0) {
      p.history.splice(0, drop);
      p.trimmed = (p.trimmed ?? 0) + drop;
    }
  }
}

/** Peer groups between two history trims within one release. */
const TRIM_EVERY = 1024;

export function overAggregateFactory(name: string, spec: () => OverSpec): OperatorFactory {
  return { name, create: () => new OverAggregateOperator(spec()) };
}
