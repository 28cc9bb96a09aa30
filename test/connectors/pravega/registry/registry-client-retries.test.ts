// How the Pravega registry client behaves when the registry is down or failing: retries with backoff on no
// answer and on 5xx, none on 4xx, and errors that say what was asked. A local HTTP server plays the failures;
// the real registry is exercised in test/integration/pravega-registry.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PravegaRegistryClient } from '../../../../src/connectors/pravega/registry/registry-client.js';
import { PravegaRegistryError } from '../../../../src/connectors/pravega/registry/registry-error.js';

let server: Server | undefined;

/** Serves the given statuses in turn (the last one repeats) and counts the requests. */
async function serve(statuses: number[], body = '{"groups":{},"continuationToken":""}'): Promise<{ uri: string; hits: () => number }> {
  let n = 0;
  server = createServer((_req, res) => {
    const status = statuses[Math.min(n, statuses.length - 1)]!;
    n++;
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(status < 300 ? body : '');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { uri: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits: () => n };
}

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

describe('PravegaRegistryClient retries', () => {
  it('retries a 503 and succeeds when the registry recovers', async () => {
    const { uri, hits } = await serve([503, 503, 200]);
    const client = new PravegaRegistryClient({ uri, attempts: 4, backoffMs: 5 });
    expect((await client.listGroups()).size).toBe(0);
    expect(hits()).toBe(3);
  });

  it('gives up after the configured attempts and reports the last status', async () => {
    const { uri, hits } = await serve([500]);
    const client = new PravegaRegistryClient({ uri, attempts: 3, backoffMs: 5 });
    const err = await client.listGroups().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PravegaRegistryError);
    expect((err as PravegaRegistryError).status).toBe(500);
    expect((err as Error).message).toBe('Could not list the groups in the schema registry: HTTP 500 after 3 attempts.');
    expect(hits()).toBe(3);
  });

  it('does not retry a 4xx refusal', async () => {
    const { uri, hits } = await serve([403]);
    const client = new PravegaRegistryClient({ uri, attempts: 4, backoffMs: 5 });
    const err = await client.getGroupProperties('g').catch((e: unknown) => e);
    expect((err as Error).message).toBe(`Could not read group 'g' in the schema registry at ${uri}/v1: HTTP 403 (permission denied).`);
    expect(hits()).toBe(1);
  });

  it('names the connection failure when nothing listens', async () => {
    const { uri } = await serve([200]);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    const client = new PravegaRegistryClient({ uri, attempts: 2, backoffMs: 5 });
    const err = await client.listGroups().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PravegaRegistryError);
    expect((err as PravegaRegistryError).status).toBeUndefined();
    expect((err as Error).message).toBe(`Could not list the groups in the schema registry: no answer from ${uri}/v1 (ECONNREFUSED) after 2 attempts.`);
  });

  it('rejects a URI that is not http(s)', () => {
    expect(() => new PravegaRegistryClient({ uri: 'tcp://127.0.0.1:9097' })).toThrow(
      "The schema registry URI 'tcp://127.0.0.1:9097' is not an http:// or https:// URL.",
    );
  });
});
