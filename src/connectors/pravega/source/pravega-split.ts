import { jsonSerializer, type VersionedSerializer } from '../../../runtime/serializer.js';
import type { SourceEvent, SourceSplit } from '../../../runtime/source/source-split.js';

/**
 * One Pravega segment to read from `startOffset` up to `endOffset` (exclusive; null = until the segment is sealed and
 * drained). A `finished` split is a tombstone: the reader finished it but the enumerator has not confirmed it yet, so
 * the reader keeps it in its checkpoint and reports it again after a restore (see PravegaSplitEnumerator).
 */
export interface PravegaSplit extends SourceSplit {
  readonly scope: string;
  readonly stream: string;
  readonly segmentId: number;
  readonly startOffset: number;
  readonly endOffset: number | null;
  readonly finished?: FinishReason;
}

/** `endOfSegment`: sealed and drained, successors follow. `reachedEnd`: stopped at the end stream cut. */
export type FinishReason = 'endOfSegment' | 'reachedEnd';

export function segmentSplitId(scope: string, stream: string, segmentId: number): string {
  return `${scope}/${stream}/${segmentId}`;
}

/** Reader -> enumerator: these segments are done. */
export interface SegmentsFinishedEvent extends SourceEvent {
  readonly type: 'pravega-segments-finished';
  readonly segments: readonly { readonly splitId: string; readonly reason: FinishReason }[];
}

/** Enumerator -> reader: it recorded these finishes in its state, so the reader may drop their tombstones. */
export interface FinishAcknowledgedEvent extends SourceEvent {
  readonly type: 'pravega-finish-acknowledged';
  readonly splitIds: readonly string[];
}

export function pravegaSplitSerializer(): VersionedSerializer<PravegaSplit> {
  return jsonSerializer<PravegaSplit>(1);
}
