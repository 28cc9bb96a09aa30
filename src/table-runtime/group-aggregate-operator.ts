import type { AggregateFunction } from './aggregates/aggregate-function.js';
import type { ValueState } from '../runtime/state/state.js';
import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import { Decimal } from '../types/decimal.js';
import { Row } from '../types/row.js';
import { RowKind } from '../types/row-kind.js';
import { hashFields, valuesEqual } from '../types/values/equality.js';

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

/**
 * The result row a group last emitted (streaming, without mini-batch): the next change retracts it as is
 * rather than computing it again. Keyed by a symbol, so the checkpoint codec leaves it out (docs/state-format.md:
 * symbol keys are not kept) and the state layout is unchanged; after a restore it is computed once.
 */
const LAST = Symbol('lastEmitted');

/** The state of one group; several groups whose keys collide on the hash share a state slot. */
interface Group {
  readonly key: unknown[];
  readonly accs: unknown[];
  /** Accumulated minus retracted rows; the group disappears at 0. */
  count: number;
  /** Per distinct call, value identity -> multiplicity. */
  readonly seen: (Map<unknown, number> | null)[];
  /** Not state: see LAST. Row fields are never mutated downstream, so emitting the same array is safe. */
  [LAST]?: unknown[];
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
 * building); groups colliding on a hash share one state slot and are told apart by `valuesEqual`.
 */
export class GroupAggregateOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private state!: ValueState<Group[]>;
  private readonly adders: ((acc: unknown, f: readonly unknown[]) => void)[];
  private readonly retractors: ((acc: unknown, f: readonly unknown[]) => void)[];

  constructor(
    private readonly groupKeys: readonly number[],
    private readonly aggs: readonly AggregateSpec[],
    private readonly mode: AggregateMode,
    /** `table.exec.state.ttl` in ms (streaming only); 0 keeps groups forever. */
    private readonly stateTtlMs = 0,
    /** `table.exec.mini-batch.enabled`: one change per group per input batch instead of one per row. */
    private readonly miniBatch = false,
  ) {
    this.adders = aggs.map((a) => accumulator(a, true));
    this.retractors = aggs.map((a) => accumulator(a, false));
  }

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    const ttlMs = this.mode === 'streaming' ? this.stateTtlMs : 0;
    // An expired group starts again from scratch, as in Flink: its next row is a fresh +I.
    this.state = ctx.keyedState.getState<Group[]>(ttlMs > 0 ? { name: 'groups', ttlMs } : 'groups');
  }

  processBatch(rows: Row[]): void {
    if (this.miniBatch && this.mode === 'streaming') {
      this.processMiniBatch(rows);
      return;
    }
    const out: Row[] = [];
    const ks = this.ctx.keyedState;
    const keys = this.groupKeys;
    const streaming = this.mode === 'streaming';
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      const f = row.fields;
      ks.setCurrentKey(hashFields(f, keys));
      let groups = this.state.value();
      let g = groups === undefined ? undefined : findGroup(groups, f, keys);
      const accumulate = row.kind === RowKind.INSERT || row.kind === RowKind.UPDATE_AFTER;
      if (g === undefined) {
        if (!accumulate) continue; // retraction of an unknown group: nothing to undo (as Flink)
        g = this.newGroup(f);
        groups = groups === undefined ? [g] : [...groups, g];
      }
      const prev = streaming && g.count > 0 ? (g[LAST] ?? this.values(g)) : null;
      if (accumulate) {
        this.apply(g, f, true);
        g.count++;
      } else {
        this.apply(g, f, false);
        g.count--;
      }
      if (g.count <= 0) {
        const rest = groups!.filter((x) => x !== g);
        if (rest.length === 0) this.state.clear();
        else this.state.update(rest);
        if (prev !== null) out.push(new Row(RowKind.DELETE, prev));
        continue;
      }
      this.state.update(groups!);
      if (!streaming) continue;
      const next = this.values(g);
      if (prev === null) {
        out.push(new Row(RowKind.INSERT, next));
        g[LAST] = next;
      } else if (!rowsEqual(prev, next)) {
        out.push(new Row(RowKind.UPDATE_BEFORE, prev));
        out.push(new Row(RowKind.UPDATE_AFTER, next));
        g[LAST] = next;
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
    /** Touched groups in first-touch order, with their result before this batch (null: none). */
    const touched = new Map<Group, unknown[] | null>();
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      const f = row.fields;
      ks.setCurrentKey(hashFields(f, keys));
      let groups = this.state.value();
      let g = groups === undefined ? undefined : findGroup(groups, f, keys);
      const accumulate = row.kind === RowKind.INSERT || row.kind === RowKind.UPDATE_AFTER;
      if (g === undefined) {
        if (!accumulate) continue;
        g = this.newGroup(f);
        groups = groups === undefined ? [g] : [...groups, g];
      }
      if (!touched.has(g)) touched.set(g, g.count > 0 ? this.values(g) : null);
      this.apply(g, f, accumulate);
      g.count += accumulate ? 1 : -1;
      if (g.count <= 0) {
        const rest = groups!.filter((x) => x !== g);
        if (rest.length === 0) this.state.clear();
        else this.state.update(rest);
      } else this.state.update(groups!);
    }
    const out: Row[] = [];
    for (const [g, prev] of touched) {
      const next = g.count > 0 ? this.values(g) : null;
      if (prev === null && next !== null) out.push(new Row(RowKind.INSERT, next));
      else if (prev !== null && next === null) out.push(new Row(RowKind.DELETE, prev));
      else if (prev !== null && next !== null && !rowsEqual(prev, next)) {
        out.push(new Row(RowKind.UPDATE_BEFORE, prev));
        out.push(new Row(RowKind.UPDATE_AFTER, next));
      }
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }

  finish(): void {
    if (this.mode !== 'batch') return;
    const out: Row[] = [];
    const ks = this.ctx.keyedState;
    for (const k of [...ks.keys('groups')]) {
      ks.setCurrentKey(k);
      for (const g of this.state.value() ?? []) if (g.count > 0) out.push(new Row(RowKind.INSERT, this.values(g)));
    }
    // A global aggregate over empty input still yields one row (COUNT(*) = 0), in batch mode only.
    if (out.length === 0 && this.groupKeys.length === 0 && this.ctx.subtaskIndex === 0) {
      out.push(new Row(RowKind.INSERT, this.aggs.map((a) => a.fn.getValue(a.fn.createAccumulator()))));
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }

  private newGroup(f: readonly unknown[]): Group {
    return {
      key: this.groupKeys.map((i) => f[i]),
      accs: this.aggs.map((a) => a.fn.createAccumulator()),
      count: 0,
      seen: this.aggs.map((a) => (a.distinct ? new Map<unknown, number>() : null)),
    };
  }

  private apply(g: Group, f: readonly unknown[], add: boolean): void {
    const aggs = this.aggs;
    for (let i = 0; i < aggs.length; i++) {
      const a = aggs[i]!;
      if (a.filterArg >= 0 && f[a.filterArg] !== true) continue;
      const seen = g.seen[i];
      if (seen != null) {
        const args = a.args.map((j) => f[j]);
        if (args[0] === null) continue;
        const k = distinctIdentity(args);
        const c = seen.get(k) ?? 0;
        if (add) {
          seen.set(k, c + 1);
          if (c > 0) continue;
        } else {
          if (c <= 1) seen.delete(k);
          else seen.set(k, c - 1);
          if (c !== 1) continue;
        }
      }
      if (add) this.adders[i]!(g.accs[i], f);
      else this.retractors[i]!(g.accs[i], f);
    }
  }

  private values(g: Group): unknown[] {
    const out = g.key.slice();
    for (let i = 0; i < this.aggs.length; i++) out.push(this.aggs[i]!.fn.getValue(g.accs[i]));
    return out;
  }
}

function findGroup(groups: readonly Group[], f: readonly unknown[], keys: readonly number[]): Group | undefined {
  outer: for (const g of groups) {
    for (let i = 0; i < keys.length; i++) if (!valuesEqual(g.key[i], f[keys[i]!])) continue outer;
    return g;
  }
  return undefined;
}

function rowsEqual(a: readonly unknown[], b: readonly unknown[]): boolean {
  for (let i = 0; i < a.length; i++) if (!valuesEqual(a[i], b[i])) return false;
  return true;
}

/** A distinct value's (or argument list's) identity as a Map / Set key. */
export function distinctIdentity(args: readonly unknown[]): unknown {
  const v = args.length === 1 ? args[0] : args;
  if (v instanceof Decimal) return 'D' + v.stripTrailingZeros().toString();
  if (typeof v === 'object' && v !== null) return 'J' + JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x));
  return v;
}

export function groupAggregateFactory(
  name: string,
  groupKeys: readonly number[],
  aggs: () => AggregateSpec[],
  mode: AggregateMode,
  stateTtlMs = 0,
  miniBatch = false,
): OperatorFactory {
  return { name, create: () => new GroupAggregateOperator(groupKeys, aggs(), mode, stateTtlMs, miniBatch) };
}
