// Writers must not wait forever for a segment store that cannot be reached: events fail after the write
// timeout with a message naming the stream and the segment, and a store that accepts connections but never
// answers fails the handshake.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventStreamWriter, SegmentStoreConnection, SegmentStoreConnectionPool, Transaction, type ControllerClient } from '../../../src/connectors/pravega/client/index.js';

/** A port nothing listens on (connections are refused). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** The controller calls the writers make, answering with one segment whose store is at `port`. */
function fakeController(port: number): ControllerClient {
  const segment = { segment: { scope: 'sc', stream: 'st', segmentId: 0 }, minKey: 0, maxKey: 1 };
  return {
    getCurrentSegments: async () => [segment],
    createTransaction: async () => ({ txnId: { highBits: 0n, lowBits: 7n }, activeSegments: [segment] }),
    getEndpoint: async () => ({ host: '127.0.0.1', port }),
    invalidateEndpoint: () => undefined,
    delegationToken: async () => '',
  } as unknown as ControllerClient;
}

describe('Pravega writers and an unreachable segment store', () => {
  let silent: Server;
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    silent = createServer((s) => {
      sockets.add(s);
      s.on('data', () => undefined);
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => silent.close(r));
  });

  it('fails the handshake with a store that accepts the connection and never answers', async () => {
    const port = (silent.address() as { port: number }).port;
    const t0 = Date.now();
    await expect(SegmentStoreConnection.open({ host: '127.0.0.1', port }, 300)).rejects.toThrow(
      `Pravega segment store 127.0.0.1:${port} did not answer the handshake within 0.3 s`,
    );
    expect(Date.now() - t0).toBeLessThan(5_000);
  });

  it('an event stream writer fails its events after the write timeout, naming the stream and the segment', async () => {
    const port = await closedPort();
    const pool = new SegmentStoreConnectionPool();
    const writer = await EventStreamWriter.open(fakeController(port), pool, 'sc', 'st', { writeTimeoutMs: 500 });
    const t0 = Date.now();
    const error = await writer.writeEvents([{ payload: new Uint8Array([1]) }]).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(
      new RegExp(`^Pravega stream 'sc/st': segment sc/st/0\\.#epoch\\.0 could not be written for \\d+ s because its segment store or the controller is unreachable \\(last error: cannot connect to Pravega segment store 127\\.0\\.0\\.1:${port}: connect ECONNREFUSED`),
    );
    expect(Date.now() - t0).toBeGreaterThanOrEqual(500);
    expect(Date.now() - t0).toBeLessThan(10_000);
    await expect(writer.flush()).rejects.toThrow(/could not be written/);
    await pool.close();
  });

  it('a transaction fails its events and every later flush after the write timeout', async () => {
    const port = await closedPort();
    const pool = new SegmentStoreConnectionPool();
    const txn = await Transaction.begin(fakeController(port), pool, 'sc', 'st', 10_000, { writeTimeoutMs: 500 });
    await expect(txn.writeEvents([{ payload: new Uint8Array([1]) }])).rejects.toThrow(
      new RegExp(`^Pravega transaction ${txn.id} on stream 'sc/st': segment \\S+ could not be written for \\d+ s because its segment store or the controller is unreachable`),
    );
    await expect(txn.flush()).rejects.toThrow(/could not be written/);
    await pool.close();
  });
});
