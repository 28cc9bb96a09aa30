import type { StateKey, ValueState } from '../runtime/state/state.js';
import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import { Row } from '../types/row.js';
import { RowKind } from '../types/row-kind.js';
import { valuesEqual } from '../types/values/equality.js';
import type { FieldsFunction } from './calc-operator.js';
import { concatFields, joinKeyOf } from './join-key.js';

export type JoinType = 'INNER' | 'LEFT' | 'RIGHT' | 'FULL';

/**
 * A stored row of an outer side and how many rows of the other side it currently matches (Flink's
 * OuterInputSideHasNoUniqueKey view: the count says when to retract or re-emit its NULL-padded row).
 * A side that is never padded needs no count, so it stores the row's fields array itself.
 */
interface Entry {
  readonly fields: unknown[];
  matches: number;
}

/** What one side's state holds per join key: `Entry`s on an outer side, fields arrays otherwise. */
type Stored = Entry | unknown[];

/** One input's view of the join, fixed at `open`, so the per-row loop reads locals only. */
interface Side {
  readonly isLeft: boolean;
  readonly keys: readonly number[];
  readonly otherKeys: readonly number[];
  readonly mine: ValueState<Stored[]>;
  readonly other: ValueState<Stored[]>;
  /** This side's rows are NULL-padded when unmatched (and stored as `Entry`). */
  readonly outer: boolean;
  /** The other side's rows are NULL-padded when unmatched (and stored as `Entry`). */
  readonly otherOuter: boolean;
}

/** What the operator needs to know about the join. */
export interface JoinSpec {
  readonly joinType: JoinType;
  readonly leftKeys: readonly number[];
  readonly rightKeys: readonly number[];
  readonly leftArity: number;
  readonly rightArity: number;
  /** Non-equi condition over the joined row (left fields then right fields), or null. */
  readonly condition: FieldsFunction | null;
  readonly mode: 'streaming' | 'batch';
  /** `table.exec.state.ttl` in ms (streaming): rows of a key untouched for this long are forgotten; 0 keeps them. */
  readonly stateTtlMs?: number;
}

/**
 * Regular equi-join (Flink's StreamingJoinOperator). Streaming: both sides kept in keyed state
 * (keyed by `joinKeyOf`: the value of a single primitive key column, else the key's hash, colliding keys
 * told apart by value); +I/+U input joins and emits
 * +I, -U/-D input emits -D; outer sides emit null-padded rows and retract them when the first match
 * arrives (and re-emit them when the last match goes). Batch: buffers both inputs and joins at the end.
 * Input 0 is the left side, input 1 the right.
 */
export class JoinOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private left!: ValueState<Stored[]>;
  private right!: ValueState<Stored[]>;
  private sides!: [Side, Side];
  private readonly leftOuter: boolean;
  private readonly rightOuter: boolean;
  private readonly buffered: [Row[], Row[]] = [[], []];
  /** `table.exec.state.ttl` in effect (streaming only); 0: keep rows forever. */
  private ttlMs = 0;
  /** Wall-clock time of the last sweep of expired keys. */
  private lastSweep = Date.now();

  constructor(private readonly spec: JoinSpec) {
    this.leftOuter = spec.joinType === 'LEFT' || spec.joinType === 'FULL';
    this.rightOuter = spec.joinType === 'RIGHT' || spec.joinType === 'FULL';
  }

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    const ttlMs = this.spec.mode === 'streaming' ? (this.spec.stateTtlMs ?? 0) : 0;
    this.ttlMs = ttlMs;
    this.left = ctx.keyedState.getState<Stored[]>(ttlMs > 0 ? { name: 'left', ttlMs } : 'left');
    this.right = ctx.keyedState.getState<Stored[]>(ttlMs > 0 ? { name: 'right', ttlMs } : 'right');
    const { leftKeys, rightKeys } = this.spec;
    this.sides = [
      { isLeft: true, keys: leftKeys, otherKeys: rightKeys, mine: this.left, other: this.right, outer: this.leftOuter, otherOuter: this.rightOuter },
      { isLeft: false, keys: rightKeys, otherKeys: leftKeys, mine: this.right, other: this.left, outer: this.rightOuter, otherOuter: this.leftOuter },
    ];
  }

  processBatch(rows: Row[], inputIndex: number): void {
    if (this.spec.mode === 'batch') {
      const buf = this.buffered[inputIndex === 0 ? 0 : 1];
      for (const r of rows) buf.push(r);
      return;
    }
    if (this.ttlMs > 0) this.sweepExpired();
    const out: Row[] = [];
    this.joinStreaming(rows, this.sides[inputIndex === 0 ? 0 : 1], out);
    if (out.length > 0) this.ctx.output.collect(out);
  }

  /**
   * One state lookup per side per row (plus a write only for a new key, or with a TTL to refresh it):
   * stored lists are mutated in place, which the heap backend sees without a write.
   */
  private joinStreaming(rows: readonly Row[], side: Side, out: Row[]): void {
    const { isLeft, keys, otherKeys, mine, other, outer, otherOuter } = side;
    const ks = this.ctx.keyedState;
    const cond = this.spec.condition;
    const la = this.spec.leftArity;
    const ra = this.spec.rightArity;
    const refresh = this.ttlMs > 0;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      const f = row.fields;
      ks.setCurrentKey(joinKeyOf(f, keys));
      const accumulate = row.kind === RowKind.INSERT || row.kind === RowKind.UPDATE_AFTER;
      let matches = 0;
      const candidates = other.value();
      if (candidates !== undefined) {
        for (let j = 0; j < candidates.length; j++) {
          const c = candidates[j]!;
          const of = otherOuter ? (c as Entry).fields : (c as unknown[]);
          if (!keysEqual(f, keys, of, otherKeys)) continue;
          const joined = isLeft ? concatFields(f, la, of, ra) : concatFields(of, la, f, ra);
          if (cond !== null && cond(joined) !== true) continue;
          matches++;
          if (!otherOuter) {
            out.push(new Row(accumulate ? RowKind.INSERT : RowKind.DELETE, joined));
            continue;
          }
          const e = c as Entry;
          if (accumulate) {
            if (e.matches === 0) out.push(new Row(RowKind.DELETE, isLeft ? concatFields(null, la, of, ra) : concatFields(of, la, null, ra)));
            e.matches++;
            out.push(new Row(RowKind.INSERT, joined));
          } else {
            e.matches--;
            out.push(new Row(RowKind.DELETE, joined));
            if (e.matches === 0) out.push(new Row(RowKind.INSERT, isLeft ? concatFields(null, la, of, ra) : concatFields(of, la, null, ra)));
          }
        }
        // Counts changed in place; with a TTL that write refreshes the key (as Flink's put of the count).
        if (refresh && otherOuter && matches > 0) other.update(candidates);
      }
      const list = mine.value();
      if (accumulate) {
        const stored: Stored = outer ? { fields: f, matches } : f;
        if (list === undefined) mine.update([stored]);
        else {
          list.push(stored);
          if (refresh) mine.update(list);
        }
        if (outer && matches === 0) out.push(new Row(RowKind.INSERT, isLeft ? concatFields(f, la, null, ra) : concatFields(null, la, f, ra)));
      } else {
        const at = list === undefined ? -1 : indexOfStored(list, f, outer);
        if (at >= 0) {
          list!.splice(at, 1);
          if (list!.length === 0) mine.clear();
          else if (refresh) mine.update(list!);
        }
        if (outer && matches === 0) out.push(new Row(RowKind.DELETE, isLeft ? concatFields(f, la, null, ra) : concatFields(null, la, f, ra)));
      }
    }
  }

  /**
   * With a state TTL, reading a key drops it once expired, but a key never read again would stay in memory:
   * once per TTL period every key of both sides is read, so expired ones are freed (as Flink's cleanup).
   * Expired rows vanish silently, outer ones included: a later row of the other side no longer sees them.
   */
  private sweepExpired(): void {
    const now = Date.now();
    if (now - this.lastSweep < this.ttlMs) return;
    this.lastSweep = now;
    const ks = this.ctx.keyedState;
    const prev = ks.getCurrentKey();
    for (const [name, state] of [['left', this.left], ['right', this.right]] as const) {
      for (const k of [...ks.keys(name)]) {
        ks.setCurrentKey(k);
        state.value();
      }
    }
    ks.setCurrentKey(prev);
  }

  async finish(): Promise<void> {
    if (this.spec.mode !== 'batch') return;
    const [l, r] = this.buffered;
    const { leftKeys, rightKeys, leftArity: la, rightArity: ra, condition: cond } = this.spec;
    const index = new Map<StateKey, Row[]>();
    for (const row of r) {
      const k = joinKeyOf(row.fields, rightKeys);
      const b = index.get(k);
      if (b === undefined) index.set(k, [row]);
      else b.push(row);
    }
    // Only a RIGHT/FULL join needs to know which build rows matched: one Set insert per output row otherwise.
    const matchedRight = this.rightOuter ? new Set<Row>() : null;
    let out: Row[] = [];
    this.buffered[0] = [];
    for (let li = 0; li < l.length; li++) {
      const lr = l[li]!;
      // Emit in chunks and let downstream tasks drain between them: one output array of every joined row
      // (and the probe rows kept alive meanwhile) made the batch join spend most of its time in GC.
      if (out.length >= JOIN_OUTPUT_CHUNK) {
        this.ctx.output.collect(out);
        out = [];
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      (l as (Row | undefined)[])[li] = undefined;
      const lf = lr.fields;
      let matched = false;
      const bucket = index.get(joinKeyOf(lf, leftKeys));
      if (bucket !== undefined) {
        for (let j = 0; j < bucket.length; j++) {
          const rr = bucket[j]!;
          if (!keysEqual(lf, leftKeys, rr.fields, rightKeys)) continue;
          const joined = concatFields(lf, la, rr.fields, ra);
          if (cond !== null && cond(joined) !== true) continue;
          matched = true;
          matchedRight?.add(rr);
          out.push(new Row(RowKind.INSERT, joined));
        }
      }
      if (!matched && this.leftOuter) out.push(new Row(RowKind.INSERT, concatFields(lf, la, null, ra)));
    }
    if (matchedRight !== null) for (const rr of r) if (!matchedRight.has(rr)) out.push(new Row(RowKind.INSERT, concatFields(null, la, rr.fields, ra)));
    if (out.length > 0) this.ctx.output.collect(out);
  }
}

/** The joined row's fields: left fields then right fields, a missing side (null) padded with NULLs. */
export function joinedRow(spec: JoinSpec, l: readonly unknown[] | null, r: readonly unknown[] | null): unknown[] {
  return concatFields(l, spec.leftArity, r, spec.rightArity);
}

/** Rows per output batch of the batch join. */
const JOIN_OUTPUT_CHUNK = 8192;

/** Whether the join keys of two rows are equal; NULL keys never are (SQL equality). */
export function keysEqual(a: readonly unknown[], ak: readonly number[], b: readonly unknown[], bk: readonly number[]): boolean {
  for (let i = 0; i < ak.length; i++) {
    const x = a[ak[i]!];
    // SQL equality: NULL keys never join.
    if (x === null || !valuesEqual(x, b[bk[i]!])) return false;
  }
  return true;
}

/** Where a row equal to `f` is in a side's stored list, or -1. */
function indexOfStored(list: readonly Stored[], f: readonly unknown[], outer: boolean): number {
  for (let i = 0; i < list.length; i++) if (rowEquals(outer ? (list[i] as Entry).fields : (list[i] as unknown[]), f)) return i;
  return -1;
}

/** Whether two rows' fields are equal value by value. */
export function rowEquals(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!valuesEqual(a[i], b[i])) return false;
  return true;
}

export function joinOperatorFactory(name: string, spec: JoinSpec): OperatorFactory {
  return { name, create: () => new JoinOperator(spec) };
}
