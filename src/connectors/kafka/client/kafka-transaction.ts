/**
 * One Kafka transaction of an exactly-once writer, on kafkajs's own transaction machinery
 * (eosManager + message producer) built by hand so that its producer id and epoch are visible, plus the
 * two recovery operations kafkajs lacks: committing a transaction another process opened (EndTxn with
 * the pre-committed id/epoch, Flink's `resumeTransaction`) and aborting lingering transactions.
 */
import type { Kafka, Logger } from 'kafkajs';
import { ConnectorError } from '../../../errors/index.js';
import { createSinkPartitioner, type KafkaPartitionerFn } from './sink-partitioner.js';
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
  /** Epoch ms when the transaction began, and its `transaction.timeout.ms`: why a lost one was lost (absent in old checkpoints). */
  readonly startedAt?: number;
  readonly timeoutMs?: number;
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
  private readonly startedAt = Date.now();

  private constructor(
    readonly transactionalId: string,
    private readonly eos: InternalEosManager,
    private readonly producer: InternalMessageProducer,
    private readonly timeoutMs: number,
  ) {}

  /**
   * Initializes `transactionalId` (which fences any older producer of that id and aborts its open
   * transaction) and begins a transaction. Awaits 2 coordinator round trips; called once per checkpoint.
   * `cluster` must be connected and is shared by the writer's transactions.
   */
  static async begin(
    kafka: Kafka,
    cluster: InternalCluster,
    transactionalId: string,
    timeoutMs: number,
    partitioner: KafkaPartitionerFn = createSinkPartitioner('default', 0),
  ): Promise<KafkaTransaction> {
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
      partitioner: partitioner as (args: unknown) => number,
      eosManager: eos,
      idempotent: true,
      retrier: createRetry(cluster.retry),
      getConnectionStatus: () => CONNECTION_STATUS.CONNECTED,
    });
    return new KafkaTransaction(transactionalId, eos, producer, timeoutMs);
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
    return {
      transactionalId: this.transactionalId,
      producerId: this.eos.getProducerId(),
      epoch: this.eos.getProducerEpoch(),
      startedAt: this.startedAt,
      timeoutMs: this.timeoutMs,
    };
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
 * committing a transaction already committed under the same epoch succeeds again (the broker answers a
 * repeated EndTxn(COMMIT) on a completed commit with NONE). Called by the committer on checkpoint completion
 * and on restore. Awaits 1-2 round trips.
 *
 * `lost` covers the answers after which the transaction can never commit: the broker aborted it (its
 * timeout fired, which also bumps the epoch: INVALID_PRODUCER_EPOCH / PRODUCER_FENCED), another producer
 * initialised the id (same answer), it was aborted (INVALID_TXN_STATE), or the broker forgot the id
 * (INVALID_PRODUCER_ID_MAPPING). The writer never re-initialises the id of a transaction a restored
 * checkpoint holds (its probe starts after that checkpoint), so none of these follows a commit of ours.
 */
export async function commitTransaction(cluster: InternalCluster, c: KafkaCommittable, now: () => number = Date.now): Promise<CommitOutcome> {
  try {
    await withCoordinator(cluster, c.transactionalId, COORDINATOR_TYPE.TRANSACTION, (coordinator) =>
      coordinator.endTxn({ transactionalId: c.transactionalId, producerId: c.producerId, producerEpoch: c.epoch, transactionResult: true }),
    );
    return { kind: 'committed' };
  } catch (e) {
    const type = kafkaErrorType(e);
    if (type === 'INVALID_PRODUCER_EPOCH' || type === 'PRODUCER_FENCED' || type === 'INVALID_PRODUCER_ID_MAPPING' || type === 'INVALID_TXN_STATE') {
      return { kind: 'lost', reason: lostTransactionReason(c, type, now()) };
    }
    throw new ConnectorError(`Committing Kafka transaction '${c.transactionalId}' failed: ${String(e)}`, { cause: e });
  }
}

/** "42 s" / "17 min": how long ago, for messages. */
function sinceText(ms: number): string {
  return ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`;
}

/**
 * Why a transaction can no longer be committed, in words a user can act on: the transaction, the broker's
 * answer and the likely cause. The age of the transaction against its timeout tells a timeout from a fence.
 */
export function lostTransactionReason(c: KafkaCommittable, errorType: string, now: number): string {
  const what = `Kafka transaction '${c.transactionalId}' (producer id ${c.producerId}, epoch ${c.epoch}) can no longer be committed (broker answered ${errorType})`;
  const age = c.startedAt === undefined ? undefined : now - c.startedAt;
  const timeout = c.timeoutMs === undefined ? "'transaction.timeout.ms'" : `'transaction.timeout.ms' (${c.timeoutMs} ms)`;
  const raise = "; raise 'properties.transaction.timeout.ms' (up to the broker's 'transaction.max.timeout.ms') to survive longer outages";
  let cause: string;
  if (age !== undefined && c.timeoutMs !== undefined && age > c.timeoutMs) {
    cause =
      errorType === 'INVALID_PRODUCER_ID_MAPPING'
        ? `the broker no longer knows the transactional id; the transaction began ${sinceText(age)} ago, longer than ${timeout}, so the broker aborted it before forgetting the id${raise}`
        : `the broker aborted it because ${timeout} is shorter than the time the job was down (the transaction began ${sinceText(age)} ago and was not committed in time)${raise}`;
  } else if (errorType === 'INVALID_PRODUCER_ID_MAPPING') {
    cause = "the broker no longer knows the transactional id (its transaction state was lost, or the id expired after the broker's 'transactional.id.expiration.ms')";
  } else if (errorType === 'INVALID_TXN_STATE') {
    cause = `it was aborted: by the broker after ${timeout}, or by a producer that used the same transactional id (does another job share 'sink.transactional-id-prefix'?)`;
  } else {
    cause = `another producer initialised the same transactional id (does another job share 'sink.transactional-id-prefix'?), or the broker aborted it after ${timeout}`;
  }
  // An expired id says nothing of how the transaction ended: it may have committed days before the id expired.
  const end = errorType === 'INVALID_PRODUCER_ID_MAPPING' ? 'Its records are lost, unless it was committed before the id expired.' : 'Its records are lost.';
  return `${what}: ${cause}. ${end}`;
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
