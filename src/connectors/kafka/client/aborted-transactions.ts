/**
 * read_committed filtering of one partition's fetched records: drops records of aborted transactions
 * and control records (commit/abort markers), as the Java consumer's `Fetcher` does.
 *
 * Why not kafkajs's own `filterAbortedMessages`: it walks the broker's aborted-transaction list in the
 * order received and activates at most one entry per record. The broker lists aborted transactions in
 * the order of their abort markers, not of their first offsets, so when two transactions interleave
 * (two sink subtasks writing the same partition, both aborted by a restart) the one that began earlier
 * but ended later is activated too late and its first records leak to read_committed readers as if
 * committed. Found by the CLI kill -9 trials (test/integration/kafka/cli-exactly-once-kill.test.ts).
 * Here the list is sorted by first offset and every entry at or before a record is activated before
 * that record is judged.
 */
import type { RawKafkaMessage } from './kafkajs-internals.js';

/** One entry of a Fetch response's `abortedTransactions` (Int64 values as decimal strings). */
export interface AbortedTransaction {
  readonly producerId: string;
  readonly firstOffset: string;
}

/** The part of kafkajs's per-record batch context the filter reads. */
interface BatchContext {
  readonly producerId?: string | number | bigint;
  readonly inTransaction?: boolean;
  readonly isControlBatch?: boolean;
}

/** A control record's key is (version: int16, type: int16); type 0 is ABORT, 1 is COMMIT. */
function isAbortMarker(m: RawKafkaMessage): boolean {
  const key = m.key;
  return key !== null && key.length >= 4 && key.readInt16BE(2) === 0;
}

/**
 * Records of `messages` (in offset order, already at or above the fetch offset) that a read_committed
 * reader may see: not control records and not part of an aborted transaction. Pure; allocates one
 * array. With no aborted transactions in range (the common case) only control records are dropped.
 */
export function committedRecords(messages: readonly RawKafkaMessage[], aborted: readonly AbortedTransaction[] | undefined): RawKafkaMessage[] {
  if (!aborted || aborted.length === 0) return messages.filter((m) => !m.isControlRecord);
  const pending = aborted
    .map((a) => ({ producerId: String(a.producerId), firstOffset: BigInt(a.firstOffset) }))
    .sort((a, b) => (a.firstOffset < b.firstOffset ? -1 : a.firstOffset > b.firstOffset ? 1 : 0));
  let next = 0;
  const abortedProducers = new Set<string>();
  const out: RawKafkaMessage[] = [];
  for (const m of messages) {
    const offset = BigInt(m.offset);
    while (next < pending.length && (pending[next] as { firstOffset: bigint }).firstOffset <= offset) {
      abortedProducers.add((pending[next] as { producerId: string }).producerId);
      next++;
    }
    const ctx = (m as RawKafkaMessage & { batchContext?: BatchContext }).batchContext;
    const producerId = ctx?.producerId === undefined ? undefined : String(ctx.producerId);
    if (m.isControlRecord) {
      if (producerId !== undefined && isAbortMarker(m)) abortedProducers.delete(producerId);
      continue;
    }
    if (ctx?.inTransaction && producerId !== undefined && abortedProducers.has(producerId)) continue;
    out.push(m);
  }
  return out;
}
