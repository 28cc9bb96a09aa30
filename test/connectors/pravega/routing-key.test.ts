import { describe, expect, it } from 'vitest';
import { hashRoutingKey } from '../../../src/connectors/pravega/client/routing-key.js';
import { murmur3x64First64 } from '../../../src/connectors/pravega/client/murmur3.js';
import { SegmentMap } from '../../../src/connectors/pravega/client/segment-map.js';

describe('hashRoutingKey', () => {
  // Vectors from Guava murmur3_128(1741865571).hashUnencodedChars(k) (shared/reference/pravega-protocol.md §4).
  it.each([
    ['', 0.24117842791623523],
    ['a', 0.9433912753816884],
    ['routingKey', 0.9115813645916913],
    ['helloRoutingKey', 0.6877172767908977],
    ['key-1', 0.3829162539760538],
    ['été', 0.7747868194781358],
    ['😀', 0.7750255912171164],
  ])('maps %j exactly as the Java client', (key, expected) => {
    expect(hashRoutingKey(key)).toBe(expected);
  });

  it('produces the Java h1 words for the empty key and "a"', () => {
    const seed = 1741865571;
    expect(BigInt.asIntN(64, murmur3x64First64(new Uint8Array(0), seed))).toBe(4448956735870400463n);
    expect(BigInt.asIntN(64, murmur3x64First64(new Uint8Array([0x61, 0]), seed))).toBe(-1044246655373090880n);
  });

  it('handles keys longer than one 16-byte block', () => {
    const v = hashRoutingKey('a-much-longer-routing-key-spanning-blocks');
    expect(v).toBeGreaterThanOrEqual(0);
    expect(v).toBeLessThan(1);
    expect(hashRoutingKey('a-much-longer-routing-key-spanning-blocks')).toBe(v);
  });
});

describe('SegmentMap', () => {
  const seg = (segmentId: number, minKey: number, maxKey: number) => ({ segment: { scope: 's', stream: 't', segmentId }, minKey, maxKey });

  it('routes a key to the segment with the smallest maxKey at or above it', () => {
    const m = new SegmentMap([seg(0, 0, 0.5), seg(1, 0.5, 1)]);
    expect(m.route('key-1').segment.segmentId).toBe(0); // 0.38
    expect(m.route('a').segment.segmentId).toBe(1); // 0.94
  });

  it('replaces a sealed segment by its successors clipped to its range', () => {
    const m = new SegmentMap([seg(0, 0, 0.5), seg(1, 0.5, 1)]);
    const epoch1 = 2 ** 32;
    const next = m.withReplacement(0, [
      { ...seg(epoch1 + 2, 0, 0.25), predecessors: [0] },
      { ...seg(epoch1 + 3, 0.25, 0.75), predecessors: [0, 1] },
    ]);
    expect(next.segments.map((s) => [s.segment.segmentId, s.minKey, s.maxKey])).toEqual([
      [epoch1 + 2, 0, 0.25],
      [epoch1 + 3, 0.25, 0.5],
      [1, 0.5, 1],
    ]);
    expect(next.route('key-1').segment.segmentId).toBe(epoch1 + 3);
  });
});
