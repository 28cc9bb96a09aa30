/**
 * Maps Flink-style `properties.*` table options (Java Kafka client keys) onto kafkajs settings.
 *
 * Java client keys are the user's vocabulary (they copy them from Flink jobs), so we accept them and
 * translate; a key we cannot honour is rejected by name instead of silently dropped, except the few
 * listed in IGNORED whose job Sluice does differently (consumer-group membership, deserializers).
 */
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import type { KafkaConfig, SASLOptions } from 'kafkajs';
import type { logCreator } from 'kafkajs';
import { kafkajs } from './kafkajs-module.js';
import { ConnectorError } from '../../../errors/index.js';

export type IsolationLevel = 'read_committed' | 'read_uncommitted';
export type OffsetResetStrategy = 'earliest' | 'latest' | 'none';

/** Settings for the partition reader's Fetch requests. */
export interface FetchSettings {
  readonly maxWaitTimeMs: number;
  readonly minBytes: number;
  readonly maxBytes: number;
  readonly maxBytesPerPartition: number;
  /** Upper bound of records returned by one `fetch()` (max.poll.records). */
  readonly maxRecordsPerFetch: number;
}

export interface KafkaClientSettings {
  /** Passed to `new Kafka(...)`. */
  readonly client: KafkaConfig;
  readonly groupId: string | undefined;
  readonly isolationLevel: IsolationLevel;
  /** `auto.offset.reset`: used for group-offsets without a committed offset and for out-of-range offsets. */
  readonly autoOffsetReset: OffsetResetStrategy;
  /** Whether a source commits its checkpointed offsets to `group.id` (Flink's `commit.offsets.on.checkpoint`). */
  readonly commitOffsetsOnCheckpoint: boolean;
  readonly fetch: FetchSettings;
  /** Producer transaction timeout; the default is the broker's default cap `transaction.max.timeout.ms` (15 min). */
  readonly transactionTimeoutMs: number;
  /** Producer acks for non-transactional writers: -1 (all), 0 or 1. */
  readonly acks: -1 | 0 | 1;
  /**
   * `metadata.max.age.ms` (Kafka's default 5 min): how old topic metadata may get before a writer
   * refreshes it, so partitions added to an output topic are written to from then on.
   */
  readonly metadataMaxAgeMs: number;
  /** `max.block.ms` (default 60 s): the longest a sink's connect, metadata or transaction call may wait. */
  readonly maxBlockMs: number;
  /** `delivery.timeout.ms` (default 120 s): the longest a sink's write may wait for its acknowledgement. */
  readonly deliveryTimeoutMs: number;
}

/** Kafka's (and kafkajs's) default `metadata.max.age.ms`. */
export const DEFAULT_METADATA_MAX_AGE_MS = 300_000;

/** Keys accepted but with no effect, and why (shown nowhere but kept here as documentation). */
const IGNORED: Readonly<Record<string, string>> = {
  'key.deserializer': 'records arrive as bytes; formats decode them',
  'value.deserializer': 'records arrive as bytes; formats decode them',
  'key.serializer': 'records leave as bytes; formats encode them',
  'value.serializer': 'records leave as bytes; formats encode them',
  'enable.auto.commit': 'offsets are committed on checkpoint completion, as Flink does',
  'auto.commit.interval.ms': 'offsets are committed on checkpoint completion, as Flink does',
  'session.timeout.ms': 'the reader assigns splits itself and never joins a consumer group',
  'heartbeat.interval.ms': 'the reader assigns splits itself and never joins a consumer group',
  'max.poll.interval.ms': 'the reader assigns splits itself and never joins a consumer group',
  'partition.assignment.strategy': 'the reader assigns splits itself and never joins a consumer group',
  'linger.ms': 'the writer batches per checkpoint/flush, not by time',
  'batch.size': 'the writer batches per checkpoint/flush, not by size',
  'buffer.memory': 'the writer batches per checkpoint/flush',
  'max.in.flight.requests.per.connection': 'kafkajs decides',
  'enable.idempotence': 'exactly-once writers are transactional; others follow sink.delivery-guarantee',
  'partition.discovery.interval.ms': 'use scan.topic-partition-discovery.interval',
};

const SUPPORTED = [
  'bootstrap.servers',
  'client.id',
  'group.id',
  'security.protocol',
  'sasl.mechanism',
  'sasl.jaas.config',
  'ssl.truststore.type',
  'ssl.truststore.location',
  'ssl.truststore.certificates',
  'ssl.keystore.type',
  'ssl.keystore.location',
  'ssl.keystore.certificate.chain',
  'ssl.keystore.key',
  'ssl.key.password',
  'ssl.endpoint.identification.algorithm',
  'isolation.level',
  'auto.offset.reset',
  'commit.offsets.on.checkpoint',
  'transaction.timeout.ms',
  'request.timeout.ms',
  'socket.connection.setup.timeout.ms',
  'retries',
  'retry.backoff.ms',
  'fetch.max.wait.ms',
  'fetch.min.bytes',
  'fetch.max.bytes',
  'max.partition.fetch.bytes',
  'max.poll.records',
  'acks',
  'metadata.max.age.ms',
  'max.block.ms',
  'delivery.timeout.ms',
] as const;

const SUPPORTED_SET: ReadonlySet<string> = new Set<string>(SUPPORTED);

function fail(message: string): never {
  throw new ConnectorError(message);
}

function intOf(props: Readonly<Record<string, string>>, key: string, min: number): number | undefined {
  const raw = props[key];
  if (raw === undefined) return undefined;
  const n = Number(raw.trim());
  if (!Number.isInteger(n) || n < min) {
    fail(`Kafka property 'properties.${key}' must be an integer >= ${min}, but is '${raw}'.`);
  }
  return n;
}

function oneOf<T extends string>(props: Readonly<Record<string, string>>, key: string, allowed: readonly T[], dflt: T): T {
  const raw = props[key];
  if (raw === undefined) return dflt;
  const v = raw.trim().toLowerCase();
  const hit = allowed.find((a) => a.toLowerCase() === v);
  if (!hit) fail(`Kafka property 'properties.${key}' must be one of ${allowed.join(', ')}, but is '${raw}'.`);
  return hit;
}

/** Reads `username="..." password="..."` (single or double quotes) out of a JAAS line. */
export function parseJaasCredentials(jaas: string): { username: string; password: string } {
  const field = (name: string): string | undefined => {
    const m = new RegExp(`\\b${name}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|'((?:[^'\\\\]|\\\\.)*)')`).exec(jaas);
    const v = m?.[1] ?? m?.[2];
    return v?.replace(/\\(.)/g, '$1');
  };
  const username = field('username');
  const password = field('password');
  if (username === undefined || password === undefined) {
    fail(
      "Kafka property 'properties.sasl.jaas.config' must contain username=\"...\" and password=\"...\" " +
        '(PlainLoginModule or ScramLoginModule); other login modules are not supported.',
    );
  }
  return { username, password };
}

function saslOf(props: Readonly<Record<string, string>>): SASLOptions {
  const mechanism = oneOf(props, 'sasl.mechanism', ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'] as const, 'PLAIN');
  const jaas = props['sasl.jaas.config'];
  if (jaas === undefined) fail("Kafka property 'properties.sasl.jaas.config' is required for a SASL security.protocol.");
  const { username, password } = parseJaasCredentials(jaas);
  switch (mechanism) {
    case 'PLAIN':
      return { mechanism: 'plain', username, password };
    case 'SCRAM-SHA-256':
      return { mechanism: 'scram-sha-256', username, password };
    case 'SCRAM-SHA-512':
      return { mechanism: 'scram-sha-512', username, password };
    default: {
      const never: never = mechanism;
      return never;
    }
  }
}

function sslOf(props: Readonly<Record<string, string>>): ConnectionOptions {
  const tls: ConnectionOptions = {};
  const pemOnly = (typeKey: string): void => {
    const t = props[typeKey];
    if (t !== undefined && t.trim().toUpperCase() !== 'PEM') {
      fail(`Kafka property 'properties.${typeKey}' is '${t}', but Node can only read PEM; convert the store to PEM and set it to PEM.`);
    }
  };
  pemOnly('ssl.truststore.type');
  pemOnly('ssl.keystore.type');
  const readPem = (key: string): string => {
    try {
      return readFileSync(props[key] as string, 'utf8');
    } catch (cause) {
      throw new ConnectorError(`Cannot read the file of 'properties.${key}' ('${props[key]}').`, { cause });
    }
  };
  if (props['ssl.truststore.certificates'] !== undefined) tls.ca = props['ssl.truststore.certificates'];
  else if (props['ssl.truststore.location'] !== undefined) tls.ca = readPem('ssl.truststore.location');
  if (props['ssl.keystore.certificate.chain'] !== undefined) {
    tls.cert = props['ssl.keystore.certificate.chain'];
    tls.key = props['ssl.keystore.key'];
  } else if (props['ssl.keystore.location'] !== undefined) {
    // A PEM keystore file holds the private key and the certificate chain together.
    const pem = readPem('ssl.keystore.location');
    tls.cert = pem;
    tls.key = pem;
  }
  if (props['ssl.key.password'] !== undefined) tls.passphrase = props['ssl.key.password'];
  if (props['ssl.endpoint.identification.algorithm']?.trim() === '') {
    // Java's way to switch off host name verification.
    tls.checkServerIdentity = () => undefined;
  }
  return tls;
}

/**
 * Translates `properties.*` (keys without the `properties.` prefix) into kafkajs settings.
 * Throws ConnectorError naming every unsupported key, or a malformed value.
 *
 * @example
 * toKafkaClientSettings({ 'bootstrap.servers': '127.0.0.1:9092', 'group.id': 'g' })
 */
/** kafkajs log lines as one compact line each on stderr (its default logger writes INFO to stdout). */
const stderrLogCreator: logCreator = () => ({ namespace, label, log }) => {
  const { message, ...extra } = log;
  const detail = Object.keys(extra).length > 0 ? ` ${JSON.stringify(extra)}` : '';
  process.stderr.write(`[kafkajs ${label}] ${namespace ? `${namespace}: ` : ''}${message}${detail}\n`);
};

export function toKafkaClientSettings(props: Readonly<Record<string, string>>): KafkaClientSettings {
  if (props['transactional.id'] !== undefined) {
    fail("Set 'sink.transactional-id-prefix' instead of 'properties.transactional.id'.");
  }
  const unsupported = Object.keys(props).filter((k) => !SUPPORTED_SET.has(k) && !(k in IGNORED));
  if (unsupported.length > 0) {
    fail(
      `Unsupported Kafka properties: ${unsupported.map((k) => `'properties.${k}'`).join(', ')}. ` +
        `Supported: ${SUPPORTED.join(', ')}.`,
    );
  }
  const servers = (props['bootstrap.servers'] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (servers.length === 0) fail("Kafka property 'properties.bootstrap.servers' is required.");
  const brokers = servers.map((s) => s.replace(/^[A-Za-z_]+:\/\//, ''));

  const protocol = oneOf(props, 'security.protocol', ['PLAINTEXT', 'SSL', 'SASL_PLAINTEXT', 'SASL_SSL'] as const, 'PLAINTEXT');
  const retries = intOf(props, 'retries', 0);
  const backoff = intOf(props, 'retry.backoff.ms', 0);
  const requestTimeout = intOf(props, 'request.timeout.ms', 1);
  const connectionTimeout = intOf(props, 'socket.connection.setup.timeout.ms', 1);
  const client: KafkaConfig = {
    brokers,
    clientId: props['client.id'] ?? 'sluice',
    // Every failure reaches the job as a ConnectorError; kafkajs's own retry chatter (ERROR lines for
    // retriable coordinator/metadata responses) would only pollute the CLI's output. KAFKAJS_LOG_LEVEL
    // (kafkajs's own variable) turns it back on, on stderr so stdout results stay parseable.
    logLevel: kafkajs().logLevel.NOTHING,
    logCreator: stderrLogCreator,
    ...(protocol === 'SSL' || protocol === 'SASL_SSL' ? { ssl: sslOf(props) } : {}),
    ...(protocol === 'SASL_PLAINTEXT' || protocol === 'SASL_SSL' ? { sasl: saslOf(props) } : {}),
    ...(requestTimeout !== undefined ? { requestTimeout } : {}),
    ...(connectionTimeout !== undefined ? { connectionTimeout } : {}),
    ...(retries !== undefined || backoff !== undefined
      ? { retry: { ...(retries !== undefined ? { retries } : {}), ...(backoff !== undefined ? { initialRetryTime: backoff } : {}) } }
      : {}),
  };
  if (protocol === 'SSL' || protocol === 'PLAINTEXT') {
    if (props['sasl.mechanism'] !== undefined || props['sasl.jaas.config'] !== undefined) {
      fail(`SASL properties are set but 'properties.security.protocol' is ${protocol}; use SASL_PLAINTEXT or SASL_SSL.`);
    }
  }

  const acksRaw = props['acks']?.trim().toLowerCase();
  const acks: -1 | 0 | 1 =
    acksRaw === undefined || acksRaw === 'all' || acksRaw === '-1'
      ? -1
      : acksRaw === '0'
        ? 0
        : acksRaw === '1'
          ? 1
          : fail(`Kafka property 'properties.acks' must be all, -1, 0 or 1, but is '${props['acks']}'.`);

  const commitRaw = props['commit.offsets.on.checkpoint']?.trim().toLowerCase();
  if (commitRaw !== undefined && commitRaw !== 'true' && commitRaw !== 'false') {
    fail(`Kafka property 'properties.commit.offsets.on.checkpoint' must be true or false, but is '${props['commit.offsets.on.checkpoint']}'.`);
  }

  return {
    client,
    groupId: props['group.id'],
    isolationLevel: oneOf(props, 'isolation.level', ['read_committed', 'read_uncommitted'] as const, 'read_committed'),
    autoOffsetReset: oneOf(props, 'auto.offset.reset', ['earliest', 'latest', 'none'] as const, 'none'),
    commitOffsetsOnCheckpoint: commitRaw !== 'false',
    fetch: {
      maxWaitTimeMs: intOf(props, 'fetch.max.wait.ms', 0) ?? 500,
      minBytes: intOf(props, 'fetch.min.bytes', 1) ?? 1,
      maxBytes: intOf(props, 'fetch.max.bytes', 1) ?? 50 * 1024 * 1024,
      maxBytesPerPartition: intOf(props, 'max.partition.fetch.bytes', 1) ?? 1024 * 1024,
      maxRecordsPerFetch: intOf(props, 'max.poll.records', 1) ?? 10_000,
    },
    transactionTimeoutMs: intOf(props, 'transaction.timeout.ms', 1) ?? 900_000,
    acks,
    metadataMaxAgeMs: intOf(props, 'metadata.max.age.ms', 0) ?? DEFAULT_METADATA_MAX_AGE_MS,
    // As Kafka's producer: how long connecting, metadata and transaction calls may block, and how long a
    // write may wait for its acknowledgement, before the sink fails naming the broker.
    maxBlockMs: intOf(props, 'max.block.ms', 1) ?? 60_000,
    deliveryTimeoutMs: intOf(props, 'delivery.timeout.ms', 1) ?? 120_000,
  };
}
