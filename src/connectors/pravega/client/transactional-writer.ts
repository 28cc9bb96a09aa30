import { ConnectorError } from '../../../errors/sluice-error.js';
import type { ControllerClient, TxnState } from './controller-client.js';
import type { EventToWrite } from './event-writer.js';
import { SegmentMap } from './segment-map.js';
import { transactionSegmentName, txnIdToString, type TxnId } from './segment-names.js';
import type { SegmentStoreConnectionPool } from './segment-store-connection.js';
import { AckTracker, DEFAULT_WRITE_TIMEOUT_MS, reconnectTimeoutError, SegmentWriter, type PendingEvent } from './segment-writer.js';

/** Java's default lease (EventWriterConfig): just under the controller's 600 s maximum. */
export const DEFAULT_TXN_LEASE_MS = 600_000 - 1;

/**
 * One open Pravega transaction: events written here are durable on acknowledgement but invisible to readers until
 * `commit`; `abort` drops them. Routes by key over the segments active when the transaction began (a transaction
 * never follows a scale). Batches are written without awaiting per event.
 */
export class Transaction {
  private readonly writers = new Map<number, SegmentWriter>();
  private readonly outstanding = new Set<Promise<void>>();
  private failure: Error | undefined;
  private state: 'open' | 'committed' | 'aborted' = 'open';

  private constructor(
    readonly scope: string,
    readonly stream: string,
    readonly txnId: TxnId,
    private readonly map: SegmentMap,
    private readonly controller: ControllerClient,
    private readonly pool: SegmentStoreConnectionPool,
    private readonly writeTimeoutMs: number = DEFAULT_WRITE_TIMEOUT_MS,
  ) {}

  /**
   * Opens a transaction on the stream with a lease in ms (keep it alive with `ping`). Events that cannot reach their
   * segment store for `writeTimeoutMs` (default 60 s) fail, and so does every later write and flush.
   */
  static async begin(
    controller: ControllerClient,
    pool: SegmentStoreConnectionPool,
    scope: string,
    stream: string,
    leaseMs = DEFAULT_TXN_LEASE_MS,
    options: { readonly writeTimeoutMs?: number } = {},
  ): Promise<Transaction> {
    const created = await controller.createTransaction(scope, stream, leaseMs);
    return new Transaction(scope, stream, created.txnId, new SegmentMap(created.activeSegments), controller, pool, options.writeTimeoutMs);
  }

  /**
   * Re-attaches to a transaction started earlier (e.g. by a sink before a restart) so it can be committed or
   * aborted. Writing to it needs the segments, so only commit/abort/state are allowed on a resumed transaction.
   */
  static resume(controller: ControllerClient, pool: SegmentStoreConnectionPool, scope: string, stream: string, txnId: TxnId): Transaction {
    return new Transaction(scope, stream, txnId, new SegmentMap([{ segment: { scope, stream, segmentId: -1 }, minKey: 0, maxKey: 1 }]), controller, pool);
  }

  /** The transaction id as UUID text (what Java prints and Flink stores in its state). */
  get id(): string {
    return txnIdToString(this.txnId);
  }

  /** Writes a batch into the transaction; resolves when every event of it is acknowledged. */
  writeEvents(events: readonly EventToWrite[]): Promise<void> {
    if (this.state !== 'open') return Promise.reject(new ConnectorError(`Pravega transaction ${this.id} is already ${this.state}`));
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const tracker = new AckTracker(events.length);
    const bySegment = new Map<number, PendingEvent[]>();
    for (const e of events) {
      const id = this.map.route(e.routingKey).segment.segmentId;
      let list = bySegment.get(id);
      if (list === undefined) bySegment.set(id, (list = []));
      list.push({ routingKey: e.routingKey, payload: e.payload, tracker });
    }
    for (const [id, list] of bySegment) this.writerFor(id).write(list);
    const p = tracker.promise;
    this.outstanding.add(p);
    const forget = (): void => void this.outstanding.delete(p);
    p.then(forget, forget);
    return p;
  }

  /** Resolves when all events written so far are durable (the pre-commit of a two-phase sink). */
  async flush(): Promise<void> {
    while (this.outstanding.size > 0) await Promise.all([...this.outstanding]);
    if (this.failure !== undefined) throw this.failure;
  }

  /** Extends the lease; returns the controller's verdict (OK, or why the transaction can no longer be kept). */
  ping(leaseMs = DEFAULT_TXN_LEASE_MS): Promise<string> {
    return this.controller.pingTransaction(this.scope, this.stream, this.txnId, leaseMs);
  }

  checkState(): Promise<TxnState> {
    return this.controller.checkTransactionState(this.scope, this.stream, this.txnId);
  }

  /**
   * Flushes, asks the controller to commit, and (by default) polls until COMMITTED so the events are readable when
   * this resolves. Committing an already committed transaction succeeds, so recovery may call it again.
   */
  async commit(options: { readonly waitUntilCommitted?: boolean; readonly timeoutMs?: number } = {}): Promise<void> {
    await this.flush();
    this.releaseWriters();
    await this.controller.commitTransaction(this.scope, this.stream, this.txnId);
    this.state = 'committed';
    if (options.waitUntilCommitted === false) return;
    const deadline = Date.now() + (options.timeoutMs ?? 60_000);
    for (;;) {
      const s = await this.checkState();
      if (s === 'COMMITTED') return;
      if (s === 'ABORTED' || s === 'ABORTING') throw new ConnectorError(`Pravega transaction ${this.id} was aborted instead of committed`);
      if (Date.now() > deadline) throw new ConnectorError(`Pravega transaction ${this.id} is still ${s} after the commit timeout`);
      await new Promise((res) => setTimeout(res, 50));
    }
  }

  /** Drops everything written in the transaction. */
  async abort(): Promise<void> {
    this.releaseWriters();
    await this.controller.abortTransaction(this.scope, this.stream, this.txnId);
    this.state = 'aborted';
  }

  private releaseWriters(): void {
    for (const w of this.writers.values()) w.close();
    this.writers.clear();
  }

  private writerFor(segmentId: number): SegmentWriter {
    let w = this.writers.get(segmentId);
    if (w === undefined || !w.isOpenForWrites) {
      const seg = this.map.segments.find((r) => r.segment.segmentId === segmentId)!.segment;
      if (seg.segmentId < 0) throw new ConnectorError(`Pravega transaction ${this.id} was resumed by id; it can only be committed or aborted`);
      w = new SegmentWriter(
        seg,
        transactionSegmentName(seg, this.txnId),
        this.pool,
        this.controller,
        (wr, unacked, reason, cause) => {
          if (this.writers.get(segmentId) === wr) this.writers.delete(segmentId);
          const timedOut =
            reason === 'reconnect'
              ? reconnectTimeoutError(`Pravega transaction ${this.id} on stream '${this.scope}/${this.stream}'`, wr.segmentName, unacked, this.writeTimeoutMs, cause)
              : undefined;
          if (reason === 'sealed' || timedOut !== undefined) {
            const err =
              timedOut ??
              new ConnectorError(
                `Pravega transaction ${this.id} on stream '${this.scope}/${this.stream}': segment ${wr.segmentName} was sealed (the transaction was aborted or timed out, or the stream was sealed or deleted)`,
              );
            this.failure ??= err;
            for (const e of unacked) e.tracker.fail(err);
          } else {
            setTimeout(() => this.writerFor(segmentId).write(unacked), 50);
          }
        },
        (_wr, err) => {
          this.failure ??= err;
        },
      );
      this.writers.set(segmentId, w);
    }
    return w;
  }
}
