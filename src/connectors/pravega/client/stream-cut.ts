import { gunzipSync, gzipSync } from 'node:zlib';
import { ValidationError } from '../../../errors/sluice-error.js';
import type { ControllerClient } from './controller-client.js';
import { getSegmentInfo } from './segment-reader.js';
import { computeSegmentId, epochOf, segmentNumberOf } from './segment-names.js';
import type { SegmentStoreConnectionPool } from './segment-store-connection.js';

/** A consistent position in a stream: an offset per segment covering the whole key space. */
export interface StreamCut {
  readonly kind: 'cut';
  readonly scope: string;
  readonly stream: string;
  /** segment id -> offset (on an event boundary); -1 marks a segment that is fully read. */
  readonly positions: ReadonlyMap<number, number>;
}

/** The open end: the head for a start cut, "no end" for an end cut (Java's `StreamCut.UNBOUNDED`). */
export interface UnboundedStreamCut {
  readonly kind: 'unbounded';
}

export type StreamCutSpec = StreamCut | UnboundedStreamCut;

export const UNBOUNDED: UnboundedStreamCut = Object.freeze({ kind: 'unbounded' });

const UNBOUNDED_TEXT = 'UNBOUNDED';

/**
 * The text form of Java's `StreamCut.asText()`, which the Flink connector's `scan.start-streamcuts` /
 * `scan.end-streamcuts` options carry: base64 of gzip of `0:<scope>/<stream>:<segment numbers>:<epochs>:<offsets>`
 * (comma-separated lists, one entry per segment). Unbounded is the literal `UNBOUNDED`.
 */
export function streamCutToText(cut: StreamCutSpec): string {
  if (cut.kind === 'unbounded') return UNBOUNDED_TEXT;
  const numbers: number[] = [];
  const epochs: number[] = [];
  const offsets: number[] = [];
  for (const [id, off] of cut.positions) {
    numbers.push(segmentNumberOf(id));
    epochs.push(epochOf(id));
    offsets.push(off);
  }
  const text = `0:${cut.scope}/${cut.stream}:${numbers.join(',')}:${epochs.join(',')}:${offsets.join(',')}`;
  return gzipSync(Buffer.from(text, 'utf8')).toString('base64');
}

/** Parses `streamCutToText` output (or a Java client's `asText()`); throws ValidationError naming the problem. */
export function streamCutFromText(text: string): StreamCutSpec {
  const trimmed = text.trim();
  if (trimmed === UNBOUNDED_TEXT) return UNBOUNDED;
  let plain: string;
  try {
    plain = gunzipSync(Buffer.from(trimmed, 'base64')).toString('utf8');
  } catch (e) {
    throw new ValidationError(`'${text}' is not a Pravega stream cut (expected base64 from StreamCut.asText() or UNBOUNDED)`, { cause: e });
  }
  const parts = plain.split(':');
  if (parts.length !== 5 || parts[0] !== '0') throw new ValidationError(`'${text}' is not a version-0 Pravega stream cut ('${plain}')`);
  const scoped = parts[1]!;
  const slash = scoped.indexOf('/');
  if (slash <= 0) throw new ValidationError(`stream cut names stream '${scoped}', expected scope/stream`);
  const list = (s: string): number[] => (s === '' ? [] : s.split(',').map((x) => Number(x.trim())));
  const numbers = list(parts[2]!);
  const epochs = list(parts[3]!);
  const offsets = list(parts[4]!);
  if (numbers.length !== epochs.length || numbers.length !== offsets.length || [...numbers, ...epochs, ...offsets].some((n) => !Number.isSafeInteger(n))) {
    throw new ValidationError(`stream cut '${plain}' has malformed segment lists`);
  }
  const positions = new Map<number, number>();
  numbers.forEach((n, i) => positions.set(computeSegmentId(n, epochs[i]!), offsets[i]!));
  return { kind: 'cut', scope: scoped.slice(0, slash), stream: scoped.slice(slash + 1), positions };
}

/** The current head of a stream: the first readable offset of its oldest segments. */
export async function headStreamCut(controller: ControllerClient, scope: string, stream: string): Promise<StreamCut> {
  return { kind: 'cut', scope, stream, positions: await controller.getSegmentsAt(scope, stream, 0) };
}

/** The current tail of a stream: the write offset of every current segment. */
export async function tailStreamCut(controller: ControllerClient, pool: SegmentStoreConnectionPool, scope: string, stream: string): Promise<StreamCut> {
  const segments = await controller.getCurrentSegments(scope, stream);
  const infos = await Promise.all(segments.map((s) => getSegmentInfo(controller, pool, s.segment)));
  return { kind: 'cut', scope, stream, positions: new Map(segments.map((s, i) => [s.segment.segmentId, infos[i]!.writeOffset])) };
}
