import { ConnectorError } from '../../../errors/sluice-error.js';
import type { SegmentWithRange, Successor } from './controller-client.js';
import { hashRoutingKey } from './routing-key.js';

/**
 * Which segment owns which part of the key space, as the Java client's `StreamSegments`: a key goes to the segment
 * with the smallest maxKey >= key. Immutable; a scale produces a new map.
 */
export class SegmentMap {
  /** Sorted by maxKey. */
  private readonly ranges: readonly SegmentWithRange[];

  constructor(ranges: readonly SegmentWithRange[]) {
    if (ranges.length === 0) throw new ConnectorError('a Pravega stream has no open segments (is it sealed?)');
    this.ranges = [...ranges].sort((a, b) => a.maxKey - b.maxKey);
  }

  get segments(): readonly SegmentWithRange[] {
    return this.ranges;
  }

  /** The segment for a routing key; no key means a random position, as the Java client does. */
  route(routingKey: string | undefined): SegmentWithRange {
    const key = routingKey === undefined ? Math.random() : hashRoutingKey(routingKey);
    const r = this.ranges;
    let lo = 0;
    let hi = r.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (r[mid]!.maxKey >= key) hi = mid;
      else lo = mid + 1;
    }
    return r[lo]!;
  }

  /**
   * Replaces a sealed segment by its successors, each clipped to the sealed segment's range (a successor that merges
   * several predecessors must not take over ranges whose own segments are not yet known to be sealed).
   */
  withReplacement(sealedSegmentId: number, successors: readonly Successor[]): SegmentMap {
    const sealed = this.ranges.find((r) => r.segment.segmentId === sealedSegmentId);
    if (sealed === undefined) return this;
    const next = this.ranges.filter((r) => r !== sealed);
    for (const s of successors) {
      const minKey = Math.max(s.minKey, sealed.minKey);
      const maxKey = Math.min(s.maxKey, sealed.maxKey);
      if (maxKey > minKey) next.push({ segment: s.segment, minKey, maxKey });
    }
    return new SegmentMap(next);
  }
}
