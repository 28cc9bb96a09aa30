import type { ValueState } from '../runtime/state/state.js';
import type { FiredTimer } from '../runtime/timer-service.js';
import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import { Row } from '../types/row.js';
import { RowKind } from '../types/row-kind.js';
import { hashFields, valuesEqual } from '../types/values/equality.js';
import { distinctIdentity } from './group-aggregate-operator.js';
import type { AggregateSpec } from './group-aggregate-operator.js';

interface Session {
  start: number;
  /** Exclusive: last row time + gap. */
  end: number;
  readonly rows: unknown[][];
}

interface KeyState {
  readonly key: unknown[];
  readonly sessions: Session[];
}

export interface SessionSpec {
  /** Input fields of the output group keys, in output order; window_start / window_end included. */
  readonly groupKeys: readonly number[];
  /** Input field holding the row's time (the TVF's proto window_start). */
  readonly windowStartField: number;
  readonly windowEndField: number;
  readonly gap: number;
}

/**
 * SESSION window aggregate: per key (the group keys other than window_start/window_end), rows closer
 * than `gap` form a session; sessions merge when a row bridges them. A session is emitted (+I, final)
 * once the watermark passes its end; late rows (end already passed) are dropped and counted. Sessions
 * keep their rows and aggregate when they fire, so every aggregate works without `merge`, and DISTINCT
 * (values counted once, NULLs skipped) and FILTER apply to the merged session's rows as a whole: merging
 * two sessions that saw the same value counts it once.
 */
export class SessionWindowOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private state!: ValueState<KeyState[]>;
  private readonly keyFields: number[];
  lateRecordsDropped = 0;

  constructor(
    private readonly spec: SessionSpec,
    private readonly aggs: readonly AggregateSpec[],
  ) {
    this.keyFields = spec.groupKeys.filter((k) => k !== spec.windowStartField && k !== spec.windowEndField);
  }

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    this.state = ctx.keyedState.getState<KeyState[]>('sessions');
  }

  processBatch(rows: Row[]): void {
    const ks = this.ctx.keyedState;
    const timers = this.ctx.timerService;
    const wm = timers.currentWatermark();
    const { gap, windowStartField } = this.spec;
    for (const row of rows) {
      const f = row.fields;
      const ts = f[windowStartField] as number;
      if (ts + gap - 1 <= wm) {
        this.lateRecordsDropped++;
        continue;
      }
      ks.setCurrentKey(hashFields(f, this.keyFields));
      const all = this.state.value() ?? [];
      let ksState = all.find((x) => this.keyFields.every((k, i) => valuesEqual(x.key[i], f[k])));
      if (ksState === undefined) {
        ksState = { key: this.keyFields.map((k) => f[k]), sessions: [] };
        all.push(ksState);
        this.state.update(all);
      }
      const start = ts;
      const end = ts + gap;
      const sessions = ksState.sessions;
      const overlapping = sessions.filter((s) => s.start < end && start < s.end);
      // Grow the largest overlapping session in place (copying its rows per row made long sessions quadratic).
      let merged: Session | undefined;
      for (const s of overlapping) if (merged === undefined || s.rows.length > merged.rows.length) merged = s;
      if (merged === undefined) {
        merged = { start, end, rows: [f] };
        sessions.push(merged);
      } else {
        merged.rows.push(f);
        merged.start = Math.min(merged.start, start);
        merged.end = Math.max(merged.end, end);
        for (const s of overlapping) {
          if (s === merged) continue;
          merged.start = Math.min(merged.start, s.start);
          merged.end = Math.max(merged.end, s.end);
          for (const r of s.rows) merged.rows.push(r);
          sessions.splice(sessions.indexOf(s), 1);
        }
      }
      timers.registerEventTimeTimer(merged.end - 1);
    }
  }

  onTimer(timer: FiredTimer): void {
    const out: Row[] = [];
    for (const k of this.state.value() ?? []) this.fire(k, timer.timestamp, out);
    if (out.length > 0) this.ctx.output.collect(out);
  }

  finish(): void {
    const ks = this.ctx.keyedState;
    const out: Row[] = [];
    for (const key of [...ks.keys('sessions')]) {
      ks.setCurrentKey(key);
      for (const k of this.state.value() ?? []) this.fire(k, Infinity, out);
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }

  private fire(k: KeyState, upTo: number, out: Row[]): void {
    const due = k.sessions.filter((s) => s.end - 1 <= upTo).sort((a, b) => a.start - b.start);
    if (due.length === 0) return;
    const rest = k.sessions.filter((s) => !due.includes(s));
    k.sessions.length = 0;
    k.sessions.push(...rest);
    for (const s of due) {
      const fields = this.spec.groupKeys.map((g) =>
        g === this.spec.windowStartField ? s.start : g === this.spec.windowEndField ? s.end : k.key[this.keyFields.indexOf(g)],
      );
      s.rows.sort((a, b) => (a[this.spec.windowStartField] as number) - (b[this.spec.windowStartField] as number));
      for (const a of this.aggs) {
        const acc = a.fn.createAccumulator();
        const seen = a.distinct ? new Set<unknown>() : null;
        for (const r of s.rows) {
          if (a.filterArg >= 0 && r[a.filterArg] !== true) continue;
          const args = a.args.map((i) => r[i]);
          if (seen !== null) {
            if (args.some((v) => v === null)) continue;
            const id = distinctIdentity(args);
            if (seen.has(id)) continue;
            seen.add(id);
          }
          a.fn.accumulate(acc, ...args);
        }
        fields.push(a.fn.getValue(acc));
      }
      out.push(new Row(RowKind.INSERT, fields));
    }
  }
}

export function sessionWindowFactory(name: string, spec: SessionSpec, aggs: () => AggregateSpec[]): OperatorFactory {
  return { name, create: () => new SessionWindowOperator(spec, aggs()) };
}
