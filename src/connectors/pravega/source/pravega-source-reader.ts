import type { DeserializationSchema } from '../../../factories/format.js';
import { SingleThreadFetcherManager } from '../../../runtime/source/split-fetcher-manager.js';
import { SourceReaderBase } from '../../../runtime/source/source-reader-base.js';
import type { SourceReaderContext } from '../../../runtime/source/source-reader.js';
import type { SourceOutput } from '../../../runtime/source/reader-output.js';
import type { RecordEmitter } from '../../../runtime/source/record-emitter.js';
import type { SourceEvent } from '../../../runtime/source/source-split.js';
import type { Row } from '../../../types/row.js';
import { qualifiedSegmentName, type PravegaSecurity, type ReadEvent } from '../client/index.js';
import { EVENT_HEADER_SIZE } from '../client/wire-commands.js';
import { eventPointerBytes } from './event-pointer.js';
import type { FinishAcknowledgedEvent, FinishReason, PravegaSplit, SegmentsFinishedEvent } from './pravega-split.js';
import { PravegaSplitReader } from './pravega-split-reader.js';
import type { ReaderHoldingsEvent } from './pravega-enumerator.js';

/** Mutable per-split state: the split and the offset of the next event to emit (its checkpointed position). */
export interface PravegaSplitState {
  readonly split: PravegaSplit;
  offset: number;
}

/** What the reader needs beyond the splits: how to reach Pravega and how to turn events into rows. */
export interface PravegaReaderSettings {
  readonly controllerUri: string;
  readonly security: PravegaSecurity;
  readonly eventReadTimeoutMs: number;
  /** A fresh decoder per reader (formats may keep per-instance buffers). */
  readonly createDeserializer: () => DeserializationSchema;
  /** Append the `event_pointer` metadata column to every row. */
  readonly withEventPointer: boolean;
}

class PravegaRecordEmitter implements RecordEmitter<ReadEvent, Row, PravegaSplitState> {
  private readonly rows: Row[] = [];
  constructor(
    private readonly deserializer: DeserializationSchema,
    private readonly withEventPointer: boolean,
  ) {}

  emitRecord(event: ReadEvent, output: SourceOutput<Row>, state: PravegaSplitState): void {
    const rows = this.rows;
    rows.length = 0;
    const s = state.split;
    this.deserializer.deserialize(event.payload, rows, () => `Pravega segment ${qualifiedSegmentName(s)}, offset ${event.offset}`);
    if (this.withEventPointer) {
      const pointer = eventPointerBytes(s, event.offset, event.payload.length);
      for (const r of rows) r.fields.push(pointer);
    }
    if (rows.length === 1) output.collect(rows[0]!);
    else if (rows.length > 1) output.collectBatch(rows);
    state.offset = event.offset + EVENT_HEADER_SIZE + event.payload.length;
  }
}

/**
 * The Pravega source reader of one subtask. Finished segments are reported to the enumerator (which then assigns
 * their successors) and kept as tombstones in this reader's checkpoint until the enumerator acknowledges them: the
 * acknowledgement travels through the runtime's valve, so receiving it before a snapshot proves the enumerator's
 * snapshot of that checkpoint already holds the finish. After a restore the tombstones are reported again.
 */
export class PravegaSourceReader extends SourceReaderBase<ReadEvent, Row, PravegaSplit, PravegaSplitState> {
  private readonly tombstones = new Map<string, PravegaSplit>();
  private started = false;

  constructor(settings: PravegaReaderSettings, context: SourceReaderContext) {
    const capacity = Number(context.config.get('source.reader.element.queue.capacity') ?? 2);
    const deserializer = settings.createDeserializer();
    // The fetcher awaits the format's lookups (registry schemas) for each chunk it reads, so the emitter never waits.
    const prepare = deserializer.prepare?.bind(deserializer);
    super(
      new SingleThreadFetcherManager(() => new PravegaSplitReader(settings.controllerUri, settings.eventReadTimeoutMs, settings.security, prepare), capacity),
      new PravegaRecordEmitter(deserializer, settings.withEventPointer),
      context,
    );
  }

  protected initializedState(split: PravegaSplit): PravegaSplitState {
    return { split, offset: split.startOffset };
  }

  protected toSplitType(_splitId: string, state: PravegaSplitState): PravegaSplit {
    return { ...state.split, startOffset: state.offset };
  }

  protected override onSplitFinished(finished: ReadonlyMap<string, PravegaSplitState>): void {
    for (const [id, st] of finished) {
      const end = st.split.endOffset;
      const reason: FinishReason = end !== null && st.offset >= end ? 'reachedEnd' : 'endOfSegment';
      this.tombstones.set(id, { ...st.split, startOffset: st.offset, finished: reason });
    }
    this.report([...finished.keys()]);
  }

  override start(): void {
    this.started = true;
    // Lets a restored enumerator re-assign splits whose assignment was lost in flight (see PravegaSplitEnumerator).
    const holdings: ReaderHoldingsEvent = {
      type: 'pravega-reader-holdings',
      splitIds: [...super.snapshotState(-1).map((s) => s.splitId), ...this.tombstones.keys()],
    };
    this.context.sendSourceEventToCoordinator(holdings);
    if (this.tombstones.size > 0) this.report([...this.tombstones.keys()]);
  }

  override addSplits(splits: PravegaSplit[]): void {
    const live: PravegaSplit[] = [];
    for (const s of splits) {
      if (s.finished !== undefined) this.tombstones.set(s.splitId, s);
      else live.push(s);
    }
    if (live.length > 0) super.addSplits(live);
    const restored = splits.filter((s) => s.finished !== undefined).map((s) => s.splitId);
    if (this.started && restored.length > 0) this.report(restored);
  }

  override snapshotState(checkpointId: number): PravegaSplit[] {
    return [...super.snapshotState(checkpointId), ...this.tombstones.values()];
  }

  override handleSourceEvents(event: SourceEvent): void {
    if (event.type === 'pravega-finish-acknowledged') {
      for (const id of (event as FinishAcknowledgedEvent).splitIds) this.tombstones.delete(id);
    }
  }

  private report(ids: readonly string[]): void {
    const segments = ids.flatMap((id) => {
      const t = this.tombstones.get(id);
      return t?.finished === undefined ? [] : [{ splitId: id, reason: t.finished }];
    });
    if (segments.length === 0) return;
    const event: SegmentsFinishedEvent = { type: 'pravega-segments-finished', segments };
    this.context.sendSourceEventToCoordinator(event);
  }
}
