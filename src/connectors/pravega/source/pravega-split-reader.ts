import {
  ControllerClient,
  getSegmentInfo,
  SegmentReader,
  SegmentStoreConnectionPool,
  type ReadEvent,
  type SegmentRef,
} from '../client/index.js';
import { RecordsBySplits, type RecordsWithSplitIds, type SplitReader, type SplitsChange } from '../../../runtime/source/split-reader.js';
import type { PravegaSplit } from './pravega-split.js';

interface SegmentCursor {
  readonly split: PravegaSplit;
  readonly ref: SegmentRef;
  position: number;
  /** Reads up to a write offset the segment store reported, so a read never waits at the tail. */
  reader: SegmentReader | undefined;
}

/** Shortest pause before polling an idle tail again; doubles up to `scan.event-read.timeout.interval`. */
const MIN_IDLE_WAIT_MS = 5;
const READ_SIZE = 1024 * 1024;

/**
 * Reads the segments of one source reader. It never issues a read at the tail of an open segment (the client cannot
 * cancel such a read, and it would hold up `wakeUp` and `close` until the server's timeout): it asks the segment store
 * for the write offset and reads only up to it, then polls again with a backoff capped at the event-read timeout. A
 * segment is finished when it is sealed and drained, or when its end offset (end stream cut) is reached.
 */
export class PravegaSplitReader implements SplitReader<ReadEvent, PravegaSplit> {
  private readonly cursors = new Map<string, SegmentCursor>();
  private readonly controller: ControllerClient;
  private readonly pool = new SegmentStoreConnectionPool();
  private idleWaitMs = MIN_IDLE_WAIT_MS;
  private wake: (() => void) | undefined;
  private woken = false;

  constructor(
    controllerUri: string,
    private readonly maxIdleWaitMs: number,
  ) {
    this.controller = new ControllerClient(controllerUri);
  }

  async fetch(): Promise<RecordsWithSplitIds<ReadEvent>> {
    const bySplit = new Map<string, ReadEvent[]>();
    const finished = new Set<string>();
    await Promise.all([...this.cursors.values()].map((c) => this.fetchOne(c, bySplit, finished)));
    for (const id of finished) this.cursors.delete(id);
    if (bySplit.size === 0 && finished.size === 0) {
      await this.idle();
    } else {
      this.idleWaitMs = MIN_IDLE_WAIT_MS;
    }
    return new RecordsBySplits(bySplit, finished);
  }

  private async fetchOne(c: SegmentCursor, bySplit: Map<string, ReadEvent[]>, finished: Set<string>): Promise<void> {
    const end = c.split.endOffset;
    if (end !== null && c.position >= end) {
      finished.add(c.split.splitId);
      return;
    }
    if (c.reader === undefined || c.reader.isFinished) {
      c.reader = undefined;
      const info = await getSegmentInfo(this.controller, this.pool, c.ref);
      const target = end === null ? info.writeOffset : Math.min(end, info.writeOffset);
      if (target > c.position) {
        c.reader = new SegmentReader(this.controller, this.pool, c.ref, c.position, target);
      } else if (info.isSealed || !info.exists) {
        // A deleted segment (stream truncated past it) has nothing left to read either.
        finished.add(c.split.splitId);
        return;
      } else {
        return;
      }
    }
    const batch = await c.reader.read(READ_SIZE);
    c.position = batch.position;
    if (batch.events.length > 0) bySplit.set(c.split.splitId, batch.events as ReadEvent[]);
    if (end !== null && c.position >= end) finished.add(c.split.splitId);
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
        resolve();
      }
      this.wake = done;
    });
  }

  handleSplitsChanges(change: SplitsChange<PravegaSplit>): void {
    if (change.kind === 'add') {
      for (const s of change.splits) {
        this.cursors.set(s.splitId, { split: s, ref: { scope: s.scope, stream: s.stream, segmentId: s.segmentId }, position: s.startOffset, reader: undefined });
      }
      this.idleWaitMs = MIN_IDLE_WAIT_MS;
    } else {
      for (const s of change.splits) this.cursors.delete(s.splitId);
    }
    this.wakeUp();
  }

  wakeUp(): void {
    if (this.wake !== undefined) this.wake();
    else this.woken = true;
  }

  async close(): Promise<void> {
    this.wakeUp();
    this.controller.close();
    await this.pool.close();
  }
}
