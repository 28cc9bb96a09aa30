/**
 * One Kafka transaction of an exactly-once writer, on kafkajs's own transaction machinery
 * (eosManager + message producer) built by hand so that its producer id and epoch are visible, plus the
 * two recovery operations kafkajs lacks: committing a transaction another process opened (EndTxn with
 * the pre-committed id/epoch, Flink's `resumeTransaction`) and aborting lingering transactions.
 */
import type { Kafka, Logger } from 'kafkajs';
import { Partitioners } from 'kafkajs';
import { ConnectorError } from '../../../errors/index.js';
import {
  COORDINATOR_TYPE,
  kafkaErrorType,
  loadInternals,
  withCoordinator,
  type InternalCluster,
  type InternalEosManager,
  type InternalMessageProducer,
} from './kafkajs-internals.js';

/** What a checkpoint stores to commit a pre-committed transaction later, from any process. */
export interface KafkaCommittable {
  readonly transactionalId: string;
  readonly producerId: number;
  readonly epoch: number;
}

export type CommitOutcome =
  | { readonly kind: 'committed' }
  /** The broker no longer has this transaction open under this epoch (timed out or fenced): its records are gone. */
  | { readonly kind: 'lost'; readonly reason: string };

export interface OutgoingMessage {
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly partition?: number;
  readonly headers?: Record<string, Buffer>;
  /** Epoch milliseconds; the broker's time when absent. */
  readonly timestamp?: number;
}

export interface TopicBatch {
  readonly topic: string;
  readonly messages: readonly OutgoingMessage[];
}

/** `prefix-subtask-checkpoint`, Flink's INCREMENTING naming. */
export function transactionalIdOf(prefix: string, subtaskId: number, checkpointId: number): string {
  return `${prefix}-${subtaskId}-${checkpointId}`;
}

function logger(kafka: Kafka): Logger {
  return kafka.logger();
}

export function toKafkajsTopicMessages(batches: readonly TopicBatch[]): Parameters<InternalMessageProducer['sendBatch']>[0]['topicMessages'] {
  return batches.map((b) => ({
    topic: b.topic,
    messages: b.messages.map((m) => ({
      key: m.key,
      value: m.value,
      ...(m.partition !== undefined ? { partition: m.partition } : {}),
      ...(m.headers !== undefined ? { headers: m.headers } : {}),
      ...(m.timestamp !== undefined ? { timestamp: String(m.timestamp) } : {}),
    })),
  }));
}

export class KafkaTransaction {
  private records = 0;
  private ended = false;

  private constructor(
    readonly transactionalId: string,
    private readonly eos: InternalEosManager,
    private readonly producer: InternalMessageProducer,
  ) {}

  /**
   * Initializes `transactionalId` (which fences any older producer of that id and aborts its open
   * transaction) and begins a transaction. Awaits 2 coordinator round trips; called once per checkpoint.
   * `cluster` must be connected and is shared by the writer's transactions.
   */
  static async begin(kafka: Kafka, cluster: InternalCluster, transactionalId: string, timeoutMs: number): Promise<KafkaTransaction> {
    const { createEosManager, createMessageProducer, createRetry, CONNECTION_STATUS } = loadInternals();
    const log = logger(kafka);
    const eos = createEosManager({ logger: log, cluster, transactionTimeout: timeoutMs, transactional: true, transactionalId });
    try {
      await eos.initProducerId();
    } catch (cause) {
      throw new ConnectorError(`Initializing Kafka transactional id '${transactionalId}' failed: ${String(cause)}`, { cause });
    }
    eos.beginTransaction();
    const producer = createMessageProducer({
      logger: log,
      cluster,
      partitioner: Partitioners.DefaultPartitioner() as unknown as (args: unknown) => number,
      eosManager: eos,
      idempotent: true,
      retrier: createRetry(cluster.retry),
      getConnectionStatus: () => CONNECTION_STATUS.CONNECTED,
    });
    return new KafkaTransaction(transactionalId, eos, producer);
  }

  get recordCount(): number {
    return this.records;
  }

  /** Sends a batch inside the transaction and awaits the acks of all in-sync replicas. */
  async send(batches: readonly TopicBatch[]): Promise<void> {
    let n = 0;
    for (const b of batches) n += b.messages.length;
    if (n === 0) return;
    await this.producer.sendBatch({ acks: -1, topicMessages: toKafkajsTopicMessages(batches) });
    this.records += n;
  }

  /** The handle to commit this transaction later, possibly from another process. */
  committable(): KafkaCommittable {
    return { transactionalId: this.transactionalId, producerId: this.eos.getProducerId(), epoch: this.eos.getProducerEpoch() };
  }

  async commit(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await this.eos.commit();
  }

  async abort(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await this.eos.abort();
  }
}

/**
 * Commits a pre-committed transaction by id and epoch, from any process (EndTxn(COMMIT)); idempotent:
 * committing a transaction already committed under the same epoch succeeds again (the broker treats
 * it as a retry). Called by the committer on checkpoint completion and on restore. Awaits 1-2 round trips.
 */
export async function commitTransaction(cluster: InternalCluster, c: KafkaCommittable): Promise<CommitOutcome> {
  try {
    await withCoordinator(cluster, c.transactionalId, COORDINATOR_TYPE.TRANSACTION, (coordinator) =>
      coordinator.endTxn({ transactionalId: c.transactionalId, producerId: c.producerId, producerEpoch: c.epoch, transactionResult: true }),
    );
    return { kind: 'committed' };
  } catch (e) {
    const type = kafkaErrorType(e);
    if (type === 'INVALID_PRODUCER_EPOCH' || type === 'PRODUCER_FENCED' || type === 'INVALID_PRODUCER_ID_MAPPING' || type === 'INVALID_TXN_STATE') {
      return {
        kind: 'lost',
        reason:
          `Kafka transaction '${c.transactionalId}' (producer ${c.producerId}, epoch ${c.epoch}) can no longer be committed (${type}): ` +
          "it outlived 'transaction.timeout.ms' or another writer used the same transactional id; its records are lost.",
      };
    }
    throw new ConnectorError(`Committing Kafka transaction '${c.transactionalId}' failed: ${String(e)}`, { cause: e });
  }
}

/**
 * Aborts transactions a crashed writer may have left open, Flink's PROBING strategy: for each subtask
 * id, init `prefix-subtask-k` for k = fromCheckpointId, fromCheckpointId+1, ... Each init fences the old
 * producer and aborts its open transaction; the probe stops at the first id the broker has never seen
 * (epoch 0), since a writer uses ids in increasing order. Ids below `fromCheckpointId` belong to completed
 * checkpoints and are left to the committer. Returns the ids that had been used (and are now clean).
 * Called once by every writer on start, before it begins its first transaction.
 */
export async function abortLingeringTransactions(
  cluster: InternalCluster,
  prefix: string,
  subtaskIds: readonly number[],
  fromCheckpointId: number,
  timeoutMs: number,
): Promise<string[]> {
  const cleaned: string[] = [];
  for (const subtask of subtaskIds) {
    for (let k = fromCheckpointId; ; k++) {
      const transactionalId = transactionalIdOf(prefix, subtask, k);
      const { producerEpoch } = await initWithRetry(cluster, transactionalId, timeoutMs);
      if (producerEpoch === 0) break;
      cleaned.push(transactionalId);
    }
  }
  return cleaned;
}

/**
 * Downscaling: aborts what subtasks `subtask + parallelism`, `subtask + 2 * parallelism`, ... of an earlier,
 * wider run left open (each is probed as in abortLingeringTransactions). A subtask that was running when
 * checkpoint `fromCheckpointId - 1` was taken had opened `prefix-j-fromCheckpointId` at that barrier, so
 * the first subtask id whose probe finds that id unused (epoch 0) ends the search. Costs one extra
 * InitProducerId per writer when the parallelism did not shrink. Called once by every exactly-once writer
 * on start, after its own probe.
 */
export async function abortLingeringOfRemovedSubtasks(
  cluster: InternalCluster,
  prefix: string,
  subtask: number,
  parallelism: number,
  fromCheckpointId: number,
  timeoutMs: number,
): Promise<string[]> {
  const cleaned: string[] = [];
  for (let j = subtask + parallelism; ; j += parallelism) {
    const found = await abortLingeringTransactions(cluster, prefix, [j], fromCheckpointId, timeoutMs);
    if (found.length === 0) return cleaned;
    cleaned.push(...found);
  }
}

async function initWithRetry(cluster: InternalCluster, transactionalId: string, timeoutMs: number): Promise<{ producerId: number; producerEpoch: number }> {
  try {
    return await withCoordinator(cluster, transactionalId, COORDINATOR_TYPE.TRANSACTION, (c) => c.initProducerId({ transactionalId, transactionTimeout: timeoutMs }));
  } catch (e) {
    throw new ConnectorError(`Aborting lingering Kafka transaction '${transactionalId}' failed: ${String(e)}`, { cause: e });
  }
}
