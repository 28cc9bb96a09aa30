/**
 * Discovers the subscribed partitions, resolves their start/stop offsets and assigns them to readers
 * (Flink's KafkaSourceEnumerator). Push model: a partition's owner is fixed by a hash, so a reader
 * always gets the same partitions across restarts and discoveries, and no split request is needed.
 *
 * Discovery runs once at start and, for an unbounded source with a positive interval, periodically
 * (`scan.topic-partition-discovery.interval`); a bounded source discovers once and then tells every
 * reader that no more splits come, so the job can end.
 */
import type { Admin } from 'kafkajs';
import { kafkajs } from './client/kafkajs-module.js';
import type { SplitEnumerator, SplitEnumeratorContext } from '../../runtime/source/split-enumerator.js';
import type { KafkaClientSettings } from './client/kafka-properties.js';
import { resolveSplits, type StartingOffsets, type StoppingOffsets } from './client/offsets-resolver.js';
import { discoverPartitions, type TopicSubscription } from './client/partition-discovery.js';
import { splitId, type TopicPartition } from './client/kafka-split.js';
import { toSourceSplit, type KafkaEnumeratorState, type KafkaSourceSplit } from './kafka-source-split.js';

export interface KafkaEnumeratorSettings {
  readonly client: KafkaClientSettings;
  readonly subscription: TopicSubscription;
  readonly starting: StartingOffsets;
  readonly stopping: StoppingOffsets;
  /** 0 or less: discover once. Ignored (discover once) for a bounded source. */
  readonly discoveryIntervalMs: number;
  readonly bounded: boolean;
}

/** Java's `String.hashCode`, so the owner of a partition matches Flink's. */
function javaHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}

/** Flink's KafkaSourceEnumerator.getSplitOwner: partitions of a topic round-robin from a topic-hashed start. */
export function splitOwner(tp: TopicPartition, numReaders: number): number {
  const start = ((Math.imul(javaHash(tp.topic), 31) & 0x7fffffff) % numReaders);
  return (start + tp.partition) % numReaders;
}

export class KafkaSourceEnumerator implements SplitEnumerator<KafkaSourceSplit, KafkaEnumeratorState> {
  private readonly assigned: Set<string>;
  /** Resolved splits waiting for their owner to register, by owner. */
  private readonly pending = new Map<number, KafkaSourceSplit[]>();
  private initialDiscoveryFinished: boolean;
  private admin: Admin | undefined;
  private noMoreSplitsSent = new Set<number>();
  private closed = false;

  constructor(
    private readonly ctx: SplitEnumeratorContext<KafkaSourceSplit>,
    private readonly settings: KafkaEnumeratorSettings,
    restored?: KafkaEnumeratorState,
  ) {
    this.assigned = new Set(restored?.assignedPartitions ?? []);
    this.initialDiscoveryFinished = restored?.initialDiscoveryFinished ?? false;
    for (const s of restored?.unassigned ?? []) this.addPending(s);
  }

  private get periodic(): boolean {
    return !this.settings.bounded && this.settings.discoveryIntervalMs > 0;
  }

  start(): void {
    this.admin = new (kafkajs().Kafka)(this.settings.client.client).admin();
    const known = this.assigned;
    const discover = async (): Promise<KafkaSourceSplit[]> => {
      const admin = this.admin as Admin;
      await admin.connect(); // idempotent in kafkajs
      const partitions = await discoverPartitions(admin, this.settings.subscription);
      const fresh = partitions.filter((tp) => !known.has(splitId(tp)));
      if (fresh.length === 0) return [];
      // Partitions appearing after the first discovery start at the earliest offset (Flink's behaviour):
      // they were created after the job started, so all of their records are new.
      const start: StartingOffsets = this.initialDiscoveryFinished ? { kind: 'earliest-offset' } : this.settings.starting;
      return (await resolveSplits(admin, fresh, start, this.settings.stopping)).map(toSourceSplit);
    };
    const handle = (splits: KafkaSourceSplit[] | undefined, error: unknown): void => {
      if (this.closed) return;
      if (error !== undefined) throw error;
      for (const s of splits ?? []) {
        if (this.assigned.has(s.splitId)) continue;
        this.assigned.add(s.splitId);
        this.addPending(s);
      }
      this.initialDiscoveryFinished = true;
      this.assignPending();
    };
    if (this.periodic) this.ctx.callAsync(discover, handle, 0, this.settings.discoveryIntervalMs);
    else this.ctx.callAsync(discover, handle, 0);
  }

  private addPending(s: KafkaSourceSplit): void {
    const owner = splitOwner(s, this.ctx.currentParallelism());
    const list = this.pending.get(owner);
    if (list) list.push(s);
    else this.pending.set(owner, [s]);
  }

  private assignPending(): void {
    const registered = this.ctx.registeredReaders();
    const assignment = new Map<number, KafkaSourceSplit[]>();
    for (const [owner, splits] of this.pending) {
      if (!registered.has(owner) || splits.length === 0) continue;
      assignment.set(owner, splits);
    }
    for (const owner of assignment.keys()) this.pending.delete(owner);
    if (assignment.size > 0) this.ctx.assignSplits(assignment);
    if (!this.periodic && this.initialDiscoveryFinished) {
      for (const r of registered.keys()) {
        if (this.pending.has(r) || this.noMoreSplitsSent.has(r)) continue;
        this.noMoreSplitsSent.add(r);
        this.ctx.signalNoMoreSplits(r);
      }
    }
  }

  handleSplitRequest(_subtaskIndex: number): void {
    // Push model: splits go to their owner as soon as both exist.
  }

  addSplitsBack(splits: KafkaSourceSplit[], _subtaskIndex: number): void {
    for (const s of splits) this.addPending(s);
    this.noMoreSplitsSent.clear();
    this.assignPending();
  }

  addReader(_subtaskIndex: number): void {
    this.assignPending();
  }

  snapshotState(_checkpointId: number): KafkaEnumeratorState {
    return {
      assignedPartitions: [...this.assigned],
      unassigned: [...this.pending.values()].flat(),
      initialDiscoveryFinished: this.initialDiscoveryFinished,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.admin?.disconnect().catch(() => undefined);
  }
}
