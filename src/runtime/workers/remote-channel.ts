import type { MessagePort } from 'node:worker_threads';
import type { Row } from '../../types/row.js';
import type { BarrierElement, InputQueue, OutputChannel, QueueUsage, StreamElement } from '../channel.js';
import { decodeBatch, encodeBatch } from './batch-codec.js';

/**
 * A channel between subtasks on two threads, one `MessagePort` pair per producer/consumer subtask pair.
 * Batches go as one transferred ArrayBuffer each (never row by row); watermarks, idleness, barriers and
 * end-of-partition go as small objects on the same port, so they keep their place among the batches.
 *
 * Small batches are gathered into one message of up to `BATCH_ROWS` rows: a hash exchange splits every
 * producer batch into one part per consumer, and each message costs an ArrayBuffer, a post, a wake-up of
 * the consumer and one pass of its operators whatever its size. What is gathered goes out when it is
 * full, before any other element (so order holds), as soon as the producer's thread turns to other work
 * if the consumer has nothing queued (it would otherwise wait idle), and else after `BUFFER_TIMEOUT_MS`
 * at most (Flink's `execution.buffer-timeout`), so a slow producer's rows do not wait for more.
 *
 * Flow control is credit based: the consumer grants `capacity` credits, every message spends one, and
 * credits return as the consumer polls. Like a local `Channel`, a push never waits: a producer out of
 * credit finishes its batch and then awaits `space()`, so a slow consumer stops its producers.
 */
type Wire = ArrayBuffer | Exclude<StreamElement, { kind: 'batch' }>;
/** What the consumer queues: a batch stays encoded until polled, unless a barrier overtook it (then its rows were needed). */
type Queued = Wire | Extract<StreamElement, { kind: 'batch' }>;

/** Rows gathered into one message at most, unless one producer batch alone is larger. */
export const BATCH_ROWS = 2048;
/** How long gathered rows wait at most for more while the consumer still has messages to work on. */
export const BUFFER_TIMEOUT_MS = 5;

/** The producer's end. */
export class RemoteOutputChannel implements OutputChannel, QueueUsage {
  private credits: number;
  private waiters: Array<() => void> = [];
  private closed = false;
  private gathered: Row[] = [];
  /** When the first of the gathered rows came. */
  private gatheredAt = 0;
  private flushScheduled = false;
  /** A flush on a later turn that failed (a value that cannot cross threads): thrown to the producer's next push. */
  private failure: unknown;

  constructor(
    private readonly port: MessagePort,
    readonly capacity: number,
  ) {
    this.credits = capacity;
    port.on('message', (n: number) => {
      this.credits += n;
      if (this.credits > 0) this.releaseAll();
    });
    // The job, not an idle exchange, keeps a process alive.
    port.unref();
  }

  push(e: StreamElement): void {
    if (this.closed) return;
    if (this.failure !== undefined) throw this.failure;
    if (e.kind === 'batch') {
      if (e.rows.length === 0) return;
      const g = this.gathered;
      if (g.length === 0 && e.rows.length >= BATCH_ROWS) {
        this.send(e.rows);
        return;
      }
      if (g.length === 0) this.gatheredAt = performance.now();
      for (let i = 0; i < e.rows.length; i++) g.push(e.rows[i]!);
      if (g.length >= BATCH_ROWS) this.flush();
      else if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(this.tick);
      }
      return;
    }
    this.flush();
    this.credits--;
    this.port.postMessage(e);
  }

  /** Flushes when the consumer ran dry (every credit is back) or the oldest gathered row waited long enough. */
  private readonly tick = (): void => {
    this.flushScheduled = false;
    if (this.gathered.length === 0 || this.closed) return;
    const waited = performance.now() - this.gatheredAt;
    if (this.credits >= this.capacity || waited >= BUFFER_TIMEOUT_MS) {
      try {
        this.flush();
      } catch (e) {
        // Outside the producer's task here: the error fails it at its next push instead of the thread.
        this.failure = e;
        this.releaseAll();
      }
      return;
    }
    this.flushScheduled = true;
    setTimeout(this.tick, BUFFER_TIMEOUT_MS - waited);
  };

  /** Sends the gathered rows, if any. */
  flush(): void {
    if (this.gathered.length === 0 || this.closed) return;
    const rows = this.gathered;
    this.gathered = [];
    this.send(rows);
  }

  private send(rows: Row[]): void {
    this.credits--;
    const data = encodeBatch(rows);
    this.port.postMessage(data, [data]);
  }

  hasSpace(): boolean {
    return this.closed || this.failure !== undefined || this.credits > 0;
  }

  /** Messages sent and not credited back yet: `capacity` of them means the producer waits for its consumer. */
  get size(): number {
    return this.capacity - this.credits;
  }

  space(): Promise<void> {
    if (this.hasSpace()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  releaseAll(): void {
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) w();
  }

  close(): void {
    this.closed = true;
    this.gathered = [];
    this.port.close();
    this.releaseAll();
  }
}

/** The consumer's end: elements are decoded when polled, so queued batches stay compact. */
export class RemoteInputChannel implements InputQueue, QueueUsage {
  private items: Queued[] = [];
  private head = 0;
  private owed = 0;
  private barriers = 0;
  private readonly returnAt: number;

  constructor(
    private readonly port: MessagePort,
    readonly capacity: number,
    onData: () => void,
  ) {
    this.returnAt = Math.max(1, capacity >> 1);
    port.on('message', (m: Wire) => {
      this.items.push(m);
      const barrier = !(m instanceof ArrayBuffer) && m.kind === 'barrier';
      if (barrier) this.barriers++;
      if (this.size === 1 || barrier) onData();
    });
    port.unref();
  }

  get size(): number {
    return this.items.length - this.head;
  }

  poll(): StreamElement | undefined {
    if (this.head >= this.items.length) return undefined;
    const m = this.items[this.head]!;
    this.items[this.head++] = undefined as unknown as Queued;
    if (!(m instanceof ArrayBuffer) && m.kind === 'barrier') this.barriers--;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    this.credit();
    return m instanceof ArrayBuffer ? { kind: 'batch', rows: decodeBatch(m) } : m;
  }

  /** One message is off the queue: credits go back in small groups (fewer messages), and at once when it ran dry. */
  private credit(): void {
    if (++this.owed >= this.returnAt || this.size === 0) {
      this.port.postMessage(this.owed);
      this.owed = 0;
    }
  }

  queuedBarrier(): BarrierElement | undefined {
    if (this.barriers === 0) return undefined;
    for (let i = this.head; i < this.items.length; i++) {
      const m = this.items[i]!;
      if (!(m instanceof ArrayBuffer) && m.kind === 'barrier') return m;
    }
    return undefined;
  }

  removeQueuedBarrier(): Row[][] {
    const ahead: Row[][] = [];
    for (let i = this.head; i < this.items.length && this.barriers > 0; i++) {
      const m = this.items[i]!;
      if (m instanceof ArrayBuffer) {
        // Decoded once: the rows go to the checkpoint now and to the operators when polled.
        const rows = decodeBatch(m);
        this.items[i] = { kind: 'batch', rows };
        ahead.push(rows);
      } else if (m.kind === 'batch') ahead.push(m.rows);
      else if (m.kind === 'barrier') {
        this.items.splice(i, 1);
        this.barriers--;
        this.credit();
        break;
      }
    }
    return ahead;
  }

  close(): void {
    this.port.close();
  }
}
