// 'value.format' = 'avro-confluent' end to end: SQL through TableEnvironment, the shared Kafka broker and a
// real Confluent-compatible registry (Apicurio), including data written with an older schema read by a
// table with a newer one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kafka } from 'kafkajs';
import { TableEnvironment } from '../../../src/api/table-environment.js';
import type { Row } from '../../../src/types/row.js';
import { Decimal } from '../../../src/types/decimal.js';
import { AvroWriter } from '../../../src/formats/avro/avro-binary.js';
import { frame, readSchemaId } from '../../../src/formats/avro-confluent/confluent-wire.js';
import { BOOTSTRAP, brokerAvailable, createTopic, testKafka, uniqueTopic } from '../kafka/broker.js';
import { REGISTRY_URL, registerSchema, registryAvailable, subjectSchemas } from './registry.js';

const up = (await registryAvailable()) && (await brokerAvailable());

async function rowsOf(env: TableEnvironment, sql: string): Promise<Row[]> {
  const out: Row[] = [];
  for await (const r of (await env.executeSql(sql)).collect()) out.push(r);
  return out;
}

async function run(env: TableEnvironment, sql: string): Promise<void> {
  await (await env.executeSql(sql)).await();
}

const kafkaWith = (topic: string, extra = ''): string =>
  `'connector' = 'kafka', 'topic' = '${topic}', 'properties.bootstrap.servers' = '${BOOTSTRAP}',
   'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset'${extra}`;

describe.skipIf(!up)('avro-confluent with Kafka and a real schema registry', () => {
  let kafka: Kafka;
  const envs: TableEnvironment[] = [];
  const newEnv = (): TableEnvironment => {
    const e = TableEnvironment.create({ mode: 'batch' });
    envs.push(e);
    return e;
  };

  beforeAll(() => {
    kafka = testKafka();
  });

  afterAll(async () => {
    await Promise.all(envs.map((e) => e.close()));
  });

  it("INSERT registers the table's schema under '<topic>-value' and SELECT reads the rows back", async () => {
    const topic = uniqueTopic('avro-confluent');
    await createTopic(kafka, topic, 1);
    const env = newEnv();
    await run(
      env,
      `CREATE TEMPORARY TABLE orders (id BIGINT NOT NULL, customer STRING, amount DECIMAL(10, 2), tags ARRAY<STRING>)
       WITH (${kafkaWith(topic, `, 'value.format' = 'avro-confluent', 'value.avro-confluent.url' = '${REGISTRY_URL}'`)})`,
    );
    await run(env, `INSERT INTO orders VALUES (1, 'ann', 12.50, ARRAY['a', 'b']), (2, CAST(NULL AS STRING), 0.01, ARRAY['c'])`);

    const schemas = await subjectSchemas(`${topic}-value`);
    expect(schemas).toHaveLength(1);
    expect(JSON.parse(schemas[0]!).fields.map((f: { name: string }) => f.name)).toEqual(['id', 'customer', 'amount', 'tags']);

    const rows = await rowsOf(env, 'SELECT id, customer, amount, tags FROM orders');
    expect(rows.map((r) => [r.fields[0], r.fields[1], (r.fields[2] as Decimal).toString(), r.fields[3]])).toEqual([
      [1n, 'ann', '12.50', ['a', 'b']],
      [2n, null, '0.01', ['c']],
    ]);

    // The messages are in Confluent's wire format, so any Confluent consumer can read them.
    const consumer = kafka.consumer({ groupId: `g-${topic}` });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const first = await new Promise<Buffer>((resolve) => {
      void consumer.run({ eachMessage: async ({ message }) => resolve(message.value!) });
    });
    await consumer.disconnect();
    expect(first[0]).toBe(0);
    const ids = await (await fetch(`${REGISTRY_URL}/subjects/${topic}-value/versions/1`)).json();
    expect(readSchemaId(first)).toBe((ids as { id: number }).id);
  });

  it('reads data written with an older schema with a newer table schema (added, removed and promoted fields)', async () => {
    const topic = uniqueTopic('avro-evolution');
    await createTopic(kafka, topic, 1);
    // v1 as another producer wrote it: id int, name string, legacy string.
    const v1 = await registerSchema(`${topic}-value`, {
      type: 'record', name: 'User', namespace: 'com.example',
      fields: [{ name: 'id', type: 'int' }, { name: 'name', type: 'string' }, { name: 'legacy', type: 'string' }],
    });
    // v2 (backward compatible): legacy gone, email added with a default.
    const v2 = await registerSchema(`${topic}-value`, {
      type: 'record', name: 'User', namespace: 'com.example',
      fields: [{ name: 'id', type: 'int' }, { name: 'name', type: 'string' }, { name: 'email', type: ['null', 'string'], default: null }],
    });
    expect(v2).not.toBe(v1);
    const w = new AvroWriter();
    w.writeInt(7); w.writeString('ann'); w.writeString('old stuff');
    const m1 = frame(v1, w.take());
    w.writeInt(8); w.writeString('bob'); w.writeInt(1); w.writeString('bob@example.com');
    const m2 = frame(v2, w.take());
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic, messages: [{ value: Buffer.from(m1) }, { value: Buffer.from(m2) }] });
    await producer.disconnect();

    const env = newEnv();
    // The newest table schema: id promoted to BIGINT, email nullable, a column no writer has.
    await run(
      env,
      `CREATE TEMPORARY TABLE users (id BIGINT NOT NULL, name STRING, email STRING, phone STRING)
       WITH (${kafkaWith(topic, `, 'format' = 'avro-confluent', 'avro-confluent.url' = '${REGISTRY_URL}'`)})`,
    );
    const rows = await rowsOf(env, 'SELECT * FROM users');
    expect(rows.map((r) => r.fields)).toEqual([
      [7n, 'ann', null, null],
      [8n, 'bob', 'bob@example.com', null],
    ]);
  });

  it('fails with a message naming the column when a NOT NULL column is missing in the writer schema', async () => {
    const topic = uniqueTopic('avro-missing');
    await createTopic(kafka, topic, 1);
    const id = await registerSchema(`${topic}-value`, { type: 'record', name: 'R', fields: [{ name: 'a', type: 'int' }] });
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic, messages: [{ value: Buffer.from(frame(id, Uint8Array.of(2))) }] });
    await producer.disconnect();
    const env = newEnv();
    await run(
      env,
      `CREATE TEMPORARY TABLE t (a INT, b STRING NOT NULL)
       WITH (${kafkaWith(topic, `, 'format' = 'avro-confluent', 'avro-confluent.url' = '${REGISTRY_URL}'`)})`,
    );
    await expect(rowsOf(env, 'SELECT * FROM t')).rejects.toThrow(/no field 'b'/);
  });
});
