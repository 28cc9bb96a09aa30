import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Row } from '../types/row.js';
import type { ColumnBatch } from '../types/columns/column-batch.js';
import type { StreamElement } from './channel.js';
import type { PendingCommittableValue, TaskHandle, TaskHost, TaskVertex } from './task-host.js';
import type { SerializedValue, TaskSnapshot } from './checkpoint/completed-checkpoint.js';
import type { TaskRestore } from './checkpoint/task-restore.js';
import { OperatorChain, type ChainTail } from './operator-chain.js';
import type { RecordWriter } from './record-writer.js';
import type { SinkWriter } from './sink/sink-writer.js';
import type { TaskMetrics } from './task-host.js';

/** How long closing a canceled task waits for writer calls still running. */
const WRITER_CALL_GRACE_MS = 10_000;

/** Thrown inside a task loop when the attempt is being torn down; never reported as a failure. */
export class TaskCanceled extends Error {}

/**
 * What every task has: the chain, its outputs (channels or a sink writer), cancellation, backpressure
 * and the checkpoint step shared by source and input tasks (Flink's `StreamTask`).
 */
export abstract class StreamTask implements ChainTail, TaskHandle {
  protected readonly chain: OperatorChain;
  protected writer: SinkWriter<Row, unknown, unknown> | undefined;
  private readonly pending: Promise<void>[] = [];
  /**
   * Writer calls still running. A canceled task stops awaiting them at once, but the writer must not be
   * closed under a call that is still writing: a file or transaction opened after the close would outlive
   * the attempt and race the restored writer's cleanup.
   */
  private readonly writerCalls = new Set<Promise<unknown>>();
  protected canceled = false;
  private wakeResolve: (() => void) | undefined;
  private lastYield = performance.now();
  /** Committables prepared at end of input, handed to the host with the final snapshot. */
  private finalCommittables: SerializedValue[] = [];

  constructor(
    protected readonly host: TaskHost,
    protected readonly vertex: TaskVertex,
    readonly subtaskIndex: number,
    protected readonly outputs: readonly RecordWriter[],
    protected readonly restored: TaskRestore | undefined,
    protected readonly metrics: TaskMetrics,
  ) {
    // Measured from the start, so a task that never gets input reads as idle rather than unknown.
    metrics.busyMs ??= 0;
    metrics.backPressuredMs ??= 0;
    this.chain = new OperatorChain(vertex.operators, this, {
      subtaskIndex,
      parallelism: vertex.parallelism,
      attemptNumber: host.attempt,
      config: host.config.raw,
      stateBackend: host.config.stateBackend,
      awaitBeforeNextBatch: (p) => this.pending.push(p),
    });
  }

  get key(): string {
    return `${this.vertex.id}#${this.subtaskIndex}`;
  }

  /** Runs the task to its end; rejects on failure. Resources are released in every case. */
  abstract run(): Promise<void>;

  // --- ChainTail ---

  collect(rows: Row[]): void {
    this.metrics.recordsOut += rows.length;
    if (this.writer) {
      const p = this.writer.write(rows);
      if (p !== undefined) this.pending.push(this.trackWriterCall(p));
      return;
    }
    for (const o of this.outputs) o.emit(rows);
  }

  /** Columns stay columns into a writer that takes them; channels to other tasks carry rows. */
  collectColumns(batch: ColumnBatch): void {
    const w = this.writer;
    if (w?.writeColumns === undefined) {
      this.collect(batch.toRows());
      return;
    }
    this.metrics.recordsOut += batch.length;
    const p = w.writeColumns(batch);
    if (p !== undefined) this.pending.push(this.trackWriterCall(p));
  }

  private lastEmittedWatermark = -Infinity;

  emitWatermark(watermark: number): void {
    if (watermark <= this.lastEmittedWatermark) return;
    this.lastEmittedWatermark = watermark;
    if (this.writer) this.writer.writeWatermark?.(watermark);
    else this.broadcast({ kind: 'watermark', watermark });
  }

  protected broadcast(e: StreamElement): void {
    for (const o of this.outputs) o.broadcastElement(e);
  }

  // --- lifecycle helpers ---

  protected async openChainAndWriter(): Promise<void> {
    const sink = this.vertex.sink;
    if (sink) {
      const ser = sink.getWriterStateSerializer?.();
      const restoredState = this.restored?.writerState?.map((v) => {
        if (!ser) throw new Error(`sink '${this.vertex.name}' has writer state but no writer state serializer`);
        return ser.deserialize(v.version, v.data);
      });
      this.writer = sink.createWriter(
        {
          subtaskIndex: this.subtaskIndex,
          parallelism: this.vertex.parallelism,
          attemptNumber: this.host.attempt,
          restoredCheckpointId: this.host.restoredCheckpointId,
          jobId: this.host.jobId,
          config: this.host.config.raw,
        },
        restoredState,
      );
    }
    await this.chain.open(this.restored?.operators);
  }

  /** Starts busy time (Flink's `busyTimeMsPerSecond`), if not started: the task has an element or a poll to work on. */
  protected beginWork(): void {
    this.metrics.busySince ??= performance.now();
  }

  /** Ends busy time: the task is about to wait for input, for space downstream, or for its turn on the thread. */
  protected endWork(): void {
    const m = this.metrics;
    if (m.busySince === undefined) return;
    m.busyMs = (m.busyMs ?? 0) + performance.now() - m.busySince;
    m.busySince = undefined;
  }

  /**
   * Awaits sink writes and channel space before the next batch: the task's backpressure point. Sink writes
   * count as busy time (the task is doing its work in the external system), waiting for channel space as
   * back-pressured time.
   */
  protected async drainBackpressure(): Promise<void> {
    await this.drainPending();
    this.endWork();
    for (const o of this.outputs) {
      for (let s = o.awaitSpace(); s !== undefined; s = o.awaitSpace()) {
        const m = this.metrics;
        m.backPressuredSince = performance.now();
        try {
          await this.awaitOutputSpace(s);
        } finally {
          m.backPressuredMs = (m.backPressuredMs ?? 0) + performance.now() - m.backPressuredSince;
          m.backPressuredSince = undefined;
        }
      }
    }
    const now = performance.now();
    if (now - this.lastYield > 4) {
      // Let timers, IO and other tasks run; one yield per few ms keeps the per-batch cost negligible.
      await yieldToLoop();
      this.lastYield = performance.now();
      if (this.canceled) throw new TaskCanceled();
    }
  }

  /** Waits while an output channel is full (`space` resolves when it is not); a task may do urgent work meanwhile. */
  protected awaitOutputSpace(space: Promise<void>): Promise<void> {
    return this.guard(space);
  }

  /** Waits for `space`, doing `work` first and again at each `signal` that comes before it. */
  protected async awaitSpaceDoing(space: Promise<void>, work: () => Promise<void>, signal: () => Promise<void>): Promise<void> {
    let free = false;
    const freed = space.then(() => {
      free = true;
    });
    for (;;) {
      await work();
      if (free) return;
      await this.guard(Promise.race([freed, signal()]));
      if (free) return;
    }
  }

  /** Awaits `p` unless the task is canceled first. */
  protected guard<T>(p: Promise<T>): Promise<T> {
    if (this.canceled) return Promise.reject(new TaskCanceled());
    // One listener per wait, removed when the wait ends: racing a long-lived promise would pile up reactions.
    return new Promise<T>((resolve, reject) => {
      const onCancel = (): void => reject(new TaskCanceled());
      this.cancelListeners.add(onCancel);
      p.then(
        (v) => {
          this.cancelListeners.delete(onCancel);
          if (this.canceled) reject(new TaskCanceled());
          else resolve(v);
        },
        (e: unknown) => {
          this.cancelListeners.delete(onCancel);
          reject(e);
        },
      );
    });
  }

  private readonly cancelListeners = new Set<() => void>();

  /** Awaits the sink writes and async operator work started so far (and any they start in turn). */
  private async drainPending(): Promise<void> {
    while (this.pending.length > 0) {
      const ps = this.pending.splice(0);
      await this.guard(ps.length === 1 ? ps[0]! : Promise.all(ps).then(() => undefined));
    }
  }

  /** A promise resolved by `wake()` (new events, barrier triggers), for idle waits. */
  protected wakeSignal(): Promise<void> {
    return new Promise((r) => (this.wakeResolve = r));
  }

  wake(): void {
    const w = this.wakeResolve;
    this.wakeResolve = undefined;
    w?.();
  }

  cancel(): void {
    this.canceled = true;
    for (const l of [...this.cancelListeners]) l();
    this.cancelListeners.clear();
    this.wake();
    for (const o of this.outputs) o.releaseAll();
  }

  /** Waits for input, a wake-up, or the next processing-time timer / idle check. */
  protected async idleWait(input: Promise<void>, maxWaitMs: number | undefined): Promise<void> {
    this.endWork();
    const nextTimer = this.chain.nextProcessingTimer();
    let wait = maxWaitMs;
    if (nextTimer !== undefined) wait = Math.max(0, Math.min(wait ?? Infinity, nextTimer - Date.now()));
    let t: NodeJS.Timeout | undefined;
    const timeout = wait === undefined ? undefined : new Promise<void>((r) => (t = setTimeout(r, wait)));
    try {
      await this.guard(Promise.race(timeout ? [input, this.wakeSignal(), timeout] : [input, this.wakeSignal()]));
    } finally {
      if (t) clearTimeout(t);
    }
  }

  protected fireProcessingTimers(): void {
    const next = this.chain.nextProcessingTimer();
    if (next !== undefined && next <= Date.now()) this.chain.fireProcessingTimers(Date.now());
  }

  // --- checkpoints ---

  /** Snapshots the chain (and the sink writer's pre-commit), emits the barrier, acknowledges. */
  protected async performCheckpoint(
    checkpointId: number,
    splits: SerializedValue[] | undefined,
    alignmentMs = 0,
    savepoint = false,
    startedAt = Date.now(),
  ): Promise<void> {
    const { snapshot, committables } = await this.snapshotAtBarrier(checkpointId, splits, savepoint, startedAt);
    this.host.acknowledge(this.key, checkpointId, snapshot, committables, alignmentMs);
  }

  /**
   * Snapshots the chain and the sink writer's pre-commit and sends the barrier on; the caller acknowledges (an
   * unaligned checkpoint once the rows in flight are known).
   */
  protected async snapshotAtBarrier(
    checkpointId: number,
    splits: SerializedValue[] | undefined,
    savepoint: boolean,
    startedAt = Date.now(),
  ): Promise<{ snapshot: TaskSnapshot; committables: PendingCommittableValue[] }> {
    // Rows emitted since the last batch (windows a watermark fired, async lookup results) may still be on
    // their way into the sink writer; they precede the barrier, so they belong to this checkpoint's pre-commit.
    this.chain.prepareSnapshotPreBarrier(checkpointId);
    await this.drainPending();
    const operators = this.chain.snapshot(checkpointId);
    const { committables, writerState } = await this.prepareSinkCommit(false, checkpointId);
    this.broadcast(savepoint ? { kind: 'barrier', checkpointId, savepoint: true, startedAt } : { kind: 'barrier', checkpointId, startedAt });
    return { snapshot: { finished: false, splits, operators, writerState }, committables };
  }

  private async prepareSinkCommit(
    endOfInput: boolean,
    checkpointId: number,
  ): Promise<{ committables: PendingCommittableValue[]; writerState: SerializedValue[] | undefined }> {
    const w = this.writer;
    const sink = this.vertex.sink;
    if (!w || !sink) return { committables: [], writerState: undefined };
    await this.guard(this.trackWriterCall(w.flush(endOfInput)));
    const raw = w.prepareCommit ? await this.guard(this.trackWriterCall(w.prepareCommit())) : [];
    let committables: PendingCommittableValue[] = [];
    if (raw.length > 0) {
      const ser = sink.getCommittableSerializer?.();
      if (!ser) throw new Error(`sink '${this.vertex.name}' prepares committables but has no committable serializer`);
      committables = raw.map((c) => ({ version: ser.version, data: ser.serialize(c) }));
    }
    const st = w.snapshotState?.(checkpointId);
    let writerState: SerializedValue[] | undefined;
    if (st && st.length > 0) {
      const ser = sink.getWriterStateSerializer?.();
      if (!ser) throw new Error(`sink '${this.vertex.name}' has writer state but no writer state serializer`);
      writerState = st.map((s) => ({ version: ser.version, data: ser.serialize(s) }));
    }
    return { committables, writerState };
  }

  notifyCheckpointComplete(checkpointId: number): void {
    this.chain.notifyCheckpointComplete(checkpointId);
  }

  /** End of input: final results, sink end-of-input flush and pre-commit, end-of-partition downstream. */
  protected async endOfInput(): Promise<void> {
    await this.chain.finish();
    await this.drainBackpressure();
    const { committables } = await this.prepareSinkCommit(true, -1);
    this.finalCommittables = committables;
    this.broadcast({ kind: 'end' });
    this.host.finished(this.key, { finished: true, splits: [], operators: [], writerState: undefined }, this.finalCommittables);
  }

  private trackWriterCall<T>(p: Promise<T>): Promise<T> {
    this.writerCalls.add(p);
    const done = (): void => void this.writerCalls.delete(p);
    p.then(done, done);
    return p;
  }

  protected async closeAll(): Promise<void> {
    this.endWork();
    await this.chain.close();
    if (this.writerCalls.size > 0) {
      // Bounded: a writer call stuck on an unreachable system must not keep the restart waiting forever.
      let t: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((r) => (t = setTimeout(r, WRITER_CALL_GRACE_MS)));
      await Promise.race([Promise.allSettled([...this.writerCalls]), grace]);
      clearTimeout(t);
    }
    try {
      await this.writer?.close();
    } catch {
      // A failing close must not hide the original failure.
    }
  }
}
