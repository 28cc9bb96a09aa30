import { ConnectorError } from '../../../errors/sluice-error.js';
import type { CommitRequest, Committer } from '../../../runtime/sink/committer.js';
import { ControllerClient, type PravegaSecurity, type TxnId, type TxnState } from '../client/index.js';
import type { PravegaCommittable } from './pravega-committable.js';

const COMMIT_TIMEOUT_MS = 60_000;

function txnIdOf(c: PravegaCommittable): TxnId {
  return { highBits: BigInt(c.txnHigh), lowBits: BigInt(c.txnLow) };
}

/** "42 s" / "17 min": how long ago, for messages. */
function sinceText(ms: number): string {
  return ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`;
}

/**
 * Why a transaction in state ABORTED, ABORTING or UNKNOWN can never be committed, in words a user can act on: the
 * stream, the transaction and the likely cause (the lease against the time since the pre-commit tells them apart).
 */
export function lostPravegaTransactionReason(c: PravegaCommittable, state: TxnState, now: number): string {
  const what = `Pravega transaction ${c.txnId} on stream '${c.scope}/${c.stream}'`;
  const lease = c.leaseMs === undefined ? "'sink.txn-lease-renewal.interval'" : `'sink.txn-lease-renewal.interval' (${c.leaseMs} ms)`;
  if (state === 'UNKNOWN') {
    return (
      `${what} is unknown to the Pravega controller: it lost its metadata (e.g. a standalone Pravega with in-memory storage was restarted) ` +
      'or the stream was deleted and re-created. Its events are lost.'
    );
  }
  const age = c.preparedAt === undefined ? undefined : now - c.preparedAt;
  const cause =
    age !== undefined && c.leaseMs !== undefined && age > c.leaseMs
      ? `its lease ${lease} ran out: it was pre-committed ${sinceText(age)} ago and the job was down, or could not renew the lease, ` +
        "for longer than that; raise 'sink.txn-lease-renewal.interval' (up to 600 s) to survive longer outages"
      : `its lease ${lease} ran out while the writer could not renew it, or the stream was sealed`;
  return `${what} was aborted by the Pravega controller (lease/timeout; state ${state}): ${cause}. Its events are lost.`;
}

/**
 * Commits the exactly-once sink's transactions after their checkpoint completed, and again after a restore. A
 * transaction found COMMITTED counts as already committed (the controller keeps the outcome of completed transactions,
 * even after the stream is deleted). One that is ABORTED (its lease ran out between pre-commit and commit) or UNKNOWN
 * (the controller lost it) can never be committed: it is reported lost, and the runner fails the job or warns per
 * `sink.commit.on-lost-transaction` (flink-connectors#5). An unreachable controller fails the commit as unknown (the
 * restart strategy applies).
 */
export class PravegaCommitter implements Committer<PravegaCommittable> {
  private readonly controller: ControllerClient;

  constructor(controllerUri: string, security: PravegaSecurity = {}, private readonly now: () => number = Date.now) {
    this.controller = new ControllerClient(controllerUri, { security });
  }

  async commit(requests: readonly CommitRequest<PravegaCommittable>[]): Promise<void> {
    await Promise.all(requests.map((r) => this.commitOne(r)));
  }

  private async commitOne(r: CommitRequest<PravegaCommittable>): Promise<void> {
    const c = r.committable;
    const txn = txnIdOf(c);
    const lost = (state: TxnState): void => r.signalFailedWithKnownReason(new ConnectorError(lostPravegaTransactionReason(c, state, this.now())));
    try {
      let state = await this.controller.checkTransactionState(c.scope, c.stream, txn);
      if (state === 'COMMITTED') {
        r.signalAlreadyCommitted();
        return;
      }
      if (state === 'OPEN') {
        try {
          await this.controller.commitTransaction(c.scope, c.stream, txn, '', c.watermark ?? 0);
          state = 'COMMITTING';
        } catch (e) {
          // The lease may have run out between the check and the commit: then the refusal means "aborted".
          state = await this.controller.checkTransactionState(c.scope, c.stream, txn);
          if (state === 'OPEN') throw e;
        }
      }
      const deadline = Date.now() + COMMIT_TIMEOUT_MS;
      while (state === 'COMMITTING') {
        if (Date.now() > deadline) {
          r.retryLater();
          return;
        }
        await new Promise((res) => setTimeout(res, 20));
        state = await this.controller.checkTransactionState(c.scope, c.stream, txn);
      }
      if (state === 'COMMITTED') return;
      lost(state);
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      r.signalFailedWithUnknownReason(new ConnectorError(`Committing Pravega transaction ${c.txnId} on stream '${c.scope}/${c.stream}' failed: ${msg}`, { cause: e }));
    }
  }

  async close(): Promise<void> {
    this.controller.close();
  }
}
