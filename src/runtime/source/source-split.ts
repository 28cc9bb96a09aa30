/**
 * A unit of work of a source (a topic partition with an offset range, a file range, a Pravega segment).
 * Flink's `SourceSplit.splitId()`; here a readonly property so splits may be plain objects.
 * A split object handed to a reader is owned by that reader; the runtime copies through the split
 * serializer when it snapshots or reassigns.
 */
export interface SourceSplit {
  /** Unique within the source; used to route records, watermarks and pause/resume calls. */
  readonly splitId: string;
}

/** A custom message between an enumerator and its readers (Flink's `SourceEvent`). */
export interface SourceEvent {
  readonly type: string;
}

/** Whether a source ends. A `CONTINUOUS_UNBOUNDED` source is rejected in batch runtime mode. */
export type Boundedness = 'BOUNDED' | 'CONTINUOUS_UNBOUNDED';

/** What `SourceReader.pollNext` reports, as Flink's `InputStatus`. */
export type InputStatus = 'MORE_AVAILABLE' | 'NOTHING_AVAILABLE' | 'END_OF_INPUT';
