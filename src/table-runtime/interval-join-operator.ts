import type { ValueState } from '../runtime/state/state.js';
import type { FiredTimer, TimeDomain } from '../runtime/timer-service.js';
import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import { Row } from '../types/row.js';
import { RowKind } from '../types/row-kind.js';
import { fieldsEqual, hashFields, keyFieldsEqual } from '../types/values/equality.js';
import { joinedRow } from './join-operator.js';
import type { JoinSpec } from './join-operator.js';

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

/** A stored row and whether it has joined with some row of the other side. */
interface Entry {
  readonly fields: unknown[];
  matched: boolean;
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
 */
export class IntervalJoinOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private left!: ValueState<Entry[]>;
  private right!: ValueState<Entry[]>;
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
    this.left = ctx.keyedState.getState<Entry[]>('left');
    this.right = ctx.keyedState.getState<Entry[]>('right');
    // Restored state: count what is already stored.
    for (const name of ['left', 'right'] as const) {
      const state = name === 'left' ? this.left : this.right;
      const ks = ctx.keyedState;
      const prev = ks.getCurrentKey();
      for (const k of [...ks.keys(name)]) {
        ks.setCurrentKey(k);
        this.retainedRows += state.value()?.length ?? 0;
      }
      ks.setCurrentKey(prev);
    }
  }

  processBatch(rows: Row[], inputIndex: number): void {
    const out: Row[] = [];
    const isLeft = inputIndex === 0;
    const { leftKeys, rightKeys } = this.spec;
    const keys = isLeft ? leftKeys : rightKeys;
    const otherKeys = isLeft ? rightKeys : leftKeys;
    const mine = isLeft ? this.left : this.right;
    const other = isLeft ? this.right : this.left;
    const outer = isLeft ? this.leftOuter : this.rightOuter;
    const now = this.now();
    for (const row of rows) {
      const f = row.fields;
      this.ctx.keyedState.setCurrentKey(hashFields(f, keys));
      const add = row.kind === RowKind.INSERT || row.kind === RowKind.UPDATE_AFTER;
      const expiry = this.expiry(isLeft, f);
      if (this.shift > 0 && (expiry === null || expiry <= now)) {
        this.lateRecordsDropped++;
        continue;
      }
      const candidates = other.value();
      let matched = false;
      if (candidates !== undefined) {
        for (const o of candidates) {
          if (!keyFieldsEqual(f, 0, keys, o.fields, 0, otherKeys)) continue;
          const joined = isLeft ? joinedRow(this.spec, f, o.fields) : joinedRow(this.spec, o.fields, f);
          if (this.spec.condition !== null && this.spec.condition(joined) !== true) continue;
          matched = true;
          if (add) o.matched = true;
          out.push(new Row(add ? RowKind.INSERT : RowKind.DELETE, joined));
        }
        if (matched && add) other.update(candidates);
      }
      const padded = (): unknown[] => (isLeft ? joinedRow(this.spec, f, null) : joinedRow(this.spec, null, f));
      if (!add) {
        const list = mine.value();
        const i = list === undefined ? -1 : list.findIndex((e) => fieldsEqual(e.fields, f));
        if (i >= 0) {
          list!.splice(i, 1);
          this.retainedRows--;
          if (list!.length === 0) mine.clear();
          else mine.update(list!);
        } else if (outer && !matched) out.push(new Row(RowKind.DELETE, padded()));
        continue;
      }
      if (expiry === null || expiry <= now) {
        if (outer && !matched) out.push(new Row(RowKind.INSERT, padded()));
        continue;
      }
      const list = mine.value() ?? [];
      list.push({ fields: f, matched });
      mine.update(list);
      this.retainedRows++;
      if (this.domain === 'EVENT_TIME') this.ctx.timerService.registerEventTimeTimer(expiry);
      else this.ctx.timerService.registerProcessingTimeTimer(expiry);
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }

  onTimer(timer: FiredTimer): void {
    const out: Row[] = [];
    this.expire(true, timer.timestamp, out);
    this.expire(false, timer.timestamp, out);
    if (out.length > 0) this.ctx.output.collect(out);
  }

  /** End of input: nothing can match any more; every unmatched outer row still stored is emitted padded. */
  finish(): void {
    const out: Row[] = [];
    const ks = this.ctx.keyedState;
    for (const isLeft of [true, false]) {
      for (const k of [...ks.keys(isLeft ? 'left' : 'right')]) {
        ks.setCurrentKey(k);
        this.expire(isLeft, Number.POSITIVE_INFINITY, out);
      }
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }

  /** The time at which a row can no longer find a partner; null for a NULL time (it never matches). */
  private expiry(isLeft: boolean, f: readonly unknown[]): number | null {
    const { leftTime, rightTime, lower, upper } = this.bounds;
    const t = f[isLeft ? leftTime : rightTime] as number | null;
    if (t === null) return null;
    return (isLeft ? t - lower : t + upper) - this.shift;
  }

  /** The clock rows expire by: the watermark (event time) or the wall clock (processing time). */
  private now(): number {
    return this.domain === 'EVENT_TIME' ? this.ctx.timerService.currentWatermark() : this.ctx.timerService.currentProcessingTime();
  }

  /** Drops the current key's rows of one side that expired by `upTo`, padding the unmatched outer ones. */
  private expire(isLeft: boolean, upTo: number, out: Row[]): void {
    const state = isLeft ? this.left : this.right;
    const list = state.value();
    if (list === undefined) return;
    const keep: Entry[] = [];
    const outer = isLeft ? this.leftOuter : this.rightOuter;
    for (const e of list) {
      const expiry = this.expiry(isLeft, e.fields);
      if (expiry !== null && expiry > upTo) {
        keep.push(e);
        continue;
      }
      if (outer && !e.matched) out.push(new Row(RowKind.INSERT, isLeft ? joinedRow(this.spec, e.fields, null) : joinedRow(this.spec, null, e.fields)));
    }
    if (keep.length === list.length) return;
    const dropped = list.length - keep.length;
    this.expiredRows += dropped;
    this.retainedRows -= dropped;
    if (keep.length === 0) state.clear();
    else state.update(keep);
  }
}

export function intervalJoinFactory(name: string, spec: JoinSpec, bounds: IntervalJoinBounds): OperatorFactory {
  return { name, create: () => new IntervalJoinOperator(spec, bounds) };
}
