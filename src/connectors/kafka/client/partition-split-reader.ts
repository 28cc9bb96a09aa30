/**
 * Reads exactly the Kafka splits it is given, by pull: the FLIP-27 `SplitReader` of the Kafka source.
 *
 * Design and trade-off. kafkajs's consumer cannot be told which partitions to read (kafkajs#373): it
 * always joins a consumer group and is pushed whatever the group assigns. Two ways around it:
 *  1. A consumer per reader with a unique group id and a custom `partitionAssigners` entry returning
 *     exactly our splits, then `seek`. Every added split forces a group rejoin (a full rebalance round
 *     trip through the group coordinator, seconds with the default timeouts), `seek` only works while
 *     `run` is active, the push `eachBatch` needs a buffer plus pause/resume to fake a pull, and each
 *     reader leaves a dead consumer group behind on the brokers.
 *  2. (chosen) Issue Fetch requests to the partition leaders ourselves through kafkajs's own Cluster and
 *     Broker objects (kafkajs-internals.ts): connection pools, SASL/SSL, metadata and the record decoder
 *     (including read_committed filtering of aborted transactions) stay kafkajs's. This is what Flink's
 *     reader does with `KafkaConsumer.assign`: no group, no rebalance; adding a split is a map insert;
 *     a fetch is one request per leader broker, and backpressure is simply not calling `fetch()` (no
 *     buffer, no pause/resume). The price is a dependency on kafkajs internals, pinned to 2.2.x
 *     (unmaintained since 2023, so they no longer move) and isolated in one file.
 */
import type { Admin, Kafka } from 'kafkajs';
import { ConnectorError } from '../../../errors/index.js';
import type { FetchSettings, IsolationLevel, OffsetResetStrategy } from './kafka-properties.js';
import { committedRecords } from './aborted-transactions.js';
import { resetOutOfRange } from './out-of-range-reset.js';
import { splitId, type KafkaPartitionSplit } from './kafka-split.js';
import {
  createCluster,
  errorName,
  ISOLATION_LEVEL,
  kafkaErrorType,
  type FetchPartitionRequest,
  type InternalCluster,
  type RawKafkaMessage,
} from './kafkajs-internals.js';

/** Records of one split from one fetch, in offset order. */
export interface KafkaSplitRecords {
  readonly splitId: string;
  readonly topic: string;
  readonly partition: number;
  /** Decoded records (offset and timestamp as decimal strings, key/value as Buffers or null). */
  readonly records: readonly RawKafkaMessage[];
  /** The offset to read next: the split's position after these records, what a checkpoint stores. */
  readonly nextOffset: bigint;
  /**
   * The partition's end (its high watermark, capped at the split's stopping offset) as the broker reported
   * it with these records; `end - nextOffset` is how far the split lags behind. Undefined before a fetch.
   */
  readonly endOffset?: bigint;
}

export interface KafkaFetchResult {
  readonly splits: readonly KafkaSplitRecords[];
  /** Splits that reached their stopping offset; they are no longer read. */
  readonly finishedSplits: readonly string[];
}

export interface PartitionSplitReaderOptions {
  readonly fetch: FetchSettings;
  readonly isolationLevel: IsolationLevel;
  /** What to do when a split's offset is no longer (or not yet) in the log. */
  readonly autoOffsetReset: OffsetResetStrategy;
  /**
   * How long every fetch may find the partitions unreadable (unknown topic, no leader, broker unreachable) before
   * `fetch` rejects (default 60 s): a deleted topic or a broker that stays away fails the job instead of idling.
   */
  readonly unavailableTimeoutMs?: number;
}

/** See `PartitionSplitReaderOptions.unavailableTimeoutMs`. */
export const DEFAULT_UNAVAILABLE_TIMEOUT_MS = 60_000;

interface SplitState {
  readonly topic: string;
  readonly partition: number;
  readonly id: string;
  next: bigint;
  readonly stop: bigint | undefined;
  /**
   * Records fetched but not yet handed out because `max.poll.records` was reached (Kafka's consumer
   * buffers them the same way). Served by the next `fetch()` without a request: dropping them would
   * make the broker send, and kafkajs decode, the same record batches again.
   */
  pending: RawKafkaMessage[] | undefined;
  /** Index in `pending` of the next record to hand out. */
  pendingFrom: number;
  /** The split's position once all of `pending` is handed out (past trailing control records). */
  pendingEnd: bigint;
  /** The partition's high watermark from the newest response, capped at `stop` (see `KafkaSplitRecords.endOffset`). */
  endOffset: bigint | undefined;
}

const EMPTY: KafkaFetchResult = { splits: [], finishedSplits: [] };

/** Errors after which fresh metadata (new leader, new partitions) lets the next fetch succeed. */
const STALE_METADATA = new Set([
  'NOT_LEADER_FOR_PARTITION',
  'NOT_LEADER_OR_FOLLOWER',
  'LEADER_NOT_AVAILABLE',
  'UNKNOWN_TOPIC_OR_PARTITION',
  'FENCED_LEADER_EPOCH',
  'UNKNOWN_LEADER_EPOCH',
  'KafkaJSBrokerNotFound',
  'KafkaJSConnectionClosedError',
  'KafkaJSConnectionError',
  'KafkaJSTopicMetadataNotLoaded',
]);

export class KafkaPartitionSplitReader {
  private readonly cluster: InternalCluster;
  private readonly splits = new Map<string, SplitState>();
  private readonly knownTopics = new Set<string>();
  private readonly pendingFinished: string[] = [];
  private admin: Admin | undefined;
  private connected = false;
  private closed = false;
  private wakeRequested = false;
  private wake: (() => void) | undefined;
  /** Bumped when a fetch is abandoned by wakeUp, so its late response cannot move any position. */
  private generation = 0;
  /** Since when no fetch could reach the partitions' leaders (undefined while fetches succeed). */
  private unavailableSince: number | undefined;

  constructor(
    private readonly kafka: Kafka,
    private readonly options: PartitionSplitReaderOptions,
  ) {
    this.cluster = createCluster(kafka, {
      isolationLevel: options.isolationLevel === 'read_committed' ? ISOLATION_LEVEL.READ_COMMITTED : ISOLATION_LEVEL.READ_UNCOMMITTED,
    });
  }

  /**
   * Adds splits to read from the next `fetch()` on. Synchronous and cheap; called by the fetcher thread
   * of the runtime between fetches (or concurrently: it also wakes a blocked fetch so the new splits
   * are picked up at once). A split whose start already reaches its stop is reported finished by the
   * next fetch without being read. Re-adding a split id replaces its position.
   */
  addSplits(splits: readonly KafkaPartitionSplit[]): void {
    for (const s of splits) {
      const id = splitId(s);
      if (s.stoppingOffset !== undefined && s.startingOffset >= s.stoppingOffset) {
        this.splits.delete(id);
        this.pendingFinished.push(id);
        continue;
      }
      this.splits.set(id, {
        topic: s.topic,
        partition: s.partition,
        id,
        next: s.startingOffset,
        stop: s.stoppingOffset,
        pending: undefined,
        pendingFrom: 0,
        endOffset: undefined,
        pendingEnd: s.startingOffset,
      });
    }
    this.wakeUp();
  }

  /** Stops reading the given splits (e.g. a rescale took them away). Their positions are forgotten. */
  removeSplits(ids: readonly string[]): void {
    for (const id of ids) this.splits.delete(id);
  }

  /** The current position of every unfinished split, for a checkpoint. */
  currentSplits(): KafkaPartitionSplit[] {
    return [...this.splits.values()].map((s) =>
      s.stop === undefined
        ? { topic: s.topic, partition: s.partition, startingOffset: s.next }
        : { topic: s.topic, partition: s.partition, startingOffset: s.next, stoppingOffset: s.stop },
    );
  }

  /**
   * Fetches the next records of the assigned splits: one Fetch request per leader broker, in parallel.
   * May wait up to `fetch.max.wait.ms` when no data is available (the broker's long poll), less after
   * `wakeUp()`, which makes it resolve with whatever it has (possibly nothing). Returns at most
   * `max.poll.records` records; records of a previous response beyond that are returned first, without
   * a request. Must not be called concurrently with itself.
   * Transient broker trouble (leader moved, connection lost) returns an empty result after refreshing
   * metadata; the caller simply calls again. Anything else rejects with a ConnectorError.
   */
  async fetch(): Promise<KafkaFetchResult> {
    if (this.closed) throw new ConnectorError('The Kafka split reader is closed.');
    const finishedBefore = this.pendingFinished.splice(0);
    if (this.wakeRequested) {
      this.wakeRequested = false;
      return finishedBefore.length > 0 ? { splits: [], finishedSplits: finishedBefore } : EMPTY;
    }
    if (this.splits.size === 0) {
      if (finishedBefore.length > 0) return { splits: [], finishedSplits: finishedBefore };
      await this.waitForWake(this.options.fetch.maxWaitTimeMs);
      return EMPTY;
    }
    const buffered = this.takePending();
    if (buffered) {
      return finishedBefore.length > 0
        ? { splits: buffered.splits, finishedSplits: [...finishedBefore, ...buffered.finishedSplits] }
        : buffered;
    }
    await this.ensureConnected();
    const woken = new Promise<'woken'>((resolve) => {
      this.wake = () => resolve('woken');
    });
    try {
      const outcome = await Promise.race([this.fetchFromLeaders(), woken]);
      if (outcome === 'woken') {
        this.generation++;
        return finishedBefore.length > 0 ? { splits: [], finishedSplits: finishedBefore } : EMPTY;
      }
      return finishedBefore.length > 0
        ? { splits: outcome.splits, finishedSplits: [...finishedBefore, ...outcome.finishedSplits] }
        : outcome;
    } catch (e) {
      this.pendingFinished.unshift(...finishedBefore);
      return await this.recover(e);
    } finally {
      this.wake = undefined;
      this.wakeRequested = false;
    }
  }

  /**
   * Makes a blocked `fetch()` return promptly, or the next one if none is in flight (as Kafka's
   * `consumer.wakeup()`). Safe from any callback; never blocks. The abandoned request's response is
   * ignored: positions only move when a response is consumed, so nothing is lost or read twice.
   */
  wakeUp(): void {
    const w = this.wake;
    if (w) {
      this.wake = undefined;
      w();
    } else {
      this.wakeRequested = true;
    }
  }

  /** Closes connections. Idempotent; a pending `fetch()` resolves empty. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.wakeUp();
    if (this.admin) await this.admin.disconnect().catch(() => undefined);
    if (this.connected) await this.cluster.disconnect().catch(() => undefined);
  }

  private async waitForWake(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.wake = undefined;
        resolve();
      }, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wakeRequested = false;
  }

  private async ensureConnected(): Promise<void> {
    if (!this.connected) {
      await this.cluster.connect();
      this.connected = true;
    }
    const newTopics: string[] = [];
    for (const s of this.splits.values()) {
      if (!this.knownTopics.has(s.topic)) {
        this.knownTopics.add(s.topic);
        newTopics.push(s.topic);
      }
    }
    if (newTopics.length > 0) await this.cluster.addMultipleTargetTopics([...this.knownTopics]);
  }

  private async fetchFromLeaders(): Promise<KafkaFetchResult> {
    const { maxBytesPerPartition, maxWaitTimeMs, minBytes, maxBytes, maxRecordsPerFetch } = this.options.fetch;
    const generation = this.generation;
    // leader node id -> topic -> partition requests
    const perLeader = new Map<string, Map<string, FetchPartitionRequest[]>>();
    const byTopic = new Map<string, SplitState[]>();
    const leaderOf = new Map<string, string>();
    for (const s of this.splits.values()) {
      const list = byTopic.get(s.topic);
      if (list) list.push(s);
      else byTopic.set(s.topic, [s]);
    }
    let unknownPartition = false;
    for (const [topic, states] of byTopic) {
      const leaders = this.cluster.findLeaderForPartitions(topic, states.map((s) => s.partition));
      let placed = 0;
      for (const [nodeId, partitions] of Object.entries(leaders)) {
        const topics = perLeader.get(nodeId) ?? new Map<string, FetchPartitionRequest[]>();
        perLeader.set(nodeId, topics);
        topics.set(
          topic,
          partitions.map((partition) => {
            placed++;
            leaderOf.set(splitId({ topic, partition }), nodeId);
            const state = this.splits.get(splitId({ topic, partition })) as SplitState;
            return { partition, fetchOffset: state.next.toString(), maxBytes: maxBytesPerPartition };
          }),
        );
      }
      if (placed < states.length) unknownPartition = true;
    }
    // A partition newer than our metadata (found by discovery) has no known leader yet.
    if (unknownPartition) await this.cluster.refreshMetadata();
    if (perLeader.size === 0) {
      this.noteUnavailable('no leader is known for them');
      return EMPTY;
    }

    const isolationLevel =
      this.options.isolationLevel === 'read_committed' ? ISOLATION_LEVEL.READ_COMMITTED : ISOLATION_LEVEL.READ_UNCOMMITTED;
    const responses = await Promise.all(
      [...perLeader].map(async ([nodeId, topics]) => {
        const broker = await this.cluster.findBroker({ nodeId });
        const requests = [...topics].map(([topic, partitions]) => ({ topic, partitions }));
        const { responses } = await broker.fetch({ isolationLevel, maxWaitTime: maxWaitTimeMs, minBytes, maxBytes, topics: requests });
        return responses;
      }),
    );
    this.unavailableSince = undefined;
    // Abandoned by wakeUp (its caller already returned) or closed: drop the response unread.
    if (this.closed || generation !== this.generation) return EMPTY;

    const out: KafkaSplitRecords[] = [];
    const finished: string[] = [];
    let budget = maxRecordsPerFetch;
    for (const topicResponses of responses) {
      for (const { topicName, partitions } of topicResponses) {
        for (const partitionData of partitions) {
          const state = this.splits.get(splitId({ topic: topicName, partition: partitionData.partition }));
          if (!state) continue; // removed while the request was in flight
          const requested = perLeader.get(String(leaderOf.get(state.id)))?.get(topicName)?.find((r) => r.partition === state.partition);
          // Re-added with another position while the request was in flight: the response is stale.
          if (!requested || BigInt(requested.fetchOffset) !== state.next) continue;
          // A fetch may start at the record batch holding the fetch offset: skip the records before it.
          const all = partitionData.messages;
          let first = 0;
          while (first < all.length && BigInt((all[first] as RawKafkaMessage).offset) < state.next) first++;
          const within = first === 0 ? all : all.slice(first);
          const records = committedRecords(within, partitionData.abortedTransactions);
          const hw = BigInt(partitionData.highWatermark);
          state.endOffset = state.stop !== undefined && hw > state.stop ? state.stop : hw;
          const result = this.consume(state, { messages: records, messagesWithinOffset: within }, budget);
          if (result) {
            budget -= result.records.length;
            if (result.records.length > 0) out.push(result);
          }
          if (state.stop !== undefined && state.next >= state.stop) {
            this.splits.delete(state.id);
            finished.push(state.id);
          }
        }
      }
    }
    return { splits: out, finishedSplits: finished };
  }

  /** Hands out records buffered by an earlier fetch, up to the record budget; undefined if there are none. */
  private takePending(): KafkaFetchResult | undefined {
    let any = false;
    let budget = this.options.fetch.maxRecordsPerFetch;
    const out: KafkaSplitRecords[] = [];
    const finished: string[] = [];
    for (const state of this.splits.values()) {
      const pending = state.pending;
      if (pending === undefined) continue;
      any = true;
      if (budget === 0) break;
      const from = state.pendingFrom;
      const take = Math.min(budget, pending.length - from);
      const records = from === 0 && take === pending.length ? pending : pending.slice(from, from + take);
      budget -= take;
      if (from + take === pending.length) {
        state.pending = undefined;
        state.next = state.pendingEnd;
      } else {
        state.pendingFrom = from + take;
        state.next = BigInt((pending[from + take] as RawKafkaMessage).offset);
      }
      out.push({ splitId: state.id, topic: state.topic, partition: state.partition, records, nextOffset: state.next, endOffset: state.endOffset });
      if (state.pending === undefined && state.stop !== undefined && state.next >= state.stop) {
        this.splits.delete(state.id);
        finished.push(state.id);
      }
    }
    return any ? { splits: out, finishedSplits: finished } : undefined;
  }

  /**
   * Applies one partition's batch to its split: trims to the stop offset; records beyond the record
   * budget are kept as the split's `pending` for the next fetch.
   */
  private consume(
    state: SplitState,
    batch: { messages: RawKafkaMessage[]; messagesWithinOffset: RawKafkaMessage[] },
    budget: number,
  ): KafkaSplitRecords | undefined {
    const within = batch.messagesWithinOffset;
    if (within.length === 0) return undefined;
    // Past the last record, control records included, so commit markers are stepped over.
    let next = BigInt((within[within.length - 1] as RawKafkaMessage).offset) + 1n;
    let records = batch.messages;
    if (state.stop !== undefined && next > state.stop) {
      const stop = state.stop;
      records = records.filter((m) => BigInt(m.offset) < stop);
      next = stop;
    }
    if (records.length > budget) {
      state.pending = records;
      state.pendingFrom = budget;
      state.pendingEnd = next;
      // The position is the first record not handed out; a checkpoint now re-reads the pending ones.
      next = BigInt((records[budget] as RawKafkaMessage).offset);
      records = records.slice(0, budget);
    }
    state.next = next;
    return { splitId: state.id, topic: state.topic, partition: state.partition, records, nextOffset: next, endOffset: state.endOffset };
  }

  /**
   * Called when a fetch could not reach the partitions; throws once that has lasted longer than the timeout, naming
   * the partitions and the last reason (transient trouble, such as a leader election, passes well within it).
   */
  private noteUnavailable(reason: string): void {
    const now = Date.now();
    this.unavailableSince ??= now;
    const waited = now - this.unavailableSince;
    if (waited <= (this.options.unavailableTimeoutMs ?? DEFAULT_UNAVAILABLE_TIMEOUT_MS)) return;
    const ids = [...this.splits.keys()];
    const shown = ids.length > 5 ? `${ids.slice(0, 5).join(', ')} and ${ids.length - 5} more` : ids.join(', ');
    throw new ConnectorError(
      `Kafka partitions ${shown} could not be read for ${Math.round(waited / 1000)} s (${reason}): ` +
        'the topic was deleted, or its brokers are unreachable.',
    );
  }

  private async recover(e: unknown): Promise<KafkaFetchResult> {
    if (e instanceof ConnectorError) throw e;
    const name = errorName(e);
    const type = kafkaErrorType(e);
    if (name === 'KafkaJSOffsetOutOfRange' || type === 'OFFSET_OUT_OF_RANGE') {
      await resetOutOfRange(e, this.splits, this.options.autoOffsetReset, async () => {
        this.admin ??= this.kafka.admin();
        await this.admin.connect();
        return this.admin;
      });
      return EMPTY;
    }
    if ((name && STALE_METADATA.has(name)) || (type && STALE_METADATA.has(type))) {
      this.noteUnavailable(e instanceof Error ? `${type ?? name}: ${e.message}` : String(e));
      await this.cluster.refreshMetadata().catch(() => undefined);
      return EMPTY;
    }
    throw new ConnectorError(`Fetching from Kafka failed: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}
