import type { VersionedSerializer } from '../serializer.js';
import type { Boundedness, SourceSplit } from './source-split.js';
import type { SourceReader, SourceReaderContext } from './source-reader.js';
import type { SplitEnumerator, SplitEnumeratorContext } from './split-enumerator.js';

/**
 * A FLIP-27 source: a factory for one enumerator and one reader per subtask (Flink's `Source`).
 * Each factory method is called by the runtime on job start and again on every restart, so it must
 * create fresh objects each time.
 *
 * @example
 * ```ts
 * const graph = new JobGraphBuilder('demo');
 * graph.source('numbers', new SequenceSource(1, 1000), { parallelism: 2 });
 * ```
 */
export interface Source<T, SplitT extends SourceSplit, EnumCheckpointT> {
  boundedness(): Boundedness;
  /** One reader per subtask; throwing fails the task. */
  createReader(ctx: SourceReaderContext): SourceReader<T, SplitT>;
  /** A fresh enumerator (no checkpoint to restore from). */
  createEnumerator(ctx: SplitEnumeratorContext<SplitT>): SplitEnumerator<SplitT, EnumCheckpointT>;
  /** An enumerator from checkpointed state. */
  restoreEnumerator(
    ctx: SplitEnumeratorContext<SplitT>,
    checkpoint: EnumCheckpointT,
  ): SplitEnumerator<SplitT, EnumCheckpointT>;
  /** Serializes splits for reader state in checkpoints. */
  getSplitSerializer(): VersionedSerializer<SplitT>;
  /** Serializes the enumerator's checkpoint. */
  getEnumeratorCheckpointSerializer(): VersionedSerializer<EnumCheckpointT>;
}

/** A source whose types are not known to the caller (what the job graph holds). */
export type AnySource<T> = Source<T, SourceSplit, unknown>;
