import type { SourceOutput } from './reader-output.js';

/**
 * Turns a fetched element into records and advances the split's position (Flink's `RecordEmitter`).
 * Called by `SourceReaderBase.pollNext` synchronously, once per element; it must not await. The position
 * it writes into `splitState` is what the next checkpoint stores for the split.
 */
export interface RecordEmitter<E, T, SplitStateT> {
  emitRecord(element: E, output: SourceOutput<T>, splitState: SplitStateT): void;
}
