/**
 * The Kafka source reader on SourceReaderBase (Flink's KafkaSourceReader): one fetcher multiplexes all
 * partitions of the subtask through the client layer's pull reader; the emitter decodes each fetched
 * per-partition batch into rows; split positions are the next offsets; on checkpoint completion the
 * checkpointed positions are committed to `properties.group.id` (monitoring only).
 */
import { kafkajs } from './client/kafkajs-module.js';
import type { RecordEmitter } from '../../runtime/source/record-emitter.js';
import type { SourceOutput } from '../../runtime/source/reader-output.js';
import type { SourceReaderContext } from '../../runtime/source/source-reader.js';
import { SourceReaderBase } from '../../runtime/source/source-reader-base.js';
import { SingleThreadFetcherManager } from '../../runtime/source/split-fetcher-manager.js';
import { RecordsBySplits, type RecordsWithSplitIds, type SplitReader, type SplitsChange } from '../../runtime/source/split-reader.js';
import type { Row } from '../../types/row.js';
import type { KafkaClientSettings } from './client/kafka-properties.js';
import { KafkaOffsetCommitter } from './client/offset-committer.js';
import { KafkaPartitionSplitReader, type KafkaSplitRecords } from './client/partition-split-reader.js';
import type { KafkaRecordDeserializer, SplitDecodeContext } from './kafka-record-deserializer.js';
import type { KafkaSourceSplit } from './kafka-source-split.js';

/** Adapts the client's pull reader to the runtime's SplitReader: one element per partition batch. */
class KafkaSplitReaderAdapter implements SplitReader<KafkaSplitRecords, KafkaSourceSplit> {
  constructor(private readonly reader: KafkaPartitionSplitReader) {}

  async fetch(): Promise<RecordsWithSplitIds<KafkaSplitRecords>> {
    const r = await this.reader.fetch();
    const bySplit = new Map<string, KafkaSplitRecords[]>();
    for (const s of r.splits) bySplit.set(s.splitId, [s]);
    return new RecordsBySplits(bySplit, new Set(r.finishedSplits));
  }

  handleSplitsChanges(change: SplitsChange<KafkaSourceSplit>): void {
    switch (change.kind) {
      case 'add':
        this.reader.addSplits(change.splits);
        return;
      case 'remove':
        this.reader.removeSplits(change.splits.map((s) => s.splitId));
        return;
      default: {
        const never: never = change;
        return never;
      }
    }
  }

  wakeUp(): void {
    this.reader.wakeUp();
  }

  async close(): Promise<void> {
    await this.reader.close();
  }
}

/** Mutable position of one split while its reader owns it. */
export interface KafkaSplitState extends SplitDecodeContext {
  readonly split: KafkaSourceSplit;
  next: bigint;
  /** The partition's end as of the newest batch emitted (see `KafkaSplitRecords.endOffset`); undefined before one. */
  endOffset: bigint | undefined;
}

/**
 * Decodes a whole fetched partition batch at once, then hands the rows over with their record
 * timestamps (the watermark strategy's native timestamp). The scratch arrays are reused across batches.
 */
class KafkaRowEmitter implements RecordEmitter<KafkaSplitRecords, Row, KafkaSplitState> {
  private readonly rows: Row[] = [];
  private readonly timestamps: number[] = [];

  constructor(private readonly deserializer: KafkaRecordDeserializer) {}

  emitRecord(batch: KafkaSplitRecords, output: SourceOutput<Row>, state: KafkaSplitState): void {
    const rows = this.rows;
    const timestamps = this.timestamps;
    try {
      this.deserializer.deserializeBatch(batch.records, state, rows, timestamps);
      for (let i = 0; i < rows.length; i++) output.collect(rows[i] as Row, timestamps[i]);
    } finally {
      // Dropping the references lets the rows go with the task's batch instead of living on here.
      rows.length = 0;
      timestamps.length = 0;
    }
    state.next = batch.nextOffset;
    if (batch.endOffset !== undefined) state.endOffset = batch.endOffset;
  }
}

export interface KafkaSourceReaderSettings {
  readonly client: KafkaClientSettings;
  readonly deserializer: KafkaRecordDeserializer;
  /** Called when committing offsets to the group fails (monitoring only: the job goes on). */
  readonly onCommitError?: (error: unknown) => void;
}

const QUEUE_CAPACITY_KEY = 'source.reader.element.queue.capacity';

export class KafkaSourceReader extends SourceReaderBase<KafkaSplitRecords, Row, KafkaSourceSplit, KafkaSplitState> {
  private readonly committer: KafkaOffsetCommitter | undefined;
  /** Positions snapshotted per checkpoint, committed when that checkpoint completes. */
  private readonly offsetsToCommit = new Map<number, { topic: string; partition: number; offset: bigint }[]>();
  private readonly onCommitError: (error: unknown) => void;

  constructor(ctx: SourceReaderContext, settings: KafkaSourceReaderSettings) {
    const kafka = new (kafkajs().Kafka)(settings.client.client);
    const capacity = Number(ctx.config.get(QUEUE_CAPACITY_KEY) ?? '2');
    const manager = new SingleThreadFetcherManager<KafkaSplitRecords, KafkaSourceSplit>(
      () =>
        new KafkaSplitReaderAdapter(
          new KafkaPartitionSplitReader(kafka, {
            fetch: settings.client.fetch,
            isolationLevel: settings.client.isolationLevel,
            autoOffsetReset: settings.client.autoOffsetReset,
          }),
        ),
      Number.isInteger(capacity) && capacity > 0 ? capacity : 2,
    );
    super(manager, new KafkaRowEmitter(settings.deserializer), ctx);
    const { groupId, commitOffsetsOnCheckpoint } = settings.client;
    this.committer = groupId !== undefined && commitOffsetsOnCheckpoint ? new KafkaOffsetCommitter(kafka, groupId) : undefined;
    this.onCommitError = settings.onCommitError ?? ((e) => console.warn(`Kafka offset commit failed (monitoring only): ${String(e)}`));
  }

  protected initializedState(split: KafkaSourceSplit): KafkaSplitState {
    return { split, topic: split.topic, partition: split.partition, next: split.startingOffset, endOffset: undefined, liveKeys: new Set() };
  }

  protected toSplitType(_splitId: string, state: KafkaSplitState): KafkaSourceSplit {
    const s = state.split;
    return s.stoppingOffset === undefined
      ? { splitId: s.splitId, topic: s.topic, partition: s.partition, startingOffset: state.next }
      : { splitId: s.splitId, topic: s.topic, partition: s.partition, startingOffset: state.next, stoppingOffset: s.stoppingOffset };
  }

  /**
   * The consumer lag: records between each split's emitted position and its partition's end as the broker
   * last reported it (Flink's `pendingRecords`, what Kafka calls records-lag), summed over the splits whose
   * end is known; undefined before the first batch. Reads fields only.
   */
  override pendingRecords(): number | undefined {
    let sum: bigint | undefined;
    for (const s of this.currentSplitStates()) {
      if (s.endOffset === undefined) continue;
      const lag = s.endOffset - s.next;
      sum = (sum ?? 0n) + (lag > 0n ? lag : 0n);
    }
    return sum === undefined ? undefined : Number(sum);
  }

  /** Push-model enumerator: never ask for splits. */
  protected override onSplitFinished(): void {}

  override start(): void {}

  override snapshotState(checkpointId: number): KafkaSourceSplit[] {
    const splits = super.snapshotState(checkpointId);
    if (this.committer) {
      this.offsetsToCommit.set(
        checkpointId,
        splits.map((s) => ({ topic: s.topic, partition: s.partition, offset: s.startingOffset })),
      );
    }
    return splits;
  }

  async notifyCheckpointComplete(checkpointId: number): Promise<void> {
    const offsets = this.offsetsToCommit.get(checkpointId);
    for (const id of [...this.offsetsToCommit.keys()]) if (id <= checkpointId) this.offsetsToCommit.delete(id);
    if (!this.committer || !offsets || offsets.length === 0) return;
    try {
      await this.committer.commit(offsets);
    } catch (e) {
      this.onCommitError(e);
    }
  }

  override async close(): Promise<void> {
    await super.close();
    await this.committer?.close().catch(() => undefined);
  }
}
