/**
 * The Kafka sink's writer for the three delivery guarantees, and the committer of exactly-once.
 *
 * Exactly-once, and why recovery neither loses nor duplicates a checkpoint's records:
 * - The records between barriers N-1 and N go into one Kafka transaction with the deterministic id
 *   `prefix-subtask-N` (the id of a transaction opened after checkpoint C is always C+1).
 * - At barrier N, `prepareCommit(N)` has already awaited the acks of every send, so the records are
 *   durable in the log but invisible to read_committed readers. It returns the committable
 *   (transactionalId, producerId, epoch), which the runtime stores in checkpoint N, and opens the next
 *   transaction. Nothing is committed yet.
 * - When checkpoint N completes, the committer sends EndTxn(COMMIT) for that id and epoch. The EndTxn
 *   needs no live producer, so it works the same in the writing process and in a process that
 *   restored checkpoint N after a crash: the restored committable is re-committed. A repeated EndTxn
 *   for an already committed transaction with the same epoch is accepted as a retry, which makes the
 *   commit idempotent (crash after commit, before the runtime noted it: commit again, no duplicates).
 * - Crash before checkpoint N completed: the runtime restores N-1 and replays the source from there, so
 *   the records of transaction N are produced again. The old transaction N must never become visible:
 *   on start the writer calls `abortLingeringTransactions(prefix, subtask, fromCheckpointId = N)`, whose
 *   InitProducerId on `prefix-subtask-N`, `-N+1`, ... fences the dead producer (epoch bump) and aborts its
 *   transaction. The ids of checkpoints <= N-1 are untouched, so their pending commits stay possible.
 *   After a restart with a smaller parallelism P, subtask i also probes the ids of subtasks i+P, i+2P, ...
 *   (stopping at the first subtask that never used id N): an open transaction of a subtask that no longer
 *   runs would otherwise hold read_committed readers back until `transaction.timeout.ms`.
 * - The one way to lose data is Kafka's transaction timeout: if the gap between the barrier and the
 *   commit (including a restart) exceeds `transaction.timeout.ms`, the broker aborts the transaction
 *   and the commit reports `lost` (Flink has the same limit). The default here is 15 minutes, the
 *   broker's default cap.
 * Rejected alternative: storing the records in the checkpoint and re-producing them after a crash
 * costs a second copy of all output in checkpoint storage; the resume by id/epoch costs nothing.
 *
 * Contract: one writer per sink subtask. `write` is called once per batch (it awaits the broker's
 * acks for that batch: no await per record); `prepareCommit` on each barrier; `flush` at end of input.
 * None of the methods may be called concurrently.
 */
import type { Kafka } from 'kafkajs';
import { ConnectorError } from '../../../errors/index.js';
import { createCluster, type InternalCluster } from './kafkajs-internals.js';
import {
  abortLingeringOfRemovedSubtasks,
  abortLingeringTransactions,
  commitTransaction,
  KafkaTransaction,
  transactionalIdOf,
  type CommitOutcome,
  type KafkaCommittable,
  type OutgoingMessage,
  type TopicBatch,
} from './kafka-transaction.js';
import { createSinkPartitioner, type KafkaPartitionerFn, type SinkPartitionerKind } from './sink-partitioner.js';
import { DEFAULT_METADATA_MAX_AGE_MS } from './kafka-properties.js';
import { brokerTimeout, withDeadline } from './deadline.js';

export type DeliveryGuarantee = 'none' | 'at-least-once' | 'exactly-once';

/** One record to write, already serialized by the key/value formats. */
export interface KafkaSinkRecord extends OutgoingMessage {
  readonly topic: string;
}

export interface KafkaRecordWriterOptions {
  readonly deliveryGuarantee: DeliveryGuarantee;
  /** Required for exactly-once; unique per job on a cluster. */
  readonly transactionalIdPrefix?: string;
  readonly subtaskId: number;
  /** Subtasks whose lingering transactions this writer aborts on start (default: just its own). */
  readonly lingeringSubtaskIds?: readonly number[];
  /**
   * The sink's parallelism. When given, the writer also cleans up after subtasks a smaller restart no
   * longer runs (downscaling): subtask i probes i+P, i+2P, ... (see abortLingeringOfRemovedSubtasks).
   */
  readonly parallelism?: number;
  readonly partitioner: SinkPartitionerKind;
  readonly transactionTimeoutMs: number;
  /** acks for `none` (at-least-once always waits for all in-sync replicas). */
  readonly acks: -1 | 0 | 1;
  /** The checkpoint this writer was restored from; 0 (or absent) for a fresh start. */
  readonly restoredCheckpointId?: number;
  /**
   * `metadata.max.age.ms` (default 5 min): partition counts older than this are re-read before a write,
   * by every partitioner, so records reach partitions added while the job runs.
   */
  readonly metadataMaxAgeMs?: number;
  /** The brokers, named when one does not answer in time. */
  readonly brokers?: readonly string[];
  /** Bound on opening (connect, metadata, lingering aborts, first transaction) and on each barrier's work (default 60 s). */
  readonly maxBlockMs?: number;
  /** Bound on each write's acknowledgement (default 120 s). */
  readonly deliveryTimeoutMs?: number;
}

const DEFAULT_MAX_BLOCK_MS = 60_000;
const DEFAULT_DELIVERY_TIMEOUT_MS = 120_000;

export class KafkaRecordWriter {
  private transaction: KafkaTransaction | undefined;

  private constructor(
    private readonly kafka: Kafka,
    private readonly options: KafkaRecordWriterOptions,
    private readonly cluster: InternalCluster,
    private readonly partitioner: KafkaPartitionerFn,
    private readonly plainProducer: ReturnType<Kafka['producer']> | undefined,
  ) {}

  /**
   * Connects and, for exactly-once, aborts lingering transactions of this subtask from
   * `restoredCheckpointId + 1` on and opens the first transaction. Awaits several round trips.
   */
  static async open(kafka: Kafka, options: KafkaRecordWriterOptions): Promise<KafkaRecordWriter> {
    const eo = options.deliveryGuarantee === 'exactly-once';
    if (eo && !options.transactionalIdPrefix) {
      throw new ConnectorError('sink.transactional-id-prefix must be specified when using DeliveryGuarantee.EXACTLY_ONCE.');
    }
    const opened: { disconnect(): Promise<void> }[] = [];
    const ms = options.maxBlockMs ?? DEFAULT_MAX_BLOCK_MS;
    try {
      return await withDeadline(KafkaRecordWriter.connect(kafka, options, opened), ms, () =>
        brokerTimeout(options.brokers ?? [], 'connecting the writer', 'max.block.ms', ms),
      );
    } catch (e) {
      // A silent broker leaves connection attempts pending; drop them so nothing keeps the process alive.
      for (const c of opened) void c.disconnect().catch(() => undefined);
      throw e;
    }
  }

  private static async connect(kafka: Kafka, options: KafkaRecordWriterOptions, opened: { disconnect(): Promise<void> }[]): Promise<KafkaRecordWriter> {
    const eo = options.deliveryGuarantee === 'exactly-once';
    // As Flink's producer: writing to a missing topic creates it when the broker allows that.
    const metadataMaxAgeMs = options.metadataMaxAgeMs ?? DEFAULT_METADATA_MAX_AGE_MS;
    const cluster = createCluster(kafka, { allowAutoTopicCreation: true, metadataMaxAgeMs });
    opened.push(cluster);
    await cluster.connect();
    const partitioner = createSinkPartitioner(options.partitioner, options.subtaskId);
    let plain: ReturnType<Kafka['producer']> | undefined;
    if (!eo) {
      plain = kafka.producer({
        allowAutoTopicCreation: true,
        idempotent: false,
        metadataMaxAge: metadataMaxAgeMs,
        createPartitioner: () => partitioner,
      });
      opened.push(plain);
      await plain.connect();
    }
    const writer = new KafkaRecordWriter(kafka, options, cluster, partitioner, plain);
    if (eo) {
      const first = (options.restoredCheckpointId ?? 0) + 1;
      await abortLingeringTransactions(
        cluster,
        options.transactionalIdPrefix as string,
        options.lingeringSubtaskIds ?? [options.subtaskId],
        first,
        options.transactionTimeoutMs,
      );
      if (options.parallelism !== undefined && options.lingeringSubtaskIds === undefined) {
        await abortLingeringOfRemovedSubtasks(
          cluster,
          options.transactionalIdPrefix as string,
          options.subtaskId,
          options.parallelism,
          first,
          options.transactionTimeoutMs,
        );
      }
      writer.transaction = await KafkaTransaction.begin(kafka, cluster, writer.idFor(first), options.transactionTimeoutMs, partitioner);
    }
    return writer;
  }

  private idFor(checkpointId: number): string {
    return transactionalIdOf(this.options.transactionalIdPrefix as string, this.options.subtaskId, checkpointId);
  }

  /** Writes one batch; resolves when the broker acknowledged it (per `acks`). */
  async write(records: readonly KafkaSinkRecord[]): Promise<void> {
    if (records.length === 0) return;
    const ms = this.options.deliveryTimeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
    await withDeadline(this.send(records), ms, () => brokerTimeout(this.options.brokers ?? [], `writing ${records.length} records`, 'delivery.timeout.ms', ms));
  }

  private async send(records: readonly KafkaSinkRecord[]): Promise<void> {
    const byTopic = new Map<string, OutgoingMessage[]>();
    for (const r of records) {
      const list = byTopic.get(r.topic);
      if (list) list.push(r);
      else byTopic.set(r.topic, [r]);
    }
    const batches: TopicBatch[] = [];
    for (const [topic, messages] of byTopic) batches.push({ topic, messages });
    if (this.options.deliveryGuarantee === 'exactly-once' && !this.transaction) {
      throw new ConnectorError('No Kafka transaction is open: beginTransaction must follow precommit before the next write.');
    }
    try {
      if (this.transaction) {
        await this.transaction.send(batches);
      } else if (this.plainProducer) {
        const acks = this.options.deliveryGuarantee === 'at-least-once' ? -1 : this.options.acks;
        await this.plainProducer.sendBatch({
          acks,
          topicMessages: batches.map((b) => ({
            topic: b.topic,
            messages: b.messages.map((m) => ({
              key: m.key,
              value: m.value,
              ...(m.partition !== undefined ? { partition: m.partition } : {}),
              ...(m.headers !== undefined ? { headers: m.headers } : {}),
              ...(m.timestamp !== undefined ? { timestamp: String(m.timestamp) } : {}),
            })),
          })),
        });
      }
    } catch (cause) {
      if (cause instanceof ConnectorError) throw cause;
      throw new ConnectorError(`Writing to Kafka failed: ${String(cause)}`, { cause });
    }
  }

  /**
   * At barrier `checkpointId`: everything written is acknowledged already (writes await their acks).
   * Exactly-once returns the committable of the current transaction (none if it holds no record) and
   * opens the transaction `prefix-subtask-(checkpointId+1)`; the other guarantees return nothing.
   */
  async prepareCommit(checkpointId: number): Promise<KafkaCommittable[]> {
    const ms = this.options.maxBlockMs ?? DEFAULT_MAX_BLOCK_MS;
    return withDeadline(this.prepareCommitUnbounded(checkpointId), ms, () =>
      brokerTimeout(this.options.brokers ?? [], `preparing checkpoint ${checkpointId}`, 'max.block.ms', ms),
    );
  }

  private async prepareCommitUnbounded(checkpointId: number): Promise<KafkaCommittable[]> {
    if (this.options.deliveryGuarantee !== 'exactly-once') return [];
    const out = await this.precommit();
    await this.beginTransaction(checkpointId);
    return out;
  }

  /**
   * Phase one alone: returns the committable of the current transaction (none if it holds no record)
   * and leaves no transaction open; `beginTransaction` must follow before the next `write`. For callers
   * that learn the checkpoint id only after the pre-commit (the Sink V2 writer gets it in snapshotState).
   */
  async precommit(): Promise<KafkaCommittable[]> {
    const current = this.transaction;
    if (!current) return [];
    this.transaction = undefined;
    if (current.recordCount > 0) return [current.committable()];
    await current.abort(); // nothing sent: nothing to commit, free the id cleanly
    return [];
  }

  /** Opens the transaction `prefix-subtask-(checkpointId+1)` after barrier `checkpointId`. Exactly-once only. */
  async beginTransaction(checkpointId: number): Promise<void> {
    if (this.options.deliveryGuarantee !== 'exactly-once') return;
    this.transaction = await KafkaTransaction.begin(this.kafka, this.cluster, this.idFor(checkpointId + 1), this.options.transactionTimeoutMs, this.partitioner);
  }

  /** End of input (bounded job). Sends are already acknowledged; nothing is buffered. */
  async flush(): Promise<void> {}

  /** Closes connections. The open transaction is left to time out or to the next start's abort. */
  async close(): Promise<void> {
    await this.plainProducer?.disconnect().catch(() => undefined);
    await this.cluster.disconnect().catch(() => undefined);
  }
}

/**
 * Commits exactly-once committables after their checkpoint completed (and again after a restore:
 * commits are idempotent). Awaits one EndTxn per committable.
 */
export class KafkaCommitter {
  private readonly cluster: InternalCluster;
  private connected = false;

  constructor(kafka: Kafka) {
    this.cluster = createCluster(kafka);
  }

  async commit(committables: readonly KafkaCommittable[]): Promise<CommitOutcome[]> {
    if (!this.connected) {
      await this.cluster.connect();
      this.connected = true;
    }
    const out: CommitOutcome[] = [];
    for (const c of committables) out.push(await commitTransaction(this.cluster, c));
    return out;
  }

  async close(): Promise<void> {
    if (this.connected) {
      this.connected = false;
      await this.cluster.disconnect();
    }
  }
}
