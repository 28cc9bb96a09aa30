import { ConnectorError } from '../../../errors/sluice-error.js';
import type { ControllerClient } from './controller-client.js';
import { tokenRefusedMessage, TOKEN_EXPIRED } from './security.js';
import { qualifiedSegmentName, segmentNumberOf, type SegmentRef } from './segment-names.js';
import { nextRequestId, readLane, type SegmentStoreConnectionPool } from './segment-store-connection.js';
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
const EMPTY = Buffer.alloc(0);
/** Most bytes of neighbouring events copied into one buffer (see `parse`). */
const COPY_RUN = 64 * 1024;
const MAX_ATTEMPTS = 5;

async function withSegmentStore(
  controller: ControllerClient,
  pool: SegmentStoreConnectionPool,
  segment: SegmentRef,
  send: (requestId: number, delegationToken: string) => OutgoingCommand & { readonly requestId: number },
  lane = 0,
): Promise<IncomingCommand> {
  let lastError: Error | undefined;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    try {
      const conn = await pool.get(await controller.getEndpoint(segment), lane);
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
  /** Bytes of the next event read so far (it continues in the next reply). */
  private partial: Buffer = EMPTY;
  private finished: 'no' | 'endOfSegment' | 'reachedEnd' = 'no';
  private readonly name: string;
  /** Reads go on their segment's own connection (see `readLane`), not the one writers and metadata requests share. */
  private readonly lane: number;
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
    this.lane = readLane(segmentNumberOf(segment.segmentId));
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
    const events: ReadEvent[] = [];
    // An event split across reads is completed from the head of `data`; the rest of `data` is parsed in place.
    // Joining the partial event with the whole reply instead copied every 1 MB reply once more.
    let from = 0;
    if (this.partial.length > 0) {
      const headerLen = this.partial.length >= EVENT_HEADER_SIZE ? 0 : Math.min(EVENT_HEADER_SIZE - this.partial.length, data.length);
      const head = headerLen === 0 ? this.partial : Buffer.concat([this.partial, data.subarray(0, headerLen)]);
      if (head.length < EVENT_HEADER_SIZE) {
        this.partial = head;
        from = data.length;
      } else {
        const total = EVENT_HEADER_SIZE + this.checkedLength(head, 0);
        const take = Math.min(total - this.partial.length, data.length);
        this.partial = Buffer.concat([this.partial, data.subarray(0, take)]);
        from = take;
        if (this.partial.length === total) {
          events.push({ payload: this.partial.subarray(EVENT_HEADER_SIZE), offset: this.position });
          this.position += total;
          this.partial = EMPTY;
        }
      }
    }
    if (this.partial.length === 0) from = this.parse(data, from, events);
    if (from < data.length) this.partial = Buffer.from(data.subarray(from));
    if (this.endOffset !== undefined && this.position >= this.endOffset) this.finished = 'reachedEnd';
    else if (reply.endOfSegment && this.partial.length === 0 && data.length === reply.data.length) this.finished = 'endOfSegment';
    return this.batch(events);
  }

  /**
   * Appends the complete events of `buf` from `from` (the start of an event at `this.position`); returns where the rest
   * starts. Payloads are copied so a caller keeping one pins at most a run of `COPY_RUN` bytes, not the reply: runs of
   * neighbouring events are copied with one memcpy each and handed out as views. Copying each payload on its own
   * (Buffer.from or allocUnsafe + copy per event) was most of the read's CPU time with 1 KB events.
   */
  private parse(buf: Buffer, from: number, events: ReadEvent[]): number {
    let pos = from;
    let runStart = pos;
    const starts: number[] = [];
    while (buf.length - pos >= EVENT_HEADER_SIZE) {
      const end = pos + EVENT_HEADER_SIZE + this.checkedLength(buf, pos, this.position + (pos - from));
      if (buf.length < end) break;
      if (end - runStart > COPY_RUN && starts.length > 0) {
        this.copyRun(buf, runStart, pos, starts, from, events);
        runStart = pos;
      }
      starts.push(pos);
      pos = end;
    }
    if (starts.length > 0) this.copyRun(buf, runStart, pos, starts, from, events);
    this.position += pos - from;
    return pos;
  }

  /** Copies events [runStart, runEnd) of `buf` (their header offsets in `starts`, emptied here) into one buffer. */
  private copyRun(buf: Buffer, runStart: number, runEnd: number, starts: number[], from: number, events: ReadEvent[]): void {
    const run = Buffer.allocUnsafeSlow(runEnd - runStart);
    buf.copy(run, 0, runStart, runEnd);
    for (const start of starts) {
      const at = start - runStart + EVENT_HEADER_SIZE;
      events.push({ payload: run.subarray(at, at + run.readInt32BE(at - 4)), offset: this.position + (start - from) });
    }
    starts.length = 0;
  }

  /** The payload length in the event header at `pos`; throws on a corrupt header. */
  private checkedLength(buf: Buffer, pos: number, offset = this.position): number {
    const type = buf.readInt32BE(pos);
    const len = buf.readInt32BE(pos + 4);
    if (type !== 0 || len < 0 || len > MAX_EVENT_SIZE) {
      throw new ConnectorError(`corrupt event at offset ${offset} of Pravega segment ${this.name} (type ${type}, length ${len})`);
    }
    return len;
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
    }), this.lane);
  }

  private batch(events: ReadEvent[]): SegmentReadBatch {
    return { events, position: this.position, endOfSegment: this.finished === 'endOfSegment', reachedEnd: this.finished === 'reachedEnd' };
  }
}
