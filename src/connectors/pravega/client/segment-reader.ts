import { ConnectorError } from '../../../errors/sluice-error.js';
import type { ControllerClient } from './controller-client.js';
import { tokenRefusedMessage, TOKEN_EXPIRED } from './security.js';
import { qualifiedSegmentName, type SegmentRef } from './segment-names.js';
import { nextRequestId, type SegmentStoreConnectionPool } from './segment-store-connection.js';
import { EVENT_HEADER_SIZE, MAX_EVENT_SIZE, type IncomingCommand, type OutgoingCommand } from './wire-commands.js';

/** One event read from a segment; `offset` is where its header starts (a valid stream-cut position). */
export interface ReadEvent {
  readonly payload: Buffer;
  readonly offset: number;
}

export interface SegmentReadBatch {
  readonly events: readonly ReadEvent[];
  /** Offset of the next event to read: a valid stream-cut position for this segment. */
  readonly position: number;
  /** The segment is sealed and everything in it has been read: continue with its successors. */
  readonly endOfSegment: boolean;
  /** The requested end offset was reached. */
  readonly reachedEnd: boolean;
}

export interface SegmentInfo {
  readonly exists: boolean;
  readonly isSealed: boolean;
  readonly startOffset: number;
  readonly writeOffset: number;
}

const DEFAULT_READ_SIZE = 256 * 1024;
const MAX_ATTEMPTS = 5;

async function withSegmentStore(
  controller: ControllerClient,
  pool: SegmentStoreConnectionPool,
  segment: SegmentRef,
  send: (requestId: number, delegationToken: string) => OutgoingCommand & { readonly requestId: number },
): Promise<IncomingCommand> {
  let lastError: Error | undefined;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    try {
      const conn = await pool.get(await controller.getEndpoint(segment));
      const token = await controller.delegationToken(segment.scope, segment.stream, 'READ');
      const reply = await conn.request(send(nextRequestId(), token));
      if (reply.kind === 'AuthTokenCheckFailed' && reply.errorCode === TOKEN_EXPIRED) {
        // Renew and retry at once; any other refusal goes back to the caller.
        controller.invalidateDelegationToken(segment.scope, segment.stream);
        lastError = new ConnectorError(tokenRefusedMessage('read', qualifiedSegmentName(segment), reply.errorCode));
        continue;
      }
      if (reply.kind !== 'WrongHost') return reply;
      lastError = new ConnectorError(`segment ${qualifiedSegmentName(segment)} moved to ${reply.correctHost}`);
    } catch (e) {
      lastError = e as Error;
    }
    // The store moved or is unreachable: the cached endpoint may be stale.
    controller.invalidateEndpoint(segment);
    await new Promise((res) => setTimeout(res, 100 * (attempt + 1)));
  }
  throw lastError ?? new ConnectorError(`cannot reach the segment store of ${qualifiedSegmentName(segment)}`);
}

/** Asks the segment store for a segment's length, start (after truncation) and sealed flag. */
export async function getSegmentInfo(controller: ControllerClient, pool: SegmentStoreConnectionPool, segment: SegmentRef): Promise<SegmentInfo> {
  const name = qualifiedSegmentName(segment);
  const reply = await withSegmentStore(controller, pool, segment, (requestId, delegationToken) => ({ kind: 'GetStreamSegmentInfo', requestId, segment: name, delegationToken }));
  if (reply.kind === 'StreamSegmentInfo') return { exists: reply.exists, isSealed: reply.isSealed, startOffset: reply.startOffset, writeOffset: reply.writeOffset };
  if (reply.kind === 'NoSuchSegment') return { exists: false, isSealed: false, startOffset: 0, writeOffset: 0 };
  if (reply.kind === 'AuthTokenCheckFailed') throw new ConnectorError(tokenRefusedMessage('read', name, reply.errorCode));
  throw new ConnectorError(`cannot get info of Pravega segment ${name}: ${reply.kind}`);
}

/**
 * Reads events from one segment between a start offset and an optional end offset, reassembling events that span
 * reads. One `read` at a time (not reentrant). A read at the tail of an open segment waits on the server until data
 * arrives (the server gives up after its own timeout and returns nothing), so unbounded readers should expect
 * empty batches; bounded reads never wait past `endOffset`.
 */
export class SegmentReader {
  private position: number;
  private partial: Buffer = Buffer.alloc(0);
  private finished: 'no' | 'endOfSegment' | 'reachedEnd' = 'no';
  private readonly name: string;
  /** The next chunk, requested before the caller asked (see `readAhead`). */
  private ahead: { readonly offset: number; readonly reply: Promise<IncomingCommand> } | undefined;

  constructor(
    private readonly controller: ControllerClient,
    private readonly pool: SegmentStoreConnectionPool,
    readonly segment: SegmentRef,
    startOffset: number,
    /** Exclusive end; undefined reads until the segment is sealed and drained. */
    readonly endOffset?: number,
    /**
     * Ask for the next chunk as soon as one arrives (not at the tail, where the store would hold the request), so the
     * round trip overlaps with the caller's processing, as the Java client's segment input stream does. Costs one
     * chunk of memory; the fetched length is the one of the previous `read`.
     */
    private readonly readAhead = false,
  ) {
    this.position = startOffset;
    this.name = qualifiedSegmentName(segment);
    if (endOffset !== undefined && endOffset <= startOffset) this.finished = 'reachedEnd';
  }

  /** Offset of the next unread event. */
  get currentPosition(): number {
    return this.position;
  }

  get isFinished(): boolean {
    return this.finished !== 'no';
  }

  /** Fetches the next chunk and returns the complete events in it (possibly none). */
  async read(suggestedLength = DEFAULT_READ_SIZE): Promise<SegmentReadBatch> {
    if (this.finished !== 'no') return this.batch([]);
    const fetchOffset = this.position + this.partial.length;
    const ahead = this.ahead;
    this.ahead = undefined;
    const reply = await (ahead !== undefined && ahead.offset === fetchOffset ? ahead.reply : this.fetch(fetchOffset, suggestedLength));
    if (this.readAhead && reply.kind === 'SegmentRead' && !reply.atTail && !reply.endOfSegment && reply.data.length > 0) {
      const next = fetchOffset + reply.data.length;
      if (this.endOffset === undefined || next < this.endOffset) {
        const p = this.fetch(next, suggestedLength);
        // Awaited by the next `read`; a reader dropped before that must not leave an unhandled rejection.
        p.catch(() => undefined);
        this.ahead = { offset: next, reply: p };
      }
    }
    switch (reply.kind) {
      case 'SegmentRead':
        break;
      case 'SegmentIsTruncated':
        throw new ConnectorError(`Pravega segment ${this.name} is truncated at ${reply.startOffset}; cannot read from offset ${fetchOffset}`);
      case 'NoSuchSegment':
        throw new ConnectorError(`Pravega segment ${this.name} does not exist`);
      case 'AuthTokenCheckFailed':
        throw new ConnectorError(tokenRefusedMessage('read', this.name, reply.errorCode));
      default:
        throw new ConnectorError(`unexpected reply ${reply.kind} reading Pravega segment ${this.name}`);
    }
    let data = reply.data;
    if (this.endOffset !== undefined && fetchOffset + data.length > this.endOffset) data = data.subarray(0, this.endOffset - fetchOffset);
    const buf = this.partial.length === 0 ? data : Buffer.concat([this.partial, data]);
    const events: ReadEvent[] = [];
    let pos = 0;
    while (buf.length - pos >= EVENT_HEADER_SIZE) {
      const type = buf.readInt32BE(pos);
      const len = buf.readInt32BE(pos + 4);
      if (type !== 0 || len < 0 || len > MAX_EVENT_SIZE) {
        throw new ConnectorError(`corrupt event at offset ${this.position + pos} of Pravega segment ${this.name} (type ${type}, length ${len})`);
      }
      if (buf.length - pos < EVENT_HEADER_SIZE + len) break;
      // Copy so callers can keep payloads without pinning the whole read buffer.
      events.push({ payload: Buffer.from(buf.subarray(pos + EVENT_HEADER_SIZE, pos + EVENT_HEADER_SIZE + len)), offset: this.position + pos });
      pos += EVENT_HEADER_SIZE + len;
    }
    this.position += pos;
    this.partial = Buffer.from(buf.subarray(pos));
    if (this.endOffset !== undefined && this.position >= this.endOffset) this.finished = 'reachedEnd';
    else if (reply.endOfSegment && this.partial.length === 0 && data.length === reply.data.length) this.finished = 'endOfSegment';
    return this.batch(events);
  }

  private fetch(offset: number, suggestedLength: number): Promise<IncomingCommand> {
    const length = this.endOffset === undefined ? suggestedLength : Math.max(1, Math.min(suggestedLength, this.endOffset - offset));
    return withSegmentStore(this.controller, this.pool, this.segment, (requestId, delegationToken) => ({
      kind: 'ReadSegment',
      segment: this.name,
      offset,
      suggestedLength: length,
      delegationToken,
      requestId,
    }));
  }

  private batch(events: ReadEvent[]): SegmentReadBatch {
    return { events, position: this.position, endOfSegment: this.finished === 'endOfSegment', reachedEnd: this.finished === 'reachedEnd' };
  }
}
