import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as protoLoader from '@grpc/proto-loader';
import { ConnectorError } from '../../../errors/sluice-error.js';
import type { SegmentWithRange, StreamConfiguration } from './controller-client.js';
import type { SegmentRef, TxnId } from './segment-names.js';

/* The controller's protobuf messages as proto-loader builds and returns them, and the proto file itself. */

// Messages as proto-loader hands them over with { longs: String, enums: String, defaults: true }.
export interface PStreamInfo { scope: string; stream: string }
export interface PSegmentId { streamInfo: PStreamInfo; segmentId: string }
export interface PSegmentRange { segmentId: PSegmentId; minKey: number; maxKey: number }
export interface PTxnId { highBits: string; lowBits: string }

let packageDefinition: protoLoader.PackageDefinition | undefined;

export function protoPath(): string {
  // Next to this module when run from src/ (vitest, tsx); tsc does not copy .proto files into dist/, so fall back to
  // the source tree from there.
  const here = fileURLToPath(new URL('./controller.proto', import.meta.url));
  if (existsSync(here)) return here;
  const fromDist = fileURLToPath(new URL('../../../../src/connectors/pravega/client/controller.proto', import.meta.url));
  if (existsSync(fromDist)) return fromDist;
  throw new ConnectorError(`controller.proto not found next to ${here}; copy src/connectors/pravega/client/controller.proto there`);
}

export function loadDefinition(): protoLoader.PackageDefinition {
  packageDefinition ??= protoLoader.loadSync(protoPath(), { longs: String, enums: String, defaults: true, keepCase: true });
  return packageDefinition;
}

export function toSegmentRange(r: PSegmentRange): SegmentWithRange {
  return {
    segment: { scope: r.segmentId.streamInfo.scope, stream: r.segmentId.streamInfo.stream, segmentId: Number(r.segmentId.segmentId) },
    minKey: r.minKey,
    maxKey: r.maxKey,
  };
}

export function segmentIdMsg(s: SegmentRef): object {
  return { streamInfo: { scope: s.scope, stream: s.stream }, segmentId: String(s.segmentId) };
}

export function txnIdMsg(t: TxnId): object {
  return { highBits: BigInt.asIntN(64, t.highBits).toString(), lowBits: BigInt.asIntN(64, t.lowBits).toString() };
}

export function cutMsg(cut: ReadonlyMap<number, number>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [seg, off] of cut) out[String(seg)] = String(off);
  return out;
}

export function streamConfigMsg(scope: string, stream: string, config: StreamConfiguration): object {
  const s = config.scaling;
  let scalingPolicy: object;
  switch (s.kind) {
    case 'fixed':
      scalingPolicy = { scaleType: 'FIXED_NUM_SEGMENTS', targetRate: 0, scaleFactor: 0, minNumSegments: s.segments };
      break;
    case 'byEventRate':
      scalingPolicy = { scaleType: 'BY_RATE_IN_EVENTS_PER_SEC', targetRate: s.targetEventsPerSec, scaleFactor: s.scaleFactor, minNumSegments: s.minSegments };
      break;
    case 'byDataRate':
      scalingPolicy = { scaleType: 'BY_RATE_IN_KBYTES_PER_SEC', targetRate: s.targetKiloBytesPerSec, scaleFactor: s.scaleFactor, minNumSegments: s.minSegments };
      break;
    default: {
      const never: never = s;
      throw new ConnectorError(`unknown scaling policy ${JSON.stringify(never)}`);
    }
  }
  const ret = config.retention;
  const retentionPolicy =
    ret === undefined
      ? undefined
      : ret.kind === 'time'
        ? { retentionType: 'TIME', retentionParam: String(ret.retentionMs), retentionMax: '9223372036854775807' }
        : { retentionType: 'SIZE', retentionParam: String(ret.retentionBytes), retentionMax: '9223372036854775807' };
  return { streamInfo: { scope, stream }, scalingPolicy, ...(retentionPolicy === undefined ? {} : { retentionPolicy }) };
}
