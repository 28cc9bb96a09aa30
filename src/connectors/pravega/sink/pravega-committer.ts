import { ConnectorError } from '../../../errors/sluice-error.js';
import type { CommitRequest, Committer } from '../../../runtime/sink/committer.js';
import { ControllerClient, type PravegaSecurity, type TxnId } from '../client/index.js';
import type { PravegaCommittable } from './pravega-committable.js';

const COMMIT_TIMEOUT_MS = 60_000;

function txnIdOf(c: PravegaCommittable): TxnId {
  return { highBits: BigInt(c.txnHigh), lowBits: BigInt(c.txnLow) };
}

/**
 * Commits the exactly-once sink's transactions after their checkpoint completed, and again after a restore. A
 * transaction found COMMITTED counts as already committed; one that is ABORTED (its lease ran out between pre-commit
 * and commit) or unknown fails the job loudly, because its events are lost (flink-connectors#5).
 */
export class PravegaCommitter implements Committer<PravegaCommittable> {
  private readonly controller: ControllerClient;

  constructor(controllerUri: string, security: PravegaSecurity = {}) {
    this.controller = new ControllerClient(controllerUri, { security });
  }

  async commit(requests: readonly CommitRequest<PravegaCommittable>[]): Promise<void> {
    await Promise.all(requests.map((r) => this.commitOne(r)));
  }

  private async commitOne(r: CommitRequest<PravegaCommittable>): Promise<void> {
    const c = r.committable;
    const txn = txnIdOf(c);
    try {
      let state = await this.controller.checkTransactionState(c.scope, c.stream, txn);
      if (state === 'COMMITTED') {
        r.signalAlreadyCommitted();
        return;
      }
      if (state === 'OPEN') {
        await this.controller.commitTransaction(c.scope, c.stream, txn, '', c.watermark ?? 0);
        state = 'COMMITTING';
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
      r.signalFailedWithUnknownReason(
        new ConnectorError(
          `Pravega transaction ${c.txnId} on '${c.scope}/${c.stream}' could not be committed: it is ${state}. Its events are lost; ` +
            `make 'sink.txn-lease-renewal.interval' much longer than the checkpoint interval`,
        ),
      );
    } catch (e) {
      r.signalFailedWithUnknownReason(e);
    }
  }

  async close(): Promise<void> {
    this.controller.close();
  }
}
