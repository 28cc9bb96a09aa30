import { ConnectorError } from '../../../errors/sluice-error.js';
import type { ControllerClient } from './controller-client.js';
import { SegmentMap } from './segment-map.js';
import type { SegmentStoreConnectionPool } from './segment-store-connection.js';
import { qualifiedSegmentName } from './segment-names.js';
import { AckTracker, DEFAULT_WRITE_TIMEOUT_MS, reconnectTimeoutError, SegmentWriter, type DisplacementReason, type PendingEvent } from './segment-writer.js';

/** One event to write: bytes plus an optional routing key (events with the same key stay in order). */
export interface EventToWrite {
  readonly routingKey?: string;
  readonly payload: Uint8Array;
}

/**
 * Writes events to a stream: routes each by its key to the owning segment, keeps per-key order, and follows scaling
 * (a sealed segment's unacknowledged events go to its successors before anything newer). Not safe for use after
 * `close`. Methods never await per event; one call handles a whole batch.
 */
export class EventStreamWriter {
  private map: SegmentMap;
  private readonly writers = new Map<number, SegmentWriter>();
  /** Set while the writer re-routes displaced events; new batches wait behind it to keep order. */
  private blocked: Promise<void> | undefined;
  private failure: Error | undefined;
  private readonly outstanding = new Set<Promise<void>>();
  private closed = false;
  private sealedFollowed = 0;
  private resent = 0;

  private constructor(
    readonly scope: string,
    readonly stream: string,
    private readonly controller: ControllerClient,
    private readonly pool: SegmentStoreConnectionPool,
    initial: SegmentMap,
    private readonly writeTimeoutMs: number,
  ) {
    this.map = initial;
  }

  /**
   * Loads the stream's current segments; rejects with ConnectorError if the stream does not exist or is sealed.
   * `writeTimeoutMs`: events that cannot reach their segment store for that long fail (default 60 s).
   */
  static async open(
    controller: ControllerClient,
    pool: SegmentStoreConnectionPool,
    scope: string,
    stream: string,
    options: { readonly writeTimeoutMs?: number } = {},
  ): Promise<EventStreamWriter> {
    const segments = await controller.getCurrentSegments(scope, stream);
    return new EventStreamWriter(scope, stream, controller, pool, new SegmentMap(segments), options.writeTimeoutMs ?? DEFAULT_WRITE_TIMEOUT_MS);
  }

  /**
   * Hands a batch to the segment writers and resolves when every event of it is durably acknowledged. Batches are
   * ordered among themselves in call order; the caller may issue the next batch without awaiting this one.
   */
  writeEvents(events: readonly EventToWrite[]): Promise<void> {
    if (this.closed) return Promise.reject(new ConnectorError(`writer for Pravega stream '${this.scope}/${this.stream}' is closed`));
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const tracker = new AckTracker(events.length);
    const pending: PendingEvent[] = events.map((e) => ({ routingKey: e.routingKey, payload: e.payload, tracker }));
    if (this.blocked !== undefined) {
      this.enqueue(async () => this.dispatch(pending));
    } else {
      this.dispatch(pending);
    }
    const p = tracker.promise;
    this.outstanding.add(p);
    const forget = (): void => void this.outstanding.delete(p);
    p.then(forget, forget);
    return p;
  }

  writeEvent(routingKey: string | undefined, payload: Uint8Array): Promise<void> {
    return this.writeEvents([routingKey === undefined ? { payload } : { routingKey, payload }]);
  }

  /** Resolves when everything written so far is acknowledged; rejects with the first write failure. */
  async flush(): Promise<void> {
    while (this.outstanding.size > 0 || this.blocked !== undefined) {
      if (this.blocked !== undefined) await this.blocked;
      await Promise.all([...this.outstanding]);
    }
    if (this.failure !== undefined) throw this.failure;
  }

  /** Flushes, then releases the segment writers (the shared connections stay with the pool). */
  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.flush();
    } finally {
      this.closed = true;
      for (const w of this.writers.values()) w.close();
      this.writers.clear();
    }
  }

  /** How often a sealed segment was replaced by its successors, and how many events were written again. */
  get stats(): { readonly sealedSegmentsFollowed: number; readonly eventsResent: number } {
    return { sealedSegmentsFollowed: this.sealedFollowed, eventsResent: this.resent };
  }

  /** The segments events currently go to (for tests and diagnostics). */
  get currentSegments(): SegmentMap {
    return this.map;
  }

  private dispatch(events: readonly PendingEvent[]): void {
    if (this.failure !== undefined) {
      for (const e of events) e.tracker.fail(this.failure);
      return;
    }
    const bySegment = new Map<number, PendingEvent[]>();
    for (const e of events) {
      const id = this.map.route(e.routingKey).segment.segmentId;
      let list = bySegment.get(id);
      if (list === undefined) bySegment.set(id, (list = []));
      list.push(e);
    }
    for (const [id, list] of bySegment) this.writerFor(id).write(list);
  }

  private writerFor(segmentId: number): SegmentWriter {
    let w = this.writers.get(segmentId);
    if (w === undefined || !w.isOpenForWrites) {
      const seg = this.map.segments.find((r) => r.segment.segmentId === segmentId)!.segment;
      w = new SegmentWriter(seg, qualifiedSegmentName(seg), this.pool, this.controller, (wr, unacked, reason, cause) => this.onDisplaced(wr, unacked, reason, cause), (_wr, err) => this.onFatal(err));
      this.writers.set(segmentId, w);
    }
    return w;
  }

  private onDisplaced(writer: SegmentWriter, unacked: PendingEvent[], reason: DisplacementReason, cause?: Error): void {
    const id = writer.segment.segmentId;
    if (this.writers.get(id) === writer) this.writers.delete(id);
    if (reason === 'reconnect') {
      const timedOut = reconnectTimeoutError(`Pravega stream '${this.scope}/${this.stream}'`, writer.segmentName, unacked, this.writeTimeoutMs, cause);
      if (timedOut !== undefined) {
        this.onFatal(timedOut, unacked);
        return;
      }
    }
    const step = async (): Promise<void> => {
      if (reason === 'sealed') {
        const successors = await this.controller.getSuccessors(writer.segment);
        if (successors.length === 0) throw new ConnectorError(`Pravega stream '${this.scope}/${this.stream}' is sealed; segment ${qualifiedSegmentName(writer.segment)} has no successors`);
        this.map = this.map.withReplacement(id, successors);
        this.sealedFollowed++;
      } else {
        await new Promise((res) => setTimeout(res, 50));
      }
      this.resent += unacked.length;
      this.dispatch(unacked);
    };
    this.enqueue(() => step().catch((e: unknown) => this.onFatal(e as Error, unacked)));
  }

  /** Runs `fn` after everything already blocked; clears the block once the chain is idle. */
  private enqueue(fn: () => Promise<void>): void {
    const next = (this.blocked ?? Promise.resolve()).then(fn);
    this.blocked = next;
    void next.then(() => {
      if (this.blocked === next) this.blocked = undefined;
    });
  }

  private onFatal(err: Error, unacked: readonly PendingEvent[] = []): void {
    this.failure ??= err;
    for (const e of unacked) e.tracker.fail(err);
  }
}
