// Kafka tables in SQL through TableEnvironment: CREATE TABLE ... WITH ('connector' = 'kafka' | 'upsert-kafka'),
// INSERT, SELECT, json and csv formats, key/value formats, readable and writable metadata columns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kafka } from 'kafkajs';
import { TableEnvironment } from '../../../src/api/table-environment.js';
import type { Row } from '../../../src/types/row.js';
import { RowKind } from '../../../src/types/row-kind.js';
import { BOOTSTRAP, brokerAvailable, createTopic, testKafka, uniqueTopic } from './broker.js';

const up = await brokerAvailable();

async function rowsOf(env: TableEnvironment, sql: string): Promise<Row[]> {
  const out: Row[] = [];
  for await (const r of (await env.executeSql(sql)).collect()) out.push(r);
  return out;
}

async function run(env: TableEnvironment, sql: string): Promise<void> {
  await (await env.executeSql(sql)).await();
}

function withClause(options: Record<string, string>): string {
  return Object.entries(options)
    .map(([k, v]) => `'${k}' = '${v}'`)
    .join(', ');
}

describe.skipIf(!up)('Kafka tables in SQL through TableEnvironment', () => {
  let kafka: Kafka;
  const envs: TableEnvironment[] = [];
  const newEnv = (mode: 'batch' | 'streaming' = 'batch'): TableEnvironment => {
    const e = TableEnvironment.create({ mode });
    envs.push(e);
    return e;
  };
  const kafkaOptions = (topic: string, extra: Record<string, string> = {}) =>
    withClause({
      connector: 'kafka',
      topic,
      'properties.bootstrap.servers': BOOTSTRAP,
      'scan.startup.mode': 'earliest-offset',
      'scan.bounded.mode': 'latest-offset',
      ...extra,
    });

  beforeAll(() => {
    kafka = testKafka();
  });

  afterAll(async () => {
    await Promise.all(envs.map((e) => e.close()));
  });

  it('json: INSERT then SELECT with key/value formats and metadata columns', async () => {
    const topic = uniqueTopic('sql-json');
    await createTopic(kafka, topic, 2);
    const env = newEnv();
    await run(
      env,
      `CREATE TEMPORARY TABLE orders (
         id BIGINT,
         customer STRING,
         amount DECIMAL(10, 2),
         ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,
         part INT METADATA FROM 'partition' VIRTUAL,
         off BIGINT METADATA FROM 'offset' VIRTUAL,
         src_topic STRING METADATA FROM 'topic' VIRTUAL
       ) WITH (${kafkaOptions(topic, { 'key.format': 'json', 'key.fields': 'id', 'value.format': 'json', 'value.fields-include': 'EXCEPT_KEY' })})`,
    );
    await run(
      env,
      `INSERT INTO orders VALUES (1, 'ann', 10.50), (2, 'bob', 20.25), (3, 'cid', 0.01)`,
    );
    const before = Date.now() - 60_000;
    const rows = await rowsOf(env, 'SELECT id, customer, amount, ts, part, off, src_topic FROM orders');
    const byId = new Map(rows.map((r) => [r.fields[0] as bigint, r.fields]));
    expect([...byId.keys()].sort()).toEqual([1n, 2n, 3n]);
    const two = byId.get(2n)!;
    expect(two[1]).toBe('bob');
    expect(String(two[2])).toBe('20.25');
    expect(two[3] as number).toBeGreaterThan(before);
    expect([0, 1]).toContain(two[4]);
    expect(typeof two[5]).toBe('bigint');
    expect(two[6]).toBe(topic);
    expect(rows.every((r) => r.kind === RowKind.INSERT)).toBe(true);

    // The value bytes hold only the non-key columns (EXCEPT_KEY), the key bytes the key column.
    const raw = await rawRecords(kafka, topic);
    const one = raw.find((r) => r.key === '{"id":1}');
    // DECIMAL without trailing zeros, as Flink's json writes it (Jackson numberNode).
    expect(one?.value).toBe('{"customer":"ann","amount":10.5}');
  });

  it('csv: INSERT then SELECT with a WHERE and an aggregate', async () => {
    const topic = uniqueTopic('sql-csv');
    await createTopic(kafka, topic, 1);
    const env = newEnv();
    await run(env, `CREATE TEMPORARY TABLE readings (sensor STRING, v INT) WITH (${kafkaOptions(topic, { format: 'csv' })})`);
    await run(env, `INSERT INTO readings VALUES ('a', 1), ('b', 5), ('a', 7), ('c', -2)`);
    const raw = await rawRecords(kafka, topic);
    // Flink's csv serializer (Jackson) ends every record with a line separator.
    expect(raw.map((r) => r.value)).toEqual(['a,1\n', 'b,5\n', 'a,7\n', 'c,-2\n']);
    const rows = await rowsOf(env, 'SELECT sensor, SUM(v) AS total FROM readings WHERE v > 0 GROUP BY sensor');
    expect(rows.map((r) => r.fields).sort()).toEqual([['a', 8], ['b', 5]]);
  });

  it('writable metadata: headers and timestamp written by INSERT are read back', async () => {
    const topic = uniqueTopic('sql-meta');
    await createTopic(kafka, topic, 1);
    const env = newEnv();
    await run(
      env,
      `CREATE TEMPORARY TABLE events (
         name STRING,
         hdrs MAP<STRING, BYTES> METADATA FROM 'headers',
         ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp'
       ) WITH (${kafkaOptions(topic, { format: 'json' })})`,
    );
    await run(env, `INSERT INTO events VALUES ('e1', MAP['trace', CAST('t-1' AS BYTES)], TO_TIMESTAMP_LTZ(1600000000123, 3))`);
    const rows = await rowsOf(env, 'SELECT name, hdrs, ts FROM events');
    expect(rows).toHaveLength(1);
    const [name, hdrs, ts] = rows[0]!.fields as [string, Map<string, Uint8Array>, number];
    expect(name).toBe('e1');
    expect(Buffer.from(hdrs.get('trace')!).toString()).toBe('t-1');
    expect(ts).toBe(1600000000123);
  });

  it('upsert-kafka: a streaming aggregate materialized by key and read back as a changelog', async () => {
    const input = uniqueTopic('sql-mv-in');
    const view = uniqueTopic('sql-mv');
    await createTopic(kafka, input, 2);
    await createTopic(kafka, view, 1);
    const env = newEnv('streaming');
    await run(env, `CREATE TEMPORARY TABLE clicks (usr STRING, n INT) WITH (${kafkaOptions(input, { format: 'json' })})`);
    await run(
      env,
      `CREATE TEMPORARY TABLE clicks_per_user (usr STRING, total BIGINT, PRIMARY KEY (usr) NOT ENFORCED) WITH (${withClause({
        connector: 'upsert-kafka',
        topic: view,
        'properties.bootstrap.servers': BOOTSTRAP,
        'key.format': 'json',
        'value.format': 'json',
      })})`,
    );
    const batchEnv = newEnv();
    await run(batchEnv, `CREATE TEMPORARY TABLE clicks (usr STRING, n INT) WITH (${kafkaOptions(input, { format: 'json' })})`);
    await run(batchEnv, `INSERT INTO clicks VALUES ('u1', 1), ('u2', 10), ('u1', 2), ('u3', 5), ('u1', 4), ('u2', 1)`);
    await run(env, 'INSERT INTO clicks_per_user SELECT usr, SUM(n) FROM clicks GROUP BY usr');

    // Every record is an upsert keyed by usr; the last one per key is the view's value.
    const raw = await rawRecords(kafka, view);
    const last = new Map<string, string | null>();
    for (const r of raw) last.set(r.key!, r.value);
    expect(Object.fromEntries(last)).toEqual({ '{"usr":"u1"}': '{"usr":"u1","total":7}', '{"usr":"u2"}': '{"usr":"u2","total":11}', '{"usr":"u3"}': '{"usr":"u3","total":5}' });

    // Read as a table: a normalized changelog (+I first, +U later per key) whose end state is the view.
    const readEnv = newEnv('streaming');
    await run(
      readEnv,
      `CREATE TEMPORARY TABLE v (usr STRING, total BIGINT, PRIMARY KEY (usr) NOT ENFORCED) WITH (${withClause({
        connector: 'upsert-kafka',
        topic: view,
        'properties.bootstrap.servers': BOOTSTRAP,
        'key.format': 'json',
        'value.format': 'json',
        'scan.bounded.mode': 'latest-offset',
      })})`,
    );
    const changes = await rowsOf(readEnv, 'SELECT usr, total FROM v');
    const state = new Map<string, bigint>();
    const firstKind = new Map<string, RowKind>();
    for (const c of changes) {
      const [usr, total] = c.fields as [string, bigint];
      if (!firstKind.has(usr)) firstKind.set(usr, c.kind);
      if (c.kind === RowKind.DELETE || c.kind === RowKind.UPDATE_BEFORE) state.delete(usr);
      else state.set(usr, total);
    }
    expect(Object.fromEntries(state)).toEqual({ u1: 7n, u2: 11n, u3: 5n });
    expect([...firstKind.values()].every((k) => k === RowKind.INSERT)).toBe(true);
  }, 60_000);
});

/** Every record of a topic as strings (read_committed, from the earliest offset). */
async function rawRecords(kafka: Kafka, topic: string): Promise<{ partition: number; key: string | null; value: string | null }[]> {
  const { KafkaPartitionSplitReader } = await import('../../../src/connectors/kafka/client/partition-split-reader.js');
  const { toKafkaClientSettings } = await import('../../../src/connectors/kafka/client/kafka-properties.js');
  const admin = kafka.admin();
  await admin.connect();
  const ends = await admin.fetchTopicOffsets(topic);
  await admin.disconnect();
  const s = toKafkaClientSettings({ 'bootstrap.servers': BOOTSTRAP, 'fetch.max.wait.ms': '100' });
  const reader = new KafkaPartitionSplitReader(kafka, { fetch: s.fetch, isolationLevel: 'read_committed', autoOffsetReset: 'none' });
  const splits = ends.filter((e) => BigInt(e.high) > 0n).map((e) => ({ topic, partition: e.partition, startingOffset: 0n, stoppingOffset: BigInt(e.high) }));
  reader.addSplits(splits);
  const out: { partition: number; key: string | null; value: string | null }[] = [];
  const finished = new Set<string>();
  const deadline = Date.now() + 15_000;
  try {
    while (finished.size < splits.length && Date.now() < deadline) {
      const r = await reader.fetch();
      for (const sr of r.splits) for (const m of sr.records) out.push({ partition: sr.partition, key: m.key?.toString() ?? null, value: m.value?.toString() ?? null });
      for (const f of r.finishedSplits) finished.add(f);
    }
  } finally {
    await reader.close();
  }
  return out;
}
