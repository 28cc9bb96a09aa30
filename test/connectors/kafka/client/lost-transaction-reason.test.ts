import { describe, expect, it } from 'vitest';
import { lostTransactionReason } from '../../../../src/connectors/kafka/client/kafka-transaction.js';

const started = Date.UTC(2026, 0, 1, 12, 0, 0);
const c = { transactionalId: 'orders-0-7', producerId: 4012, epoch: 3, startedAt: started, timeoutMs: 900_000 };

describe('why a Kafka transaction can no longer be committed', () => {
  it('blames transaction.timeout.ms when the transaction is older than its timeout', () => {
    expect(lostTransactionReason(c, 'INVALID_PRODUCER_EPOCH', started + 20 * 60_000)).toBe(
      "Kafka transaction 'orders-0-7' (producer id 4012, epoch 3) can no longer be committed (broker answered INVALID_PRODUCER_EPOCH): " +
        "the broker aborted it because 'transaction.timeout.ms' (900000 ms) is shorter than the time the job was down " +
        "(the transaction began 20 min ago and was not committed in time); raise 'properties.transaction.timeout.ms' " +
        "(up to the broker's 'transaction.max.timeout.ms') to survive longer outages. Its records are lost.",
    );
  });

  it('suspects a second producer of the same id when the transaction is younger than its timeout', () => {
    const r = lostTransactionReason(c, 'PRODUCER_FENCED', started + 30_000);
    expect(r).toContain("another producer initialised the same transactional id (does another job share 'sink.transactional-id-prefix'?)");
    expect(r).toContain("'transaction.timeout.ms' (900000 ms)");
    expect(r.endsWith('Its records are lost.')).toBe(true);
  });

  it('says an aborted transaction was aborted, and an unknown id may have committed before it expired', () => {
    expect(lostTransactionReason(c, 'INVALID_TXN_STATE', started + 1000)).toContain('(broker answered INVALID_TXN_STATE): it was aborted');
    const unknown = lostTransactionReason(c, 'INVALID_PRODUCER_ID_MAPPING', started + 1000);
    expect(unknown).toContain('the broker no longer knows the transactional id');
    expect(unknown.endsWith('Its records are lost, unless it was committed before the id expired.')).toBe(true);
  });

  it('works for a committable from a checkpoint written before start times were recorded', () => {
    const old = { transactionalId: 'orders-1-2', producerId: 7, epoch: 0 };
    expect(lostTransactionReason(old, 'INVALID_PRODUCER_EPOCH', started)).toBe(
      "Kafka transaction 'orders-1-2' (producer id 7, epoch 0) can no longer be committed (broker answered INVALID_PRODUCER_EPOCH): " +
        "another producer initialised the same transactional id (does another job share 'sink.transactional-id-prefix'?), " +
        "or the broker aborted it after 'transaction.timeout.ms'. Its records are lost.",
    );
  });
});
