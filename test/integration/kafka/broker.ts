// Shared by the Kafka integration tests: where the broker is and whether it runs.
// The broker is started by `scripts/kafka.sh start` (.ci/run does it); tests never start it themselves.
import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';

export const BOOTSTRAP = process.env.KAFKA_BOOTSTRAP ?? `127.0.0.1:${process.env.KAFKA_PORT ?? '9092'}`;

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
 * True when the broker answers. In CI a missing broker is a failure, never a silent skip; locally the
 * caller skips its suite and we say why.
 */
export async function brokerAvailable(): Promise<boolean> {
  if (await tcpOpen(BOOTSTRAP)) return true;
  if (process.env.CI) {
    throw new Error(`Kafka broker not reachable at ${BOOTSTRAP}; CI must run 'scripts/kafka.sh start' before the tests.`);
  }
  console.warn(`SKIPPING Kafka integration tests: no broker at ${BOOTSTRAP} (run 'scripts/kafka.sh start').`);
  return false;
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
