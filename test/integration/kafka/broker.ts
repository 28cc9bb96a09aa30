// Shared by the Kafka integration tests: where the broker is and whether it runs.
// The broker is started by the test setup (test/setup/servers.ts) on a port of this run's own and named in
// KAFKA_BOOTSTRAP; there is no default, so a broker someone else runs on 9092 is never used.
import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { serverAddress, serverMissing } from '../../setup/server-contract.js';

const address = serverAddress('kafka');
/** host:port of this run's broker; empty when there is none (brokerAvailable() is false then, or throws in CI). */
export const BOOTSTRAP = address ?? '';

function tcpOpen(address: string): Promise<boolean> {
  const i = address.lastIndexOf(':');
  return new Promise((resolve) => {
    const s = net.connect({ host: address.slice(0, i), port: Number(address.slice(i + 1)) });
    s.setTimeout(2000, () => {
      s.destroy();
      resolve(false);
    });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/**
 * True when this run has a broker. Without one (no java, say) the caller skips its suite and we say why; in CI
 * that is a failure, never a silent skip. A broker that was named but does not answer is always a failure.
 */
export async function brokerAvailable(): Promise<boolean> {
  if (!address) return serverMissing('kafka', 'Kafka integration tests');
  if (await tcpOpen(BOOTSTRAP)) return true;
  throw new Error(`Kafka broker not reachable at KAFKA_BOOTSTRAP=${BOOTSTRAP}`);
}

export function testKafka(): Kafka {
  return new Kafka({ clientId: 'sluice-test', brokers: [BOOTSTRAP], logLevel: logLevel.NOTHING });
}

/** A topic name no other test (or earlier run) uses. */
export function uniqueTopic(label: string): string {
  return `sluice-test-${label}-${randomUUID().slice(0, 8)}`;
}

export async function createTopic(kafka: Kafka, topic: string, numPartitions: number): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createTopics({ topics: [{ topic, numPartitions, replicationFactor: 1 }], waitForLeaders: true });
  } finally {
    await admin.disconnect();
  }
}

/** Produces `count` records `v<i>` (key `k<i>`) to one partition, with explicit timestamps when given. */
export async function produce(
  kafka: Kafka,
  topic: string,
  partition: number,
  values: readonly string[],
  timestamps?: readonly number[],
): Promise<void> {
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  try {
    await producer.send({
      topic,
      acks: -1,
      messages: values.map((v, i) => ({
        key: `k-${v}`,
        value: v,
        partition,
        ...(timestamps ? { timestamp: String(timestamps[i]) } : {}),
      })),
    });
  } finally {
    await producer.disconnect();
  }
}
