import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { PravegaCommitter } from '../../../src/connectors/pravega/sink/pravega-committer.js';
import type { PravegaCommittable } from '../../../src/connectors/pravega/sink/pravega-committable.js';
import type { CommitRequest } from '../../../src/runtime/sink/committer.js';

describe('the Pravega committer with an unreachable controller', () => {
  it('fails the commit as unknown (restartable), naming the transaction and the stream', async () => {
    const s = createServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    const port = (s.address() as { port: number }).port;
    await new Promise((r) => s.close(r));
    const committer = new PravegaCommitter(`tcp://127.0.0.1:${port}`);
    const c: PravegaCommittable = { scope: 'shop', stream: 'orders', txnHigh: '1', txnLow: '2', txnId: '00000000-0000-0001-0000-000000000002' };
    const seen: { kind: string; error?: unknown }[] = [];
    const request: CommitRequest<PravegaCommittable> = {
      committable: c,
      numberOfRetries: 0,
      signalFailedWithKnownReason: (error) => void seen.push({ kind: 'known', error }),
      signalFailedWithUnknownReason: (error) => void seen.push({ kind: 'unknown', error }),
      retryLater: () => void seen.push({ kind: 'retry' }),
      updateAndRetryLater: () => void seen.push({ kind: 'update' }),
      signalAlreadyCommitted: () => void seen.push({ kind: 'already' }),
    };
    await committer.commit([request]);
    await committer.close();
    expect(seen.map((x) => x.kind)).toEqual(['unknown']);
    expect((seen[0]!.error as Error).message).toMatch(
      /^Committing Pravega transaction 00000000-0000-0001-0000-000000000002 on stream 'shop\/orders' failed: Pravega controller call checkTransactionState failed: /,
    );
  }, 60_000);
});
