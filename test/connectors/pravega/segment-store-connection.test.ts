import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SegmentStoreConnection } from '../../../src/connectors/pravega/client/segment-store-connection.js';

/** A frame: int32 type, int32 length, payload. */
function frame(type: number, payload: Buffer): Buffer {
  const h = Buffer.alloc(8);
  h.writeInt32BE(type, 0);
  h.writeInt32BE(payload.length, 4);
  return Buffer.concat([h, payload]);
}

function utf(s: string): Buffer {
  const b = Buffer.from(s, 'utf8');
  const l = Buffer.alloc(2);
  l.writeUInt16BE(b.length);
  return Buffer.concat([l, b]);
}

function int64(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigInt64BE(BigInt(n));
  return b;
}

function segmentRead(segment: string, offset: number, data: Buffer, requestId: number): Buffer {
  const len = Buffer.alloc(4);
  len.writeInt32BE(data.length);
  return frame(10, Buffer.concat([utf(segment), int64(offset), Buffer.from([0, 0]), len, data, int64(requestId)]));
}

function authTokenCheckFailed(requestId: number, errorCode: number): Buffer {
  const code = Buffer.alloc(4);
  code.writeInt32BE(errorCode);
  return frame(60, Buffer.concat([int64(requestId), utf('trace'), code]));
}

const hello = (() => {
  const p = Buffer.alloc(8);
  p.writeInt32BE(16, 0);
  p.writeInt32BE(5, 4);
  return frame(-127, p);
})();

/** A fake segment store: answers Hello, then hands every later client frame's type to `onFrame`. */
async function fakeStore(onFrame: (socket: Socket, type: number) => void): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => {
    let buf = Buffer.alloc(0);
    socket.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      while (buf.length >= 8 && buf.length >= 8 + buf.readInt32BE(4)) {
        const type = buf.readInt32BE(0);
        buf = buf.subarray(8 + buf.readInt32BE(4));
        if (type === -127) socket.write(hello);
        else onFrame(socket, type);
      }
    });
  });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  return { server, port: (server.address() as { port: number }).port };
}

async function writeInPieces(socket: Socket, bytes: Buffer, piece: number): Promise<void> {
  for (let i = 0; i < bytes.length; i += piece) {
    socket.write(bytes.subarray(i, i + piece));
    await new Promise((r) => setImmediate(r));
  }
}

describe('SegmentStoreConnection framing', () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  it('reassembles a large reply sent in small pieces, with headers split across pieces', async () => {
    const data = Buffer.alloc(300_000, 7);
    let answered = false;
    const f = await fakeStore((socket) => {
      if (answered) return;
      answered = true;
      // Both replies back to back, cut into 987-byte pieces: the first frame is 300046 bytes, so the second header
      // straddles a cut.
      void writeInPieces(socket, Buffer.concat([segmentRead('s/t/0.#epoch.0', 0, data, 1), segmentRead('s/t/0.#epoch.0', 300_000, Buffer.from('tail'), 2)]), 987);
    });
    server = f.server;
    const conn = await SegmentStoreConnection.open({ host: '127.0.0.1', port: f.port });
    const second = conn.request({ kind: 'ReadSegment', segment: 's/t/0.#epoch.0', offset: 300_000, suggestedLength: 10, delegationToken: '', requestId: 2 });
    const first = await conn.request({ kind: 'ReadSegment', segment: 's/t/0.#epoch.0', offset: 0, suggestedLength: 300_000, delegationToken: '', requestId: 1 });
    expect(first.kind).toBe('SegmentRead');
    expect(first.kind === 'SegmentRead' && first.data.equals(data)).toBe(true);
    const r2 = await second;
    expect(r2.kind === 'SegmentRead' && r2.data.toString()).toBe('tail');
    conn.close();
  });

  it('routes AuthTokenCheckFailed that carries a read offset instead of the request id to that read', async () => {
    // Pravega 0.13 answers a refused ReadSegment with the read's offset in the request-id field.
    const f = await fakeStore((socket, type) => {
      if (type === 9) socket.write(authTokenCheckFailed(4096, 0));
    });
    server = f.server;
    const conn = await SegmentStoreConnection.open({ host: '127.0.0.1', port: f.port });
    const reply = await conn.request({ kind: 'ReadSegment', segment: 's/t/0.#epoch.0', offset: 4096, suggestedLength: 10, delegationToken: '', requestId: 99 });
    expect(reply).toMatchObject({ kind: 'AuthTokenCheckFailed', requestId: 4096, errorCode: 0 });
    conn.close();
  });
});
