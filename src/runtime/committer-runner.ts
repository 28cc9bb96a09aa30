import { ConnectorError } from '../errors/sluice-error.js';
import type { Row } from '../types/row.js';
import type { PendingCommittable } from './checkpoint/completed-checkpoint.js';
import type { CommitRequest, Committer, GlobalCommitter } from './sink/committer.js';
import { LostCommittableError, type LostCommittablePolicy } from './sink/lost-committable.js';
import type { AnySink } from './sink/sink.js';

type Outcome = 'done' | 'retry' | 'known' | 'unknown';

/**
 * Phase two of Sink V2 for one job attempt: commits pending committables through each sink's `Committer`
 * (then its `GlobalCommitter`), one round at a time. Rounds run after a checkpoint completes, after a
 * restore and at the end of a bounded job.
 */
export class CommitterRunner {
  private readonly committers = new Map<string, Committer<unknown>>();
  private readonly globals = new Map<string, GlobalCommitter<unknown> | null>();
  private chain: Promise<void> = Promise.resolve();

  /** `warn` receives the message of every committable dropped under a `warn` policy (stderr by default). */
  constructor(
    private readonly sinks: ReadonlyMap<string, { name: string; sink: AnySink<Row> }>,
    private readonly warn: (message: string) => void = (m) => console.warn(`[WARNING] ${m}`),
  ) {}

  /**
   * Commits `pending` with checkpoint id <= `upTo`; returns those still pending (retries and later ones).
   * Rejects with a `ConnectorError` when a committer signals an unknown failure, and with a
   * `LostCommittableError` when it reports a committable lost and the sink's policy is not `warn`.
   */
  commit(pending: readonly PendingCommittable[], upTo: number): Promise<PendingCommittable[]> {
    const run = this.chain.then(() => this.round(pending, upTo));
    this.chain = run.then(() => undefined, () => undefined);
    return run;
  }

  private async round(pending: readonly PendingCommittable[], upTo: number): Promise<PendingCommittable[]> {
    const keep: PendingCommittable[] = [];
    const bySink = new Map<string, PendingCommittable[]>();
    for (const p of pending) {
      if (p.checkpointId > upTo) keep.push(p);
      else (bySink.get(p.sinkId) ?? bySink.set(p.sinkId, []).get(p.sinkId)!).push(p);
    }
    for (const [sinkId, items] of bySink) {
      const entry = this.sinks.get(sinkId);
      if (!entry) {
        // Every restore hands over the same committables, so a restart cannot help: fail at once rather than
        // restart (and restore) forever.
        throw new LostCommittableError(
          `The checkpoint being restored holds ${items.length} committable(s) of sink '${sinkId}' (checkpoint ${items[0]!.checkpointId}), but this job has no sink with that id, so they cannot be committed. Resume from it with the job it was taken of.`,
        );
      }
      const { sink, name } = entry;
      const ser = sink.getCommittableSerializer?.();
      let committer = this.committers.get(sinkId);
      if (!committer) {
        if (!sink.createCommitter || !ser) throw new ConnectorError(`Sink '${name}' produced committables but has no committer or committable serializer.`);
        committer = sink.createCommitter();
        this.committers.set(sinkId, committer);
      }
      const outcomes: Outcome[] = items.map(() => 'done');
      const replaced: unknown[] = items.map(() => undefined);
      const errors: unknown[] = items.map(() => undefined);
      const requests: CommitRequest<unknown>[] = items.map((p, i) => ({
        committable: ser!.deserialize(p.value.version, p.value.data),
        numberOfRetries: p.retries,
        signalFailedWithKnownReason: (e) => { outcomes[i] = 'known'; errors[i] = e; },
        signalFailedWithUnknownReason: (e) => { outcomes[i] = 'unknown'; errors[i] = e; },
        retryLater: () => { outcomes[i] = 'retry'; },
        updateAndRetryLater: (c) => { outcomes[i] = 'retry'; replaced[i] = c; },
        signalAlreadyCommitted: () => { outcomes[i] = 'done'; },
      }));
      await committer.commit(requests);
      const committedByCp = new Map<number, unknown[]>();
      for (let i = 0; i < items.length; i++) {
        const p = items[i]!;
        switch (outcomes[i]!) {
          case 'done':
            (committedByCp.get(p.checkpointId) ?? committedByCp.set(p.checkpointId, []).get(p.checkpointId)!).push(requests[i]!.committable);
            break;
          case 'retry': {
            const value = replaced[i] === undefined ? p.value : { version: ser!.version, data: ser!.serialize(replaced[i]) };
            keep.push({ ...p, value, retries: p.retries + 1 });
            break;
          }
          case 'known':
            this.onLost(name, sink.lostCommittables, p.checkpointId, errors[i]);
            break;
          case 'unknown': {
            const e = errors[i];
            throw new ConnectorError(`Sink '${name}' failed to commit checkpoint ${p.checkpointId}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
          }
        }
      }
      let global = this.globals.get(sinkId);
      if (global === undefined) {
        global = sink.createGlobalCommitter?.() ?? null;
        this.globals.set(sinkId, global);
      }
      if (global) for (const [cp, cs] of [...committedByCp].sort((a, b) => a[0] - b[0])) await global.commitGlobal(cp, cs);
    }
    return keep;
  }

  /** A committable that can never be committed: fail the job (default) or, if the sink says so, warn and drop it. */
  private onLost(name: string, policy: LostCommittablePolicy | undefined, checkpointId: number, error: unknown): void {
    const reason = error instanceof Error ? error.message : String(error);
    const option = policy?.option;
    if (policy?.action === 'warn') {
      const why = option === undefined ? '' : ` ('${option}' = 'warn')`;
      this.warn(`Sink '${name}' dropped the committable of checkpoint ${checkpointId}${why}; its data is lost: ${reason}`);
      return;
    }
    const hint = option === undefined ? '' : ` To accept the loss and keep the job running, set '${option}' = 'warn' on the table and resume.`;
    throw new LostCommittableError(`Sink '${name}' cannot commit checkpoint ${checkpointId}: ${reason}${hint}`, { cause: error });
  }

  async close(): Promise<void> {
    await this.chain;
    for (const c of this.committers.values()) await c.close().catch(() => undefined);
    for (const g of this.globals.values()) await g?.close().catch(() => undefined);
  }
}
