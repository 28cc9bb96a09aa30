import { qualifiedSegmentName, type SegmentRef } from '../client/index.js';
import { EVENT_HEADER_SIZE } from '../client/wire-commands.js';

/** Java `RevisionDataOutput.writeCompactLong`: 2 tag bits choose 1, 2, 4 or 8 bytes. */
function compactLong(v: number): Buffer {
  if (v < 0x40) return Buffer.from([v]);
  if (v < 0x4000) return Buffer.from([0x40 | (v >>> 8), v & 0xff]);
  if (v < 0x40000000) {
    const b = Buffer.alloc(4);
    b.writeUInt32BE((0x80000000 | v) >>> 0);
    return b;
  }
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE((3n << 62n) | BigInt(v));
  return b;
}

/** Java `RevisionDataOutput.writeCompactInt`: 2 tag bits choose 1, 2, 3 or 4 bytes. */
function compactInt(v: number): Buffer {
  if (v < 0x40) return Buffer.from([v]);
  if (v < 0x4000) return Buffer.from([0x40 | (v >>> 8), v & 0xff]);
  if (v < 0x400000) return Buffer.from([0x80 | (v >>> 16), (v >>> 8) & 0xff, v & 0xff]);
  const b = Buffer.alloc(4);
  b.writeUInt32BE((0xc0000000 | v) >>> 0);
  return b;
}

/** Java `DataOutput.writeUTF` for the ASCII-safe names Pravega allows. */
function utf(s: string): Buffer {
  const bytes = Buffer.from(s, 'utf8');
  const len = Buffer.alloc(2);
  len.writeUInt16BE(bytes.length);
  return Buffer.concat([len, bytes]);
}

/**
 * The `event_pointer` metadata value: the bytes of Java's `EventPointer.toBytes()` (a VersionedSerializer record:
 * format 0, version 0, one revision (id 0) with its length, then segment name, start offset and length of the event including
 * its 8-byte header), so a Java client can `EventPointer.fromBytes` it and fetch the event.
 */
export function eventPointerBytes(segment: SegmentRef, eventOffset: number, payloadLength: number): Uint8Array {
  const body = Buffer.concat([utf(qualifiedSegmentName(segment)), compactLong(eventOffset), compactInt(payloadLength + EVENT_HEADER_SIZE)]);
  // Checked byte for byte against pravega-client 0.13.0 (test/integration/pravega/java-interop.test.ts): serialization
  // format 0, object version 0, one revision, revision id 0, then the revision's int32 length.
  const header = Buffer.alloc(8);
  header.writeUInt8(0, 0);
  header.writeUInt8(0, 1);
  header.writeUInt8(1, 2);
  header.writeUInt8(0, 3);
  header.writeInt32BE(body.length, 4);
  return new Uint8Array(Buffer.concat([header, body]));
}
