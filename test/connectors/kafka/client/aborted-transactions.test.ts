import { describe, expect, it } from 'vitest';
import { committedRecords } from '../../../../src/connectors/kafka/client/aborted-transactions.js';
import type { RawKafkaMessage } from '../../../../src/connectors/kafka/client/kafkajs-internals.js';

const ABORT_KEY = Buffer.from([0, 0, 0, 0]);
const COMMIT_KEY = Buffer.from([0, 0, 0, 1]);

function rec(offset: number, producerId: string, value: string, inTransaction = true): RawKafkaMessage {
  return { offset: String(offset), timestamp: '0', key: null, value: Buffer.from(value), batchContext: { producerId, inTransaction, isControlBatch: false } } as RawKafkaMessage;
}
function marker(offset: number, producerId: string, abort: boolean): RawKafkaMessage {
  return { offset: String(offset), timestamp: '0', key: abort ? ABORT_KEY : COMMIT_KEY, value: Buffer.alloc(6), isControlRecord: true, batchContext: { producerId, inTransaction: true, isControlBatch: true } } as RawKafkaMessage;
}
const values = (ms: RawKafkaMessage[]) => ms.map((m) => m.value?.toString());

describe('committedRecords (read_committed filtering)', () => {
  it('drops only control records when no transaction in range was aborted', () => {
    const ms = [rec(0, '7', 'a'), rec(1, '7', 'b'), marker(2, '7', false), rec(3, '-1', 'c', false)];
    expect(values(committedRecords(ms, undefined))).toEqual(['a', 'b', 'c']);
    expect(values(committedRecords(ms, []))).toEqual(['a', 'b', 'c']);
  });

  it('drops interleaved aborted transactions listed in abort-marker order, not first-offset order', () => {
    // Producer 1 begins first (offset 0) but aborts last; the broker lists producer 2 first.
    const ms = [
      rec(0, '1', 'x1'), rec(1, '2', 'y1'), rec(2, '1', 'x2'), rec(3, '3', 'keep1'),
      marker(4, '2', true), rec(5, '1', 'x3'), marker(6, '1', true), marker(7, '3', false), rec(8, '-1', 'keep2', false),
    ];
    const aborted = [{ producerId: '2', firstOffset: '1' }, { producerId: '1', firstOffset: '0' }];
    expect(values(committedRecords(ms, aborted))).toEqual(['keep1', 'keep2']);
  });

  it('activates several aborted transactions that all began before the first fetched record', () => {
    const ms = [rec(10, '2', 'y'), rec(11, '1', 'x'), marker(12, '1', true), marker(13, '2', true), rec(14, '1', 'later-committed')];
    const aborted = [{ producerId: '1', firstOffset: '3' }, { producerId: '2', firstOffset: '5' }];
    expect(values(committedRecords(ms, aborted))).toEqual(['later-committed']);
  });

  it('keeps a producer\'s next transaction after its abort marker', () => {
    const ms = [rec(0, '1', 'bad'), marker(1, '1', true), rec(2, '1', 'good'), marker(3, '1', false)];
    expect(values(committedRecords(ms, [{ producerId: '1', firstOffset: '0' }]))).toEqual(['good']);
  });
});
