import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';

/**
 * A broker that accepts TCP connections but never answers (a hung or paused broker): the Kafka sink must
 * fail the job within its 'properties.max.block.ms', naming the broker and the option, not wait for as
 * long as the client library keeps retrying.
 */
let server: Server | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets) s.destroy();
  sockets.length = 0;
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

async function silentListener(): Promise<number> {
  server = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('a Kafka sink facing a broker that never answers', () => {
  it.each(['at-least-once', 'exactly-once'])('fails the job within max.block.ms, naming the broker and the option (%s)', async (guarantee) => {
    const port = await silentListener();
    const env = TableEnvironment.create({ mode: 'batch' });
    try {
      await env.executeSql(
        `CREATE TEMPORARY TABLE sink_out (n BIGINT) WITH ('connector' = 'kafka', 'topic' = 'silent', 'format' = 'json', ` +
          `'properties.bootstrap.servers' = '127.0.0.1:${port}', 'properties.max.block.ms' = '1500', ` +
          `'sink.delivery-guarantee' = '${guarantee}', 'sink.transactional-id-prefix' = 'silent-test')`,
      );
      const started = Date.now();
      const result = await env.executeSql('INSERT INTO sink_out SELECT CAST(v AS BIGINT) FROM (VALUES (1), (2)) AS t(v)');
      const error = await result.await().then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      const elapsed = Date.now() - started;
      expect(error).toBeInstanceOf(Error);
      const text = `${error!.message}\n${error!.cause instanceof Error ? error!.cause.message : ''}`;
      expect(text).toContain(`Kafka sink: no answer from the broker 127.0.0.1:${port} within 1500 ms while connecting the writer ('properties.max.block.ms' = '1500').`);
      expect(sockets.length).toBeGreaterThan(0);
      // Bounded by the option (plus job start and teardown), not by the client's retries (minutes).
      expect(elapsed).toBeLessThan(15_000);
    } finally {
      await env.close();
    }
  }, 60_000);
});
