// upsert-kafka read through a ChangelogNormalize, against the real broker (scripts/kafka.sh start): the
// issue #13 example. Records are produced raw so the topic holds exactly what an upsert writer would leave,
// including a repeated value and tombstones (a null value: the key only).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kafka } from 'kafkajs';
import { TableEnvironment } from '../../../src/api/table-environment.js';
import type { Row } from '../../../src/types/row.js';
import { rowKindShortString } from '../../../src/types/row-kind.js';
import { BOOTSTRAP, brokerAvailable, createTopic, testKafka, uniqueTopic } from './broker.js';

const up = await brokerAvailable();

async function rowsOf(env: TableEnvironment, sql: string): Promise<Row[]> {
  const out: Row[] = [];
  for await (const r of (await env.executeSql(sql)).collect()) out.push(r);
  return out;
}

const show = (rows: readonly Row[]): string[] => rows.map((r) => `${rowKindShortString(r.kind)} ${r.fields.map((v) => (v === null ? 'NULL' : String(v))).join(' ')}`);

/** The table the changelog materializes to (+I/+U add, -U/-D remove), sorted. */
function materialize(rows: readonly Row[]): string[] {
  const out: string[] = [];
  for (const line of show(rows)) {
    const body = line.slice(3);
    if (line.startsWith('+')) out.push(body);
    else out.splice(out.indexOf(body), 1);
  }
  return out.sort();
}

async function produce(kafka: Kafka, topic: string, records: readonly [string, number | null][]): Promise<void> {
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  try {
    await producer.send({
      topic,
      acks: -1,
      messages: records.map(([k, v]) => ({ key: JSON.stringify({ k }), value: v === null ? null : JSON.stringify({ k, v }), partition: 0 })),
    });
  } finally {
    await producer.disconnect();
  }
}

describe.skipIf(!up)('upsert-kafka through ChangelogNormalize (real broker)', () => {
  let kafka: Kafka;
  const envs: TableEnvironment[] = [];

  const upsertTable = async (name: string, topic: string): Promise<TableEnvironment> => {
    const env = TableEnvironment.create({ mode: 'streaming' });
    envs.push(env);
    await (
      await env.executeSql(
        `CREATE TEMPORARY TABLE ${name} (k STRING, v INT, PRIMARY KEY (k) NOT ENFORCED) WITH (
           'connector' = 'upsert-kafka', 'topic' = '${topic}', 'properties.bootstrap.servers' = '${BOOTSTRAP}',
           'key.format' = 'json', 'value.format' = 'json', 'scan.bounded.mode' = 'latest-offset')`,
      )
    ).await();
    return env;
  };

  beforeAll(() => {
    kafka = testKafka();
  });

  afterAll(async () => {
    await Promise.all(envs.map((e) => e.close()));
  });

  it("SELECT * retracts the old row before an update: ('a',1), ('b',2), ('a',5) gives -U a 1 before +U a 5", async () => {
    const topic = uniqueTopic('normalize');
    await createTopic(kafka, topic, 1);
    await produce(kafka, topic, [
      ['a', 1],
      ['b', 2],
      ['a', 5],
    ]);
    const env = await upsertTable('upserts', topic);
    const rows = await rowsOf(env, 'SELECT * FROM upserts');
    expect(show(rows)).toEqual(['+I a 1', '+I b 2', '-U a 1', '+U a 5']);
    expect(materialize(rows)).toEqual(['a 5', 'b 2']);

    const plan = (await rowsOf(env, 'EXPLAIN SELECT * FROM upserts'))[0]!.fields[0] as string;
    expect(plan).toContain('ChangelogNormalize(key=[k])\n+- Exchange(distribution=[hash[k]])\n   +- TableSourceScan(table=[[default_catalog, default_database, upserts]], fields=[k, v])');
  }, 60_000);

  it('COUNT(*) and SUM over an upsert table count each key once and honour tombstones', async () => {
    const topic = uniqueTopic('normalize-agg');
    await createTopic(kafka, topic, 1);
    await produce(kafka, topic, [
      ['a', 1],
      ['b', 2],
      ['a', 5],
      ['c', 10],
      ['a', 5], // the same value again
      ['b', null], // tombstone
      ['zz', null], // tombstone of a key never written
      ['c', 20],
    ]);
    const env = await upsertTable('upserts', topic);
    const totals = await rowsOf(env, 'SELECT COUNT(*), SUM(v) FROM upserts');
    expect(materialize(totals)).toEqual(['2 25']);
    const perKey = await rowsOf(env, 'SELECT k, v FROM upserts');
    expect(materialize(perKey)).toEqual(['a 5', 'c 20']);
    // The tombstone of b comes out as a delete of its full last row.
    expect(show(perKey)).toContain('-D b 2');
    expect(show(perKey).some((l) => l.includes('zz'))).toBe(false);
  }, 60_000);

  it('an upsert-kafka sink keyed like the source needs no ChangelogNormalize, a print sink does', async () => {
    const topic = uniqueTopic('normalize-plan');
    await createTopic(kafka, topic, 1);
    const env = await upsertTable('upserts', topic);
    await (
      await env.executeSql(
        `CREATE TEMPORARY TABLE copy (k STRING, v INT, PRIMARY KEY (k) NOT ENFORCED) WITH (
           'connector' = 'upsert-kafka', 'topic' = '${uniqueTopic('normalize-copy')}', 'properties.bootstrap.servers' = '${BOOTSTRAP}',
           'key.format' = 'json', 'value.format' = 'json')`,
      )
    ).await();
    await (await env.executeSql(`CREATE TEMPORARY TABLE printed (k STRING, v INT) WITH ('connector' = 'print')`)).await();
    const toCopy = (await rowsOf(env, 'EXPLAIN INSERT INTO copy SELECT k, v FROM upserts'))[0]!.fields[0] as string;
    expect(toCopy).not.toContain('ChangelogNormalize');
    const toPrint = (await rowsOf(env, 'EXPLAIN INSERT INTO printed SELECT k, v FROM upserts'))[0]!.fields[0] as string;
    expect(toPrint).toContain('ChangelogNormalize(key=[k])');
  }, 60_000);
});
