import type { AggregateSpec } from './group-aggregate-operator.js';
import type { InlineAccumulator } from './aggregates/aggregate-function.js';
import { valuesEqual } from '../types/values/equality.js';
import { bigintOf } from '../types/values/small-bigint.js';
import { valueKey } from '../types/values/value-key.js';

/**
 * The state of one group of a GROUP BY as one flat array, so a group costs one array and no object per
 * aggregate (issue #18: ~750 bytes per key before, one Map entry plus this array now):
 *
 * `[count, key fields..., per aggregate: its slots..., per DISTINCT aggregate: its seen map]`
 *
 * `count` is the rows accumulated minus retracted (the group disappears at 0). An aggregate's slots are
 * none for a plain COUNT(*) (its value is `count`), the accumulator's elements for a built-in with an
 * inline form (COUNT, SUM, SUM0, AVG), else one slot holding the boxed accumulator. A state value is one
 * group, or an array of groups whose keys collide on the hash (told apart as `group[0]` is a number).
 */
export type Group = unknown[];

/** How an aggregate is held: COUNT(*) without FILTER or DISTINCT equals the group's count and needs no slot. */
const Slot = { Count: 0, Inline: 1, Boxed: 2 } as const;
type Slot = (typeof Slot)[keyof typeof Slot];

/** Where each aggregate of a group lives in its array; computed once per operator. */
export class GroupLayout {
  readonly width: number;
  private readonly nk: number;
  private readonly slot: Slot[];
  private readonly at: number[];
  private readonly inl: (InlineAccumulator | undefined)[];
  /** Index of the seen map of DISTINCT aggregate i, else -1. */
  private readonly seenAt: number[];
  /**
   * Per key field: it holds bigints (a BIGINT column; learnt from the rows, as a column's values all have one
   * type). Such keys are stored as numbers while safe integers, which saves a bigint object per group.
   */
  private readonly bigintKey: boolean[];
  /** Whether some boxed aggregate has an emitState (VAR_POP and the like): most queries have none. */
  readonly hasEmitState: boolean;
  /**
   * Whether every row accumulated or retracted changes the group's result: it has a COUNT(*) without FILTER or
   * DISTINCT, which is the group's row count.
   */
  readonly changesEveryRow: boolean;

  constructor(
    private readonly groupKeys: readonly number[],
    private readonly aggs: readonly AggregateSpec[],
  ) {
    this.nk = groupKeys.length;
    this.bigintKey = groupKeys.map(() => false);
    let w = 1 + this.nk;
    this.slot = [];
    this.at = [];
    this.inl = [];
    for (const a of aggs) {
      const inl = a.fn.inline;
      const kind = a.countStar && a.filterArg < 0 && !a.distinct ? Slot.Count : inl !== undefined && a.args.length <= 1 ? Slot.Inline : Slot.Boxed;
      this.slot.push(kind);
      this.inl.push(kind === Slot.Inline ? inl : undefined);
      this.at.push(w);
      w += kind === Slot.Count ? 0 : kind === Slot.Inline ? inl!.width : 1;
    }
    this.seenAt = aggs.map((a) => (a.distinct ? w++ : -1));
    this.width = w;
    this.hasEmitState = aggs.some((a, i) => a.fn.emitState !== undefined && this.slot[i] === Slot.Boxed);
    this.changesEveryRow = this.slot.includes(Slot.Count);
  }

  create(f: readonly unknown[]): Group {
    const g: Group = new Array(this.width);
    g[0] = 0;
    const keys = this.groupKeys;
    for (let i = 0; i < keys.length; i++) {
      const v = f[keys[i]!];
      if (typeof v !== 'bigint') g[1 + i] = v;
      else {
        this.bigintKey[i] = true;
        const n = Number(v);
        g[1 + i] = Number.isSafeInteger(n) ? n : v;
      }
    }
    for (let i = 0; i < this.aggs.length; i++) {
      const at = this.at[i]!;
      switch (this.slot[i]) {
        case Slot.Inline:
          this.inl[i]!.init(g, at);
          break;
        case Slot.Boxed:
          g[at] = this.aggs[i]!.fn.createAccumulator();
          break;
        default:
          break;
      }
      if (this.seenAt[i]! >= 0) g[this.seenAt[i]!] = new Map<unknown, number>();
    }
    return g;
  }

  /** Whether `g` is the group of input row `f`. */
  matches(g: Group, f: readonly unknown[]): boolean {
    const keys = this.groupKeys;
    for (let i = 0; i < keys.length; i++) {
      const v = f[keys[i]!];
      const s = g[1 + i];
      if (typeof v === 'bigint' && typeof s === 'number') {
        // A bigint stored as a number is a safe integer, so the conversion below is exact when they are equal.
        this.bigintKey[i] = true;
        if (Number(v) !== s) return false;
      } else if (!valuesEqual(s, v)) return false;
    }
    return true;
  }

  /** Adds (or retracts) input row `f` to every aggregate of `g`; the caller updates the count. */
  apply(g: Group, f: readonly unknown[], add: boolean): void {
    const aggs = this.aggs;
    for (let i = 0; i < aggs.length; i++) {
      const kind = this.slot[i]!;
      if (kind === Slot.Count) continue;
      const a = aggs[i]!;
      if (a.filterArg >= 0 && f[a.filterArg] !== true) continue;
      const si = this.seenAt[i]!;
      if (si >= 0 && !countDistinct(g[si] as Map<unknown, number>, a.args.map((j) => f[j]), add)) continue;
      const at = this.at[i]!;
      if (kind === Slot.Inline) {
        const v = a.args.length === 0 ? undefined : f[a.args[0]!];
        if (add) this.inl[i]!.accumulate(g, at, v);
        else this.inl[i]!.retract(g, at, v);
      } else callBoxed(a, g[at], f, add);
    }
  }

  /**
   * The result row of `g`: its key fields, then each aggregate's value. `f`, when given, is an input row of
   * `g`: a BIGINT key stored as a number is then taken from it (the same value, already a bigint) instead of
   * allocating a bigint per result row.
   */
  values(g: Group, f?: readonly unknown[]): unknown[] {
    const nk = this.nk;
    const out = new Array<unknown>(nk + this.aggs.length);
    for (let i = 0; i < nk; i++) {
      const k = g[1 + i];
      if (typeof k !== 'number' || !this.bigintKey[i]) out[i] = k;
      else {
        const v = f === undefined ? undefined : f[this.groupKeys[i]!];
        out[i] = typeof v === 'bigint' ? v : BigInt(k);
      }
    }
    for (let i = 0; i < this.aggs.length; i++) {
      const at = this.at[i]!;
      switch (this.slot[i]) {
        case Slot.Count:
          out[nk + i] = bigintOf(g[0] as number);
          break;
        case Slot.Inline:
          out[nk + i] = this.inl[i]!.getValue(g, at);
          break;
        default:
          out[nk + i] = this.aggs[i]!.fn.getValue(g[at]);
      }
    }
    return out;
  }

  /**
   * What Flink's aggregate holds beyond the values of `g` (AggregateFunction.emitState), to compare before leaving
   * an update out; undefined when no call has any.
   */
  emitState(g: Group): unknown[] | undefined {
    if (!this.hasEmitState) return undefined;
    let out: unknown[] | undefined;
    for (let i = 0; i < this.aggs.length; i++) {
      const fn = this.aggs[i]!.fn;
      if (fn.emitState === undefined || this.slot[i] !== Slot.Boxed) continue;
      out ??= [];
      out.push(...fn.emitState(g[this.at[i]!]));
    }
    return out;
  }

  /**
   * The groups of a state value, converting the layout written before this one (an array of
   * `{ key, accs, count, seen }` objects, in checkpoints of earlier releases) as it is read.
   */
  groupsOf(v: unknown[]): Group | Group[] {
    const first = v[0];
    if (typeof first === 'number' || Array.isArray(first)) return v;
    const groups = (v as OldGroup[]).map((o) => this.fromOld(o));
    return groups.length === 1 ? groups[0]! : groups;
  }

  private fromOld(o: OldGroup): Group {
    const g: Group = new Array(this.width);
    g[0] = o.count;
    for (let i = 0; i < this.nk; i++) g[1 + i] = o.key[i];
    for (let i = 0; i < this.aggs.length; i++) {
      const at = this.at[i]!;
      const acc = o.accs[i];
      if (this.slot[i] === Slot.Inline) for (let j = 0; j < this.inl[i]!.width; j++) g[at + j] = (acc as unknown[])[j];
      else if (this.slot[i] === Slot.Boxed) g[at] = acc;
      if (this.seenAt[i]! >= 0) g[this.seenAt[i]!] = o.seen[i] ?? new Map<unknown, number>();
    }
    return g;
  }
}

/** A group as earlier releases stored it (read from their checkpoints only). */
interface OldGroup {
  readonly key: unknown[];
  readonly accs: unknown[];
  readonly count: number;
  readonly seen: (Map<unknown, number> | null)[];
}

/** Counts a DISTINCT argument in or out; true when the aggregate itself must see the row (first in, last out). */
function countDistinct(seen: Map<unknown, number>, args: readonly unknown[], add: boolean): boolean {
  if (args[0] === null) return false;
  const k = distinctIdentity(args);
  const c = seen.get(k) ?? 0;
  if (add) {
    seen.set(k, c + 1);
    return c === 0;
  }
  if (c <= 1) seen.delete(k);
  else seen.set(k, c - 1);
  return c === 1;
}

function callBoxed(a: AggregateSpec, acc: unknown, f: readonly unknown[], add: boolean): void {
  const fn = a.fn;
  const args = a.args;
  if (add) {
    if (args.length === 0) fn.accumulate(acc);
    else if (args.length === 1) fn.accumulate(acc, f[args[0]!]);
    else fn.accumulate(acc, ...args.map((k) => f[k]));
  } else if (fn.retract) {
    if (args.length === 0) fn.retract(acc);
    else if (args.length === 1) fn.retract(acc, f[args[0]!]);
    else fn.retract(acc, ...args.map((k) => f[k]));
  }
}

/** A distinct value's (or argument list's) identity as a Map / Set key (see valueKey). */
export function distinctIdentity(args: readonly unknown[]): unknown {
  return valueKey(args.length === 1 ? args[0] : args);
}
