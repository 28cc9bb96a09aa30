// createStream retries a controller's FAILURE answer (a loaded controller times out creating segments inside it),
// counts a stream found existing after a FAILURE as created by this call, and gives up with the status after three
// tries. The gRPC call is replaced on the instance: what is under test is the retry around it (the real controller
// answers in test/integration/pravega).
import { describe, expect, it } from 'vitest';
import { ControllerClient } from '../../../src/connectors/pravega/client/index.js';

function withAnswers(statuses: string[]): { client: ControllerClient; calls: () => number } {
  const client = new ControllerClient('tcp://127.0.0.1:1');
  let n = 0;
  (client as unknown as { call: (m: string) => Promise<{ status: string }> }).call = async (method) => {
    expect(method).toBe('createStream');
    return { status: statuses[n++] ?? 'SUCCESS' };
  };
  return { client, calls: () => n };
}

const CONFIG = { scaling: { kind: 'fixed', segments: 1 } } as const;

describe('ControllerClient.createStream', () => {
  it('retries FAILURE until the controller succeeds', async () => {
    const { client, calls } = withAnswers(['FAILURE', 'SUCCESS']);
    await expect(client.createStream('sc', 'st', CONFIG)).resolves.toBe(true);
    expect(calls()).toBe(2);
  });

  it('takes STREAM_EXISTS after a FAILURE as the stream the first try made', async () => {
    const { client } = withAnswers(['FAILURE', 'STREAM_EXISTS']);
    await expect(client.createStream('sc', 'st', CONFIG)).resolves.toBe(true);
  });

  it('says false for a stream that existed before, without retrying', async () => {
    const { client, calls } = withAnswers(['STREAM_EXISTS']);
    await expect(client.createStream('sc', 'st', CONFIG)).resolves.toBe(false);
    expect(calls()).toBe(1);
  });

  it('gives up after three FAILUREs, naming the stream and the attempts', async () => {
    const { client, calls } = withAnswers(['FAILURE', 'FAILURE', 'FAILURE', 'SUCCESS']);
    await expect(client.createStream('sc', 'st', CONFIG)).rejects.toThrow("cannot create Pravega stream 'sc/st': FAILURE (after 3 attempts)");
    expect(calls()).toBe(3);
  });

  it('does not retry a refusal such as SCOPE_NOT_FOUND', async () => {
    const { client, calls } = withAnswers(['SCOPE_NOT_FOUND']);
    await expect(client.createStream('sc', 'st', CONFIG)).rejects.toThrow("cannot create Pravega stream 'sc/st': SCOPE_NOT_FOUND");
    expect(calls()).toBe(1);
  });
});
