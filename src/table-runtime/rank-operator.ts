import type { ValueState } from '../runtime/state/state.js';
import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import { Row } from '../types/row.js';
import { RowKind } from '../types/row-kind.js';
import { hashFields, valuesEqual } from '../types/values/equality.js';
import { fieldsComparator } from './sort-limit-operator.js';
import type { SortKeySpec } from './sort-limit-operator.js';
import { upsertTopN } from './updatable-top-n.js';

export interface RankSpec {
  readonly partitionKeys: readonly number[];
  readonly orderKeys: readonly SortKeySpec[];
  /** N of Top-N; null = rank every row (batch only). */
  readonly limit: number | null;
  readonly outputRankNumber: boolean;
  readonly mode: 'streaming' | 'batch';
  /** Default ROW_NUMBER; RANK and DENSE_RANK number peers (equal order keys) alike, and `limit` bounds the number. */
  readonly rankType?: 'ROW_NUMBER' | 'RANK' | 'DENSE_RANK';
  /**
   * Proctime first-row deduplication (streaming): the first row to arrive per partition is emitted as +I and
   * every later one dropped, keeping only the partition key in state (Flink's
   * ProcTimeDeduplicateKeepFirstRowFunction). The output is insert-only.
   */
  readonly firstRowOnly?: boolean;
  /**
   * A row that ties with held rows on the order keys goes before them, not after: a last-row deduplication (ORDER BY
   * time DESC, limit 1) replaces the held row with a new one of the same time, as Flink's keeps the later row.
   */
  readonly newestFirstAmongTies?: boolean;
  /** Rows numbered below this are kept in state but not emitted (an OFFSET); default 1. */
  readonly rankStart?: number;
  /**
   * The input only inserts (streaming ROW_NUMBER with a limit): a row past the limit can never come back into
   * the top, so only the top is kept (Flink's AppendOnlyTopNFunction), not every row of the partition.
   */
  readonly insertOnlyInput?: boolean;
  /**
   * Without the rank number, a row that takes the place of the only row of the top is emitted as -U old / +U
   * new, not -D / +I: the planner sets this for a Top-1 over an insert-only input, where the partition key is the
   * output's unique key (Flink's FastTop1Function).
   */
  readonly top1Updates?: boolean;
  /**
   * Streaming over updates by a unique key (input positions) the order keys can only move towards the top (the
   * planner's update-fast strategy, rank-strategy.ts): each +I / +U is one change of the row with its key, taken
   * as Flink's UpdatableTopNFunction (FastTop1Function for a Top-1) takes it, so the -U before it is not a change
   * of its own; only the top rows are kept. -U and -D rows are not read (Flink's input has none: its aggregate
   * then sends no -U; a -D does not come from the inputs the planner allows).
   */
  readonly updateFast?: { readonly rowKey: readonly number[] };
  /**
   * The planner narrowed the rank's input: rows of `width` columns restored from a checkpoint of the
   * unpruned plan keep only the columns `kept`, as they are read.
   */
  readonly restoredRows?: { readonly width: number; readonly kept: readonly number[] };
}

/** A row of the top and its rank number. */
interface Ranked {
  readonly row: unknown[];
  readonly rank: number;
}

interface Partition {
  readonly key: unknown[];
  /** All live rows of the partition, sorted; ties keep arrival order. */
  readonly rows: unknown[][];
}

/**
 * ROW_NUMBER / RANK / DENSE_RANK Top-N (Flink's RetractableTopNFunction). Streaming: keeps the partition's rows sorted in
 * keyed state; after each input row it diffs the old and new top N and emits the changes: with the rank
 * number per position (-U/+U for a changed rank, +I/-D when the list grows or shrinks), without it as
 * -D/+I of the rows that left or entered. Over updates by a unique key that can only move rows up
 * (`RankSpec.updateFast`) it keeps only the top rows and takes each update as one change, as Flink's
 * UpdatableTopNFunction / FastTop1Function (updatable-top-n.ts). Batch: sorts each partition at end of input.
 */
export class RankOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private state!: ValueState<Partition[]>;
  /** Keys already emitted, for `firstRowOnly`; keys colliding on the hash share a slot. */
  private seen!: ValueState<unknown[][]>;
  private readonly cmp: (a: unknown[], b: unknown[]) => number;
  /** How many rows a partition keeps at most (see `RankSpec.insertOnlyInput`); undefined: all. */
  private readonly trimTo: number | undefined;

  constructor(private readonly spec: RankSpec) {
    this.trimTo =
      spec.insertOnlyInput === true && spec.mode === 'streaming' && spec.limit !== null && (spec.rankType ?? 'ROW_NUMBER') === 'ROW_NUMBER' ? spec.limit : undefined;
    this.cmp = fieldsComparator(spec.orderKeys);
  }

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    this.state = ctx.keyedState.getState<Partition[]>('partitions');
    this.seen = ctx.keyedState.getState<unknown[][]>('first-row-keys');
  }

  processBatch(rows: Row[]): void {
    if (this.spec.firstRowOnly === true && this.spec.mode === 'streaming') {
      this.keepFirstRows(rows);
      return;
    }
    const out: Row[] = [];
    const ks = this.ctx.keyedState;
    const pk = this.spec.partitionKeys;
    const updateFast = this.spec.mode === 'streaming' ? this.spec.updateFast : undefined;
    for (const row of rows) {
      const f = row.fields;
      const accumulate = row.kind === RowKind.INSERT || row.kind === RowKind.UPDATE_AFTER;
      if (updateFast !== undefined && !accumulate) continue;
      ks.setCurrentKey(hashFields(f, pk));
      const parts = this.state.value() ?? [];
      let p = parts.find((x) => pk.every((k, i) => valuesEqual(x.key[i], f[k])));
      if (p !== undefined && this.spec.restoredRows !== undefined) narrowRestored(p, this.spec.restoredRows);
      if (p === undefined) {
        if (!accumulate) continue;
        p = { key: pk.map((k) => f[k]), rows: [] };
        parts.push(p);
      }
      if (updateFast !== undefined) {
        upsertTopN(p.rows, f, { rowKey: updateFast.rowKey, rankStart: this.spec.rankStart ?? 1, rankEnd: this.spec.limit!, outputRankNumber: this.spec.outputRankNumber }, this.cmp, out);
        this.state.update(parts);
        continue;
      }
      const before = this.spec.mode === 'streaming' ? this.top(p) : [];
      if (accumulate) {
        // Insert after equal rows so ties keep arrival order (before them when the newest wins a tie).
        const newest = this.spec.newestFirstAmongTies === true;
        let lo = 0;
        let hi = p.rows.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          const c = this.cmp(p.rows[mid]!, f);
          if (c < 0 || (c === 0 && !newest)) lo = mid + 1;
          else hi = mid;
        }
        p.rows.splice(lo, 0, f);
        if (this.trimTo !== undefined && p.rows.length > this.trimTo) p.rows.length = this.trimTo;
      } else {
        const i = p.rows.findIndex((r) => r.every((v, j) => valuesEqual(v, f[j])));
        if (i >= 0) p.rows.splice(i, 1);
      }
      if (p.rows.length === 0) parts.splice(parts.indexOf(p), 1);
      if (parts.length === 0) this.state.clear();
      else this.state.update(parts);
      if (this.spec.mode === 'streaming') this.diff(before, this.top(p), out);
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }

  private keepFirstRows(rows: Row[]): void {
    const out: Row[] = [];
    const ks = this.ctx.keyedState;
    const pk = this.spec.partitionKeys;
    for (const row of rows) {
      if (row.kind !== RowKind.INSERT && row.kind !== RowKind.UPDATE_AFTER) continue;
      const f = row.fields;
      ks.setCurrentKey(hashFields(f, pk));
      const keys = this.seen.value();
      if (keys !== undefined && keys.some((k) => pk.every((p, i) => valuesEqual(k[i], f[p])))) continue;
      const key = pk.map((p) => f[p]);
      this.seen.update(keys === undefined ? [key] : [...keys, key]);
      out.push(new Row(RowKind.INSERT, this.spec.outputRankNumber ? [...f, 1n] : f.slice()));
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }

  finish(): void {
    if (this.spec.mode !== 'batch') return;
    const out: Row[] = [];
    const ks = this.ctx.keyedState;
    for (const k of [...ks.keys('partitions')]) {
      ks.setCurrentKey(k);
      for (const p of this.state.value() ?? []) for (const r of this.top(p)) out.push(new Row(RowKind.INSERT, this.withRank(r)));
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }

  /** The partition's rows whose number is within the limit, numbered by the rank type. */
  private top(p: Partition): Ranked[] {
    const limit = this.spec.limit ?? Number.POSITIVE_INFINITY;
    const start = this.spec.rankStart ?? 1;
    const type = this.spec.rankType ?? 'ROW_NUMBER';
    const out: Ranked[] = [];
    let rank = 0;
    for (let i = 0; i < p.rows.length; i++) {
      const row = p.rows[i]!;
      if (type === 'ROW_NUMBER' || i === 0 || this.cmp(p.rows[i - 1]!, row) !== 0) rank = type === 'DENSE_RANK' ? rank + 1 : i + 1;
      if (rank > limit) break;
      if (rank >= start) out.push({ row, rank });
    }
    return out;
  }

  private withRank(r: Ranked): unknown[] {
    return this.spec.outputRankNumber ? [...r.row, BigInt(r.rank)] : r.row.slice();
  }

  private diff(before: Ranked[], after: Ranked[], out: Row[]): void {
    if (this.spec.outputRankNumber) {
      const n = Math.max(before.length, after.length);
      for (let i = 0; i < n; i++) {
        const b = before[i];
        const a = after[i];
        if (b !== undefined && a !== undefined) {
          if (b.row === a.row && b.rank === a.rank) continue;
          out.push(new Row(RowKind.UPDATE_BEFORE, this.withRank(b)), new Row(RowKind.UPDATE_AFTER, this.withRank(a)));
        } else if (b !== undefined) out.push(new Row(RowKind.DELETE, this.withRank(b)));
        else if (a !== undefined) out.push(new Row(RowKind.INSERT, this.withRank(a)));
      }
      return;
    }
    if (this.spec.top1Updates === true && before.length === 1 && after.length === 1) {
      if (before[0]!.row !== after[0]!.row) out.push(new Row(RowKind.UPDATE_BEFORE, before[0]!.row.slice()), new Row(RowKind.UPDATE_AFTER, after[0]!.row.slice()));
      return;
    }
    const kept = new Set(after.map((r) => r.row));
    const had = new Set(before.map((r) => r.row));
    for (const b of before) if (!kept.has(b.row)) out.push(new Row(RowKind.DELETE, b.row.slice()));
    for (const a of after) if (!had.has(a.row)) out.push(new Row(RowKind.INSERT, a.row.slice()));
  }
}

/** Narrows, in place, the rows of `p` that a checkpoint of the unpruned plan wrote (see RankSpec.restoredRows). */
function narrowRestored(p: Partition, r: { readonly width: number; readonly kept: readonly number[] }): void {
  if (p.rows[0]?.length !== r.width) return;
  for (let i = 0; i < p.rows.length; i++) {
    const row = p.rows[i]!;
    p.rows[i] = r.kept.map((k) => row[k]);
  }
}

export function rankOperatorFactory(name: string, spec: RankSpec): OperatorFactory {
  return { name, create: () => new RankOperator(spec) };
}
