/**
 * Commits a source's checkpointed positions to `properties.group.id`, for monitoring only (lag
 * dashboards): Sluice restores from its own checkpoints, never from these commits.
 *
 * Uses a "simple consumer" OffsetCommit (generation -1, no member id), which Kafka accepts for a
 * group without active members. kafkajs's admin.setOffsets instead starts a consumer and joins the
 * group, far too heavy for every checkpoint.
 */
import type { Kafka } from 'kafkajs';
import { ConnectorError } from '../../../errors/index.js';
import { COORDINATOR_TYPE, createCluster, withCoordinator, type InternalCluster } from './kafkajs-internals.js';

export class KafkaOffsetCommitter {
  private readonly cluster: InternalCluster;
  private connected = false;

  constructor(
    kafka: Kafka,
    private readonly groupId: string,
  ) {
    this.cluster = createCluster(kafka);
  }

  /**
   * Commits next-offsets (the offset of the next record to read) by topic and partition.
   * Called by the source reader on checkpoint completion; awaits one coordinator round trip.
   * A failure is a ConnectorError; callers may log it and go on, since nothing depends on it.
   */
  async commit(offsets: ReadonlyArray<{ topic: string; partition: number; offset: bigint }>): Promise<void> {
    if (offsets.length === 0) return;
    if (!this.connected) {
      await this.cluster.connect();
      this.connected = true;
    }
    const byTopic = new Map<string, { partition: number; offset: string }[]>();
    for (const o of offsets) {
      const list = byTopic.get(o.topic) ?? [];
      list.push({ partition: o.partition, offset: o.offset.toString() });
      byTopic.set(o.topic, list);
    }
    try {
      await withCoordinator(this.cluster, this.groupId, COORDINATOR_TYPE.GROUP, (coordinator) =>
        coordinator.offsetCommit({
        groupId: this.groupId,
        groupGenerationId: -1,
        memberId: '',
        topics: [...byTopic].map(([topic, partitions]) => ({ topic, partitions })),
        }),
      );
    } catch (cause) {
      throw new ConnectorError(`Committing offsets to consumer group '${this.groupId}' failed: ${String(cause)}`, { cause });
    }
  }

  /** Closes the committer's connections. Idempotent. */
  async close(): Promise<void> {
    if (this.connected) {
      this.connected = false;
      await this.cluster.disconnect();
    }
  }
}
