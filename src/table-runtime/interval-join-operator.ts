import type { ValueState } from '../runtime/state/state.js';
import type { FiredTimer, TimeDomain } from '../runtime/timer-service.js';
import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import { Row } from '../types/row.js';
import { RowKind } from '../types/row-kind.js';
import { hashFields } from '../types/values/equality.js';
import type { JoinSpec } from './join-operator.js';
import { appendFlat, concatFields, indexOfFlat, joinStored, keyOf, type NarrowedColumns, padStored, storedKeyEquals } from './join-flat-rows.js';

/** `lower <= left[leftTime] - right[rightTime] <= upper`, in ms (`rightTime` indexes the right row). */
export interface IntervalJoinBounds {
  readonly leftTime: number;
  readonly rightTime: number;
  readonly lower: number;
  readonly upper: number;
  /** Which clock bounds the rows: watermarks (rowtime attributes, the default) or the wall clock (proctime). */
  readonly timeDomain?: TimeDomain;
  /**
   * The time fields are exclusive window ends (a window join on window_end): a row's window is complete,
   * and the row can get no new partner, once the time reaches its end - 1, as a window fires.
   */
  readonly exclusiveEnd?: boolean;
}

/** A stored row as earlier releases kept it (read from their checkpoints only; see `flatOf`). */
interface OldEntry {
  readonly fields: unknown[];
  matched: boolean;
}

/** One side, fixed at `open`: its state and how its rows are stored. */
interface Side {
  readonly isLeft: boolean;
  readonly state: ValueState<unknown[]>;
  readonly arity: number;
  /** Slots per stored row: its fields, then 1 once it joined a row of the other side, else 0. */
  readonly stride: number;
  readonly narrow: NarrowedColumns;
  readonly outer: boolean;
  readonly keys: readonly number[];
  /** Index of its time field. */
  readonly time: number;
}

/**
 * Interval join (Flink's TimeIntervalJoin, streaming), inner or outer: a row joins the stored rows of the
 * other side with the same key for which the full ON condition holds (it contains the time bounds) and is
 * stored until no future row of the other side can match it: a left row at `tl` until the time passes
 * `tl - lower`, a right row at `tr` until it passes `tr + upper` (event time: the watermark, through one
 * timer per key and expiry time; processing time: the wall clock). When a row of an outer side leaves the
 * state without ever having matched, it is emitted once, padded with NULLs, so the output is insert-only
 * as in Flink. A row that arrives already expired joins what is stored and, unmatched, is padded at once;
 * in a window join (exclusive window ends) such a row belongs to a window that already fired and is dropped.
 * Input 0 is the left side, input 1 the right. Interval joins expect insert-only input; a retraction
 * (-U / -D) retracts its joins with the rows still stored and forgets the row.
 *
 * Each key's rows of a side are stored flat, as the regular join's (join-flat-rows.ts: BIGINT values as numbers
 * while safe), each followed by its matched flag: no object per stored row for the GC to copy and mark (an interval
 * join of 5 M bids with themselves spent a fifth of its time in GC with one object per row).
 */
export class IntervalJoinOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private sides!: [Side, Side];
  private readonly leftOuter: boolean;
  private readonly rightOuter: boolean;
  private readonly domain: TimeDomain;
  /** Expiry times are shifted by this (1 for exclusive window ends). */
  private readonly shift: number;
  /** Rows dropped from state because they expired (for tests and metrics). */
  expiredRows = 0;
  /** Rows currently stored, both sides (for tests and metrics). */
  retainedRows = 0;
  /** Window joins: rows of windows that had already fired, dropped (as Flink's WindowJoinOperator). */
  lateRecordsDropped = 0;

  constructor(
    private readonly spec: JoinSpec,
    private readonly bounds: IntervalJoinBounds,
  ) {
    this.leftOuter = spec.joinType === 'LEFT' || spec.joinType === 'FULL';
    this.rightOuter = spec.joinType === 'RIGHT' || spec.joinType === 'FULL';
    this.domain = bounds.timeDomain ?? 'EVENT_TIME';
    this.shift = bounds.exclusiveEnd === true ? 1 : 0;
  }

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    const { leftKeys, rightKeys, leftArity, rightArity } = this.spec;
    const side = (isLeft: boolean): Side => {
      const arity = isLeft ? leftArity : rightArity;
      const bigints = isLeft ? this.spec.leftBigints : this.spec.rightBigints;
      return {
        isLeft,
        state: ctx.keyedState.getState<unknown[]>(isLeft ? 'left' : 'right'),
        arity,
        stride: arity + 1,
        narrow: bigints === undefined || bigints === null || !bigints.includes(true) ? null : bigints,
        outer: isLeft ? this.leftOuter : this.rightOuter,
        keys: isLeft ? leftKeys : rightKeys,
        time: isLeft ? this.bounds.leftTime : this.bounds.rightTime,
      };
    };
    this.sides = [side(true), side(false)];
    // Restored state: count what is already stored.
    const ks = ctx.keyedState;
    const prev = ks.getCurrentKey();
    for (const s of this.sides) {
      for (const k of [...ks.keys(s.isLeft ? 'left' : 'right')]) {
        ks.setCurrentKey(k);
        this.retainedRows += this.rows(s)!.length / s.stride;
      }
    }
    ks.setCurrentKey(prev);
  }

  /** The current key's stored rows of side `s`, flat; a list of an earlier release is converted as it is read. */
  private rows(s: Side): unknown[] | undefined {
    const list = s.state.value();
    if (list === undefined || list.length === 0 || !isOldEntry(list[0])) return list;
    const flat: unknown[] = [];
    for (const e of list as OldEntry[]) appendFlat(flat, e.fields, s.arity, s.stride, e.matched ? 1 : 0, s.narrow);
    s.state.update(flat);
    return flat;
  }

  processBatch(rows: Row[], inputIndex: number): void {
    const out: Row[] = [];
    const mine = this.sides[inputIndex === 0 ? 0 : 1];
    const other = this.sides[inputIndex === 0 ? 1 : 0];
    const { isLeft, keys, outer, arity, stride, narrow } = mine;
    const { leftArity: la, rightArity: ra, condition } = this.spec;
    const otherKeyOf = keyOf(other.arity, other.keys, keys);
    const now = this.now();
    for (const row of rows) {
      const f = row.fields;
      this.ctx.keyedState.setCurrentKey(hashFields(f, keys));
      const add = row.kind === RowKind.INSERT || row.kind === RowKind.UPDATE_AFTER;
      const expiry = this.expiry(mine, f[mine.time]);
      if (this.shift > 0 && (expiry === null || expiry <= now)) {
        this.lateRecordsDropped++;
        continue;
      }
      const candidates = this.rows(other);
      let matched = false;
      if (candidates !== undefined) {
        const os = other.stride;
        let marked = false;
        for (let o = 0; o < candidates.length; o += os) {
          if (!storedKeyEquals(f, keys, candidates, o, other.keys)) continue;
          const joined = joinStored(f, candidates, o, !isLeft, la, ra, other.narrow, otherKeyOf);
          if (condition !== null && condition(joined) !== true) continue;
          matched = true;
          if (add && candidates[o + other.arity] === 0) {
            candidates[o + other.arity] = 1;
            marked = true;
          }
          out.push(new Row(add ? RowKind.INSERT : RowKind.DELETE, joined));
        }
        if (marked) other.state.update(candidates);
      }
      if (!add) {
        const list = this.rows(mine);
        const at = list === undefined ? -1 : indexOfFlat(list, stride, f, arity);
        if (at >= 0) {
          list!.splice(at, stride);
          this.retainedRows--;
          if (list!.length === 0) mine.state.clear();
          else mine.state.update(list!);
        } else if (outer && !matched) out.push(new Row(RowKind.DELETE, isLeft ? concatFields(f, 0, la, null, 0, ra) : concatFields(null, 0, la, f, 0, ra)));
        continue;
      }
      if (expiry === null || expiry <= now) {
        if (outer && !matched) out.push(new Row(RowKind.INSERT, isLeft ? concatFields(f, 0, la, null, 0, ra) : concatFields(null, 0, la, f, 0, ra)));
        continue;
      }
      const list = this.rows(mine);
      if (list === undefined) {
        const fresh: unknown[] = [];
        appendFlat(fresh, f, arity, stride, matched ? 1 : 0, narrow);
        mine.state.update(fresh);
      } else {
        appendFlat(list, f, arity, stride, matched ? 1 : 0, narrow);
        mine.state.update(list);
      }
      this.retainedRows++;
      if (this.domain === 'EVENT_TIME') this.ctx.timerService.registerEventTimeTimer(expiry);
      else this.ctx.timerService.registerProcessingTimeTimer(expiry);
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }

  onTimer(timer: FiredTimer): void {
    const out: Row[] = [];
    this.expire(this.sides[0], timer.timestamp, out);
    this.expire(this.sides[1], timer.timestamp, out);
    if (out.length > 0) this.ctx.output.collect(out);
  }

  /** End of input: nothing can match any more; every unmatched outer row still stored is emitted padded. */
  finish(): void {
    const out: Row[] = [];
    const ks = this.ctx.keyedState;
    for (const s of this.sides) {
      for (const k of [...ks.keys(s.isLeft ? 'left' : 'right')]) {
        ks.setCurrentKey(k);
        this.expire(s, Number.POSITIVE_INFINITY, out);
      }
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }

  /** The time at which a row of side `s` with time `t` can no longer find a partner; null for a NULL time (it never matches). */
  private expiry(s: Side, t: unknown): number | null {
    if (t === null) return null;
    return (s.isLeft ? (t as number) - this.bounds.lower : (t as number) + this.bounds.upper) - this.shift;
  }

  /** The clock rows expire by: the watermark (event time) or the wall clock (processing time). */
  private now(): number {
    return this.domain === 'EVENT_TIME' ? this.ctx.timerService.currentWatermark() : this.ctx.timerService.currentProcessingTime();
  }

  /** Drops the current key's rows of side `s` that expired by `upTo`, padding the unmatched outer ones. */
  private expire(s: Side, upTo: number, out: Row[]): void {
    const list = this.rows(s);
    if (list === undefined) return;
    const { stride, arity, time } = s;
    const { leftArity: la, rightArity: ra } = this.spec;
    // Most timers find every row of a key still live or every row expired: the list is copied only when it splits.
    let keep: unknown[] | undefined;
    let dropped = 0;
    for (let o = 0; o < list.length; o += stride) {
      const expiry = this.expiry(s, list[o + time]);
      if (expiry !== null && expiry > upTo) {
        if (keep !== undefined) for (let j = 0; j < stride; j++) keep.push(list[o + j]);
        continue;
      }
      if (keep === undefined) keep = list.slice(0, o);
      dropped++;
      if (s.outer && list[o + arity] === 0) out.push(new Row(RowKind.INSERT, padStored(list, o, s.isLeft, la, ra, s.narrow)));
    }
    if (dropped === 0) return;
    this.expiredRows += dropped;
    this.retainedRows -= dropped;
    if (keep!.length === 0) s.state.clear();
    else s.state.update(keep!);
  }
}

/** Whether a stored list's element is a row object of an earlier release (`{ fields, matched }`), not a flat value. */
function isOldEntry(v: unknown): v is OldEntry {
  return typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype && Array.isArray((v as OldEntry).fields) && typeof (v as OldEntry).matched === 'boolean';
}

export function intervalJoinFactory(name: string, spec: JoinSpec, bounds: IntervalJoinBounds): OperatorFactory {
  return { name, create: () => new IntervalJoinOperator(spec, bounds) };
}
