import { ExecutionError } from '../../errors/sluice-error.js';
import { evaluateMatchExpr } from './match-evaluator.js';
import type { EvalTimes, MatchedRow } from './match-evaluator.js';
import type { MatchExpr, PatternElement, SkipStrategy } from './match-spec.js';

/** A partial match: the pattern element it is at, how many rows that element took, and its rows. */
export interface PartialMatch {
  readonly elem: number;
  readonly count: number;
  /** Never empty: a partial match starts with the row its first element took. */
  readonly rows: readonly MatchedRow[];
}

/**
 * The matcher's state for one partition (plain data, kept in keyed state): the partial matches in order
 * of their first row, and the found matches that wait for an earlier partial match to end (Flink emits a
 * match only when no partial match that started earlier could still win under the skip strategy).
 */
export interface NfaState {
  partials: PartialMatch[];
  completed: MatchedRow[][];
}

export function emptyNfaState(): NfaState {
  return { partials: [], completed: [] };
}

/** A row to match: its sequence number in the partition's feed order, time and fields. */
export interface FedRow {
  readonly seq: number;
  readonly ts: number;
  readonly fields: readonly unknown[];
}

/**
 * An NFA over a concatenation of quantified variables, run as Flink's CEP runs it: every row advances all
 * partial matches at once (and may start a new one), so no row is read twice and nothing backtracks over
 * buffered rows; that keeps the state to the live partial matches and suits rows that arrive one by one.
 * A greedy element keeps every row its condition accepts from the elements after it (they may take only
 * rows it refuses, even once it is full); a reluctant one tries both. A match is found as soon as its last element has taken enough rows; matches leave in order of their
 * first row and each discards the partial and found matches its AFTER MATCH SKIP strategy rules out.
 */
export class MatchNfa {
  constructor(
    private readonly pattern: readonly PatternElement[],
    private readonly defines: ReadonlyMap<string, MatchExpr>,
    private readonly skip: SkipStrategy,
    private readonly withinMs: number | null,
  ) {}

  /** Feeds one row; returns the matches that can be emitted now, in order. */
  advance(state: NfaState, row: FedRow, times: EvalTimes): MatchedRow[][] {
    const next: PartialMatch[] = [];
    const done: MatchedRow[][] = [];
    for (const p of state.partials) {
      if (this.timedOut(p, row.ts)) continue;
      this.step(p.elem, p.count, p.rows, row, times, next, done);
    }
    this.step(0, 0, [], row, times, next, done);
    state.partials = next;
    if (done.length > 0) {
      state.completed.push(...done);
      state.completed.sort((a, b) => a[0]!.seq - b[0]!.seq);
    }
    return this.flush(state);
  }

  /** Time passed `t` (a watermark, or processing time): drops timed-out partial matches, emits what that frees. */
  advanceTime(state: NfaState, t: number): MatchedRow[][] {
    if (this.withinMs === null) return [];
    const before = state.partials.length;
    state.partials = state.partials.filter((p) => !this.timedOut(p, t));
    return before === state.partials.length ? [] : this.flush(state);
  }

  private timedOut(p: PartialMatch, t: number): boolean {
    return this.withinMs !== null && t - p.rows[0]!.ts >= this.withinMs;
  }

  /** Offers `row` to element `elem` (which has taken `count` rows of `rows`), and past it when it may end. */
  private step(elem: number, count: number, rows: readonly MatchedRow[], row: FedRow, times: EvalTimes, next: PartialMatch[], done: MatchedRow[][]): void {
    const e = this.pattern[elem]!;
    const room = e.max === null || count < e.max;
    const mayProceed = count >= e.min && elem + 1 < this.pattern.length;
    if (!room && !(mayProceed && e.greedy)) {
      if (mayProceed) this.step(elem + 1, 0, rows, row, times, next, done);
      return;
    }
    const taken = [...rows, { seq: row.seq, ts: row.ts, fields: row.fields, v: e.variable }];
    const accepted = this.accepts(e.variable, taken, times);
    if (room && accepted) {
      const c = count + 1;
      if (this.canEnd(elem, c)) done.push(taken);
      else next.push({ elem, count: c, rows: taken });
    }
    // Greedy, as Flink compiles it: the next element only takes rows this one's condition refuses, even once
    // this one is full ({1,3} with three rows).
    if (mayProceed && !(e.greedy && accepted)) this.step(elem + 1, 0, rows, row, times, next, done);
  }

  /** Whether a match may end once element `elem` has taken `count` rows: the elements after it are all optional. */
  private canEnd(elem: number, count: number): boolean {
    if (count < this.pattern[elem]!.min) return false;
    for (let j = elem + 1; j < this.pattern.length; j++) if (this.pattern[j]!.min > 0) return false;
    return true;
  }

  private accepts(variable: string, rows: readonly MatchedRow[], times: EvalTimes): boolean {
    const cond = this.defines.get(variable);
    return cond === undefined || evaluateMatchExpr(cond, rows, times) === true;
  }

  /** Emits found matches that started before every live partial match, pruning after each. */
  private flush(state: NfaState): MatchedRow[][] {
    const out: MatchedRow[][] = [];
    while (state.completed.length > 0) {
      const m = state.completed[0]!;
      const start = m[0]!.seq;
      if (state.partials.some((p) => p.rows[0]!.seq <= start)) break;
      state.completed.shift();
      out.push(m);
      const prune = this.pruner(m);
      state.partials = state.partials.filter((p) => !prune(p.rows[0]!.seq));
      state.completed = state.completed.filter((c) => !prune(c[0]!.seq));
    }
    return out;
  }

  /** Which starts (sequence numbers) the skip strategy discards after match `m`. */
  private pruner(m: readonly MatchedRow[]): (start: number) => boolean {
    const s = this.skip;
    switch (s.kind) {
      case 'past-last-row': {
        const last = m[m.length - 1]!.seq;
        return (start) => start <= last;
      }
      case 'to-next-row': {
        const first = m[0]!.seq;
        return (start) => start <= first;
      }
      case 'to-first':
      case 'to-last': {
        const rows = m.filter((r) => r.v === s.variable);
        const word = s.kind === 'to-first' ? 'FIRST' : 'LAST';
        if (rows.length === 0) throw new ExecutionError(`Could not skip to ${word} ${s.variable}: no row of the match is mapped to ${s.variable} (AFTER MATCH SKIP TO ${word} needs one)`);
        const target = (s.kind === 'to-first' ? rows[0]! : rows[rows.length - 1]!).seq;
        // Flink's message; the next match would start where this one did, endlessly.
        if (target === m[0]!.seq) throw new ExecutionError(`Could not skip to first element of a match. (AFTER MATCH SKIP TO ${word} ${s.variable} names the match's first row)`);
        return (start) => start < target;
      }
      default: {
        const never: never = s;
        return never;
      }
    }
  }
}
