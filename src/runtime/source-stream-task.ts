import type { Row } from '../types/row.js';
import type { SerializedValue } from './checkpoint/completed-checkpoint.js';
import { ReaderOutputImpl } from './source/source-output-impl.js';
import type { ReaderEvent, ReaderGateway } from './source/source-coordinator.js';
import type { ReaderCoordinator } from './task-host.js';
import type { SourceReader } from './source/source-reader.js';
import type { InputStatus, SourceSplit } from './source/source-split.js';
import { StreamTask } from './stream-task.js';

/** How often a source with paused splits re-evaluates watermark alignment while it has no data. */
const ALIGNMENT_RECHECK_MS = 50;

/**
 * A task whose chain is fed by a FLIP-27 reader (Flink's `SourceStreamTask` + `SourceOperator`). Loop:
 * apply enumerator events, take a pending checkpoint (between two polls, so split states match the emitted
 * records), poll one batch, push it through the chain, forward the watermark, await backpressure.
 */
export class SourceStreamTask extends StreamTask implements ReaderGateway {
  private readonly inbox: ReaderEvent[] = [];
  /** Checkpoints to take between two polls, oldest first (`savepoint`: a savepoint's barrier). */
  private readonly barriers: { readonly id: number; readonly savepoint: boolean }[] = [];
  private reader: SourceReader<Row, SourceSplit> | undefined;
  private coordinator: ReaderCoordinator | undefined;
  private lastWatermark = -Infinity;
  private idle = false;
  private readonly paused = new Set<string>();
  private readonly reported = new Set<string>();

  deliver(event: ReaderEvent): void {
    this.inbox.push(event);
    this.wake();
  }

  private suspendAfter: number | undefined;
  /**
   * Unaligned checkpoints: a checkpoint triggered while the task waits for space downstream is taken then, its
   * barrier sent past the full channels (the consumer overtakes what is queued), as Flink's priority barrier. Only
   * between two polls of the reader, and never once the input ended.
   */
  private checkpointWhileBlocked = false;

  /**
   * Called by the checkpoint coordinator: the barrier goes out after the batch in flight. With `suspend`
   * (stop-with-savepoint) the task emits nothing after that barrier and waits to be canceled.
   */
  triggerCheckpoint(checkpointId: number, suspend = false, savepoint = false): void {
    this.barriers.push({ id: checkpointId, savepoint });
    if (suspend) this.suspendAfter = checkpointId;
    this.wake();
  }

  async run(): Promise<void> {
    const source = this.vertex.source!;
    const strategy = this.vertex.watermarkStrategy;
    const coord = (this.coordinator = this.host.sourceCoordinator(this.vertex.id));
    try {
      const reader = (this.reader = source.createReader({
        subtaskIndex: this.subtaskIndex,
        parallelism: this.vertex.parallelism,
        config: this.host.config.raw,
        elementQueueCapacity: this.host.config.elementQueueCapacity,
        sendSplitRequest: () => coord.requestSplit(this.subtaskIndex),
        sendSourceEventToCoordinator: (e) => coord.sourceEventFromReader(this.subtaskIndex, e),
        countBytesIn: (bytes) => {
          this.metrics.bytesIn = (this.metrics.bytesIn ?? 0) + bytes;
        },
      }));
      this.metrics.pendingRecords = reader.pendingRecords === undefined ? undefined : () => reader.pendingRecords!();
      this.metrics.pendingBytes = reader.pendingBytes === undefined ? undefined : () => reader.pendingBytes!();
      await this.openChainAndWriter();
      const ser = source.getSplitSerializer();
      const restoredSplits = this.restored?.splits?.map((s) => ser.deserialize(s.version, s.data));
      if (restoredSplits && restoredSplits.length > 0) reader.addSplits(restoredSplits);
      coord.registerReader(this.subtaskIndex, this);
      await reader.start();

      const output = new ReaderOutputImpl(strategy);
      const idleTimeout = strategy?.idleTimeoutMs;
      let status: InputStatus = 'MORE_AVAILABLE';
      const c = this.host.config;
      this.checkpointWhileBlocked = c.checkpointingMode === 'EXACTLY_ONCE' && c.unalignedCheckpoints && c.alignedCheckpointTimeoutMs === 0;
      for (;;) {
        if (this.canceled) return;
        this.beginWork();
        this.applyInbox(reader);
        while (this.barriers.length > 0) {
          const b = this.barriers.shift()!;
          await this.checkpoint(b, reader);
          if (b.id === this.suspendAfter) {
            // Stop-with-savepoint: nothing may follow the savepoint's barrier.
            await this.guard(new Promise<void>(() => {}));
          }
        }
        output.now = Date.now();
        status = reader.pollNext(output);
        const batch = output.buffer;
        if (batch.length > 0) {
          output.buffer = [];
          this.metrics.recordsIn += batch.length;
          this.chain.processBatch(batch, 0);
        } else if (output.columns !== undefined) {
          const columns = output.columns;
          output.columns = undefined;
          this.metrics.recordsIn += columns.length;
          this.chain.processColumns(columns, 0);
        }
        if (strategy) this.forwardWatermark(output, reader);
        this.fireProcessingTimers();
        await this.drainBackpressure();
        if (status === 'END_OF_INPUT') break;
        if (status === 'NOTHING_AVAILABLE' && this.inbox.length === 0 && this.barriers.length === 0) {
          // Paused splits produce nothing, so re-check alignment periodically (Flink's update interval).
          const wait = this.paused.size > 0 ? Math.min(idleTimeout ?? ALIGNMENT_RECHECK_MS, ALIGNMENT_RECHECK_MS) : idleTimeout;
          await this.idleWait(reader.isAvailable(), wait);
        }
      }
      this.checkpointWhileBlocked = false;
      while (this.barriers.length > 0) await this.checkpoint(this.barriers.shift()!, reader);
      this.chain.processWatermark(Infinity, 0);
      coord.unregisterReader(this.subtaskIndex);
      await this.endOfInput();
    } finally {
      this.coordinator?.unregisterReader(this.subtaskIndex);
      await this.closeAll();
      await this.reader?.close().catch(() => undefined);
    }
  }

  protected override awaitOutputSpace(space: Promise<void>): Promise<void> {
    if (!this.checkpointWhileBlocked) return this.guard(space);
    return this.awaitSpaceDoing(space, () => this.checkpointsWhileBlocked(), () => this.wakeSignal());
  }

  private async checkpointsWhileBlocked(): Promise<void> {
    // A savepoint's barrier stays aligned, and nothing is taken out of order behind it.
    while (this.checkpointWhileBlocked && this.barriers[0] !== undefined && !this.barriers[0].savepoint) {
      await this.checkpoint(this.barriers.shift()!, this.reader!);
    }
  }

  private applyInbox(reader: SourceReader<Row, SourceSplit>): void {
    while (this.inbox.length > 0) {
      const e = this.inbox.shift()!;
      switch (e.kind) {
        case 'splits':
          reader.addSplits(e.splits);
          break;
        case 'no-more-splits':
          reader.notifyNoMoreSplits();
          break;
        case 'event':
          reader.handleSourceEvents?.(e.event);
          break;
        default: {
          const never: never = e;
          throw new Error(`unknown reader event ${String(never)}`);
        }
      }
    }
  }

  private async checkpoint(barrier: { readonly id: number; readonly savepoint: boolean }, reader: SourceReader<Row, SourceSplit>): Promise<void> {
    const ser = this.vertex.source!.getSplitSerializer();
    const splits: SerializedValue[] = reader.snapshotState(barrier.id).map((s) => ({ version: ser.version, data: ser.serialize(s) }));
    await this.performCheckpoint(barrier.id, splits, 0, barrier.savepoint);
  }

  override notifyCheckpointComplete(checkpointId: number): void {
    super.notifyCheckpointComplete(checkpointId);
    void this.reader?.notifyCheckpointComplete?.(checkpointId);
  }

  private forwardWatermark(output: ReaderOutputImpl, reader: SourceReader<Row, SourceSplit>): void {
    const wm = output.combinedWatermark();
    if (wm === 'idle') {
      if (!this.idle) {
        this.idle = true;
        this.broadcast({ kind: 'idle', idle: true });
      }
      return;
    }
    if (this.idle) {
      this.idle = false;
      this.broadcast({ kind: 'idle', idle: false });
    }
    if (wm > this.lastWatermark) {
      this.lastWatermark = wm;
      this.metrics.currentInputWatermark = wm;
      this.chain.processWatermark(wm, 0);
    }
    const align = this.vertex.watermarkStrategy?.alignment;
    if (align && reader.pauseOrResumeSplits) {
      const toPause: string[] = [];
      const toResume: string[] = [];
      const current = output.splitWatermarks();
      for (const split of this.reported) {
        if (!current.has(split)) {
          this.reported.delete(split);
          this.paused.delete(split);
          this.host.alignment.remove(align.group, `${this.key}/${split}`);
        }
      }
      for (const [split, w] of current) {
        this.reported.add(split);
        const max = this.host.alignment.report(align.group, `${this.key}/${split}`, w) + align.maxDriftMs;
        if (w > max && !this.paused.has(split)) {
          this.paused.add(split);
          toPause.push(split);
        } else if (w <= max && this.paused.has(split)) {
          this.paused.delete(split);
          toResume.push(split);
        }
      }
      if (toPause.length > 0 || toResume.length > 0) reader.pauseOrResumeSplits(toPause, toResume);
    }
  }
}
