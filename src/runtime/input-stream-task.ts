import type { BarrierElement, InputQueue } from './channel.js';
import type { TaskSnapshot } from './checkpoint/completed-checkpoint.js';
import { copyInputRows, decodeInFlight, encodeInFlight, type InputRows } from './checkpoint/in-flight-rows.js';
import { StreamTask } from './stream-task.js';
import type { PendingCommittableValue } from './task-host.js';
import type { Row } from '../types/row.js';

/** One input channel as the consuming task sees it. */
export interface InputChannel {
  readonly channel: InputQueue;
  readonly inputIndex: number;
}

interface ChannelState extends InputChannel {
  watermark: number;
  idle: boolean;
  ended: boolean;
  /** The checkpoint whose barrier this channel delivered and that is not yet complete. */
  barrier: number | undefined;
}

/** An unaligned checkpoint taken at its first barrier, waiting for the barrier on the other open channels. */
interface UnalignedCheckpoint {
  readonly id: number;
  readonly snapshot: TaskSnapshot;
  readonly committables: PendingCommittableValue[];
  readonly startedAt: number;
  /** Rows of channels whose barrier had not come, processed after the snapshot: the checkpoint keeps them. */
  readonly inFlight: InputRows[];
}

/**
 * A task fed by channels from upstream tasks (Flink's `OneInputStreamTask` / `MultipleInputStreamTask`).
 * Exactly-once: a channel that delivered barrier N is blocked until every open channel delivered it, then
 * the task snapshots and forwards the barrier. At-least-once: nothing is blocked; the snapshot is taken
 * when the last barrier arrives. The chain's watermark is the minimum over active, open channels.
 *
 * Unaligned checkpoints (`execution.checkpointing.unaligned.enabled`, exactly-once, not for a savepoint's
 * barrier): nothing is blocked either, and the task snapshots and forwards the barrier at the first one; the
 * rows it then processes from channels whose barrier has not come are part of the checkpoint (`inFlight`),
 * acknowledged once every open channel delivered the barrier, and processed again first on restore. Together
 * with the snapshot they are exactly what an aligned checkpoint would have held.
 *
 * The barrier overtakes the batches queued ahead of it (Flink's priority barrier): the task snapshots as soon as
 * the barrier is in any of its channels, even while it waits for space downstream, and the batches it overtook
 * count as in flight like the others'. A channel between threads queues on the consumer's side whatever the
 * producer sent (Flink's output and input buffers alike), so under backpressure a checkpoint takes as long as
 * one batch per task, not a drain of every queue, which is what unaligned checkpoints are for.
 *
 * With an aligned-checkpoint timeout (`execution.checkpointing.aligned-checkpoint-timeout` > 0) a checkpoint's
 * barriers are aligned first, and a task still aligning when the checkpoint has run that long switches: it
 * snapshots then (its state holds every row before the barrier of the channels it blocked, and the rows of
 * the others it processed so far) and keeps the rest of the others' rows until their barrier, as above.
 */
export class InputStreamTask extends StreamTask {
  private channels: ChannelState[] = [];
  private cursor = 0;
  private dataWaiter: (() => void) | undefined;
  private forwardedWatermark = -Infinity;
  private allIdle = false;
  /** When the first barrier of the checkpoint being aligned arrived (`performance.now()`). */
  private alignmentStart: number | undefined;
  /** When the checkpoint being aligned switches to unaligned (`Date.now()`), if it may. */
  private alignmentDeadline: number | undefined;
  /** When the barriers of the checkpoint being aligned left the sources. */
  private alignmentStartedAt: number | undefined;
  /** A savepoint's barrier is part of the alignment: it never switches. */
  private savepointAligning = false;
  private unaligned: UnalignedCheckpoint | undefined;
  /** Unaligned checkpoints start at a barrier still queued behind batches (`execution.checkpointing.aligned-checkpoint-timeout` 0). */
  private overtaking = false;
  /** The newest checkpoint this task snapshotted unaligned: an older barrier still queued starts nothing. */
  private newestUnaligned = -1;

  /** Called by every channel when it goes from empty to non-empty. */
  readonly onData = (): void => {
    const w = this.dataWaiter;
    this.dataWaiter = undefined;
    w?.();
  };

  setInputs(inputs: readonly InputChannel[]): void {
    this.channels = inputs.map((i) => ({ ...i, watermark: -Infinity, idle: false, ended: false, barrier: undefined }));
  }

  async run(): Promise<void> {
    const exactlyOnce = this.host.config.checkpointingMode === 'EXACTLY_ONCE';
    const unalignedEnabled = exactlyOnce && this.host.config.unalignedCheckpoints;
    // Flink's default 0: every checkpoint starts unaligned.
    const alignedTimeoutMs = unalignedEnabled ? this.host.config.alignedCheckpointTimeoutMs : 0;
    this.overtaking = unalignedEnabled && alignedTimeoutMs === 0;
    try {
      await this.openChainAndWriter();
      if (this.restored?.inFlight !== undefined) this.replayInFlight(this.restored.inFlight);
      for (;;) {
        if (this.canceled) return;
        if (this.alignmentDeadline !== undefined && Date.now() >= this.alignmentDeadline) await this.switchToUnaligned();
        // Checked without an await: a batch pays nothing while no barrier is queued.
        if (this.overtaking && this.overtakable() !== undefined) await this.overtakeQueuedBarriers();
        const c = this.nextReadable(exactlyOnce);
        if (!c) {
          if (this.channels.every((x) => x.ended)) break;
          const untilDeadline = this.alignmentDeadline === undefined ? undefined : Math.max(0, this.alignmentDeadline - Date.now());
          await this.idleWait(new Promise<void>((r) => (this.dataWaiter = r)), untilDeadline);
          this.fireProcessingTimers();
          continue;
        }
        const e = c.channel.poll()!;
        this.beginWork();
        switch (e.kind) {
          case 'batch':
            this.metrics.recordsIn += e.rows.length;
            if (this.unaligned !== undefined && c.barrier !== this.unaligned.id) this.recordInFlight(c.inputIndex, e.rows);
            this.chain.processBatch(e.rows, c.inputIndex);
            this.fireProcessingTimers();
            await this.drainBackpressure();
            break;
          case 'watermark':
            c.watermark = e.watermark;
            this.updateWatermark(c.inputIndex);
            break;
          case 'idle':
            c.idle = e.idle;
            this.updateWatermark(c.inputIndex);
            break;
          case 'barrier': {
            const timeoutable = unalignedEnabled && e.savepoint !== true;
            // Unaligned from the first barrier, or a barrier of the checkpoint this task switched to unaligned.
            if (timeoutable && (alignedTimeoutMs === 0 || (this.unaligned !== undefined && e.checkpointId <= this.unaligned.id))) {
              await this.unalignedBarrier(c, e.checkpointId, e.startedAt);
              break;
            }
            // A savepoint's barrier is aligned; an unaligned checkpoint still waiting is overtaken (and aborted).
            this.dropUnaligned(c);
            c.barrier = e.checkpointId;
            if (this.alignmentStart === undefined) {
              this.alignmentStart = performance.now();
              this.alignmentStartedAt = e.startedAt ?? Date.now();
            }
            // Only a checkpoint may switch; a savepoint joining (or overtaking) the alignment keeps it aligned.
            if (!timeoutable) this.savepointAligning = true;
            this.alignmentDeadline = timeoutable && !this.savepointAligning ? this.alignmentStartedAt! + alignedTimeoutMs : undefined;
            await this.maybeCompleteAlignment();
            break;
          }
          case 'end':
            c.ended = true;
            c.watermark = Infinity;
            this.updateWatermark(c.inputIndex);
            if (this.unaligned !== undefined) this.maybeCompleteUnaligned();
            else await this.maybeCompleteAlignment();
            break;
          default: {
            const never: never = e;
            throw new Error(`unknown stream element ${String(never)}`);
          }
        }
      }
      await this.endOfInput();
    } finally {
      await this.closeAll();
    }
  }

  /** Round robin over channels with data that are not blocked by an alignment. */
  private nextReadable(exactlyOnce: boolean): ChannelState | undefined {
    const n = this.channels.length;
    for (let k = 0; k < n; k++) {
      const c = this.channels[(this.cursor + k) % n]!;
      if (c.ended || c.channel.size === 0) continue;
      if (exactlyOnce && c.barrier !== undefined && this.unaligned === undefined) continue;
      this.cursor = (this.cursor + k + 1) % n;
      return c;
    }
    return undefined;
  }

  /**
   * Barrier `id` on channel `c`, unaligned: the first of a checkpoint snapshots at once and forwards the barrier;
   * the checkpoint is acknowledged when every open channel delivered it.
   */
  private async unalignedBarrier(c: ChannelState, id: number, barrierStartedAt: number | undefined): Promise<void> {
    const u = this.unaligned;
    if (u !== undefined && id < u.id) return; // a barrier of a checkpoint already overtaken
    if (u === undefined && id <= this.newestUnaligned) return; // of one completed or given up
    if (u === undefined || id > u.id) {
      // A newer checkpoint overtakes one still waiting for barriers (that one expired): its snapshot is dropped.
      this.dropUnaligned(undefined);
      c.barrier = id;
      await this.startUnaligned(id, barrierStartedAt);
    } else c.barrier = id;
    this.maybeCompleteUnaligned();
  }

  /**
   * A checkpoint's barrier queued in a channel that has not delivered it overtakes the batches ahead of it: the
   * first snapshots the task, and each is delivered at once with those batches kept in flight (they are processed
   * after the snapshot, as the other channels' rows until their barrier). The checkpoint is acknowledged as soon as
   * every open channel delivered its barrier, without waiting for the batches to be processed.
   */
  private async overtakeQueuedBarriers(): Promise<void> {
    let overtook = false;
    for (let o = this.overtakable(); o !== undefined; o = this.overtakable()) {
      const { c, b } = o;
      const u = this.unaligned;
      if (u === undefined || b.checkpointId > u.id) {
        this.dropUnaligned(undefined);
        await this.startUnaligned(b.checkpointId, b.startedAt);
      }
      for (const rows of c.channel.removeQueuedBarrier()) this.recordInFlight(c.inputIndex, rows);
      c.barrier = b.checkpointId;
      overtook = true;
    }
    if (overtook) this.maybeCompleteUnaligned();
  }

  /** A channel that has not delivered the current checkpoint's barrier and has a barrier queued that may overtake. */
  private overtakable(): { readonly c: ChannelState; readonly b: BarrierElement } | undefined {
    for (const c of this.channels) {
      if (c.ended || c.barrier !== undefined) continue;
      const b = c.channel.queuedBarrier();
      // A savepoint's barrier stays aligned, and so does a checkpoint's queued behind it.
      if (b === undefined || b.savepoint === true) continue;
      const u = this.unaligned;
      // A barrier of a checkpoint already overtaken by a newer one, or given up, is dropped when polled.
      if (u === undefined ? b.checkpointId <= this.newestUnaligned : b.checkpointId < u.id) continue;
      return { c, b };
    }
    return undefined;
  }

  /** Waiting for space downstream, the task still snapshots when a barrier arrives, so its checkpoint does not wait for the consumer. */
  protected override awaitOutputSpace(space: Promise<void>): Promise<void> {
    if (!this.overtaking) return this.guard(space);
    return this.awaitSpaceDoing(space, () => this.overtakeQueuedBarriers(), () => new Promise<void>((r) => (this.dataWaiter = r)));
  }

  private async startUnaligned(id: number, barrierStartedAt: number | undefined, startedAt = performance.now()): Promise<void> {
    this.newestUnaligned = Math.max(this.newestUnaligned, id);
    const { snapshot, committables } = await this.snapshotAtBarrier(id, undefined, false, barrierStartedAt);
    this.unaligned = { id, snapshot, committables, startedAt, inFlight: [] };
  }

  /** Acknowledges the unaligned checkpoint once every channel that is still open delivered its barrier. */
  private maybeCompleteUnaligned(): void {
    const u = this.unaligned;
    if (u === undefined) return;
    for (const c of this.channels) if (!c.ended && c.barrier !== u.id) return;
    for (const c of this.channels) c.barrier = undefined;
    this.unaligned = undefined;
    const snapshot = u.inFlight.length === 0 ? u.snapshot : { ...u.snapshot, inFlight: encodeInFlight(u.inFlight) };
    this.host.acknowledge(this.key, u.id, snapshot, u.committables, performance.now() - u.startedAt);
  }

  /** Forgets an unaligned checkpoint still waiting for barriers; every channel but `keep` forgets its barrier. */
  private dropUnaligned(keep: ChannelState | undefined): void {
    if (this.unaligned === undefined) return;
    this.unaligned = undefined;
    for (const c of this.channels) if (c !== keep) c.barrier = undefined;
  }

  /** Keeps a copy of rows processed after an unaligned snapshot, before their channel's barrier. */
  private recordInFlight(inputIndex: number, rows: readonly Row[]): void {
    this.unaligned!.inFlight.push(copyInputRows(inputIndex, rows));
  }

  /** Processes the rows an unaligned checkpoint kept, before anything from the channels. */
  private replayInFlight(data: Uint8Array): void {
    for (const b of decodeInFlight(data)) {
      this.beginWork();
      this.metrics.recordsIn += b.rows.length;
      this.chain.processBatch(b.rows as Row[], b.inputIndex);
    }
  }

  private async maybeCompleteAlignment(): Promise<void> {
    let id: number | undefined;
    for (const c of this.channels) {
      if (c.ended) continue;
      if (c.barrier === undefined) return;
      id = id === undefined ? c.barrier : Math.max(id, c.barrier);
    }
    if (id === undefined) {
      // Every channel ended: a pending alignment completes with the barriers already seen.
      for (const c of this.channels) if (c.barrier !== undefined) id = Math.max(id ?? -1, c.barrier);
      if (id === undefined) return;
    }
    for (const c of this.channels) c.barrier = undefined;
    const alignmentMs = this.alignmentStart === undefined ? 0 : performance.now() - this.alignmentStart;
    const startedAt = this.alignmentStartedAt;
    this.endAlignment();
    await this.performCheckpoint(id, undefined, alignmentMs, false, startedAt);
  }

  private endAlignment(): void {
    this.alignmentStart = undefined;
    this.alignmentStartedAt = undefined;
    this.alignmentDeadline = undefined;
    this.savepointAligning = false;
  }

  /**
   * The aligned-checkpoint timeout passed during an alignment: the task snapshots now and goes on as an
   * unaligned checkpoint. The channels that delivered the barrier were blocked, so the state holds exactly
   * their rows before it; the others' rows until their barrier are kept from here on.
   */
  private async switchToUnaligned(): Promise<void> {
    let id = -1;
    for (const c of this.channels) if (c.barrier !== undefined) id = Math.max(id, c.barrier);
    const startedAt = this.alignmentStart ?? performance.now();
    const barrierStartedAt = this.alignmentStartedAt;
    this.endAlignment();
    if (id < 0) return;
    // A channel still on an older checkpoint's barrier has not delivered this one: its rows are in flight.
    for (const c of this.channels) if (c.barrier !== id) c.barrier = undefined;
    await this.startUnaligned(id, barrierStartedAt, startedAt);
    this.maybeCompleteUnaligned();
  }

  private updateWatermark(inputIndex: number): void {
    let min = Infinity;
    let anyActive = false;
    for (const c of this.channels) {
      if (c.idle && !c.ended) continue;
      anyActive = true;
      if (c.watermark < min) min = c.watermark;
    }
    if (!anyActive) {
      if (!this.allIdle) {
        this.allIdle = true;
        this.broadcast({ kind: 'idle', idle: true });
      }
      return;
    }
    if (this.allIdle) {
      this.allIdle = false;
      this.broadcast({ kind: 'idle', idle: false });
    }
    if (min > this.forwardedWatermark) {
      this.forwardedWatermark = min;
      this.metrics.currentInputWatermark = min;
      this.chain.processWatermark(min, inputIndex);
    }
  }
}
