import { describe, expect, it } from 'vitest';
import { ConnectorError } from '../../src/errors/sluice-error.js';
import type { PendingCommittable } from '../../src/runtime/checkpoint/completed-checkpoint.js';
import { CommitterRunner } from '../../src/runtime/committer-runner.js';
import {
  defaultRuntimeConfig,
  executeJob,
  jsonSerializer,
  LostCommittableError,
  suppressesRestarts,
  type AnySink,
  type CommitRequest,
  type LostCommittablePolicy,
} from '../../src/runtime/index.js';
import type { Row } from '../../src/types/row.js';
import { SequenceSource } from './fakes/sequence-source.js';

/** What the fake committer answers for a committable. */
type Verdict = 'commit' | 'already' | 'lost' | 'unknown' | 'retry';

interface Txn {
  readonly id: string;
  readonly verdict: Verdict;
}

const ser = jsonSerializer<Txn>(1);

/** A sink whose committer answers each committable with its verdict; records what was committed. */
function fakeSink(policy?: LostCommittablePolicy): { sink: AnySink<Row>; committed: string[]; global: [number, string[]][] } {
  const committed: string[] = [];
  const global: [number, string[]][] = [];
  const sink = {
    createWriter: () => {
      throw new Error('not used');
    },
    createCommitter: () => ({
      async commit(requests: readonly CommitRequest<Txn>[]) {
        for (const r of requests) {
          const c = r.committable;
          if (c.verdict === 'commit') committed.push(c.id);
          else if (c.verdict === 'already') r.signalAlreadyCommitted();
          else if (c.verdict === 'lost') r.signalFailedWithKnownReason(new ConnectorError(`transaction ${c.id} was aborted by the broker`));
          else if (c.verdict === 'unknown') r.signalFailedWithUnknownReason(new Error('socket hang up'));
          else r.retryLater();
        }
      },
      async close() {},
    }),
    getCommittableSerializer: () => ser,
    createGlobalCommitter: () => ({
      async commitGlobal(cp: number, cs: readonly Txn[]) {
        global.push([cp, cs.map((c) => c.id)]);
      },
      async close() {},
    }),
    ...(policy ? { lostCommittables: policy } : {}),
  } as unknown as AnySink<Row>;
  return { sink, committed, global };
}

function pending(checkpointId: number, txn: Txn): PendingCommittable {
  return { checkpointId, sinkId: 'snk', subtaskIndex: 0, value: { version: 1, data: ser.serialize(txn) }, retries: 0 };
}

function runner(sink: AnySink<Row>, warnings: string[] = []): CommitterRunner {
  return new CommitterRunner(new Map([['snk', { name: 'Sink: orders', sink }]]), (m) => warnings.push(m));
}

describe('CommitterRunner: a committable that can no longer be committed', () => {
  it('fails without restarts, naming the sink id and the checkpoint, when the job has no sink of that id', async () => {
    const { sink } = fakeSink();
    const gone: PendingCommittable = { ...pending(4, { id: 'tx-4', verdict: 'commit' }), sinkId: 'v9' };
    const error = await runner(sink).commit([gone], 4).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LostCommittableError);
    expect(suppressesRestarts(error)).toBe(true);
    expect((error as Error).message).toBe(
      "The checkpoint being restored holds 1 committable(s) of sink 'v9' (checkpoint 4), but this job has no sink with that id, so they cannot be committed. Resume from it with the job it was taken of.",
    );
  });

  it('fails by default, naming the sink, the checkpoint and the reason, and suppresses restarts', async () => {
    const { sink } = fakeSink();
    const r = runner(sink);
    const error = await r.commit([pending(7, { id: 'tx-7', verdict: 'lost' })], 7).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LostCommittableError);
    expect((error as Error).message).toBe("Sink 'Sink: orders' cannot commit checkpoint 7: transaction tx-7 was aborted by the broker");
    expect(suppressesRestarts(error)).toBe(true);
    await r.close();
  });

  it("fails under an explicit 'fail' policy and names the option that downgrades it", async () => {
    const { sink } = fakeSink({ action: 'fail', option: 'sink.commit.on-lost-transaction' });
    const r = runner(sink);
    await expect(r.commit([pending(3, { id: 'tx-3', verdict: 'lost' })], 3)).rejects.toThrow(
      "Sink 'Sink: orders' cannot commit checkpoint 3: transaction tx-3 was aborted by the broker To accept the loss and keep the job running, " +
        "set 'sink.commit.on-lost-transaction' = 'warn' on the table and resume.",
    );
    await r.close();
  });

  it("warns and drops it under a 'warn' policy; the other committables of the round are committed", async () => {
    const { sink, committed, global } = fakeSink({ action: 'warn', option: 'sink.commit.on-lost-transaction' });
    const warnings: string[] = [];
    const r = runner(sink, warnings);
    const left = await r.commit([pending(4, { id: 'tx-4a', verdict: 'lost' }), pending(4, { id: 'tx-4b', verdict: 'commit' }), pending(5, { id: 'tx-5', verdict: 'commit' })], 4);
    expect(left.map((p) => p.checkpointId)).toEqual([5]);
    expect(committed).toEqual(['tx-4b']);
    expect(global).toEqual([[4, ['tx-4b']]]);
    expect(warnings).toEqual([
      "Sink 'Sink: orders' dropped the committable of checkpoint 4 ('sink.commit.on-lost-transaction' = 'warn'); its data is lost: transaction tx-4a was aborted by the broker",
    ]);
    await r.close();
  });

  it('treats an already committed committable (re-commit after a restore) as done, silently', async () => {
    const { sink, global } = fakeSink();
    const warnings: string[] = [];
    const r = runner(sink, warnings);
    const left = await r.commit([pending(2, { id: 'tx-2', verdict: 'already' })], Infinity);
    expect(left).toEqual([]);
    expect(warnings).toEqual([]);
    expect(global).toEqual([[2, ['tx-2']]]);
    await r.close();
  });

  it('keeps a committable to retry later, and fails (restartably) on an unknown error', async () => {
    const { sink } = fakeSink();
    const r = runner(sink);
    const left = await r.commit([pending(1, { id: 'tx-1', verdict: 'retry' })], 1);
    expect(left).toHaveLength(1);
    expect(left[0]!.retries).toBe(1);
    const error = await r.commit([pending(2, { id: 'tx-2', verdict: 'unknown' })], 2).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConnectorError);
    expect(error).not.toBeInstanceOf(LostCommittableError);
    expect(suppressesRestarts(error)).toBe(false);
    expect((error as Error).message).toBe("Sink 'Sink: orders' failed to commit checkpoint 2: socket hang up");
    await r.close();
  });
});

describe('a job whose sink loses a committable', () => {
  /** A sink whose every committable comes back lost. */
  function losingSink(policy?: LostCommittablePolicy): { sink: AnySink<Row>; written: number[] } {
    const written: number[] = [];
    const sink = {
      createWriter: () => {
        let buf: number[] = [];
        return {
          write(batch: readonly Row[]) {
            for (const r of batch) buf.push(Number(r.fields[0]));
          },
          async flush() {},
          async prepareCommit() {
            if (buf.length === 0) return [];
            written.push(...buf);
            const out = [{ id: `tx-${buf[0]}`, verdict: 'lost' as const }];
            buf = [];
            return out;
          },
          async close() {},
        };
      },
      createCommitter: fakeSink().sink.createCommitter,
      getCommittableSerializer: () => ser,
      ...(policy ? { lostCommittables: policy } : {}),
    } as unknown as AnySink<Row>;
    return { sink, written };
  }

  const graph = (sink: AnySink<Row>) => ({
    jobName: 'lossy',
    vertices: [
      { kind: 'source' as const, id: 'src', name: 'numbers', parallelism: 1, source: new SequenceSource({ from: 1, to: 200, splits: 1, batchSize: 10, fetchDelayMs: 1 }) },
      { kind: 'sink' as const, id: 'snk', name: 'Sink: lossy', parallelism: 1, sink },
    ],
    edges: [{ from: 'src', to: 'snk', partitioner: { kind: 'forward' as const } }],
  });

  it('fails without restarting, even though the restart strategy would allow many restarts', async () => {
    const { sink } = losingSink();
    const client = executeJob(graph(sink), defaultRuntimeConfig({ checkpointIntervalMs: 10, restartStrategy: { kind: 'fixed-delay', attempts: 100, delayMs: 1 } }));
    await expect(client.waitForCompletion()).rejects.toThrow(/^Sink 'numbers -> Sink: lossy' cannot commit checkpoint \d+: transaction tx-\d+ was aborted by the broker$/);
    expect(client.status()).toBe('FAILED');
    expect(client.metrics().restarts).toBe(0);
  });

  it("runs to its end under a 'warn' policy", async () => {
    const { sink, written } = losingSink({ action: 'warn' });
    const client = executeJob(graph(sink), defaultRuntimeConfig({ checkpointIntervalMs: 10 }));
    const warn = console.warn;
    const warnings: string[] = [];
    console.warn = (m: string) => void warnings.push(m);
    try {
      const result = await client.waitForCompletion();
      expect(result.status).toBe('FINISHED');
    } finally {
      console.warn = warn;
    }
    expect(written).toHaveLength(200);
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings[0]).toMatch(/^\[WARNING\] Sink 'numbers -> Sink: lossy' dropped the committable of checkpoint \d+; its data is lost: transaction tx-\d+ was aborted by the broker$/);
  });
});
