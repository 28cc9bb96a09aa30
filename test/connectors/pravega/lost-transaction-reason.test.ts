import { describe, expect, it } from 'vitest';
import { lostPravegaTransactionReason } from '../../../src/connectors/pravega/sink/pravega-committer.js';

const preparedAt = Date.UTC(2026, 0, 1, 12, 0, 0);
const c = { scope: 'shop', stream: 'orders', txnHigh: '1', txnLow: '2', txnId: '00000000-0000-0001-0000-000000000002', preparedAt, leaseMs: 30_000 };

describe('why a Pravega transaction can no longer be committed', () => {
  it('blames the lease when the transaction was pre-committed longer ago than its lease', () => {
    expect(lostPravegaTransactionReason(c, 'ABORTED', preparedAt + 5 * 60_000)).toBe(
      "Pravega transaction 00000000-0000-0001-0000-000000000002 on stream 'shop/orders' was aborted by the Pravega controller " +
        "(lease/timeout; state ABORTED): its lease 'sink.txn-lease-renewal.interval' (30000 ms) ran out: it was pre-committed 5 min ago " +
        "and the job was down, or could not renew the lease, for longer than that; raise 'sink.txn-lease-renewal.interval' (up to 600 s) " +
        'to survive longer outages. Its events are lost.',
    );
  });

  it('names the other causes when the transaction is younger than its lease, or from an old checkpoint', () => {
    expect(lostPravegaTransactionReason(c, 'ABORTING', preparedAt + 1000)).toContain(
      "(lease/timeout; state ABORTING): its lease 'sink.txn-lease-renewal.interval' (30000 ms) ran out while the writer could not renew it, or the stream was sealed.",
    );
    const { preparedAt: _p, leaseMs: _l, ...old } = c;
    expect(lostPravegaTransactionReason(old, 'ABORTED', preparedAt)).toContain("its lease 'sink.txn-lease-renewal.interval' ran out while");
  });

  it('says when the controller does not know the transaction at all', () => {
    expect(lostPravegaTransactionReason(c, 'UNKNOWN', preparedAt)).toBe(
      "Pravega transaction 00000000-0000-0001-0000-000000000002 on stream 'shop/orders' is unknown to the Pravega controller: it lost its " +
        'metadata (e.g. a standalone Pravega with in-memory storage was restarted) or the stream was deleted and re-created. Its events are lost.',
    );
  });
});
