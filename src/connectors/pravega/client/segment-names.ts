import { ValidationError } from '../../../errors/sluice-error.js';

/** A segment of a stream, as the controller and the segment store name it. */
export interface SegmentRef {
  readonly scope: string;
  readonly stream: string;
  /** epoch << 32 | segment number; below 2^53 for any epoch a real stream reaches. */
  readonly segmentId: number;
}

const TWO_POW_32 = 2 ** 32;

/** Builds a segment id from its number and the epoch that created it (`NameUtils.computeSegmentId`). */
export function computeSegmentId(segmentNumber: number, epoch: number): number {
  return epoch * TWO_POW_32 + segmentNumber;
}

export function segmentNumberOf(segmentId: number): number {
  return segmentId % TWO_POW_32;
}

export function epochOf(segmentId: number): number {
  return Math.floor(segmentId / TWO_POW_32);
}

/** `scope/stream/<number>.#epoch.<epoch>`: the name the segment store knows a segment by. */
export function qualifiedSegmentName(segment: SegmentRef): string {
  return `${segment.scope}/${segment.stream}/${segmentNumberOf(segment.segmentId)}.#epoch.${epochOf(segment.segmentId)}`;
}

/** Parses a qualified segment name back into its parts; rejects transaction and internal names. */
export function parseQualifiedSegmentName(name: string): SegmentRef {
  const m = /^([^/]+)\/([^/]+)\/(\d+)\.#epoch\.(\d+)$/.exec(name);
  if (m === null) throw new ValidationError(`'${name}' is not a qualified Pravega segment name (scope/stream/N.#epoch.E)`);
  return { scope: m[1]!, stream: m[2]!, segmentId: computeSegmentId(Number(m[3]), Number(m[4])) };
}

/** A transaction id as the controller carries it: the UUID's most and least significant 64 bits. */
export interface TxnId {
  readonly highBits: bigint;
  readonly lowBits: bigint;
}

function hex16(v: bigint): string {
  return BigInt.asUintN(64, v).toString(16).padStart(16, '0');
}

/** The segment a transaction writes for `parent`: `<parent>#transaction.<msb hex16><lsb hex16>`. */
export function transactionSegmentName(parent: SegmentRef, txn: TxnId): string {
  return `${qualifiedSegmentName(parent)}#transaction.${hex16(txn.highBits)}${hex16(txn.lowBits)}`;
}

/** The canonical UUID text of a transaction id (8-4-4-4-12 lowercase hex). */
export function txnIdToString(txn: TxnId): string {
  const h = hex16(txn.highBits) + hex16(txn.lowBits);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
