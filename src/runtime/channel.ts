import type { Row } from '../types/row.js';

/** What flows through a channel between tasks. */
export type StreamElement =
  | { readonly kind: 'batch'; readonly rows: Row[] }
  | { readonly kind: 'watermark'; readonly watermark: number }
  | { readonly kind: 'idle'; readonly idle: boolean }
  /**
   * `savepoint`: a savepoint's barrier, aligned even when checkpoints are unaligned (as Flink's savepoints).
   * `startedAt`: when the sources emitted it (`Date.now()`, the same clock in every thread), from which the
   * aligned-checkpoint timeout counts, as Flink's barrier timestamp.
   */
  | BarrierElement
  | { readonly kind: 'end' };

/** A checkpoint's barrier, see `StreamElement`. */
export interface BarrierElement {
  readonly kind: 'barrier';
  readonly checkpointId: number;
  readonly savepoint?: true;
  readonly startedAt?: number;
}

/**
 * How full one end of a channel is, for Flink's `inPoolUsage` / `outPoolUsage` gauges: `size` elements (or
 * messages) of `capacity`. An end to another thread counts what it has sent and not had credited back.
 */
export interface QueueUsage {
  readonly size: number;
  readonly capacity: number;
}

/** The fullest of `channels` as a share of its capacity, at most 1 (a channel may briefly hold one batch more); 0 for none. */
export function poolUsage(channels: readonly QueueUsage[] | undefined): number {
  let max = 0;
  for (const c of channels ?? []) max = Math.max(max, Math.min(1, c.size / c.capacity));
  return max;
}

/** The producer's end of a channel, local (`Channel`) or to another thread (workers/remote-channel.ts). */
export interface OutputChannel {
  /** Never waits: the producer awaits `space()` before its next batch instead. */
  push(e: StreamElement): void;
  hasSpace(): boolean;
  /** Resolves once the channel is below capacity. */
  space(): Promise<void>;
  /** Releases producers waiting for space (used on cancellation). */
  releaseAll(): void;
}

/**
 * The consumer's end of a channel: elements in order, `size` of those already here.
 *
 * An unaligned checkpoint's barrier overtakes the batches queued ahead of it (Flink's priority events):
 * `queuedBarrier()` is the first barrier queued, and `removeQueuedBarrier()` takes it out of the queue and returns
 * the rows of the batches ahead of it, which stay queued. The channel calls its consumer's `onData` whenever a
 * barrier arrives, not only when it was empty.
 */
export interface InputQueue {
  readonly size: number;
  poll(): StreamElement | undefined;
  queuedBarrier(): BarrierElement | undefined;
  removeQueuedBarrier(): Row[][];
}

/**
 * A bounded FIFO between one producer subtask and one consumer subtask. Pushing never waits (the chain
 * runs synchronously); instead the producer awaits `space()` before it processes its next batch, so a
 * channel holds at most `capacity` elements plus the output of one producer batch.
 */
export class Channel implements OutputChannel, InputQueue {
  private items: StreamElement[] = [];
  private head = 0;
  private spaceWaiters: Array<() => void> = [];
  private barriers = 0;

  constructor(
    readonly capacity: number,
    /** Called when an element arrives while the consumer may be waiting (shared by the consumer's gate). */
    private readonly onData: () => void,
  ) {}

  get size(): number {
    return this.items.length - this.head;
  }

  push(e: StreamElement): void {
    this.items.push(e);
    if (e.kind === 'barrier') this.barriers++;
    if (this.size === 1 || e.kind === 'barrier') this.onData();
  }

  queuedBarrier(): BarrierElement | undefined {
    if (this.barriers === 0) return undefined;
    for (let i = this.head; i < this.items.length; i++) {
      const e = this.items[i]!;
      if (e.kind === 'barrier') return e;
    }
    return undefined;
  }

  removeQueuedBarrier(): Row[][] {
    const ahead: Row[][] = [];
    for (let i = this.head; i < this.items.length && this.barriers > 0; i++) {
      const e = this.items[i]!;
      if (e.kind === 'batch') ahead.push(e.rows);
      else if (e.kind === 'barrier') {
        this.items.splice(i, 1);
        this.barriers--;
        this.releaseIfSpace();
        break;
      }
    }
    return ahead;
  }

  hasSpace(): boolean {
    return this.size < this.capacity;
  }

  /** Resolves once the channel is below capacity. */
  space(): Promise<void> {
    if (this.hasSpace()) return Promise.resolve();
    return new Promise((resolve) => this.spaceWaiters.push(resolve));
  }

  peek(): StreamElement | undefined {
    return this.head < this.items.length ? this.items[this.head] : undefined;
  }

  poll(): StreamElement | undefined {
    if (this.head >= this.items.length) return undefined;
    const e = this.items[this.head]!;
    this.items[this.head++] = undefined as unknown as StreamElement;
    if (e.kind === 'barrier') this.barriers--;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    this.releaseIfSpace();
    return e;
  }

  private releaseIfSpace(): void {
    if (this.spaceWaiters.length > 0 && this.hasSpace()) this.releaseAll();
  }

  /** Releases producers waiting for space (used on cancellation). */
  releaseAll(): void {
    const ws = this.spaceWaiters;
    this.spaceWaiters = [];
    for (const w of ws) w();
  }
}
