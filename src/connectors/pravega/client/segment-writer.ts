import { randomUUID } from 'node:crypto';
import { ConnectorError } from '../../../errors/sluice-error.js';
import type { ControllerClient } from './controller-client.js';
import { tokenRefusedMessage, TOKEN_EXPIRED } from './security.js';
import type { SegmentRef } from './segment-names.js';
import {
  nextRequestId,
  type SegmentStoreConnection,
  type SegmentStoreConnectionPool,
  type SessionListener,
} from './segment-store-connection.js';
import { encodeCommand, encodeEvents, type IncomingCommand } from './wire-commands.js';

/** Tracks the acknowledgement of a batch of events handed to writers; settles once. */
export class AckTracker {
  /** When the batch was handed to the writers: how long its events have waited for an acknowledgement. */
  readonly createdAt = Date.now();
  private remaining: number;
  private settled = false;
  readonly promise: Promise<void>;
  private resolveFn!: () => void;
  private rejectFn!: (e: Error) => void;

  constructor(count: number) {
    this.remaining = count;
    this.promise = new Promise<void>((res, rej) => {
      this.resolveFn = res;
      this.rejectFn = rej;
    });
    // Callers may never await a batch they do not care about; its failure still surfaces through flush().
    this.promise.catch(() => undefined);
    if (count === 0) this.finish();
  }

  ack(): void {
    if (--this.remaining === 0) this.finish();
  }

  fail(err: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.rejectFn(err);
  }

  private finish(): void {
    if (this.settled) return;
    this.settled = true;
    this.resolveFn();
  }
}

/** An event on its way to a segment; `routingKey` is kept so a displaced event can be routed again. */
export interface PendingEvent {
  readonly routingKey: string | undefined;
  readonly payload: Uint8Array;
  readonly tracker: AckTracker;
}

/** Why a segment writer gave its unacknowledged events back. */
export type DisplacementReason = 'sealed' | 'reconnect';

/**
 * Called once when a writer can take no more events: the segment was sealed (route to its successors) or the
 * connection/host changed (open a new writer for the same segment). `unacked` is in write order and must be
 * written again before anything newer for the same keys. `cause` is the error that displaced it, if any.
 */
export type DisplacementHandler = (writer: SegmentWriter, unacked: PendingEvent[], reason: DisplacementReason, cause?: Error) => void;

/** How long an event may wait for its acknowledgement while its segment store cannot be reached, by default. */
export const DEFAULT_WRITE_TIMEOUT_MS = 60_000;

/**
 * For a displacement by `reconnect`: the error to fail the events with once the oldest of them has waited longer than
 * `timeoutMs` (the segment store or controller stayed unreachable), else undefined (try again).
 */
export function reconnectTimeoutError(what: string, segmentName: string, unacked: readonly PendingEvent[], timeoutMs: number, cause: Error | undefined): ConnectorError | undefined {
  let oldest = Infinity;
  for (const e of unacked) if (e.tracker.createdAt < oldest) oldest = e.tracker.createdAt;
  const waited = Date.now() - oldest;
  if (!(waited > timeoutMs)) return undefined;
  return new ConnectorError(
    `${what}: segment ${segmentName} could not be written for ${Math.round(waited / 1000)} s because its segment store or the controller ` +
      `is unreachable${cause === undefined ? '' : ` (last error: ${cause.message})`}`,
    { cause },
  );
}

const MAX_BLOCK_BYTES = 1024 * 1024;
const LONG_MIN = -(2 ** 63);

/**
 * Appends events to one segment (or one transaction segment) through the shared connection of its segment store.
 * `write` never blocks or awaits: before the append session is set up, events queue in memory and are sent when
 * the server answers SetupAppend. Acknowledgements (DataAppended) settle each event's tracker.
 */
export class SegmentWriter implements SessionListener {
  readonly writerId = randomUUID();
  private readonly requestId = nextRequestId();
  private conn: SegmentStoreConnection | undefined;
  private queued: PendingEvent[] = [];
  /** Sent but not yet acknowledged, in event-number order. */
  private readonly inflight: { eventNumber: number; event: PendingEvent }[] = [];
  private eventNumber = 0;
  private state: 'opening' | 'open' | 'displaced' | 'closed' = 'opening';
  private readonly drainWaiters: (() => void)[] = [];

  constructor(
    /** The segment whose store owns `segmentName` (the parent for a transaction segment). */
    readonly segment: SegmentRef,
    /** What SetupAppend names: the qualified segment name or a transaction segment name. */
    readonly segmentName: string,
    private readonly pool: SegmentStoreConnectionPool,
    private readonly controller: ControllerClient,
    private readonly onDisplaced: DisplacementHandler,
    private readonly onFatal: (writer: SegmentWriter, err: Error) => void,
  ) {
    void this.open();
  }

  private async open(): Promise<void> {
    try {
      const endpoint = await this.controller.getEndpoint(this.segment);
      const conn = await this.pool.get(endpoint);
      if (this.state !== 'opening') return;
      this.conn = conn;
      conn.addSession(this.requestId, this.writerId, this);
      const delegationToken = await this.controller.delegationToken(this.segment.scope, this.segment.stream, 'WRITE');
      if (this.state !== 'opening') return;
      const reply = await conn.request({ kind: 'SetupAppend', requestId: this.requestId, writerId: this.writerId, segment: this.segmentName, delegationToken });
      if (this.state !== 'opening') return;
      switch (reply.kind) {
        case 'AppendSetup':
          this.eventNumber = reply.lastEventNumber === LONG_MIN ? 0 : reply.lastEventNumber;
          this.state = 'open';
          this.sendQueued();
          return;
        default:
          this.onReply(reply);
      }
    } catch (e) {
      if (this.state === 'opening') this.displace('reconnect', e as Error);
    }
  }

  get isOpenForWrites(): boolean {
    return this.state === 'opening' || this.state === 'open';
  }

  /** Queues or sends events in order. Only valid while `isOpenForWrites`. Never blocks. */
  write(events: readonly PendingEvent[]): void {
    if (!this.isOpenForWrites) throw new ConnectorError(`segment writer for ${this.segmentName} no longer accepts events`);
    for (const e of events) this.queued.push(e);
    if (this.state === 'open') this.sendQueued();
  }

  /** Resolves when everything written so far is acknowledged or displaced. */
  drained(): Promise<void> {
    if (this.inflight.length === 0 && this.queued.length === 0) return Promise.resolve();
    if (!this.isOpenForWrites) return Promise.resolve();
    return new Promise((res) => this.drainWaiters.push(res));
  }

  private sendQueued(): void {
    const conn = this.conn!;
    let i = 0;
    const q = this.queued;
    this.queued = [];
    while (i < q.length) {
      const block: Uint8Array[] = [];
      let bytes = 0;
      while (i < q.length && (block.length === 0 || bytes + q[i]!.payload.length + 8 <= MAX_BLOCK_BYTES)) {
        const ev = q[i++]!;
        block.push(ev.payload);
        bytes += ev.payload.length + 8;
        this.inflight.push({ eventNumber: ++this.eventNumber, event: ev });
      }
      const data = encodeEvents(block);
      try {
        conn.sendRaw(
          encodeCommand({ kind: 'AppendBlockEnd', writerId: this.writerId, data, numEvents: block.length, lastEventNumber: this.eventNumber, requestId: this.requestId }),
        );
      } catch (e) {
        this.queued = q.slice(i);
        this.displace('reconnect', e as Error);
        return;
      }
    }
  }

  /** Routed here by the connection; see SessionListener. */
  onReply(cmd: IncomingCommand): void {
    if (this.state === 'displaced' || this.state === 'closed') return;
    switch (cmd.kind) {
      case 'DataAppended': {
        let n = 0;
        while (n < this.inflight.length && this.inflight[n]!.eventNumber <= cmd.eventNumber) this.inflight[n++]!.event.tracker.ack();
        if (n > 0) this.inflight.splice(0, n);
        if (this.inflight.length === 0 && this.queued.length === 0) this.wakeDrainers();
        return;
      }
      case 'SegmentIsSealed':
        this.displace('sealed');
        return;
      case 'WrongHost':
      case 'InvalidEventNumber':
        this.displace('reconnect');
        return;
      case 'NoSuchSegment':
        this.fatal(
          new ConnectorError(
            `Pravega segment ${this.segmentName} of stream '${this.segment.scope}/${this.segment.stream}' does not exist (the stream was deleted, or the transaction ended)`,
          ),
        );
        return;
      case 'AuthTokenCheckFailed':
        // Only SetupAppend carries the token: an expired one is renewed by the replacement writer's setup.
        if (cmd.errorCode === TOKEN_EXPIRED) {
          this.controller.invalidateDelegationToken(this.segment.scope, this.segment.stream);
          this.displace('reconnect');
        } else {
          this.fatal(new ConnectorError(tokenRefusedMessage('append to', this.segmentName, cmd.errorCode)));
        }
        return;
      case 'OperationUnsupported':
      case 'ErrorMessage':
      case 'ConditionalCheckFailed':
      case 'SegmentIsTruncated':
      case 'SegmentAlreadyExists':
        this.fatal(new ConnectorError(`Pravega segment store refused appends to ${this.segmentName}: ${cmd.kind}`));
        return;
      default:
        return;
    }
  }

  onConnectionLost(error: Error): void {
    if (this.isOpenForWrites) this.displace('reconnect', error);
  }

  private takeUnacked(): PendingEvent[] {
    const out = this.inflight.map((x) => x.event).concat(this.queued);
    this.inflight.length = 0;
    this.queued = [];
    return out;
  }

  private detach(): void {
    this.conn?.removeSession(this.requestId, this.writerId);
    this.wakeDrainers();
  }

  private displace(reason: DisplacementReason, cause?: Error): void {
    this.state = 'displaced';
    // WrongHost or a lost connection: the replacement writer must ask the controller where the segment lives now.
    if (reason === 'reconnect') this.controller.invalidateEndpoint(this.segment);
    const unacked = this.takeUnacked();
    this.detach();
    this.onDisplaced(this, unacked, reason, cause);
  }

  private fatal(err: Error): void {
    this.state = 'closed';
    for (const e of this.takeUnacked()) e.tracker.fail(err);
    this.detach();
    this.onFatal(this, err);
  }

  /** Stops accepting events; unacknowledged ones fail. Call `drained()` first for a clean close. */
  close(): void {
    if (this.state === 'closed') return;
    const wasOpen = this.isOpenForWrites;
    this.state = 'closed';
    const err = new ConnectorError(`segment writer for ${this.segmentName} was closed`);
    if (wasOpen) for (const e of this.takeUnacked()) e.tracker.fail(err);
    this.detach();
  }

  private wakeDrainers(): void {
    const w = this.drainWaiters.splice(0);
    for (const f of w) f();
  }
}
