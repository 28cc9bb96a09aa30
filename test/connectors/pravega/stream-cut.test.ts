import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/errors/sluice-error.js';
import { streamCutFromText, streamCutToText, UNBOUNDED, type StreamCut } from '../../../src/connectors/pravega/client/stream-cut.js';

describe('stream cut text form', () => {
  it('reads what the Java client 0.13.0 StreamCut.asText() produced', () => {
    // Produced by io.pravega:pravega-client:0.13.0 for sc/st {segment 0 -> 10, segment 3 of epoch 1 -> -1}.
    const cut = streamCutFromText('H4sIAAAAAAAA/zOwKk7WLy6xMtAxBmJDK0MDHV1DALxJU94VAAAA');
    expect(cut).toEqual({ kind: 'cut', scope: 'sc', stream: 'st', positions: new Map([[0, 10], [2 ** 32 + 3, -1]]) });
  });

  it('round-trips a cut through its text', () => {
    const cut: StreamCut = { kind: 'cut', scope: 'my-scope', stream: 'orders', positions: new Map([[0, 0], [2 ** 32 * 5 + 12, 123456789]]) };
    expect(streamCutFromText(streamCutToText(cut))).toEqual(cut);
  });

  it('writes and reads UNBOUNDED literally', () => {
    expect(streamCutToText(UNBOUNDED)).toBe('UNBOUNDED');
    expect(streamCutFromText('UNBOUNDED')).toBe(UNBOUNDED);
  });

  it('rejects text that is not a stream cut', () => {
    expect(() => streamCutFromText('not-base64-gzip')).toThrow(ValidationError);
  });
});
