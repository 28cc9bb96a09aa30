import type { ValueState } from '../runtime/state/state.js';
import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import { Row } from '../types/row.js';
import { RowKind } from '../types/row-kind.js';
import { hashFields, valuesEqual } from '../types/values/equality.js';

interface Entry {
  readonly fields: unknown[];
  matches: number;
}

/** Right-side totals a null-aware anti join (NOT IN) needs beyond per-key matches. */
interface Totals {
  rows: number;
  /** Right rows whose key has a NULL: `x NOT IN (..., NULL)` is never TRUE. */
  nullKeys: number;
}

/**
 * How NULL keys compare:
 * - `sql`: a NULL key matches nothing (IN, EXISTS, NOT EXISTS);
 * - `null-equal`: NULL equals NULL (INTERSECT and EXCEPT compare rows as IS NOT DISTINCT FROM);
 * - `not-in`: null-aware anti join (`x NOT IN (sub)`): a left row passes only when the subquery is empty, or
 *   its key is not NULL, no right key is NULL and no right key equals it. Needs every row in one subtask.
 */
export type SemiJoinNulls = 'sql' | 'null-equal' | 'not-in';

export interface SemiJoinSpec {
  /** SEMI: left rows with a match (IN / EXISTS); ANTI: left rows without (NOT IN / NOT EXISTS). */
  readonly kind: 'SEMI' | 'ANTI';
  readonly leftKeys: readonly number[];
  readonly rightKeys: readonly number[];
  readonly mode: 'streaming' | 'batch';
  /** Default `sql`. */
  readonly nulls?: SemiJoinNulls;
  /**
   * A correlated EXISTS / IN's other conditions (`o.amount > c.limit`), over the left row's fields followed
   * by the right row's: a right row with equal keys matches only when it holds.
   */
  readonly condition?: (row: readonly unknown[]) => boolean;
}

/** The keyed-state key of the right-side totals: a string never collides with the numeric key hashes. */
const TOTALS_KEY = '$totals';

/**
 * Semi and anti joins (uncorrelated IN / EXISTS subqueries, INTERSECT, EXCEPT). Emits left rows only.
 * Streaming: both sides in keyed state; a left row is emitted (+I) or retracted (-D) whenever its status
 * flips. Batch: buffers and decides at end of input. Input 0 is the left side.
 */
export class SemiJoinOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private left!: ValueState<Entry[]>;
  private right!: ValueState<unknown[][]>;
  private totals!: ValueState<Totals>;
  private readonly buffered: [Row[], Row[]] = [[], []];
  private readonly nulls: SemiJoinNulls;
  private readonly nullEqual: boolean;

  constructor(private readonly spec: SemiJoinSpec) {
    this.nulls = spec.nulls ?? 'sql';
    this.nullEqual = this.nulls === 'null-equal';
  }

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    this.left = ctx.keyedState.getState<Entry[]>('left');
    this.right = ctx.keyedState.getState<unknown[][]>('right');
    this.totals = ctx.keyedState.getState<Totals>('totals');
  }

  /** Whether right row `r` matches left row `l`: equal keys, and the condition when there is one. */
  private matchesRow(l: readonly unknown[], r: readonly unknown[]): boolean {
    if (!keysEqual(l, this.spec.leftKeys, r, this.spec.rightKeys, this.nullEqual)) return false;
    const c = this.spec.condition;
    return c === undefined || c([...l, ...r]);
  }

  /** Whether a left row with `matches` equal right rows is emitted, given the right side's totals. */
  private passes(f: readonly unknown[], matches: number, t: Totals): boolean {
    if (this.nulls === 'not-in') return t.rows === 0 || (!hasNull(f, this.spec.leftKeys) && t.nullKeys === 0 && matches === 0);
    return matches > 0 === (this.spec.kind === 'SEMI');
  }

  private readTotals(): Totals {
    const ks = this.ctx.keyedState;
    const prev = ks.getCurrentKey();
    ks.setCurrentKey(TOTALS_KEY);
    const t = this.totals.value() ?? { rows: 0, nullKeys: 0 };
    ks.setCurrentKey(prev);
    return { rows: t.rows, nullKeys: t.nullKeys };
  }

  private writeTotals(t: Totals): void {
    const ks = this.ctx.keyedState;
    const prev = ks.getCurrentKey();
    ks.setCurrentKey(TOTALS_KEY);
    this.totals.update({ rows: t.rows, nullKeys: t.nullKeys });
    ks.setCurrentKey(prev);
  }

  processBatch(rows: Row[], inputIndex: number): void {
    if (this.spec.mode === 'batch') {
      this.buffered[inputIndex === 0 ? 0 : 1].push(...rows);
      return;
    }
    const out: Row[] = [];
    const { leftKeys, rightKeys } = this.spec;
    const ks = this.ctx.keyedState;
    const notIn = this.nulls === 'not-in';
    for (const row of rows) {
      const f = row.fields;
      const add = row.kind === RowKind.INSERT || row.kind === RowKind.UPDATE_AFTER;
      if (inputIndex === 0) {
        const totals = notIn ? this.readTotals() : EMPTY_TOTALS;
        ks.setCurrentKey(hashFields(f, leftKeys));
        let matches = 0;
        for (const r of this.right.value() ?? []) if (this.matchesRow(f, r)) matches++;
        const list = this.left.value() ?? [];
        if (add) {
          list.push({ fields: f, matches });
          this.left.update(list);
        } else {
          const i = list.findIndex((e) => e.fields.every((v, j) => valuesEqual(v, f[j])));
          if (i < 0) continue;
          list.splice(i, 1);
          if (list.length === 0) this.left.clear();
          else this.left.update(list);
        }
        if (this.passes(f, matches, totals)) out.push(new Row(add ? RowKind.INSERT : RowKind.DELETE, f.slice()));
        continue;
      }
      const before = notIn ? this.readTotals() : EMPTY_TOTALS;
      ks.setCurrentKey(hashFields(f, rightKeys));
      const rights = this.right.value() ?? [];
      if (add) rights.push(f);
      else {
        const i = rights.findIndex((r) => r.every((v, j) => valuesEqual(v, f[j])));
        if (i < 0) continue;
        rights.splice(i, 1);
      }
      if (rights.length === 0) this.right.clear();
      else this.right.update(rights);
      const after = notIn ? { rows: before.rows + (add ? 1 : -1), nullKeys: before.nullKeys + (hasNull(f, rightKeys) ? (add ? 1 : -1) : 0) } : EMPTY_TOTALS;
      const oldMatches = new Map<Entry, number>();
      for (const e of this.left.value() ?? []) {
        if (!this.matchesRow(e.fields, f)) continue;
        oldMatches.set(e, e.matches);
        e.matches += add ? 1 : -1;
      }
      if (notIn) this.writeTotals(after);
      const globalFlip = notIn && ((before.rows === 0) !== (after.rows === 0) || (before.nullKeys === 0) !== (after.nullKeys === 0));
      if (globalFlip) {
        // The subquery became (non-)empty or gained / lost its NULL: every left row may flip.
        for (const k of [...ks.keys('left')]) {
          ks.setCurrentKey(k);
          for (const e of this.left.value() ?? []) this.emitFlip(out, e, oldMatches.get(e) ?? e.matches, before, after);
        }
      } else {
        for (const [e, old] of oldMatches) this.emitFlip(out, e, old, before, after);
      }
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }

  private emitFlip(out: Row[], e: Entry, oldMatches: number, before: Totals, after: Totals): void {
    const was = this.passes(e.fields, oldMatches, before);
    const is = this.passes(e.fields, e.matches, after);
    if (was !== is) out.push(new Row(is ? RowKind.INSERT : RowKind.DELETE, e.fields.slice()));
  }

  finish(): void {
    if (this.spec.mode !== 'batch') return;
    const [l, r] = this.buffered;
    const { leftKeys, rightKeys } = this.spec;
    const index = new Map<number, unknown[][]>();
    const totals: Totals = { rows: r.length, nullKeys: 0 };
    for (const row of r) {
      if (hasNull(row.fields, rightKeys)) totals.nullKeys++;
      const h = hashFields(row.fields, rightKeys);
      const b = index.get(h);
      if (b === undefined) index.set(h, [row.fields]);
      else b.push(row.fields);
    }
    const out: Row[] = [];
    for (const row of l) {
      const has = (index.get(hashFields(row.fields, leftKeys)) ?? []).some((x) => this.matchesRow(row.fields, x));
      if (this.passes(row.fields, has ? 1 : 0, totals)) out.push(new Row(RowKind.INSERT, row.fields));
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }
}

const EMPTY_TOTALS: Totals = { rows: 0, nullKeys: 0 };

function hasNull(f: readonly unknown[], keys: readonly number[]): boolean {
  for (let i = 0; i < keys.length; i++) if (f[keys[i]!] === null) return true;
  return false;
}

function keysEqual(a: readonly unknown[], ak: readonly number[], b: readonly unknown[], bk: readonly number[], nullEqual: boolean): boolean {
  for (let i = 0; i < ak.length; i++) {
    const x = a[ak[i]!];
    const y = b[bk[i]!];
    if (x === null || y === null) {
      if (nullEqual && x === y) continue;
      return false;
    }
    // INTERSECT / EXCEPT: Flink plans them as a semi / anti join on IS NOT DISTINCT FROM, whose generated code
    // compares doubles with == (a real Flink 2.3 keeps a NaN row in EXCEPT and drops it from INTERSECT).
    if (nullEqual && typeof x === 'number' && Number.isNaN(x)) return false;
    if (!valuesEqual(x, y)) return false;
  }
  return true;
}

export function semiJoinFactory(name: string, spec: SemiJoinSpec): OperatorFactory {
  return { name, create: () => new SemiJoinOperator(spec) };
}
