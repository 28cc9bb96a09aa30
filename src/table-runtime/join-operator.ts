import type { ValueState } from '../runtime/state/state.js';
import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import { Row } from '../types/row.js';
import { RowKind } from '../types/row-kind.js';
import { hashFields, valuesEqual } from '../types/values/equality.js';
import type { FieldsFunction } from './calc-operator.js';

export type JoinType = 'INNER' | 'LEFT' | 'RIGHT' | 'FULL';

/** A stored input row and, for the outer side, how many rows of the other side it currently matches. */
interface Entry {
  readonly fields: unknown[];
  matches: number;
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
 * (keyed by the hash of the join key; colliding keys told apart by value); +I/+U input joins and emits
 * +I, -U/-D input emits -D; outer sides emit null-padded rows and retract them when the first match
 * arrives (and re-emit them when the last match goes). Batch: buffers both inputs and joins at the end.
 * Input 0 is the left side, input 1 the right.
 */
export class JoinOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private left!: ValueState<Entry[]>;
  private right!: ValueState<Entry[]>;
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
    this.left = ctx.keyedState.getState<Entry[]>(ttlMs > 0 ? { name: 'left', ttlMs } : 'left');
    this.right = ctx.keyedState.getState<Entry[]>(ttlMs > 0 ? { name: 'right', ttlMs } : 'right');
  }

  processBatch(rows: Row[], inputIndex: number): void {
    if (this.spec.mode === 'batch') {
      const buf = this.buffered[inputIndex === 0 ? 0 : 1];
      for (const r of rows) buf.push(r);
      return;
    }
    if (this.ttlMs > 0) this.sweepExpired();
    const out: Row[] = [];
    const isLeft = inputIndex === 0;
    const keys = isLeft ? this.spec.leftKeys : this.spec.rightKeys;
    const otherKeys = isLeft ? this.spec.rightKeys : this.spec.leftKeys;
    const mine = isLeft ? this.left : this.right;
    const other = isLeft ? this.right : this.left;
    const outer = isLeft ? this.leftOuter : this.rightOuter;
    const otherOuter = isLeft ? this.rightOuter : this.leftOuter;
    for (const row of rows) {
      const f = row.fields;
      this.ctx.keyedState.setCurrentKey(hashFields(f, keys));
      const accumulate = row.kind === RowKind.INSERT || row.kind === RowKind.UPDATE_AFTER;
      const candidates = other.value() ?? [];
      let matches = 0;
      for (const o of candidates) {
        if (!keysEqual(f, keys, o.fields, otherKeys)) continue;
        const joined = isLeft ? this.concat(f, o.fields) : this.concat(o.fields, f);
        if (this.spec.condition !== null && this.spec.condition(joined) !== true) continue;
        matches++;
        if (accumulate) {
          if (otherOuter && o.matches === 0) out.push(new Row(RowKind.DELETE, isLeft ? this.concat(null, o.fields) : this.concat(o.fields, null)));
          o.matches++;
          out.push(new Row(RowKind.INSERT, joined));
        } else {
          o.matches--;
          out.push(new Row(RowKind.DELETE, joined));
          if (otherOuter && o.matches === 0) out.push(new Row(RowKind.INSERT, isLeft ? this.concat(null, o.fields) : this.concat(o.fields, null)));
        }
      }
      if (candidates.length > 0) other.update(candidates);
      const padded = (): unknown[] => (isLeft ? this.concat(f, null) : this.concat(null, f));
      const list = mine.value() ?? [];
      if (accumulate) {
        list.push({ fields: f, matches });
        mine.update(list);
        if (outer && matches === 0) out.push(new Row(RowKind.INSERT, padded()));
      } else {
        const i = list.findIndex((e) => rowEquals(e.fields, f));
        if (i >= 0) {
          list.splice(i, 1);
          if (list.length === 0) mine.clear();
          else mine.update(list);
        }
        if (outer && matches === 0) out.push(new Row(RowKind.DELETE, padded()));
      }
    }
    if (out.length > 0) this.ctx.output.collect(out);
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
    const { leftKeys, rightKeys } = this.spec;
    const index = new Map<number, Row[]>();
    for (const row of r) {
      const h = hashFields(row.fields, rightKeys);
      const b = index.get(h);
      if (b === undefined) index.set(h, [row]);
      else b.push(row);
    }
    const matchedRight = new Set<Row>();
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
      let matched = false;
      for (const rr of index.get(hashFields(lr.fields, leftKeys)) ?? []) {
        if (!keysEqual(lr.fields, leftKeys, rr.fields, rightKeys)) continue;
        const joined = this.concat(lr.fields, rr.fields);
        if (this.spec.condition !== null && this.spec.condition(joined) !== true) continue;
        matched = true;
        matchedRight.add(rr);
        out.push(new Row(RowKind.INSERT, joined));
      }
      if (!matched && this.leftOuter) out.push(new Row(RowKind.INSERT, this.concat(lr.fields, null)));
    }
    if (this.rightOuter) for (const rr of r) if (!matchedRight.has(rr)) out.push(new Row(RowKind.INSERT, this.concat(null, rr.fields)));
    if (out.length > 0) this.ctx.output.collect(out);
  }

  private concat(l: readonly unknown[] | null, r: readonly unknown[] | null): unknown[] {
    return joinedRow(this.spec, l, r);
  }
}

/** The joined row's fields: left fields then right fields, a missing side (null) padded with NULLs. */
export function joinedRow(spec: JoinSpec, l: readonly unknown[] | null, r: readonly unknown[] | null): unknown[] {
  const out = new Array<unknown>(spec.leftArity + spec.rightArity);
  for (let i = 0; i < spec.leftArity; i++) out[i] = l === null ? null : l[i];
  for (let i = 0; i < spec.rightArity; i++) out[spec.leftArity + i] = r === null ? null : r[i];
  return out;
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

/** Whether two rows' fields are equal value by value. */
export function rowEquals(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!valuesEqual(a[i], b[i])) return false;
  return true;
}

export function joinOperatorFactory(name: string, spec: JoinSpec): OperatorFactory {
  return { name, create: () => new JoinOperator(spec) };
}
