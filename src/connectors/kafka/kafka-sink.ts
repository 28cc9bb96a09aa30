/**
 * The Sink V2 Kafka sink (Flink's KafkaSink) on the client layer's KafkaRecordWriter / KafkaCommitter.
 *
 * - Each `write` serializes the whole batch and hands it to the client writer in one call (one await
 *   per batch, never per record).
 * - at-least-once: every write awaits the acks of all in-sync replicas, so a barrier needs no extra work.
 * - none: a batch is sent without waiting for it; the next write waits for the previous one (one batch
 *   in flight), and its error, if any, fails the next call.
 * - exactly-once: see client/kafka-record-writer.ts. The runtime calls `prepareCommit()` without the
 *   checkpoint id and `snapshotState(id)` right after it, so the writer pre-commits in the first and opens
 *   the transaction named after `id + 1` from the second (awaited by the next write), which keeps the
 *   client's naming (`prefix-subtask-(checkpoint+1)`) exactly as its recovery argument needs.
 * - upsert buffering (`sink.buffer-flush.*`, upsert-kafka): rows are reduced by key (the last change of
 *   a key wins) and sent when the buffer holds max-rows keys, when the interval has passed at a write,
 *   and at every barrier.
 */
import type { Kafka } from 'kafkajs';
import { kafkajs } from './client/kafkajs-module.js';
import type { Committer, CommitRequest } from '../../runtime/sink/committer.js';
import { ConnectorError } from '../../errors/sluice-error.js';
import type { LostCommittablePolicy } from '../../runtime/sink/lost-committable.js';
import type { Sink, WriterInitContext } from '../../runtime/sink/sink.js';
import type { SinkWriter } from '../../runtime/sink/sink-writer.js';
import { jsonSerializer, type VersionedSerializer } from '../../runtime/serializer.js';
import type { Row } from '../../types/row.js';
import type { KafkaClientSettings } from './client/kafka-properties.js';
import { KafkaCommitter, KafkaRecordWriter, type DeliveryGuarantee, type KafkaSinkRecord } from './client/kafka-record-writer.js';
import type { KafkaCommittable } from './client/kafka-transaction.js';
import type { SinkPartitionerKind } from './client/sink-partitioner.js';
import type { KafkaRecordSerializer } from './kafka-record-serializer.js';
import { KafkaOptions, type LostTransactionAction } from './kafka-options.js';

export interface KafkaSinkSettings {
  readonly client: KafkaClientSettings;
  readonly deliveryGuarantee: DeliveryGuarantee;
  readonly transactionalIdPrefix?: string;
  /** `sink.commit.on-lost-transaction`: a transaction the broker aborted fails the job ('fail', the default) or is dropped with a warning. */
  readonly onLostTransaction?: LostTransactionAction;
  readonly partitioner: SinkPartitionerKind;
  /** A fresh serializer per writer. */
  readonly createSerializer: () => KafkaRecordSerializer;
  /** upsert-kafka buffering; both > 0 to enable. */
  readonly bufferFlushMaxRows?: number;
  readonly bufferFlushIntervalMs?: number;
}

export class KafkaSink implements Sink<Row, KafkaCommittable> {
  readonly lostCommittables: LostCommittablePolicy;

  constructor(readonly settings: KafkaSinkSettings) {
    this.lostCommittables = { action: settings.onLostTransaction ?? 'fail', option: KafkaOptions.SINK_COMMIT_ON_LOST_TRANSACTION.key };
  }

  createWriter(ctx: WriterInitContext): SinkWriter<Row, KafkaCommittable> {
    return new KafkaSinkWriter(this.settings, ctx);
  }

  createCommitter(): Committer<KafkaCommittable> {
    return new KafkaSinkCommitter(new (kafkajs().Kafka)(this.settings.client.client));
  }

  getCommittableSerializer(): VersionedSerializer<KafkaCommittable> {
    return jsonSerializer<KafkaCommittable>(1);
  }
}

class KafkaSinkWriter implements SinkWriter<Row, KafkaCommittable> {
  private readonly opening: Promise<KafkaRecordWriter>;
  private readonly serializer: KafkaRecordSerializer;
  /** Exactly-once: the transaction being opened after the last barrier. */
  private beginning: Promise<void> | undefined;
  /** none: the batch still in flight. */
  private inflight: Promise<void> | undefined;
  private inflightError: unknown;
  private ended = false;
  private readonly buffer = new Map<string, KafkaSinkRecord>();
  private bufferStartedAt = 0;
  private readonly buffered: boolean;

  constructor(
    private readonly settings: KafkaSinkSettings,
    ctx: WriterInitContext,
  ) {
    this.serializer = settings.createSerializer();
    this.buffered = (settings.bufferFlushMaxRows ?? 0) > 0 && (settings.bufferFlushIntervalMs ?? 0) > 0;
    const kafka = new (kafkajs().Kafka)(settings.client.client);
    this.opening = KafkaRecordWriter.open(kafka, {
      deliveryGuarantee: settings.deliveryGuarantee,
      ...(settings.transactionalIdPrefix !== undefined ? { transactionalIdPrefix: settings.transactionalIdPrefix } : {}),
      subtaskId: ctx.subtaskIndex,
      parallelism: ctx.parallelism,
      partitioner: settings.partitioner,
      transactionTimeoutMs: settings.client.transactionTimeoutMs,
      acks: settings.client.acks,
      restoredCheckpointId: ctx.restoredCheckpointId ?? 0,
      metadataMaxAgeMs: settings.client.metadataMaxAgeMs,
      brokers: settings.client.client.brokers as string[],
      maxBlockMs: settings.client.maxBlockMs,
      deliveryTimeoutMs: settings.client.deliveryTimeoutMs,
    });
    // Surfaced by the first awaited call; avoid an unhandled rejection before that.
    this.opening.catch(() => undefined);
  }

  private async writer(): Promise<KafkaRecordWriter> {
    const w = await this.opening;
    if (this.beginning) {
      const b = this.beginning;
      this.beginning = undefined;
      await b;
    }
    return w;
  }

  async write(batch: readonly Row[]): Promise<void> {
    const records: KafkaSinkRecord[] = [];
    for (const row of batch) {
      const r = this.serializer.serialize(row);
      if (r !== undefined) records.push(r);
    }
    if (this.buffered) {
      if (this.buffer.size === 0) this.bufferStartedAt = Date.now();
      for (const r of records) this.buffer.set(bufferKey(r), r);
      const full = this.buffer.size >= (this.settings.bufferFlushMaxRows as number);
      const due = Date.now() - this.bufferStartedAt >= (this.settings.bufferFlushIntervalMs as number);
      if (full || due) await this.drainBuffer();
      return;
    }
    await this.send(records);
  }

  private async send(records: KafkaSinkRecord[]): Promise<void> {
    if (records.length === 0) return;
    const w = await this.writer();
    if (this.settings.deliveryGuarantee !== 'none') {
      await w.write(records);
      return;
    }
    await this.settleInflight();
    this.inflight = w.write(records).catch((e: unknown) => {
      this.inflightError = e;
    });
  }

  private async settleInflight(): Promise<void> {
    if (this.inflight) {
      const p = this.inflight;
      this.inflight = undefined;
      await p;
    }
    if (this.inflightError !== undefined) {
      const e = this.inflightError;
      this.inflightError = undefined;
      throw e;
    }
  }

  private async drainBuffer(): Promise<void> {
    if (this.buffer.size === 0) return;
    const records = [...this.buffer.values()];
    this.buffer.clear();
    await this.send(records);
  }

  async flush(endOfInput: boolean): Promise<void> {
    await this.drainBuffer();
    // `none` promises nothing at a barrier, but the end of input must not lose the last batch.
    if (this.settings.deliveryGuarantee !== 'none' || endOfInput) await this.settleInflight();
    if (endOfInput) this.ended = true;
  }

  async prepareCommit(): Promise<KafkaCommittable[]> {
    if (this.settings.deliveryGuarantee !== 'exactly-once') return [];
    const w = await this.writer();
    return w.precommit();
  }

  snapshotState(checkpointId: number): never[] {
    if (this.settings.deliveryGuarantee === 'exactly-once' && !this.ended && checkpointId >= 0) {
      const begin = this.opening.then((w) => w.beginTransaction(checkpointId));
      begin.catch(() => undefined);
      this.beginning = begin;
    }
    return [];
  }

  async close(): Promise<void> {
    try {
      await this.settleInflight();
    } catch {
      // Closing after a failure: the original error is what matters.
    }
    const w = await this.opening.catch(() => undefined);
    await this.beginning?.catch(() => undefined);
    await w?.close();
  }
}

function bufferKey(r: KafkaSinkRecord): string {
  return `${r.topic}\u0000${r.key === null ? '' : r.key.toString('latin1')}`;
}

/**
 * Commits exactly-once transactions. A transaction the broker no longer has open under the pre-committed epoch is
 * reported lost (the runner then fails the job or warns, per `sink.commit.on-lost-transaction`), never retried: a
 * retry cannot bring it back. One already committed under that epoch commits again without error.
 */
class KafkaSinkCommitter implements Committer<KafkaCommittable> {
  private readonly committer: KafkaCommitter;

  constructor(kafka: Kafka) {
    this.committer = new KafkaCommitter(kafka);
  }

  async commit(requests: readonly CommitRequest<KafkaCommittable>[]): Promise<void> {
    if (requests.length === 0) return;
    let outcomes;
    try {
      outcomes = await this.committer.commit(requests.map((r) => r.committable));
    } catch {
      for (const r of requests) r.retryLater();
      return;
    }
    outcomes.forEach((o, i) => {
      const r = requests[i] as CommitRequest<KafkaCommittable>;
      switch (o.kind) {
        case 'committed':
          return;
        case 'lost':
          r.signalFailedWithKnownReason(new ConnectorError(o.reason));
          return;
        default: {
          const never: never = o;
          return never;
        }
      }
    });
  }

  async close(): Promise<void> {
    await this.committer.close().catch(() => undefined);
  }
}
