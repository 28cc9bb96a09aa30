import type { ValueState } from '../../runtime/state/state.js';
import type { FiredTimer } from '../../runtime/timer-service.js';
import type { OperatorContext, OperatorFactory, StreamOperator } from '../../runtime/stream-operator.js';
import { Row } from '../../types/row.js';
import { RowKind } from '../../types/row-kind.js';
import { hashFields, valuesEqual } from '../../types/values/equality.js';
import { fieldsComparator } from '../sort-limit-operator.js';
import { evaluateMatchExpr } from './match-evaluator.js';
import type { MatchedRow } from './match-evaluator.js';
import { emptyNfaState, MatchNfa } from './match-nfa.js';
import type { NfaState } from './match-nfa.js';
import type { MatchRecognizeSpec } from './match-spec.js';

/** One partition (PARTITION BY key) of the keyed state; partitions whose keys hash alike share a state entry. */
interface PartitionState {
  readonly key: unknown[];
  /** Event time and batch: rows waiting for the watermark (or the end of input), in arrival order. */
  pending: unknown[][];
  nfa: NfaState;
  /** Sequence number of the next row fed to the matcher (orders starts for the skip strategies). */
  seq: number;
}

/**
 * MATCH_RECOGNIZE ... ONE ROW PER MATCH (Flink's Match / CepOperator). Event time: rows wait in keyed state
 * until the watermark passes their time, then are fed in time order (late rows are dropped and counted, as
 * Flink's CEP does); processing time: rows are fed as they arrive; batch: rows are sorted at end of input.
 * Each found match emits one +I row of the partition keys and the measures. The pending rows and the
 * partial matches live in keyed state, so checkpoints capture them and restores (also rescaled) resume them.
 */
export class MatchRecognizeOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private state!: ValueState<PartitionState[]>;
  private readonly nfa: MatchNfa;
  private readonly cmp: (a: unknown[], b: unknown[]) => number;
  lateRecordsDropped = 0;

  constructor(private readonly spec: MatchRecognizeSpec) {
    this.nfa = new MatchNfa(spec.pattern, spec.defines, spec.skip, spec.withinMs);
    const ti = spec.timeIndex;
    const byKeys = fieldsComparator(spec.order);
    // Batch: `order` holds every ORDER BY key (the first need not be a time); streaming: the time, then the rest.
    this.cmp = spec.time === 'batch' ? byKeys : (a, b) => (a[ti] as number) - (b[ti] as number) || byKeys(a, b);
  }

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    this.state = ctx.keyedState.getState<PartitionState[]>('match');
  }

  processBatch(rows: Row[]): void {
    const out: Row[] = [];
    const time = this.spec.time;
    const wm = this.ctx.timerService.currentWatermark();
    for (const row of rows) {
      if (row.kind !== RowKind.INSERT) continue;
      const f = row.fields;
      if (time === 'event') {
        const ts = f[this.spec.timeIndex] as number | null;
        if (ts === null || ts <= wm) {
          this.lateRecordsDropped++;
          continue;
        }
        this.partition(f).pending.push(f);
        this.state.update(this.state.value()!);
        this.ctx.timerService.registerEventTimeTimer(ts);
      } else if (time === 'batch') {
        this.partition(f).pending.push(f);
        this.state.update(this.state.value()!);
      } else {
        const p = this.partition(f);
        const now = this.ctx.timerService.currentProcessingTime();
        this.feed(p, [f], now, out);
        this.state.update(this.state.value()!);
      }
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }

  onTimer(timer: FiredTimer): void {
    const parts = this.state.value();
    if (parts === undefined) return;
    const out: Row[] = [];
    for (const p of parts) this.release(p, timer.timestamp, out);
    this.state.update(parts);
    if (out.length > 0) this.ctx.output.collect(out);
  }

  finish(): void {
    if (this.spec.time === 'processing') return;
    const out: Row[] = [];
    const ks = this.ctx.keyedState;
    for (const k of [...ks.keys('match')]) {
      ks.setCurrentKey(k);
      const parts = this.state.value() ?? [];
      for (const p of parts) this.release(p, Infinity, out);
      this.state.update(parts);
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }

  /** Feeds the pending rows with a time up to `upTo` in order, then lets time pass to `upTo` (WITHIN). */
  private release(p: PartitionState, upTo: number, out: Row[]): void {
    const ti = this.spec.timeIndex;
    const ready: unknown[][] = [];
    const rest: unknown[][] = [];
    for (const r of p.pending) (upTo === Infinity || (r[ti] as number) <= upTo ? ready : rest).push(r);
    if (ready.length > 0) {
      p.pending = rest;
      ready.sort(this.cmp);
      this.feed(p, ready, null, out);
    }
    const matches = this.nfa.advanceTime(p.nfa, upTo);
    for (const m of matches) out.push(this.output(p, m));
  }

  /** Feeds rows in order; `now` is their time in processing time (null: each row's own time). */
  private feed(p: PartitionState, rows: readonly unknown[][], now: number | null, out: Row[]): void {
    const times = { proctime: this.ctx.timerService.currentProcessingTime() };
    for (const fields of rows) {
      const t = fields[this.spec.timeIndex];
      // Batch may order by a column that is no time: WITHIN then measures nothing.
      const ts = now ?? (typeof t === 'number' ? t : 0);
      const matches = this.nfa.advance(p.nfa, { seq: p.seq++, ts, fields }, times);
      for (const m of matches) out.push(this.output(p, m));
    }
    const within = this.spec.withinMs;
    if (within !== null && this.spec.time !== 'batch') {
      // A partial match times out WITHIN after its first row even if no row comes: a timer then frees the
      // matches waiting for it.
      const starts = new Set(p.nfa.partials.map((m) => m.rows[0]!.ts));
      for (const s of starts) {
        if (this.spec.time === 'event') this.ctx.timerService.registerEventTimeTimer(s + within);
        else this.ctx.timerService.registerProcessingTimeTimer(s + within);
      }
    }
  }

  private output(p: PartitionState, m: readonly MatchedRow[]): Row {
    const times = { proctime: this.ctx.timerService.currentProcessingTime() };
    const values = this.spec.measures.map((e) => evaluateMatchExpr(e, m, times));
    return new Row(RowKind.INSERT, [...p.key, ...values]);
  }

  /** The current row's partition (created if new), with the state key set to it. */
  private partition(f: readonly unknown[]): PartitionState {
    const keys = this.spec.partitionKeys;
    this.ctx.keyedState.setCurrentKey(hashFields(f, keys));
    const parts = this.state.value() ?? [];
    let p = parts.find((x) => keys.every((k, i) => valuesEqual(x.key[i], f[k])));
    if (p === undefined) {
      p = { key: keys.map((k) => f[k]), pending: [], nfa: emptyNfaState(), seq: 0 };
      parts.push(p);
      this.state.update(parts);
    }
    return p;
  }
}

export function matchRecognizeFactory(name: string, spec: () => MatchRecognizeSpec): OperatorFactory {
  return { name, create: () => new MatchRecognizeOperator(spec()) };
}
