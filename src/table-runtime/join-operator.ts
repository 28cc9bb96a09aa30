import type { StateKey, ValueState } from '../runtime/state/state.js';
import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import { Row } from '../types/row.js';
import { RowKind } from '../types/row-kind.js';
import { keyFieldsEqual } from '../types/values/equality.js';
import type { FieldsFunction } from './calc-operator.js';
import {
  appendFlat, concatChunks, concatFields, flatStride, flattenRows, indexOfFlat, joinKeyAt, joinStored, keyOf, migrateBigintJoinKeys,
  type NarrowedColumns, narrowed, padStored, storedKeyEquals,
} from './join-flat-rows.js';

export type JoinType = 'INNER' | 'LEFT' | 'RIGHT' | 'FULL';

/** One input's view of the join, fixed at `open`, so the per-row loop reads locals only. */
interface Side {
  readonly isLeft: boolean;
  readonly keys: readonly number[];
  readonly otherKeys: readonly number[];
  readonly arity: number;
  readonly otherArity: number;
  /** Per join key, this side's rows stored flat (see join-flat-rows.ts). */
  readonly mine: ValueState<unknown[]>;
  readonly other: ValueState<unknown[]>;
  /**
   * This side's rows are NULL-padded when unmatched, so each stored row carries how many rows of the other
   * side it matches (Flink's OuterInputSideHasNoUniqueKey view); an inner side's rows need no count.
   */
  readonly outer: boolean;
  readonly otherOuter: boolean;
  readonly stride: number;
  readonly otherStride: number;
  /** This side's BIGINT columns, stored narrowed; and the other side's, widened as its stored rows are read. */
  readonly narrow: NarrowedColumns;
  readonly otherWide: NarrowedColumns;
  /** Per column of the other side: the index in this side's row of the join key equal to it, or -1. */
  readonly otherKeyOf: readonly number[];
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
  /** Per column of each side, whether it is BIGINT (see NarrowedColumns); absent: stored as they come. */
  readonly leftBigints?: NarrowedColumns;
  readonly rightBigints?: NarrowedColumns;
}

/**
 * Regular equi-join (Flink's StreamingJoinOperator). Streaming: both sides kept in keyed state, rows
 * stored flat per key (keyed by `joinKeyAt`: the value of a single primitive key column, an int32 BIGINT's
 * hash, else the key's hash, colliding keys told apart by value); +I/+U input joins and emits +I, -U/-D input emits -D; outer
 * sides emit null-padded rows and retract them when the first match arrives (and re-emit them when the
 * last match goes). Batch: buffers both inputs flat and hash-joins them at the end.
 * Input 0 is the left side, input 1 the right.
 */
export class JoinOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private left!: ValueState<unknown[]>;
  private right!: ValueState<unknown[]>;
  private sides!: [Side, Side];
  private readonly leftOuter: boolean;
  private readonly rightOuter: boolean;
  /** Batch mode: each input's batches stored flat, `flatStride(arity, false)` slots per row. */
  private buffered: [unknown[][], unknown[][]] = [[], []];
  /**
   * `table.exec.state.ttl` in effect (streaming only); 0: keep rows forever. The state backend frees expired
   * keys incrementally as keys are read and written, keys never read again included. Expired rows vanish
   * silently, outer ones included: a later row of the other side no longer sees them.
   */
  private ttlMs = 0;

  constructor(private readonly spec: JoinSpec) {
    this.leftOuter = spec.joinType === 'LEFT' || spec.joinType === 'FULL';
    this.rightOuter = spec.joinType === 'RIGHT' || spec.joinType === 'FULL';
  }

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    const ttlMs = this.spec.mode === 'streaming' ? (this.spec.stateTtlMs ?? 0) : 0;
    this.ttlMs = ttlMs;
    this.left = ctx.keyedState.getState<unknown[]>(ttlMs > 0 ? { name: 'left', ttlMs } : 'left');
    this.right = ctx.keyedState.getState<unknown[]>(ttlMs > 0 ? { name: 'right', ttlMs } : 'right');
    if (this.spec.mode === 'streaming') {
      migrateBigintJoinKeys(ctx.keyedState, 'left', this.left);
      migrateBigintJoinKeys(ctx.keyedState, 'right', this.right);
    }
    const { leftKeys, rightKeys, leftArity, rightArity } = this.spec;
    const ls = flatStride(leftArity, this.leftOuter);
    const rs = flatStride(rightArity, this.rightOuter);
    const lb = narrowing(this.spec.leftBigints);
    const rb = narrowing(this.spec.rightBigints);
    this.sides = [
      { isLeft: true, keys: leftKeys, otherKeys: rightKeys, arity: leftArity, otherArity: rightArity, mine: this.left, other: this.right,
        outer: this.leftOuter, otherOuter: this.rightOuter, stride: ls, otherStride: rs, narrow: lb, otherWide: rb,
        otherKeyOf: keyOf(rightArity, rightKeys, leftKeys) },
      { isLeft: false, keys: rightKeys, otherKeys: leftKeys, arity: rightArity, otherArity: leftArity, mine: this.right, other: this.left,
        outer: this.rightOuter, otherOuter: this.leftOuter, stride: rs, otherStride: ls, narrow: rb, otherWide: lb,
        otherKeyOf: keyOf(leftArity, leftKeys, rightKeys) },
    ];
  }

  processBatch(rows: Row[], inputIndex: number): void {
    if (this.spec.mode === 'batch') {
      const i = inputIndex === 0 ? 0 : 1;
      const arity = i === 0 ? this.spec.leftArity : this.spec.rightArity;
      if (rows.length > 0) this.buffered[i].push(flattenRows(rows, arity, flatStride(arity, false)));
      return;
    }
    const out = this.joinStreaming(rows, this.sides[inputIndex === 0 ? 0 : 1]);
    if (out.length > 0) this.ctx.output.collect(out);
  }

  /**
   * One state lookup per side per row (plus a write only for a new key, or with a TTL to refresh it):
   * stored lists are mutated in place, which the heap backend sees without a write.
   */
  private joinStreaming(rows: readonly Row[], side: Side): Row[] {
    const { isLeft, keys, otherKeys, arity, otherArity, mine, other, outer, otherOuter, stride, otherStride, narrow, otherWide, otherKeyOf } = side;
    const ks = this.ctx.keyedState;
    const cond = this.spec.condition;
    const la = this.spec.leftArity;
    const ra = this.spec.rightArity;
    const refresh = this.ttlMs > 0;
    let out: Row[] = [];
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      const f = row.fields;
      ks.setCurrentKey(joinKeyAt(f, 0, keys));
      const accumulate = row.kind === RowKind.INSERT || row.kind === RowKind.UPDATE_AFTER;
      let matches = 0;
      const cand = other.value();
      if (cand !== undefined) {
        for (let o = 0; o < cand.length; o += otherStride) {
          // A row matching many stored ones (a dimension row after its facts) must not make one huge batch.
          if (out.length >= JOIN_OUTPUT_CHUNK) {
            this.ctx.output.collect(out);
            out = [];
          }
          if (!storedKeyEquals(f, keys, cand, o, otherKeys)) continue;
          const joined = joinStored(f, cand, o, !isLeft, la, ra, otherWide, otherKeyOf);
          if (cond !== null && cond(joined) !== true) continue;
          matches++;
          if (!otherOuter) {
            out.push(new Row(accumulate ? RowKind.INSERT : RowKind.DELETE, joined));
            continue;
          }
          const n = cand[o + otherArity] as number;
          if (accumulate) {
            if (n === 0) out.push(new Row(RowKind.DELETE, padStored(cand, o, !isLeft, la, ra, otherWide)));
            cand[o + otherArity] = n + 1;
            out.push(new Row(RowKind.INSERT, joined));
          } else {
            cand[o + otherArity] = n - 1;
            out.push(new Row(RowKind.DELETE, joined));
            if (n === 1) out.push(new Row(RowKind.INSERT, padStored(cand, o, !isLeft, la, ra, otherWide)));
          }
        }
        // Counts changed in place; with a TTL that write refreshes the key (as Flink's put of the count).
        if (refresh && otherOuter && matches > 0) other.update(cand);
      }
      const list = mine.value();
      if (accumulate) {
        if (list === undefined) {
          // Allocated at its size: a first push would reserve 17 slots, most keys of a join keep one row.
          const fresh = new Array<unknown>(stride);
          for (let j = 0; j < arity; j++) fresh[j] = narrow !== null && narrow[j] === true ? narrowed(f[j]) : f[j];
          if (stride > arity) fresh[arity] = outer ? matches : null;
          mine.update(fresh);
        } else {
          appendFlat(list, f, arity, stride, outer ? matches : undefined, narrow);
          if (refresh) mine.update(list);
        }
        if (outer && matches === 0) out.push(new Row(RowKind.INSERT, isLeft ? concatFields(f, 0, la, null, 0, ra) : concatFields(null, 0, la, f, 0, ra)));
      } else {
        const at = list === undefined ? -1 : indexOfFlat(list, stride, f, arity);
        if (at >= 0) {
          list!.splice(at, stride);
          if (list!.length === 0) mine.clear();
          else if (refresh) mine.update(list!);
        }
        if (outer && matches === 0) out.push(new Row(RowKind.DELETE, isLeft ? concatFields(f, 0, la, null, 0, ra) : concatFields(null, 0, la, f, 0, ra)));
      }
    }
    return out;
  }

  async finish(): Promise<void> {
    if (this.spec.mode !== 'batch') return;
    const [lchunks, rchunks] = this.buffered;
    this.buffered = [[], []];
    const rb = concatChunks(rchunks);
    const { leftKeys, rightKeys, leftArity: la, rightArity: ra, condition: cond } = this.spec;
    const ls = flatStride(la, false);
    const rs = flatStride(ra, false);
    // Build side: offsets of the right rows per key (numbers, no objects per row).
    const index = new Map<StateKey, number[]>();
    for (let o = 0; o < rb.length; o += rs) {
      const k = joinKeyAt(rb, o, rightKeys);
      const b = index.get(k);
      if (b === undefined) index.set(k, [o]);
      else b.push(o);
    }
    // Only a RIGHT/FULL join needs to know which build rows matched.
    const matchedRight = this.rightOuter ? new Uint8Array(rb.length / rs) : null;
    let out: Row[] = [];
    for (let ci = 0; ci < lchunks.length; ci++) {
      const lb = lchunks[ci]!;
      lchunks[ci] = []; // probed rows can go before the join ends
      for (let lo = 0; lo < lb.length; lo += ls) {
        // Emit in chunks and let downstream tasks drain between them: one output array of every joined row
        // made the batch join spend most of its time in GC.
        if (out.length >= JOIN_OUTPUT_CHUNK) {
          this.ctx.output.collect(out);
          out = [];
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
        let matched = false;
        const bucket = index.get(joinKeyAt(lb, lo, leftKeys));
        if (bucket !== undefined) {
          for (let j = 0; j < bucket.length; j++) {
            const ro = bucket[j]!;
            if (!keyFieldsEqual(lb, lo, leftKeys, rb, ro, rightKeys)) continue;
            const joined = concatFields(lb, lo, la, rb, ro, ra);
            if (cond !== null && cond(joined) !== true) continue;
            matched = true;
            if (matchedRight !== null) matchedRight[ro / rs] = 1;
            out.push(new Row(RowKind.INSERT, joined));
          }
        }
        if (!matched && this.leftOuter) out.push(new Row(RowKind.INSERT, concatFields(lb, lo, la, null, 0, ra)));
      }
    }
    if (matchedRight !== null) {
      for (let ro = 0; ro < rb.length; ro += rs) if (matchedRight[ro / rs] === 0) out.push(new Row(RowKind.INSERT, concatFields(null, 0, la, rb, ro, ra)));
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }
}

/** A side's BIGINT columns, or null when it has none (its rows are then stored as they come). */
function narrowing(bigints: NarrowedColumns | undefined): NarrowedColumns {
  return bigints === undefined || bigints === null || !bigints.includes(true) ? null : bigints;
}

/** Rows per output batch (about: a batch ends after the input row that crosses it). */
const JOIN_OUTPUT_CHUNK = 8192;

export function joinOperatorFactory(name: string, spec: JoinSpec): OperatorFactory {
  return { name, create: () => new JoinOperator(spec) };
}
