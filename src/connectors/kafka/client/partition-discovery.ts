/**
 * Which topic partitions a source reads: a fixed topic list (`topic`) or a regex over topic names
 * (`topic-pattern`). The enumerator calls `discoverPartitions` at start and then every
 * `scan.topic-partition-discovery.interval`; it diffs the result against what it already assigned.
 */
import type { Admin } from 'kafkajs';
import { ConnectorError } from '../../../errors/index.js';
import type { TopicPartition } from './kafka-split.js';

export type TopicSubscription =
  | { readonly kind: 'topics'; readonly topics: readonly string[] }
  /** Matched against the whole topic name, as Java's `Pattern.matcher(name).matches()`. */
  | { readonly kind: 'pattern'; readonly pattern: RegExp };

/** Kafka's internal topics, which a pattern never matches (Java's `exclude.internal.topics=true`). */
const INTERNAL_TOPICS: ReadonlySet<string> = new Set(['__consumer_offsets', '__transaction_state']);

export function matchesWhole(pattern: RegExp, name: string): boolean {
  const whole = new RegExp(`^(?:${pattern.source})$`, pattern.flags.replace(/[gy]/g, ''));
  return whole.test(name);
}

/**
 * Lists the partitions of the subscribed topics, sorted by topic then partition.
 * Awaits 1-2 admin round trips; call from the enumerator, never from a hot path.
 * A listed topic that does not exist is a ConnectorError (Flink fails the same way); a pattern that
 * matches nothing yields an empty list (topics may appear later and discovery will find them).
 */
export async function discoverPartitions(admin: Admin, subscription: TopicSubscription): Promise<TopicPartition[]> {
  const existing = await admin.listTopics();
  let topics: string[];
  switch (subscription.kind) {
    case 'topics': {
      const have = new Set(existing);
      const missing = subscription.topics.filter((t) => !have.has(t));
      if (missing.length > 0) {
        throw new ConnectorError(`Kafka topic(s) ${missing.map((t) => `'${t}'`).join(', ')} do not exist.`);
      }
      topics = [...new Set(subscription.topics)];
      break;
    }
    case 'pattern':
      topics = existing.filter((t) => !INTERNAL_TOPICS.has(t) && matchesWhole(subscription.pattern, t));
      break;
    default: {
      const never: never = subscription;
      return never;
    }
  }
  if (topics.length === 0) return [];
  const { topics: metadata } = await admin.fetchTopicMetadata({ topics });
  const result: TopicPartition[] = [];
  for (const t of metadata) {
    for (const p of t.partitions) result.push({ topic: t.name, partition: p.partitionId });
  }
  result.sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition));
  return result;
}
