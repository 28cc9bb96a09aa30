import { createRequire, Module } from 'node:module';
import type * as KafkaJs from 'kafkajs';

const require = createRequire(import.meta.url);

/**
 * kafkajs, loaded on first use. Every value Sluice takes from kafkajs comes through here (types are imported
 * directly), so that one internal module of its producer is replaced before kafkajs loads it.
 *
 * kafkajs 2.2.4, frozen since 2023, groups a send's messages by partition by copying the partition's list
 * for every message (`[...current, message]`): quadratic in the messages of one send. A sink writes a whole
 * batch in one send, so for 1,024 rows that is half a million copied elements. It took a fifth of the CPU of a
 * CSV file -> Kafka job (tulios/kafkajs#1576 proposes the linear version; it was never released). The grouping
 * below gives the same object: each partition's messages, in the order sent.
 */
let loaded: typeof KafkaJs | undefined;

export function kafkajs(): typeof KafkaJs {
  if (loaded === undefined) {
    installLinearGrouping();
    loaded = require('kafkajs') as typeof KafkaJs;
  }
  return loaded;
}

/** The module kafkajs's producer requires to group messages; kept as kafkajs's own if it is already loaded. */
const GROUPING_MODULE = 'kafkajs/src/producer/groupMessagesPerPartition.js';

function installLinearGrouping(): void {
  let path: string;
  try {
    path = require.resolve(GROUPING_MODULE);
  } catch {
    // Not kafkajs 2.2.x: loadInternals() says so when the connector needs its internals.
    return;
  }
  if (require.cache[path] !== undefined) return;
  const m = new Module(path);
  m.filename = path;
  m.exports = groupMessagesPerPartition;
  m.loaded = true;
  require.cache[path] = m;
}

interface GroupingArgs<M> {
  readonly topic: string;
  readonly partitionMetadata: readonly unknown[];
  readonly messages: readonly M[];
  readonly partitioner: (args: { topic: string; partitionMetadata: readonly unknown[]; message: M }) => number;
}

/** kafkajs's `groupMessagesPerPartition`, in linear time: partition -> its messages, in order. */
export function groupMessagesPerPartition<M>({ topic, partitionMetadata, messages, partitioner }: GroupingArgs<M>): Record<number, M[]> {
  const result: Record<number, M[]> = {};
  if (partitionMetadata.length === 0) return result;
  for (const message of messages) {
    const partition = partitioner({ topic, partitionMetadata, message });
    const list = result[partition];
    if (list === undefined) result[partition] = [message];
    else list.push(message);
  }
  return result;
}
