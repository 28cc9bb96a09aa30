/**
 * Turns `scan.startup.mode` / `scan.bounded.mode` into concrete offsets per partition, as Flink's
 * OffsetsInitializers do. The enumerator calls these once per newly discovered batch of partitions;
 * each awaits a few admin round trips per topic, so never call them per record.
 */
import type { Admin } from 'kafkajs';
import { ConnectorError } from '../../../errors/index.js';
import type { OffsetResetStrategy } from './kafka-properties.js';
import { splitId, type KafkaPartitionSplit, type TopicPartition } from './kafka-split.js';

export type StartingOffsets =
  | { readonly kind: 'earliest-offset' }
  | { readonly kind: 'latest-offset' }
  /** Committed offsets of `groupId`; partitions without one follow `reset` ('none' fails). */
  | { readonly kind: 'group-offsets'; readonly groupId: string; readonly reset: OffsetResetStrategy }
  /** First offset whose record timestamp is >= timestampMs; the end of the partition if none. */
  | { readonly kind: 'timestamp'; readonly timestampMs: number }
  /**
   * Offsets by split id (`topic-partition`). A partition not listed starts at the committed offset
   * of `groupId` when there is one, else at the earliest offset (Flink's SpecifiedOffsetsInitializer).
   */
  | { readonly kind: 'specific-offsets'; readonly offsets: ReadonlyMap<string, bigint>; readonly groupId?: string };

export type StoppingOffsets =
  | { readonly kind: 'unbounded' }
  | { readonly kind: 'latest-offset' }
  | { readonly kind: 'group-offsets'; readonly groupId: string }
  | { readonly kind: 'timestamp'; readonly timestampMs: number }
  /** A partition not listed is not read (its stopping offset equals its starting offset). */
  | { readonly kind: 'specific-offsets'; readonly offsets: ReadonlyMap<string, bigint> };

/**
 * Parses Flink's `partition:0,offset:42;partition:1,offset:300` for one topic into split-id keyed offsets.
 * @param optionKey the option name used in the error message (startup or bounded).
 */
export function parseSpecificOffsets(topic: string, text: string, optionKey: string): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const entry of text.split(';')) {
    if (entry.trim() === '') continue;
    const m = /^\s*partition\s*:\s*(\d+)\s*,\s*offset\s*:\s*(\d+)\s*$/.exec(entry);
    if (!m) {
      throw new ConnectorError(
        `Invalid properties '${optionKey}' should follow the format 'partition:0,offset:42;partition:1,offset:300', but is '${text}'.`,
      );
    }
    out.set(splitId({ topic, partition: Number(m[1]) }), BigInt(m[2] as string));
  }
  return out;
}

function groupByTopic(partitions: readonly TopicPartition[]): Map<string, number[]> {
  const m = new Map<string, number[]>();
  for (const tp of partitions) {
    const list = m.get(tp.topic);
    if (list) list.push(tp.partition);
    else m.set(tp.topic, [tp.partition]);
  }
  return m;
}

type Offsets = Map<string, bigint>;

async function listOffsets(admin: Admin, partitions: readonly TopicPartition[], which: 'low' | 'high'): Promise<Offsets> {
  const out: Offsets = new Map();
  for (const topic of groupByTopic(partitions).keys()) {
    for (const p of await admin.fetchTopicOffsets(topic)) {
      out.set(splitId({ topic, partition: p.partition }), BigInt(which === 'low' ? p.low : p.high));
    }
  }
  return out;
}

async function offsetsForTime(admin: Admin, partitions: readonly TopicPartition[], ts: number): Promise<Offsets> {
  const out: Offsets = new Map();
  for (const topic of groupByTopic(partitions).keys()) {
    // kafkajs already substitutes the end offset where no record is that recent.
    for (const p of await admin.fetchTopicOffsetsByTimestamp(topic, ts)) {
      out.set(splitId({ topic, partition: p.partition }), BigInt(p.offset));
    }
  }
  return out;
}

/** Committed offsets of a group; partitions without a commit are absent from the map. */
async function committedOffsets(admin: Admin, groupId: string, partitions: readonly TopicPartition[]): Promise<Offsets> {
  const out: Offsets = new Map();
  const topics = [...groupByTopic(partitions).keys()];
  for (const t of await admin.fetchOffsets({ groupId, topics })) {
    for (const p of t.partitions) {
      const o = BigInt(p.offset);
      if (o >= 0n) out.set(splitId({ topic: t.topic, partition: p.partition }), o);
    }
  }
  return out;
}

function pick(offsets: Offsets, tp: TopicPartition, what: string): bigint {
  const o = offsets.get(splitId(tp));
  if (o === undefined) throw new ConnectorError(`Kafka returned no ${what} for partition ${splitId(tp)}.`);
  return o;
}

/** `fetched`'s offset for each of `partitions`, in their order; `what` names it when Kafka left one out. */
function pickAll(partitions: readonly TopicPartition[], fetched: Offsets, what: string): Offsets {
  const out: Offsets = new Map();
  for (const tp of partitions) out.set(splitId(tp), pick(fetched, tp, what));
  return out;
}

/**
 * Committed offsets of `groupId`; the partitions without a commit take the earliest ('low') or
 * latest ('high') offset, as `resetTo` decides for them (it may throw instead). Flink's
 * committedOffsets(OffsetResetStrategy) initializer, used for both ends of a scan.
 */
async function committedOrReset(
  admin: Admin,
  groupId: string,
  partitions: readonly TopicPartition[],
  resetTo: (missing: readonly TopicPartition[]) => 'low' | 'high',
  what: string,
): Promise<Offsets> {
  const committed = await committedOffsets(admin, groupId, partitions);
  const missing = partitions.filter((tp) => !committed.has(splitId(tp)));
  const reset = missing.length > 0 ? await listOffsets(admin, missing, resetTo(missing)) : new Map<string, bigint>();
  const out: Offsets = new Map();
  for (const tp of partitions) out.set(splitId(tp), committed.get(splitId(tp)) ?? pick(reset, tp, what));
  return out;
}

export async function resolveStartingOffsets(
  admin: Admin,
  partitions: readonly TopicPartition[],
  spec: StartingOffsets,
): Promise<Map<string, bigint>> {
  if (partitions.length === 0) return new Map();
  switch (spec.kind) {
    case 'earliest-offset':
    case 'latest-offset': {
      const o = await listOffsets(admin, partitions, spec.kind === 'earliest-offset' ? 'low' : 'high');
      return pickAll(partitions, o, 'offset');
    }
    case 'timestamp':
      return pickAll(partitions, await offsetsForTime(admin, partitions, spec.timestampMs), 'offset for the timestamp');
    case 'group-offsets':
      return committedOrReset(
        admin,
        spec.groupId,
        partitions,
        (missing) => {
          if (spec.reset === 'none') {
            throw new ConnectorError(
              `Consumer group '${spec.groupId}' has no committed offset for ${missing.map(splitId).join(', ')}; ` +
                "set 'properties.auto.offset.reset' to earliest or latest, or choose another 'scan.startup.mode'.",
            );
          }
          return spec.reset === 'earliest' ? 'low' : 'high';
        },
        'offset',
      );
    case 'specific-offsets': {
      const missing = partitions.filter((tp) => !spec.offsets.has(splitId(tp)));
      const committed = missing.length > 0 && spec.groupId ? await committedOffsets(admin, spec.groupId, missing) : new Map<string, bigint>();
      const stillMissing = missing.filter((tp) => !committed.has(splitId(tp)));
      const earliest = stillMissing.length > 0 ? await listOffsets(admin, stillMissing, 'low') : new Map<string, bigint>();
      const out: Offsets = new Map();
      for (const tp of partitions) {
        const id = splitId(tp);
        out.set(id, spec.offsets.get(id) ?? committed.get(id) ?? pick(earliest, tp, 'offset'));
      }
      return out;
    }
    default: {
      const never: never = spec;
      return never;
    }
  }
}

/** `undefined` values mean unbounded. */
export async function resolveStoppingOffsets(
  admin: Admin,
  partitions: readonly TopicPartition[],
  spec: StoppingOffsets,
  starting: ReadonlyMap<string, bigint>,
): Promise<Map<string, bigint | undefined>> {
  const out = new Map<string, bigint | undefined>();
  if (partitions.length === 0) return out;
  switch (spec.kind) {
    case 'unbounded':
      for (const tp of partitions) out.set(splitId(tp), undefined);
      return out;
    case 'latest-offset':
      return pickAll(partitions, await listOffsets(admin, partitions, 'high'), 'end offset');
    case 'timestamp':
      return pickAll(partitions, await offsetsForTime(admin, partitions, spec.timestampMs), 'offset for the timestamp');
    case 'group-offsets':
      return committedOrReset(admin, spec.groupId, partitions, () => 'high', 'end offset');
    case 'specific-offsets':
      for (const tp of partitions) {
        const id = splitId(tp);
        out.set(id, spec.offsets.get(id) ?? starting.get(id) ?? 0n);
      }
      return out;
    default: {
      const never: never = spec;
      return never;
    }
  }
}

/** Resolves both ends and builds the splits the enumerator assigns. */
export async function resolveSplits(
  admin: Admin,
  partitions: readonly TopicPartition[],
  start: StartingOffsets,
  stop: StoppingOffsets,
): Promise<KafkaPartitionSplit[]> {
  const starting = await resolveStartingOffsets(admin, partitions, start);
  const stopping = await resolveStoppingOffsets(admin, partitions, stop, starting);
  return partitions.map((tp) => {
    const id = splitId(tp);
    const s = starting.get(id) as bigint;
    const e = stopping.get(id);
    return e === undefined
      ? { topic: tp.topic, partition: tp.partition, startingOffset: s }
      : { topic: tp.topic, partition: tp.partition, startingOffset: s, stoppingOffset: e };
  });
}
