import type { AggregateFunction } from './aggregates/aggregate-function.js';
import type { ValueState } from '../runtime/state/state.js';
import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import { Row } from '../types/row.js';
import { RowKind } from '../types/row-kind.js';
import { hashFields, valuesEqual } from '../types/values/equality.js';
import { type Group, GroupLayout } from './group-layout.js';

/** One aggregate call as the operator runs it: argument and filter field indexes of the input row. */
export interface AggregateSpec {
  readonly fn: AggregateFunction<unknown>;
  readonly args: readonly number[];
  readonly distinct: boolean;
  /** Index of a BOOLEAN input field (FILTER (WHERE ...)), or -1. */
  readonly filterArg: number;
  /** The built-in COUNT(*): operators may count in a plain number instead of calling `fn`. */
  readonly countStar?: boolean;
}

export type AggregateMode = 'streaming' | 'batch';

/** `fn.accumulate(acc, ...args of f)` without allocating an argument array for 0-2 arguments. */
export function accumulator(a: AggregateSpec, add: boolean): (acc: unknown, f: readonly unknown[]) => void {
  const fn = a.fn;
  const op = add ? fn.accumulate.bind(fn) : (fn.retract?.bind(fn) ?? (() => {}));
  const [i, j] = a.args;
  switch (a.args.length) {
    case 0:
      return (acc) => op(acc);
    case 1:
      return (acc, f) => op(acc, f[i!]);
    case 2:
      return (acc, f) => op(acc, f[i!], f[j!]);
    default:
      return (acc, f) => op(acc, ...a.args.map((k) => f[k]));
  }
}

/**
 * GROUP BY with retraction (Flink's GroupAggFunction without mini-batch). Streaming: per input row,
 * emits +I for a new group, -U/+U when its result changes, -D when its last row is retracted. Batch:
 * emits only the final row per group when the input ends. Keyed by a hash of the group key (no string
 * building); groups colliding on a hash share one state slot and are told apart by `valuesEqual`. A
 * group is one flat array (see group-layout.ts).
 */
export class GroupAggregateOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private state!: ValueState<Group | Group[]>;
  private readonly layout: GroupLayout;
  /** With a TTL every touch is a write, so it refreshes the group's expiry. */
  private refresh = false;

  constructor(
    private readonly groupKeys: readonly number[],
    private readonly aggs: readonly AggregateSpec[],
    private readonly mode: AggregateMode,
    /** `table.exec.state.ttl` in ms (streaming only); 0 keeps groups forever. */
    private readonly stateTtlMs = 0,
    /** `table.exec.mini-batch.enabled`: one change per group per input batch instead of one per row. */
    private readonly miniBatch = false,
    /** Whether an update is a -U / +U pair, or only the +U (every consumer takes updates by key: Flink's generateUpdateBefore). */
    private readonly updateBefore = true,
  ) {
    this.layout = new GroupLayout(groupKeys, aggs);
  }

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    const ttlMs = this.mode === 'streaming' ? this.stateTtlMs : 0;
    this.refresh = ttlMs > 0;
    // An expired group starts again from scratch, as in Flink: its next row is a fresh +I.
    this.state = ctx.keyedState.getState<Group | Group[]>(ttlMs > 0 ? { name: 'groups', ttlMs } : 'groups');
  }

  /**
   * The group of row `f` under the current key, created (and stored) for an accumulating row; undefined
   * for a retraction of an unknown group.
   */
  private group(f: readonly unknown[], accumulate: boolean): Group | undefined {
    const layout = this.layout;
    const stored = this.state.value();
    if (stored === undefined) {
      if (!accumulate) return undefined;
      const g = layout.create(f);
      this.state.update(g);
      return g;
    }
    const v = layout.groupsOf(stored);
    if (v !== stored) this.state.update(v);
    if (typeof v[0] === 'number') {
      if (layout.matches(v, f)) {
        if (this.refresh) this.state.update(v);
        return v;
      }
      if (!accumulate) return undefined;
      const g = layout.create(f);
      this.state.update([v, g]);
      return g;
    }
    const list = v as Group[];
    for (let i = 0; i < list.length; i++) {
      if (layout.matches(list[i]!, f)) {
        if (this.refresh) this.state.update(list);
        return list[i];
      }
    }
    if (!accumulate) return undefined;
    const g = layout.create(f);
    this.state.update([...list, g]);
    return g;
  }

  /** Removes `g`, whose count reached 0, from the current key's state. */
  private drop(g: Group): void {
    const v = this.state.value()!;
    if (v === g) {
      this.state.clear();
      return;
    }
    const rest = (v as Group[]).filter((x) => x !== g);
    if (rest.length === 0) this.state.clear();
    else this.state.update(rest.length === 1 ? rest[0]! : rest);
  }

  processBatch(rows: Row[]): void {
    if (this.miniBatch && this.mode === 'streaming') {
      this.processMiniBatch(rows);
      return;
    }
    const out: Row[] = [];
    const ks = this.ctx.keyedState;
    const keys = this.groupKeys;
    const layout = this.layout;
    const streaming = this.mode === 'streaming';
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      const f = row.fields;
      ks.setCurrentKey(hashFields(f, keys));
      const accumulate = row.kind === RowKind.INSERT || row.kind === RowKind.UPDATE_AFTER;
      const g = this.group(f, accumulate);
      if (g === undefined) continue; // retraction of an unknown group: nothing to undo (as Flink)
      /** Rows of the group before this one: 0 for a new group, 1 before a retraction that ends it. */
      const before = g[0] as number;
      // The result before this row is for the -U or the -D, and to see whether the result changed; a result that
      // changes with every row and goes out without -U needs it only for the -D.
      const needPrev = this.updateBefore || !layout.changesEveryRow || (before === 1 && !accumulate);
      const prev = streaming && before > 0 && needPrev ? layout.values(g, f) : null;
      const prevState = prev === null || !this.comparesEmitState ? undefined : layout.emitState(g);
      layout.apply(g, f, accumulate);
      g[0] = before + (accumulate ? 1 : -1);
      if ((g[0] as number) <= 0) {
        this.drop(g);
        if (prev !== null) out.push(new Row(RowKind.DELETE, prev));
        continue;
      }
      if (!streaming) continue;
      const next = layout.values(g, f);
      if (before === 0) out.push(new Row(RowKind.INSERT, next));
      else if (prev === null || !this.unchanged(prev, next, prevState, g)) {
        if (this.updateBefore) out.push(new Row(RowKind.UPDATE_BEFORE, prev!));
        out.push(new Row(RowKind.UPDATE_AFTER, next));
      }
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }

  /**
   * Mini-batch (Flink's MiniBatchGroupAggFunction, with the runtime's batch as the bundle): accumulates the
   * whole batch, then emits per touched group only the difference between its result before the batch and
   * after it.
   */
  private processMiniBatch(rows: Row[]): void {
    const ks = this.ctx.keyedState;
    const keys = this.groupKeys;
    const layout = this.layout;
    /** Touched groups in first-touch order, with their result before this batch (null: none). */
    const touched = new Map<Group, unknown[] | null>();
    /** The emitState (see AggregateFunction.emitState) of touched groups before this batch. */
    const touchedState = new Map<Group, unknown[] | undefined>();
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      const f = row.fields;
      ks.setCurrentKey(hashFields(f, keys));
      const accumulate = row.kind === RowKind.INSERT || row.kind === RowKind.UPDATE_AFTER;
      const g = this.group(f, accumulate);
      if (g === undefined) continue;
      if (!touched.has(g)) {
        touched.set(g, (g[0] as number) > 0 ? layout.values(g, f) : null);
        if (this.comparesEmitState) touchedState.set(g, (g[0] as number) > 0 ? layout.emitState(g) : undefined);
      }
      layout.apply(g, f, accumulate);
      g[0] = (g[0] as number) + (accumulate ? 1 : -1);
      if ((g[0] as number) <= 0) this.drop(g);
    }
    const out: Row[] = [];
    for (const [g, prev] of touched) {
      const next = (g[0] as number) > 0 ? layout.values(g) : null;
      if (prev === null && next !== null) out.push(new Row(RowKind.INSERT, next));
      else if (prev !== null && next === null) out.push(new Row(RowKind.DELETE, prev));
      else if (prev !== null && next !== null && !this.unchanged(prev, next, touchedState.get(g), g)) {
        if (this.updateBefore) out.push(new Row(RowKind.UPDATE_BEFORE, prev));
        out.push(new Row(RowKind.UPDATE_AFTER, next));
      }
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }

  /**
   * Whether an update need not be emitted. With a state TTL Flink emits the -U / +U pair even for the same result
   * (GroupAggFunction: `stateRetentionTime <= 0 && equaliser.equals(...)`): downstream state may have expired.
   */
  private unchanged(prev: readonly unknown[], next: readonly unknown[], prevState: readonly unknown[] | undefined, g: Group): boolean {
    if (this.stateTtlMs > 0 || !sameResult(prev, next, this.groupKeys.length)) return false;
    const nextState = prevState === undefined ? undefined : this.layout.emitState(g);
    return prevState === undefined || nextState === undefined || sameResult(prevState, nextState, 0);
  }

  /** Whether an update's emitState is worth reading: some aggregate has one, and no TTL makes every update go out. */
  private get comparesEmitState(): boolean {
    return this.layout.hasEmitState && this.stateTtlMs <= 0;
  }

  finish(): void {
    if (this.mode !== 'batch') return;
    const out: Row[] = [];
    const ks = this.ctx.keyedState;
    const layout = this.layout;
    for (const k of [...ks.keys('groups')]) {
      ks.setCurrentKey(k);
      const stored = this.state.value();
      if (stored === undefined) continue;
      const v = layout.groupsOf(stored);
      for (const g of typeof v[0] === 'number' ? [v] : (v as Group[])) if ((g[0] as number) > 0) out.push(new Row(RowKind.INSERT, layout.values(g)));
    }
    // A global aggregate over empty input still yields one row (COUNT(*) = 0), in batch mode only.
    if (out.length === 0 && this.groupKeys.length === 0 && this.ctx.subtaskIndex === 0) {
      out.push(new Row(RowKind.INSERT, this.aggs.map((a) => a.fn.getValue(a.fn.createAccumulator()))));
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }
}

/**
 * Whether a group's result is the same as the one already emitted, so no -U / +U pair is sent: Flink's
 * GroupAggFunction compares the aggregate values (not the group's key: the fields from `from` on) with its generated
 * equaliser, which reads DOUBLE and FLOAT fields as Java primitives (`==`: NaN differs from itself, -0.0 equals 0.0),
 * as JavaScript's `===` does; other values by identity.
 */
function sameResult(a: readonly unknown[], b: readonly unknown[], from: number): boolean {
  for (let i = from; i < a.length; i++) {
    const x = a[i];
    if (typeof x === 'number' ? x !== b[i] : !valuesEqual(x, b[i])) return false;
  }
  return true;
}

export { distinctIdentity } from './group-layout.js';

export function groupAggregateFactory(
  name: string,
  groupKeys: readonly number[],
  aggs: () => AggregateSpec[],
  mode: AggregateMode,
  stateTtlMs = 0,
  miniBatch = false,
  updateBefore = true,
): OperatorFactory {
  return { name, create: () => new GroupAggregateOperator(groupKeys, aggs(), mode, stateTtlMs, miniBatch, updateBefore) };
}
