import {
  ControllerClient,
  getSegmentInfo,
  SegmentReader,
  SegmentStoreConnectionPool,
  type PravegaSecurity,
  type ReadEvent,
  type SegmentRef,
} from '../client/index.js';
import { RecordsBySplits, type RecordsWithSplitIds, type SplitReader, type SplitsChange } from '../../../runtime/source/split-reader.js';
import type { PravegaSplit } from './pravega-split.js';

interface SegmentCursor {
  readonly split: PravegaSplit;
  readonly ref: SegmentRef;
  /** Offset after the last event read (handed out or in `ready`). */
  position: number;
  /** Reads up to a write offset the segment store reported, so a read never waits at the tail. */
  reader: SegmentReader | undefined;
  /** The read running now; at most one per segment (SegmentReader is not reentrant). */
  inFlight: Promise<void> | undefined;
  /** Events read ahead and not yet handed to the fetcher. */
  ready: ReadEvent[];
  /** Sealed and drained, or the end offset reached: report finished once `ready` is handed out. */
  done: boolean;
  /** The last read found nothing new (tail of an open segment): wait for the next fetch instead of reading ahead. */
  atTail: boolean;
  error: unknown;
}

/** Shortest pause before polling an idle tail again; doubles up to `scan.event-read.timeout.interval`. */
const MIN_IDLE_WAIT_MS = 5;
const READ_SIZE = 1024 * 1024;

/**
 * Reads the segments of one source reader. It never issues a read at the tail of an open segment (the client cannot
 * cancel such a read, and it would hold up `wakeUp` and `close` until the server's timeout): it asks the segment store
 * for the write offset and reads only up to it, then polls again with a backoff capped at the event-read timeout. A
 * segment is finished when it is sealed and drained, or when its end offset (end stream cut) is reached.
 *
 * Each segment reads one chunk ahead: when `fetch` hands out a segment's events it already starts the next read, so
 * the segment store's round trip overlaps with the task emitting the previous chunk, and a slow segment never holds
 * back the others (`fetch` returns as soon as any segment has data).
 */
export class PravegaSplitReader implements SplitReader<ReadEvent, PravegaSplit> {
  private readonly cursors = new Map<string, SegmentCursor>();
  private readonly controller: ControllerClient;
  private readonly pool: SegmentStoreConnectionPool;
  private idleWaitMs = MIN_IDLE_WAIT_MS;
  private wake: (() => void) | undefined;
  private woken = false;

  constructor(
    controllerUri: string,
    private readonly maxIdleWaitMs: number,
    security: PravegaSecurity = {},
    /** The format's lookups for a chunk's payloads, awaited before the chunk is handed out (see DeserializationSchema.prepare). */
    private readonly prepare?: (payloads: readonly Uint8Array[]) => Promise<void> | undefined,
  ) {
    this.controller = new ControllerClient(controllerUri, { security });
    this.pool = new SegmentStoreConnectionPool(this.controller.segmentStoreTls);
  }

  async fetch(): Promise<RecordsWithSplitIds<ReadEvent>> {
    for (const c of this.cursors.values()) if (c.inFlight === undefined && !c.done) this.readAhead(c);
    // Wait for the first segment with something to hand out; segments that come back empty do not end the wait
    // while others are still reading.
    while (!this.woken && !this.anyReady()) {
      const reads = [...this.cursors.values()].flatMap((c) => (c.inFlight === undefined ? [] : [c.inFlight]));
      if (reads.length === 0) break;
      await Promise.race([...reads, this.wakeSignal()]);
    }
    this.woken = false;
    this.wake = undefined;
    const bySplit = new Map<string, ReadEvent[]>();
    const finished = new Set<string>();
    for (const [id, c] of this.cursors) {
      if (c.error !== undefined) throw c.error;
      if (c.ready.length > 0) {
        bySplit.set(id, c.ready);
        c.ready = [];
      }
      if (c.done && c.inFlight === undefined) {
        finished.add(id);
        this.cursors.delete(id);
      } else if (c.inFlight === undefined && !c.atTail) {
        this.readAhead(c);
      }
    }
    const reading = [...this.cursors.values()].some((c) => c.inFlight !== undefined);
    if (bySplit.size === 0 && finished.size === 0 && !reading) {
      await this.idle();
    } else {
      this.idleWaitMs = MIN_IDLE_WAIT_MS;
    }
    return new RecordsBySplits(bySplit, finished);
  }

  private anyReady(): boolean {
    for (const c of this.cursors.values()) if (c.ready.length > 0 || (c.done && c.inFlight === undefined) || c.error !== undefined) return true;
    return false;
  }

  private readAhead(c: SegmentCursor): void {
    const p = this.readOne(c).then(
      () => {
        c.inFlight = undefined;
      },
      (e: unknown) => {
        c.inFlight = undefined;
        c.error = e;
      },
    );
    c.inFlight = p;
  }

  /** One step for a segment: finds the write offset when needed, reads one chunk into `ready`, or marks it done. */
  private async readOne(c: SegmentCursor): Promise<void> {
    c.atTail = false;
    const end = c.split.endOffset;
    if (end !== null && c.position >= end) {
      c.done = true;
      return;
    }
    if (c.reader === undefined || c.reader.isFinished) {
      c.reader = undefined;
      const info = await getSegmentInfo(this.controller, this.pool, c.ref);
      const target = end === null ? info.writeOffset : Math.min(end, info.writeOffset);
      if (target > c.position) {
        c.reader = new SegmentReader(this.controller, this.pool, c.ref, c.position, target, true);
      } else if (info.isSealed || !info.exists) {
        // A deleted segment (stream truncated past it) has nothing left to read either.
        c.done = true;
        return;
      } else {
        c.atTail = true;
        return;
      }
    }
    const batch = await c.reader.read(READ_SIZE);
    if (this.prepare !== undefined && batch.events.length > 0) await this.prepare(batch.events.map((e) => e.payload));
    c.position = batch.position;
    if (batch.events.length > 0) {
      if (c.ready.length === 0) c.ready = batch.events as ReadEvent[];
      else for (const e of batch.events) c.ready.push(e);
    }
    if (end !== null && c.position >= end) c.done = true;
  }

  /** Resolves on `wakeUp` (split changes, close). */
  private wakeSignal(): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
    });
  }

  private idle(): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    const wait = this.idleWaitMs;
    this.idleWaitMs = Math.min(this.maxIdleWaitMs, this.idleWaitMs * 2);
    return new Promise((resolve) => {
      const timer = setTimeout(done, wait);
      const self = this;
      function done(): void {
        clearTimeout(timer);
        self.wake = undefined;
        self.woken = false;
        resolve();
      }
      this.wake = done;
    });
  }

  handleSplitsChanges(change: SplitsChange<PravegaSplit>): void {
    if (change.kind === 'add') {
      for (const s of change.splits) {
        this.cursors.set(s.splitId, {
          split: s,
          ref: { scope: s.scope, stream: s.stream, segmentId: s.segmentId },
          position: s.startOffset,
          reader: undefined,
          inFlight: undefined,
          ready: [],
          done: false,
          atTail: false,
          error: undefined,
        });
      }
      this.idleWaitMs = MIN_IDLE_WAIT_MS;
    } else {
      for (const s of change.splits) this.cursors.delete(s.splitId);
    }
    this.wakeUp();
  }

  /** Makes a waiting or the next `fetch` return promptly (possibly empty) so the fetcher can apply split changes. */
  wakeUp(): void {
    this.woken = true;
    this.wake?.();
  }

  async close(): Promise<void> {
    this.wakeUp();
    this.controller.close();
    await this.pool.close();
  }
}
