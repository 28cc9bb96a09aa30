import { ConnectorError } from '../../../errors/sluice-error.js';
import { WireReader, WireWriter } from './wire-buffer.js';

/** Wire protocol version of Pravega 0.13.0, and the oldest version it still talks to. */
export const WIRE_VERSION = 16;
export const OLDEST_COMPATIBLE_VERSION = 5;
/** Frames carry a 24-bit payload length at most. */
export const MAX_FRAME_PAYLOAD = 0x00ffffff;
/** Every frame starts with int32 type + int32 payload length. */
export const FRAME_HEADER_SIZE = 8;
/** Events inside a segment are framed as int32 type 0 + int32 length + payload. */
export const EVENT_HEADER_SIZE = 8;
/** Largest event payload the Java client accepts (`Serializer.MAX_EVENT_SIZE`). */
export const MAX_EVENT_SIZE = 8 * 1024 * 1024;

export const enum WireType {
  Hello = -127,
  Event = 0,
  SetupAppend = 1,
  AppendSetup = 2,
  AppendBlockEnd = 4,
  DataAppended = 7,
  ConditionalCheckFailed = 8,
  ReadSegment = 9,
  SegmentRead = 10,
  GetStreamSegmentInfo = 11,
  StreamSegmentInfo = 12,
  WrongHost = 50,
  SegmentIsSealed = 51,
  SegmentAlreadyExists = 52,
  NoSuchSegment = 53,
  InvalidEventNumber = 55,
  SegmentIsTruncated = 56,
  OperationUnsupported = 57,
  AuthTokenCheckFailed = 60,
  ErrorMessage = 61,
  KeepAlive = 100,
}

/** Commands the client sends. */
export type OutgoingCommand =
  | { readonly kind: 'Hello'; readonly highVersion: number; readonly lowVersion: number }
  | { readonly kind: 'KeepAlive' }
  | { readonly kind: 'SetupAppend'; readonly requestId: number; readonly writerId: string; readonly segment: string; readonly delegationToken: string }
  | {
      readonly kind: 'AppendBlockEnd';
      readonly writerId: string;
      /** Concatenated Event frames (see `encodeEvents`). */
      readonly data: Buffer;
      readonly numEvents: number;
      readonly lastEventNumber: number;
      readonly requestId: number;
    }
  | { readonly kind: 'ReadSegment'; readonly segment: string; readonly offset: number; readonly suggestedLength: number; readonly delegationToken: string; readonly requestId: number }
  | { readonly kind: 'GetStreamSegmentInfo'; readonly requestId: number; readonly segment: string; readonly delegationToken: string };

/** Replies the client understands; anything else decodes to `Unknown`. */
export type IncomingCommand =
  | { readonly kind: 'Hello'; readonly highVersion: number; readonly lowVersion: number }
  | { readonly kind: 'KeepAlive' }
  | { readonly kind: 'AppendSetup'; readonly requestId: number; readonly segment: string; readonly writerId: string; readonly lastEventNumber: number }
  | { readonly kind: 'DataAppended'; readonly writerId: string; readonly eventNumber: number; readonly previousEventNumber: number; readonly requestId: number; readonly currentSegmentWriteOffset: number }
  | { readonly kind: 'ConditionalCheckFailed'; readonly writerId: string; readonly eventNumber: number; readonly requestId: number }
  | { readonly kind: 'SegmentRead'; readonly segment: string; readonly offset: number; readonly atTail: boolean; readonly endOfSegment: boolean; readonly data: Buffer; readonly requestId: number }
  | {
      readonly kind: 'StreamSegmentInfo';
      readonly requestId: number;
      readonly segment: string;
      readonly exists: boolean;
      readonly isSealed: boolean;
      readonly isDeleted: boolean;
      readonly lastModified: number;
      readonly writeOffset: number;
      readonly startOffset: number;
    }
  | { readonly kind: 'WrongHost'; readonly requestId: number; readonly segment: string; readonly correctHost: string; readonly serverStackTrace: string }
  | { readonly kind: 'SegmentIsSealed'; readonly requestId: number; readonly segment: string; readonly serverStackTrace: string; readonly offset: number }
  | { readonly kind: 'SegmentAlreadyExists'; readonly requestId: number; readonly segment: string; readonly serverStackTrace: string }
  | { readonly kind: 'NoSuchSegment'; readonly requestId: number; readonly segment: string; readonly serverStackTrace: string; readonly offset: number }
  | { readonly kind: 'InvalidEventNumber'; readonly writerId: string; readonly requestId: number; readonly serverStackTrace: string; readonly eventNumber: number }
  | { readonly kind: 'SegmentIsTruncated'; readonly requestId: number; readonly segment: string; readonly startOffset: number; readonly serverStackTrace: string; readonly offset: number }
  | { readonly kind: 'OperationUnsupported'; readonly requestId: number; readonly operationName: string; readonly serverStackTrace: string }
  | { readonly kind: 'AuthTokenCheckFailed'; readonly requestId: number; readonly serverStackTrace: string; readonly errorCode: number }
  | { readonly kind: 'ErrorMessage'; readonly requestId: number; readonly segment: string; readonly message: string; readonly errorCode: number }
  | { readonly kind: 'Unknown'; readonly type: number };

function frame(type: number, body: (w: WireWriter) => void, sizeHint = 128): Buffer {
  const w = new WireWriter(sizeHint + FRAME_HEADER_SIZE);
  w.int32(type).int32(0);
  body(w);
  const payload = w.length - FRAME_HEADER_SIZE;
  if (payload > MAX_FRAME_PAYLOAD) throw new ConnectorError(`Pravega wire frame of ${payload} bytes exceeds the ${MAX_FRAME_PAYLOAD}-byte limit`);
  w.patchInt32(4, payload);
  return w.toBuffer();
}

/** Encodes one command as a complete frame (header + payload). */
export function encodeCommand(cmd: OutgoingCommand): Buffer {
  switch (cmd.kind) {
    case 'Hello':
      return frame(WireType.Hello, (w) => w.int32(cmd.highVersion).int32(cmd.lowVersion), 8);
    case 'KeepAlive':
      return frame(WireType.KeepAlive, () => undefined, 0);
    case 'SetupAppend':
      return frame(WireType.SetupAppend, (w) => w.int64(cmd.requestId).uuid(cmd.writerId).utf(cmd.segment).utf(cmd.delegationToken));
    case 'AppendBlockEnd':
      return frame(
        WireType.AppendBlockEnd,
        (w) =>
          w
            .uuid(cmd.writerId)
            .int32(cmd.data.length)
            .int32(cmd.data.length)
            .bytes(cmd.data)
            .int32(cmd.numEvents)
            .int64(cmd.lastEventNumber)
            .int64(cmd.requestId),
        cmd.data.length + 48,
      );
    case 'ReadSegment':
      return frame(WireType.ReadSegment, (w) =>
        w.utf(cmd.segment).int64(cmd.offset).int32(cmd.suggestedLength).utf(cmd.delegationToken).int64(cmd.requestId),
      );
    case 'GetStreamSegmentInfo':
      return frame(WireType.GetStreamSegmentInfo, (w) => w.int64(cmd.requestId).utf(cmd.segment).utf(cmd.delegationToken));
    default: {
      const never: never = cmd;
      throw new ConnectorError(`unknown outgoing Pravega command ${JSON.stringify(never)}`);
    }
  }
}

/** Decodes one frame's payload given its type code. */
export function decodeCommand(type: number, payload: Buffer): IncomingCommand {
  const r = new WireReader(payload);
  switch (type) {
    case WireType.Hello:
      return { kind: 'Hello', highVersion: r.int32(), lowVersion: r.int32() };
    case WireType.KeepAlive:
      return { kind: 'KeepAlive' };
    case WireType.AppendSetup:
      return { kind: 'AppendSetup', requestId: r.int64(), segment: r.utf(), writerId: r.uuid(), lastEventNumber: r.int64() };
    case WireType.DataAppended:
      return {
        kind: 'DataAppended',
        writerId: r.uuid(),
        eventNumber: r.int64(),
        previousEventNumber: r.int64(),
        requestId: r.optionalInt64(),
        currentSegmentWriteOffset: r.optionalInt64(),
      };
    case WireType.ConditionalCheckFailed:
      return { kind: 'ConditionalCheckFailed', writerId: r.uuid(), eventNumber: r.int64(), requestId: r.optionalInt64() };
    case WireType.SegmentRead:
      return {
        kind: 'SegmentRead',
        segment: r.utf(),
        offset: r.int64(),
        atTail: r.bool(),
        endOfSegment: r.bool(),
        data: r.blob(),
        requestId: r.optionalInt64(),
      };
    case WireType.StreamSegmentInfo:
      return {
        kind: 'StreamSegmentInfo',
        requestId: r.int64(),
        segment: r.utf(),
        exists: r.bool(),
        isSealed: r.bool(),
        isDeleted: r.bool(),
        lastModified: r.int64(),
        writeOffset: r.int64(),
        startOffset: r.int64(),
      };
    case WireType.WrongHost:
      return { kind: 'WrongHost', requestId: r.int64(), segment: r.utf(), correctHost: r.utf(), serverStackTrace: r.utf() };
    case WireType.SegmentIsSealed:
      return { kind: 'SegmentIsSealed', requestId: r.int64(), segment: r.utf(), serverStackTrace: r.utf(), offset: r.optionalInt64() };
    case WireType.SegmentAlreadyExists:
      return { kind: 'SegmentAlreadyExists', requestId: r.int64(), segment: r.utf(), serverStackTrace: r.utf() };
    case WireType.NoSuchSegment:
      return { kind: 'NoSuchSegment', requestId: r.int64(), segment: r.utf(), serverStackTrace: r.utf(), offset: r.optionalInt64() };
    case WireType.InvalidEventNumber:
      return { kind: 'InvalidEventNumber', writerId: r.uuid(), requestId: r.int64(), serverStackTrace: r.utf(), eventNumber: r.optionalInt64() };
    case WireType.SegmentIsTruncated:
      return {
        kind: 'SegmentIsTruncated',
        requestId: r.int64(),
        segment: r.utf(),
        startOffset: r.int64(),
        serverStackTrace: r.utf(),
        offset: r.optionalInt64(),
      };
    case WireType.OperationUnsupported:
      return { kind: 'OperationUnsupported', requestId: r.int64(), operationName: r.utf(), serverStackTrace: r.utf() };
    case WireType.AuthTokenCheckFailed:
      return { kind: 'AuthTokenCheckFailed', requestId: r.int64(), serverStackTrace: r.utf(), errorCode: r.remaining >= 4 ? r.int32() : -1 };
    case WireType.ErrorMessage:
      return { kind: 'ErrorMessage', requestId: r.int64(), segment: r.utf(), message: r.utf(), errorCode: r.remaining >= 4 ? r.int32() : -1 };
    default:
      return { kind: 'Unknown', type };
  }
}

/** Frames payloads as stored Pravega events (int32 0, int32 length, bytes), back to back. */
export function encodeEvents(payloads: readonly Uint8Array[]): Buffer {
  let size = 0;
  for (const p of payloads) size += EVENT_HEADER_SIZE + p.length;
  const out = Buffer.allocUnsafe(size);
  let pos = 0;
  for (const p of payloads) {
    if (p.length > MAX_EVENT_SIZE) throw new ConnectorError(`a Pravega event holds at most ${MAX_EVENT_SIZE} bytes, got ${p.length}`);
    out.writeInt32BE(WireType.Event, pos);
    out.writeInt32BE(p.length, pos + 4);
    out.set(p, pos + 8);
    pos += EVENT_HEADER_SIZE + p.length;
  }
  return out;
}
