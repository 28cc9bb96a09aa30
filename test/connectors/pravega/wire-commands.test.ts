import { describe, expect, it } from 'vitest';
import { decodeCommand, encodeCommand, encodeEvents } from '../../../src/connectors/pravega/client/wire-commands.js';
import { decodeModifiedUtf8, encodeModifiedUtf8, WireWriter } from '../../../src/connectors/pravega/client/wire-buffer.js';
import { qualifiedSegmentName, parseQualifiedSegmentName, transactionSegmentName, computeSegmentId, txnIdToString } from '../../../src/connectors/pravega/client/segment-names.js';

describe('wire commands', () => {
  it('frames Hello as type -127 with an 8-byte payload', () => {
    const b = encodeCommand({ kind: 'Hello', highVersion: 16, lowVersion: 5 });
    expect([...b]).toEqual([0xff, 0xff, 0xff, 0x81, 0, 0, 0, 8, 0, 0, 0, 16, 0, 0, 0, 5]);
  });

  it('lays out AppendBlockEnd as writerId, size, data, numEvents, lastEventNumber, requestId', () => {
    const data = encodeEvents([Buffer.from('ab')]);
    const b = encodeCommand({ kind: 'AppendBlockEnd', writerId: '00000000-0000-0001-0000-000000000002', data, numEvents: 1, lastEventNumber: 7, requestId: 9 });
    expect(b.readInt32BE(0)).toBe(4);
    expect(b.readInt32BE(4)).toBe(b.length - 8);
    expect(b.readBigInt64BE(8)).toBe(1n);
    expect(b.readBigInt64BE(16)).toBe(2n);
    expect(b.readInt32BE(24)).toBe(10); // sizeOfWholeEvents
    expect(b.readInt32BE(28)).toBe(10); // data length
    expect([...b.subarray(32, 42)]).toEqual([0, 0, 0, 0, 0, 0, 0, 2, 0x61, 0x62]);
    expect(b.readInt32BE(42)).toBe(1);
    expect(b.readBigInt64BE(46)).toBe(7n);
    expect(b.readBigInt64BE(54)).toBe(9n);
  });

  it('decodes SegmentRead and DataAppended', () => {
    const w = new WireWriter();
    w.utf('sc/st/0.#epoch.0').int64(42).bool(true).bool(false).int32(3).bytes(Buffer.from('xyz')).int64(5);
    expect(decodeCommand(10, w.toBuffer())).toEqual({ kind: 'SegmentRead', segment: 'sc/st/0.#epoch.0', offset: 42, atTail: true, endOfSegment: false, data: Buffer.from('xyz'), requestId: 5 });
    const d = new WireWriter();
    d.uuid('12345678-9abc-def0-1234-56789abcdef0').int64(3).int64(1).int64(8).int64(300);
    expect(decodeCommand(7, d.toBuffer())).toEqual({ kind: 'DataAppended', writerId: '12345678-9abc-def0-1234-56789abcdef0', eventNumber: 3, previousEventNumber: 1, requestId: 8, currentSegmentWriteOffset: 300 });
  });

  it('tolerates a missing trailing request id', () => {
    const w = new WireWriter();
    w.int64(1).utf('seg').utf('trace');
    expect(decodeCommand(51, w.toBuffer())).toMatchObject({ kind: 'SegmentIsSealed', requestId: 1, segment: 'seg', offset: -1 });
  });

  it('encodes strings as Java modified UTF-8', () => {
    expect([...encodeModifiedUtf8('a\u0000é')]).toEqual([0x61, 0xc0, 0x80, 0xc3, 0xa9]);
    expect(encodeModifiedUtf8('😀').length).toBe(6);
    expect(decodeModifiedUtf8(encodeModifiedUtf8('x\u0000😀é'))).toBe('x\u0000😀é');
  });
});

describe('segment names', () => {
  it('names segments scope/stream/number.#epoch.epoch and parses them back', () => {
    const ref = { scope: 'sc', stream: 'st', segmentId: computeSegmentId(3, 2) };
    expect(qualifiedSegmentName(ref)).toBe('sc/st/3.#epoch.2');
    expect(parseQualifiedSegmentName('sc/st/3.#epoch.2')).toEqual(ref);
  });

  it('names transaction segments after the parent and the txn UUID halves', () => {
    const txn = { highBits: 0x0000000100000002n, lowBits: -1n };
    expect(transactionSegmentName({ scope: 'sc', stream: 'st', segmentId: 0 }, txn)).toBe('sc/st/0.#epoch.0#transaction.0000000100000002ffffffffffffffff');
    expect(txnIdToString(txn)).toBe('00000001-0000-0002-ffff-ffffffffffff');
  });
});
