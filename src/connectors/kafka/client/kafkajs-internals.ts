/**
 * The one place where Sluice reaches past kafkajs's public API. Everything here is typed narrowly
 * (only the members we call) and pinned to kafkajs 2.2.x, whose source has been frozen since 2023.
 *
 * Why internals at all:
 * - kafkajs has no manual partition assignment (tulios/kafkajs#373): its consumer always joins a group
 *   and rebalances. A FLIP-27 split reader must read exactly the splits it was given, so the reader
 *   talks to partition leaders with Fetch requests through kafkajs's own `Cluster`/`Broker` objects
 *   (connection pooling, SASL/SSL, metadata and protocol codecs stay kafkajs's).
 * - kafkajs hides the producer id and epoch of a transaction, and cannot resume a transaction opened by
 *   another process. An exactly-once sink must commit, after a crash, the transaction that a completed
 *   checkpoint pre-committed; that needs (transactionalId, producerId, epoch) and an EndTxn request,
 *   as Flink's `FlinkKafkaInternalProducer.resumeTransaction` does through reflection.
 *
 * If a kafkajs upgrade breaks a lookup here, `loadInternals()` fails loudly with a ConnectorError.
 */
import { createRequire } from 'node:module';
import type { Kafka, Logger } from 'kafkajs';
import { ConnectorError } from '../../../errors/index.js';
import { kafkajs } from './kafkajs-module.js';

const require = createRequire(import.meta.url);

/** A decoded record as kafkajs's Fetch decoder returns it. Offsets and timestamps are decimal strings. */
export interface RawKafkaMessage {
  readonly offset: string;
  readonly timestamp: string;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly headers?: Record<string, Buffer | string | (Buffer | string)[] | undefined>;
  readonly isControlRecord?: boolean;
}

export interface FetchPartitionRequest {
  readonly partition: number;
  readonly fetchOffset: string;
  readonly maxBytes: number;
}

export interface FetchResponsePartition {
  readonly partition: number;
  readonly highWatermark: string;
  readonly lastStableOffset?: string;
  readonly messages: RawKafkaMessage[];
  readonly abortedTransactions?: { producerId: string; firstOffset: string }[];
}

export interface InternalBroker {
  fetch(request: {
    isolationLevel: number;
    maxWaitTime: number;
    minBytes: number;
    maxBytes: number;
    topics: { topic: string; partitions: FetchPartitionRequest[] }[];
  }): Promise<{ responses: { topicName: string; partitions: FetchResponsePartition[] }[] }>;
  initProducerId(request: {
    transactionalId: string;
    transactionTimeout: number;
  }): Promise<{ producerId: number; producerEpoch: number }>;
  offsetCommit(request: {
    groupId: string;
    groupGenerationId: number;
    memberId: string;
    topics: { topic: string; partitions: { partition: number; offset: string }[] }[];
  }): Promise<unknown>;
  endTxn(request: {
    transactionalId: string;
    producerId: number;
    producerEpoch: number;
    transactionResult: boolean;
  }): Promise<unknown>;
}

export interface InternalCluster {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  refreshMetadata(): Promise<void>;
  addMultipleTargetTopics(topics: string[]): Promise<void>;
  /** Leader node id to partitions; partitions unknown to the metadata are left out. */
  findLeaderForPartitions(topic: string, partitions: number[]): Record<string, number[]>;
  findBroker(args: { nodeId: string }): Promise<InternalBroker>;
  findGroupCoordinator(args: { groupId: string; coordinatorType: number }): Promise<InternalBroker>;
  removeBroker(args: { host: string; port: number }): void;
  readonly retry: unknown;
}

/** kafkajs's `Batch`: filters records below the fetch offset, aborted transactions and control records. */
export interface InternalBatch {
  readonly messages: RawKafkaMessage[];
  /** Everything at or above the fetch offset, control records included (needed to advance past markers). */
  readonly messagesWithinOffset: RawKafkaMessage[];
}

export interface InternalEosManager {
  initProducerId(): Promise<void>;
  beginTransaction(): void;
  commit(): Promise<void>;
  abort(): Promise<void>;
  getProducerId(): number;
  getProducerEpoch(): number;
  isInTransaction(): boolean;
}

export interface InternalMessageProducer {
  sendBatch(args: {
    acks: number;
    timeout?: number;
    compression?: number;
    topicMessages: {
      topic: string;
      messages: {
        key?: Buffer | null;
        value: Buffer | null;
        partition?: number;
        headers?: Record<string, Buffer>;
        timestamp?: string;
      }[];
    }[];
  }): Promise<unknown>;
}

export const ISOLATION_LEVEL = { READ_UNCOMMITTED: 0, READ_COMMITTED: 1 } as const;
export const COORDINATOR_TYPE = { GROUP: 0, TRANSACTION: 1 } as const;

interface Internals {
  readonly Batch: new (topic: string, fetchedOffset: string, partitionData: FetchResponsePartition) => InternalBatch;
  readonly createEosManager: (args: {
    logger: Logger;
    cluster: InternalCluster;
    transactionTimeout: number;
    transactional: boolean;
    transactionalId: string;
  }) => InternalEosManager;
  readonly createMessageProducer: (args: {
    logger: Logger;
    cluster: InternalCluster;
    partitioner: (args: unknown) => number;
    eosManager: InternalEosManager;
    idempotent: boolean;
    retrier: unknown;
    getConnectionStatus: () => string;
  }) => InternalMessageProducer;
  readonly createRetry: (options: unknown) => unknown;
  readonly CONNECTION_STATUS: { CONNECTED: string };
}

let cached: Internals | undefined;

export function loadInternals(): Internals {
  if (cached) return cached;
  // kafkajs first, so its producer's modules load with the linear grouping (kafkajs-module.ts).
  kafkajs();
  try {
    cached = {
      Batch: require('kafkajs/src/consumer/batch.js'),
      createEosManager: require('kafkajs/src/producer/eosManager/index.js'),
      createMessageProducer: require('kafkajs/src/producer/messageProducer.js'),
      createRetry: require('kafkajs/src/retry/index.js'),
      CONNECTION_STATUS: require('kafkajs/src/network/connectionStatus.js').CONNECTION_STATUS,
    };
  } catch (cause) {
    throw new ConnectorError(
      'The Kafka connector needs kafkajs 2.2.x internals (consumer/batch, producer/eosManager) that this kafkajs does not have; install kafkajs 2.2.4.',
      { cause },
    );
  }
  return cached;
}

/**
 * Builds a kafkajs `Cluster` with the client's own settings (brokers, SSL, SASL, timeouts), through the
 * factory kafkajs keeps behind a private symbol. Each call returns an independent cluster (own sockets).
 */
export function createCluster(
  kafka: Kafka,
  options: { isolationLevel?: number; allowAutoTopicCreation?: boolean; metadataMaxAgeMs?: number } = {},
): InternalCluster {
  const symbol = Object.getOwnPropertySymbols(kafka).find((s) => s.description === 'private:Kafka:createCluster');
  const factory = symbol ? (kafka as unknown as Record<symbol, unknown>)[symbol] : undefined;
  if (typeof factory !== 'function') {
    throw new ConnectorError('kafkajs no longer exposes its cluster factory; the Kafka connector needs kafkajs 2.2.x.');
  }
  return (factory as (args: object) => InternalCluster)({
    // kafkajs refreshes metadata older than this before a send, which is how a writer learns of new partitions.
    metadataMaxAge: options.metadataMaxAgeMs ?? 300_000,
    allowAutoTopicCreation: options.allowAutoTopicCreation ?? false,
    isolationLevel: options.isolationLevel ?? ISOLATION_LEVEL.READ_COMMITTED,
  });
}

/** kafkajs errors carry the Kafka error name in `type` (e.g. 'PRODUCER_FENCED'). */
export function kafkaErrorType(e: unknown): string | undefined {
  if (typeof e === 'object' && e !== null && 'type' in e && typeof (e as { type: unknown }).type === 'string') {
    return (e as { type: string }).type;
  }
  return undefined;
}

export function errorName(e: unknown): string | undefined {
  return e instanceof Error ? e.name : undefined;
}

/**
 * Coordinator errors worth waiting out. kafkajs names them after the old protocol (codes 14-16 are
 * GROUP_LOAD_IN_PROGRESS, GROUP_COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR_FOR_GROUP); the Java client's
 * names are kept too in case a kafkajs release renames them.
 */
const COORDINATOR_RETRIABLE = new Set([
  'CONCURRENT_TRANSACTIONS',
  'GROUP_LOAD_IN_PROGRESS',
  'GROUP_COORDINATOR_NOT_AVAILABLE',
  'NOT_COORDINATOR_FOR_GROUP',
  'COORDINATOR_LOAD_IN_PROGRESS',
  'COORDINATOR_NOT_AVAILABLE',
  'NOT_COORDINATOR',
]);
const NOT_COORDINATOR = new Set(['NOT_COORDINATOR_FOR_GROUP', 'NOT_COORDINATOR']);

/**
 * Runs a request against the group or transaction coordinator of `key`, retrying for up to 30 s
 * while the coordinator loads (first use of __consumer_offsets / __transaction_state), moves, or (transactions) still writes the
 * markers of a previous transaction of that id.
 */
export async function withCoordinator<T>(
  cluster: InternalCluster,
  key: string,
  coordinatorType: number,
  request: (coordinator: Awaited<ReturnType<InternalCluster['findGroupCoordinator']>>) => Promise<T>,
): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const coordinator = await cluster.findGroupCoordinator({ groupId: key, coordinatorType });
      return await request(coordinator);
    } catch (e) {
      const type = kafkaErrorType(e);
      if (type !== undefined && COORDINATOR_RETRIABLE.has(type) && Date.now() < deadline) {
        if (NOT_COORDINATOR.has(type)) await cluster.refreshMetadata().catch(() => undefined);
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      throw e;
    }
  }
}

