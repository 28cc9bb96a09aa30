import type { ValueState } from '../runtime/state/state.js';
import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import type { FiredTimer } from '../runtime/timer-service.js';
import { Row } from '../types/row.js';
import { RowKind } from '../types/row-kind.js';
import { hashFields, valuesEqual } from '../types/values/equality.js';
import { millisOf, type TimestampValue } from '../types/values/precise-timestamp.js';
import { fieldsComparator } from './sort-limit-operator.js';
import type { SortKeySpec } from './sort-limit-operator.js';

export interface WindowRankSpec {
  /** The partition keys other than window_start / window_end: rows are keyed (and exchanged) by these. */
  readonly partitionKeys: readonly number[];
  /** The input field holding the row's window_end, which names its window. */
  readonly windowEndField: number;
  readonly orderKeys: readonly SortKeySpec[];
  /** Rows numbered `rankStart` to `rankEnd` (ROW_NUMBER, 1-based) are emitted. */
  readonly rankStart: number;
  readonly rankEnd: number;
  /** Append the row number (BIGINT) to each emitted row. */
  readonly outputRankNumber: boolean;
  /**
   * A row that ties with held rows on the order keys goes before them, not after: a keep-last-row window
   * deduplication (ORDER BY rowtime DESC, Top-1) keeps the later of two rows with one rowtime, as Flink's does.
   */
  readonly newestFirstAmongTies: boolean;
}

/** The rows of one partition key in one window, sorted by the order keys (ties in arrival order), at most rankEnd. */
interface WindowGroup {
  readonly key: unknown[];
  readonly rows: unknown[][];
}

/** The groups of one window (named by its end) under one state key; keys whose hashes collide share it. */
interface PendingWindow {
  readonly end: number;
  readonly groups: WindowGroup[];
}

const STATE = 'window-rank';

/**
 * ROW_NUMBER Top-N and deduplication per window (Flink's WindowRank and WindowDeduplicate, insert-only): rows of
 * a window TVF or of a window aggregate carry their window, and each partition key keeps, per window, only the
 * best `rankEnd` rows so far in keyed state. When the watermark reaches window_end - 1 (an event-time timer of
 * the key), the rows numbered rankStart..rankEnd are emitted once as +I and the window's state is dropped. A row
 * whose window has already fired is late: dropped and counted in `lateRecordsDropped`, as Flink drops it. At end
 * of input every window still open fires. State and timers live in the keyed stores, so checkpoints and rescaling
 * need nothing of the operator.
 */
export class WindowRankOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private state!: ValueState<PendingWindow[]>;
  private readonly cmp: (a: unknown[], b: unknown[]) => number;
  lateRecordsDropped = 0;

  constructor(private readonly spec: WindowRankSpec) {
    this.cmp = fieldsComparator(spec.orderKeys);
  }

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    this.state = ctx.keyedState.getState<PendingWindow[]>(STATE);
  }

  processBatch(rows: Row[]): void {
    const ks = this.ctx.keyedState;
    const timers = this.ctx.timerService;
    const pk = this.spec.partitionKeys;
    const limit = this.spec.rankEnd;
    const newest = this.spec.newestFirstAmongTies;
    for (const row of rows) {
      // The planner puts this operator only over insert-only input.
      if (row.kind !== RowKind.INSERT && row.kind !== RowKind.UPDATE_AFTER) continue;
      const f = row.fields;
      const endValue = f[this.spec.windowEndField] as TimestampValue | null;
      if (endValue === null) continue;
      const end = millisOf(endValue);
      if (end - 1 <= timers.currentWatermark()) {
        this.lateRecordsDropped++;
        continue;
      }
      ks.setCurrentKey(hashFields(f, pk));
      const windows = this.state.value() ?? [];
      let w = windows.find((x) => x.end === end);
      if (w === undefined) {
        w = { end, groups: [] };
        windows.push(w);
        timers.registerEventTimeTimer(end - 1);
      }
      let g = w.groups.find((x) => pk.every((k, i) => valuesEqual(x.key[i], f[k])));
      if (g === undefined) {
        g = { key: pk.map((k) => f[k]), rows: [] };
        w.groups.push(g);
      }
      // Insert after equal rows so ties keep arrival order (before them when the newest wins a tie).
      let lo = 0;
      let hi = g.rows.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        const c = this.cmp(g.rows[mid]!, f);
        if (c < 0 || (c === 0 && !newest)) lo = mid + 1;
        else hi = mid;
      }
      // A row past the top can never come back into it: the input only inserts.
      if (lo >= limit) continue;
      g.rows.splice(lo, 0, f);
      if (g.rows.length > limit) g.rows.length = limit;
      this.state.update(windows);
    }
  }

  onTimer(timer: FiredTimer): void {
    const windows = this.state.value();
    if (windows === undefined) return;
    const end = timer.timestamp + 1;
    const at = windows.findIndex((w) => w.end === end);
    if (at < 0) return;
    const out: Row[] = [];
    this.emit(windows[at]!, out);
    windows.splice(at, 1);
    if (windows.length === 0) this.state.clear();
    else this.state.update(windows);
    if (out.length > 0) this.ctx.output.collect(out);
  }

  /** End of input: the final watermark passes every window still open; they fire in order of their ends. */
  finish(): void {
    const ks = this.ctx.keyedState;
    const open: PendingWindow[] = [];
    for (const key of [...ks.keys(STATE)]) {
      ks.setCurrentKey(key);
      open.push(...(this.state.value() ?? []));
      this.state.clear();
    }
    open.sort((a, b) => a.end - b.end);
    const out: Row[] = [];
    for (const w of open) this.emit(w, out);
    if (out.length > 0) this.ctx.output.collect(out);
  }

  private emit(w: PendingWindow, out: Row[]): void {
    const { rankStart, rankEnd, outputRankNumber } = this.spec;
    for (const g of w.groups) {
      const n = Math.min(g.rows.length, rankEnd);
      for (let i = rankStart - 1; i < n; i++) {
        const r = g.rows[i]!;
        out.push(new Row(RowKind.INSERT, outputRankNumber ? [...r, BigInt(i + 1)] : r.slice()));
      }
    }
  }
}

export function windowRankFactory(name: string, spec: WindowRankSpec): OperatorFactory {
  return { name, create: () => new WindowRankOperator(spec) };
}
