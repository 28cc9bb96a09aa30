// Crash trial upsert-kafka -> GROUP BY -> upsert-kafka (issue #12 item 6) through the built CLI, with the
// kill-and-resume harness of test/e2e/crash: the input topic holds many upserts and some tombstones per
// key, read to its end ('scan.bounded.mode' = 'latest-offset', so a run ends by itself); ChangelogNormalize
// and the GROUP BY keep state; the output is an exactly-once upsert-kafka topic per job copy, read
// read_committed and materialized by key. The killed-and-resumed copy must end with the table the
// failure-free copy ends with, and that table must be the COUNT/SUM of the input's final values. Small
// fetches keep the source reading for a while, so that checkpoints and kills fall amid the input.
// The same job is also resumed at other default parallelisms with a sink of its own parallelism, so that
// the sink's chaining changes between runs. CRASH_KILLS kills (default 3), CRASH_SEED replays.
import { basename } from 'node:path';
import { Partitioners, type Kafka } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toKafkaClientSettings } from '../../../src/connectors/kafka/client/kafka-properties.js';
import { KafkaPartitionSplitReader } from '../../../src/connectors/kafka/client/partition-split-reader.js';
import { TableEnvironment } from '../../../src/api/table-environment.js';
import { crashTrial, type CrashJob, type CrashSink, type Multiset, rescaleTrial, type TrialResult } from '../../e2e/crash/harness.js';
import { BOOTSTRAP, brokerAvailable, createTopic, testKafka, uniqueTopic } from './broker.js';
import { cliAvailable } from './cli-process.js';

const up = (await brokerAvailable()) && cliAvailable();
const KILLS = Number(process.env.CRASH_KILLS ?? '3');
const PARTITIONS = 2;
const RECORDS = 20_000;
const KEYS = 500;

/** The input: record i upserts key (i * 7919) % KEYS to v = i; one record in 97 is a tombstone instead. */
function inputRecords(): { key: number; v: number | null }[] {
  return Array.from({ length: RECORDS }, (_, i) => ({ key: (i * 7919) % KEYS, v: i % 97 === 0 ? null : i }));
}

/** COUNT and SUM per v % 10 over the last value of every key still present, as the sink writes them. */
function expectedTable(): string[] {
  const last = new Map<number, number | null>();
  for (const r of inputRecords()) last.set(r.key, r.v);
  const groups = new Map<number, { c: number; s: number }>();
  for (const v of last.values()) {
    if (v === null) continue;
    const g = groups.get(v % 10) ?? { c: 0, s: 0 };
    g.c++;
    g.s += v;
    groups.set(v % 10, g);
  }
  return [...groups].map(([g, { c, s }]) => JSON.stringify({ g, c, s })).sort();
}

/** EXPLAIN CHANGELOG_MODE of `INSERT INTO crash_sink <query>` after `ddl` (planning only: nothing connects). */
async function explainChangelog(ddl: readonly string[], query: string): Promise<string> {
  const env = TableEnvironment.create({ mode: 'streaming', discoverPackages: false });
  try {
    for (const d of ddl) await env.executeSql(d);
    const lines: string[] = [];
    for await (const row of (await env.executeSql(`EXPLAIN CHANGELOG_MODE INSERT INTO crash_sink ${query}`)).collect()) lines.push(String(row.fields[0]));
    return lines.join('\n');
  } finally {
    await env.close();
  }
}

const outputTopic = (dir: string): string => `sluice-crash-${basename(dir)}`;

/** The committed records of an upsert topic, materialized: the last value per key, tombstones delete. */
async function materializeTopic(topic: string): Promise<Multiset> {
  const s = toKafkaClientSettings({ 'bootstrap.servers': BOOTSTRAP, 'fetch.max.wait.ms': '100', 'isolation.level': 'read_committed' });
  const reader = new KafkaPartitionSplitReader(testKafka(), { fetch: s.fetch, isolationLevel: 'read_committed', autoOffsetReset: 'earliest' });
  reader.addSplits(Array.from({ length: PARTITIONS }, (_, partition) => ({ topic, partition, startingOffset: 0n })));
  const table = new Map<string, string>();
  try {
    for (let empty = 0; empty < 2; ) {
      const r = await reader.fetch();
      let n = 0;
      for (const split of r.splits) {
        for (const m of split.records) {
          n++;
          const key = m.key?.toString() ?? '';
          if (m.value === null) table.delete(key);
          else table.set(key, m.value.toString());
        }
      }
      empty = n === 0 ? empty + 1 : 0;
    }
  } finally {
    await reader.close();
  }
  const rows: Multiset = new Map();
  for (const v of table.values()) rows.set(v, (rows.get(v) ?? 0) + 1);
  return rows;
}

describe.skipIf(!up)('upsert-kafka -> GROUP BY -> upsert-kafka under SIGKILL and --resume', () => {
  let kafka: Kafka;
  const input = uniqueTopic('crash-upsert-in');
  const created: string[] = [];

  beforeAll(async () => {
    kafka = testKafka();
    await createTopic(kafka, input, PARTITIONS);
    const producer = kafka.producer({ allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    try {
      const records = inputRecords();
      for (let i = 0; i < records.length; i += 5000) {
        await producer.send({
          topic: input,
          acks: -1,
          messages: records.slice(i, i + 5000).map((r) => ({
            key: JSON.stringify({ k: r.key }),
            value: r.v === null ? null : JSON.stringify({ k: r.key, v: r.v }),
          })),
        });
      }
    } finally {
      await producer.disconnect();
    }
  }, 120_000);

  afterAll(async () => {
    if (!kafka) return;
    const admin = kafka.admin();
    await admin.connect();
    try {
      await admin.deleteTopics({ topics: [input, ...created] }).catch(() => undefined);
    } finally {
      await admin.disconnect();
    }
  });

  /**
   * The job; `sinkOptions` are added to the sink's WITH clause. With `g` BIGINT the sink casts the group key (INT, as
   * MOD's second operand), which hides the upsert key, so the aggregate sends -U and the sink drops it; with `g` INT
   * the sink takes the aggregate's updates by key and the aggregate sends none (changelogMode=[I,UA,D]).
   */
  const job = (sinkOptions = '', keyType = 'BIGINT'): CrashJob => ({
    name: 'upsert-kafka-group-by',
    sources: `CREATE TEMPORARY TABLE src (k BIGINT, v BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${input}', 'properties.bootstrap.servers' = '${BOOTSTRAP}',
  'key.format' = 'json', 'value.format' = 'json', 'scan.bounded.mode' = 'latest-offset',
  'properties.max.poll.records' = '100', 'properties.max.partition.fetch.bytes' = '4096');`,
    sinkColumns: `g ${keyType}, c BIGINT, s BIGINT, PRIMARY KEY (g) NOT ENFORCED`,
    query: 'SELECT v % 10, COUNT(*), SUM(v) FROM src GROUP BY v % 10',
    output: {
      ddl: (dir, columns) => `CREATE TEMPORARY TABLE crash_sink (${columns}) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${outputTopic(dir)}', 'properties.bootstrap.servers' = '${BOOTSTRAP}',
  'key.format' = 'json', 'value.format' = 'json',
  'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = '${outputTopic(dir)}'${sinkOptions})`,
      prepare: async (dir) => {
        created.push(outputTopic(dir));
        await createTopic(kafka, outputTopic(dir), PARTITIONS);
      },
      read: (dir) => materializeTopic(outputTopic(dir)),
    },
  });

  /** The killed run's table is the failure-free run's, and that one is the COUNT/SUM of the input's final values. */
  const expectExact = (r: TrialResult, minKills: number): void => {
    const log = r.log.join('\n');
    if (process.env.CRASH_DEBUG) console.log(log);
    expect(r.kills).toBeGreaterThanOrEqual(minKills);
    expect({ extra: r.extra.slice(0, 10), missing: r.missing.slice(0, 10), negative: r.negative }, log).toEqual({ extra: [], missing: [], negative: [] });
    // As in Flink, a GROUP BY over an upsert source counts each key's last value once (ChangelogNormalize).
    const reference = [...r.reference].flatMap(([row, n]) => Array<string>(n).fill(row)).sort();
    expect(reference.map((row) => JSON.stringify(JSON.parse(row)))).toEqual(expectedTable());
  };

  const seed = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);

  it(`commits the failure-free run's table across ${KILLS} kills`, async () => {
    const r = await crashTrial(job(), { kills: KILLS, seed, checkpointIntervalMs: 300, keepDirs: Boolean(process.env.CRASH_DEBUG) });
    expectExact(r, KILLS);
  }, 400_000);

  it(`commits the failure-free run's table across ${KILLS} kills when the aggregate sends updates without -U`, async () => {
    const j = job('', 'INT');
    const sink = j.output as CrashSink;
    const explained = await explainChangelog([j.sources.replace(/;\s*$/, ''), sink.ddl('/tmp/explain-only', j.sinkColumns)], j.query);
    expect(explained).toContain('GroupAggregate(groupBy=[$f0], select=[$f0, COUNT(*) AS EXPR$1, SUM(v) AS EXPR$2], changelogMode=[I,UA,D])');
    const r = await crashTrial(j, { kills: KILLS, seed, checkpointIntervalMs: 300, keepDirs: Boolean(process.env.CRASH_DEBUG) });
    expectExact(r, KILLS);
  }, 400_000);

  // The sink keeps 'sink.parallelism' 2 while 'parallelism.default' goes 2 -> 3 -> 2: chained to the GROUP
  // BY, then a task of its own, then chained again. Its transactions (writer state and committables) and
  // the aggregate's state must follow their vertices (docs/state-format.md, state by vertex).
  it('commits the failure-free run\'s table when the sink\'s chaining changes between resumes (sink.parallelism 2, parallelism.default 2 -> 3 -> 2)', async () => {
    const r = await rescaleTrial(job(`, 'sink.parallelism' = '2'`), { parallelisms: [2, 3, 2], seed, checkpointIntervalMs: 300, keepDirs: Boolean(process.env.CRASH_DEBUG) });
    expectExact(r, 2);
  }, 400_000);
});
