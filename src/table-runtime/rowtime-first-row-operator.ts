import type { ValueState } from '../runtime/state/state.js';
import type { OperatorContext, OperatorFactory, StreamOperator } from '../runtime/stream-operator.js';
import type { FiredTimer } from '../runtime/timer-service.js';
import { Row } from '../types/row.js';
import { RowKind } from '../types/row-kind.js';
import { hashFields, valuesEqual } from '../types/values/equality.js';
import { millisOf, type TimestampValue } from '../types/values/precise-timestamp.js';

export interface RowtimeFirstRowSpec {
  readonly partitionKeys: readonly number[];
  /** The input field holding the rowtime the rows are ordered by. */
  readonly rowtimeIndex: number;
}

/** One partition key's progress; keys whose hashes collide share a state slot. */
interface KeyProgress {
  readonly key: unknown[];
  /** The earliest row seen so far, waiting for the watermark to pass its time; null once emitted. */
  waiting: unknown[] | null;
  emitted: boolean;
}

/**
 * The first row per key by event time, insert-only (Flink 2.x's RowTimeDeduplicateKeepFirstRowFunction): a row
 * waits in state until the watermark passes its rowtime, an earlier row that comes before then takes its place,
 * and the one left is emitted as +I when its timer fires. After that the key emits nothing more, and a row whose
 * rowtime is behind the watermark is late and dropped (counted), so nothing emitted ever has to be retracted.
 */
export class RowtimeFirstRowOperator implements StreamOperator {
  private ctx!: OperatorContext;
  private state!: ValueState<KeyProgress[]>;
  lateRecordsDropped = 0;

  constructor(private readonly spec: RowtimeFirstRowSpec) {}

  open(ctx: OperatorContext): void {
    this.ctx = ctx;
    this.state = ctx.keyedState.getState<KeyProgress[]>('rowtime-first-row');
  }

  processBatch(rows: Row[]): void {
    const ks = this.ctx.keyedState;
    const timers = this.ctx.timerService;
    const pk = this.spec.partitionKeys;
    const rt = this.spec.rowtimeIndex;
    for (const row of rows) {
      // The planner uses this operator only over an insert-only input.
      if (row.kind !== RowKind.INSERT) continue;
      const f = row.fields;
      const time = f[rt] as TimestampValue | null;
      if (time === null || millisOf(time) < timers.currentWatermark()) {
        this.lateRecordsDropped++;
        continue;
      }
      ks.setCurrentKey(hashFields(f, pk));
      const slot = this.state.value() ?? [];
      let p = slot.find((x) => pk.every((k, i) => valuesEqual(x.key[i], f[k])));
      if (p === undefined) {
        p = { key: pk.map((k) => f[k]), waiting: null, emitted: false };
        slot.push(p);
      }
      if (p.emitted) continue;
      const ms = millisOf(time);
      const held = p.waiting === null ? null : millisOf(p.waiting[rt] as TimestampValue);
      // Ties keep the row that came first, as Flink keeps the current row only when strictly earlier.
      if (held !== null && ms >= held) continue;
      if (held !== null && !slot.some((x) => x !== p && x.waiting !== null && millisOf(x.waiting[rt] as TimestampValue) === held)) {
        timers.deleteEventTimeTimer(held);
      }
      p.waiting = f;
      timers.registerEventTimeTimer(ms);
      this.state.update(slot);
    }
  }

  onTimer(timer: FiredTimer): void {
    const out: Row[] = [];
    this.emitDue(timer.timestamp, out);
    if (out.length > 0) this.ctx.output.collect(out);
  }

  /** End of input: the final watermark passes every row still waiting. */
  finish(): void {
    const ks = this.ctx.keyedState;
    const out: Row[] = [];
    for (const key of [...ks.keys('rowtime-first-row')]) {
      ks.setCurrentKey(key);
      this.emitDue(Number.POSITIVE_INFINITY, out);
    }
    if (out.length > 0) this.ctx.output.collect(out);
  }

  /** Emits the current slot's waiting rows whose rowtime is at or before `upTo`. */
  private emitDue(upTo: number, out: Row[]): void {
    const slot = this.state.value();
    if (slot === undefined) return;
    let changed = false;
    for (const p of slot) {
      if (p.waiting === null || millisOf(p.waiting[this.spec.rowtimeIndex] as TimestampValue) > upTo) continue;
      out.push(new Row(RowKind.INSERT, p.waiting.slice()));
      p.waiting = null;
      p.emitted = true;
      changed = true;
    }
    if (changed) this.state.update(slot);
  }
}

export function rowtimeFirstRowFactory(name: string, spec: RowtimeFirstRowSpec): OperatorFactory {
  return { name, create: () => new RowtimeFirstRowOperator(spec) };
}
