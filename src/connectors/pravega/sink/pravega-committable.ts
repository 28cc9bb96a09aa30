import type { VersionedSerializer } from '../../../runtime/serializer.js';

/** A flushed, uncommitted Pravega transaction of one checkpoint: what the exactly-once writer hands the committer. */
export interface PravegaCommittable {
  readonly scope: string;
  readonly stream: string;
  /** The transaction id's most and least significant 64 bits as decimal strings (JSON has no 64-bit ints). */
  readonly txnHigh: string;
  readonly txnLow: string;
  /** The UUID text, for messages. */
  readonly txnId: string;
  /** Epoch ms of the pre-commit and the transaction's lease: why a lost one was lost (absent in old checkpoints). */
  readonly preparedAt?: number;
  readonly leaseMs?: number;
  /** The sink's watermark at pre-commit when `sink.enable.watermark-propagation` is on. */
  readonly watermark?: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function pravegaCommittableSerializer(): VersionedSerializer<PravegaCommittable> {
  return {
    version: 1,
    serialize: (c) => encoder.encode(JSON.stringify(c)),
    deserialize: (_v, data) => JSON.parse(decoder.decode(data)) as PravegaCommittable,
  };
}
