import type { InputQueue } from './channel.js';
import { StreamTask } from './stream-task.js';

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

/**
 * A task fed by channels from upstream tasks (Flink's `OneInputStreamTask` / `MultipleInputStreamTask`).
 * Exactly-once: a channel that delivered barrier N is blocked until every open channel delivered it, then
 * the task snapshots and forwards the barrier. At-least-once: nothing is blocked; the snapshot is taken
 * when the last barrier arrives. The chain's watermark is the minimum over active, open channels.
 */
export class InputStreamTask extends StreamTask {
  private channels: ChannelState[] = [];
  private cursor = 0;
  private dataWaiter: (() => void) | undefined;
  private forwardedWatermark = -Infinity;
  private allIdle = false;
  /** When the first barrier of the checkpoint being aligned arrived (`performance.now()`). */
  private alignmentStart: number | undefined;

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
    try {
      await this.openChainAndWriter();
      for (;;) {
        if (this.canceled) return;
        const c = this.nextReadable(exactlyOnce);
        if (!c) {
          if (this.channels.every((x) => x.ended)) break;
          await this.idleWait(new Promise<void>((r) => (this.dataWaiter = r)), undefined);
          this.fireProcessingTimers();
          continue;
        }
        const e = c.channel.poll()!;
        this.beginWork();
        switch (e.kind) {
          case 'batch':
            this.metrics.recordsIn += e.rows.length;
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
          case 'barrier':
            c.barrier = e.checkpointId;
            this.alignmentStart ??= performance.now();
            await this.maybeCompleteAlignment();
            break;
          case 'end':
            c.ended = true;
            c.watermark = Infinity;
            this.updateWatermark(c.inputIndex);
            await this.maybeCompleteAlignment();
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
      if (exactlyOnce && c.barrier !== undefined) continue;
      this.cursor = (this.cursor + k + 1) % n;
      return c;
    }
    return undefined;
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
    this.alignmentStart = undefined;
    await this.performCheckpoint(id, undefined, alignmentMs);
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
