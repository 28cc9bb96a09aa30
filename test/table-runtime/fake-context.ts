import { HeapTimerService } from '../../src/runtime/heap-timer-service.js';
import { HeapKeyedStateBackend, HeapOperatorStateStore } from '../../src/runtime/state/heap-state-backend.js';
import type { OperatorContext, StreamOperator } from '../../src/runtime/stream-operator.js';
import type { Row } from '../../src/types/row.js';

/** Drives one operator by hand: collects output, advances watermarks and fires event-time timers. */
export class OperatorHarness {
  readonly out: Row[] = [];
  readonly watermarks: number[] = [];
  readonly keyed: HeapKeyedStateBackend;
  readonly timers = new HeapTimerService(() => this.keyed.getCurrentKey());
  readonly ctx: OperatorContext;

  /** `clock` is the state backend's TTL clock (tests of expiry pass their own instead of sleeping). */
  constructor(readonly op: StreamOperator, clock?: () => number) {
    this.keyed = new HeapKeyedStateBackend(clock);
    this.ctx = {
      operatorName: 'test',
      subtaskIndex: 0,
      parallelism: 1,
      attemptNumber: 0,
      config: new Map(),
      output: { collect: (rows) => void this.out.push(...rows), emitWatermark: (w) => void this.watermarks.push(w) },
      keyedState: this.keyed,
      operatorState: new HeapOperatorStateStore(),
      timerService: this.timers,
      awaitBeforeNextBatch: () => {},
    };
  }

  async open(): Promise<this> {
    await this.op.open(this.ctx);
    return this;
  }

  push(rows: Row[], input = 0): this {
    this.op.processBatch(rows, input);
    return this;
  }

  watermark(w: number): this {
    this.timers.watermark = w;
    this.timers.fire('EVENT_TIME', w, (t) => {
      this.keyed.setCurrentKey(t.key);
      this.op.onTimer?.(t);
    });
    this.op.processWatermark?.(w, 0);
    return this;
  }

  async finish(): Promise<this> {
    await this.op.finish?.();
    return this;
  }
}
