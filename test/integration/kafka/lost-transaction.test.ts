// A pre-committed Kafka transaction that the broker aborts while the job is down (its
// transaction.timeout.ms passed) must not vanish silently: resuming fails the job with a message naming
// the transaction and the cause, unless 'sink.commit.on-lost-transaction' = 'warn' accepts the loss.
// A savepoint holds an uncommitted transaction (a savepoint's committables are committed with the next
// checkpoint), so "savepoint, cancel, wait past the timeout, resume" reproduces the crash window exactly.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kafka } from 'kafkajs';
import { TableEnvironment } from '../../../src/api/table-environment.js';
import { KafkaPartitionSplitReader } from '../../../src/connectors/kafka/client/partition-split-reader.js';
import { toKafkaClientSettings } from '../../../src/connectors/kafka/client/kafka-properties.js';
import { createCluster, ISOLATION_LEVEL } from '../../../src/connectors/kafka/client/kafkajs-internals.js';
import { LostCommittableError } from '../../../src/runtime/sink/lost-committable.js';
import type { JobClient } from '../../../src/runtime/job-client.js';
import { BOOTSTRAP, brokerAvailable, createTopic, produce, testKafka, uniqueTopic } from './broker.js';
import { cliAvailable, runCli } from './cli-process.js';

const up = await brokerAvailable();
const TXN_TIMEOUT_MS = 2000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The values of `topic` partition 0 below `stop` as a read_committed reader sees them, or undefined if the
 * reader cannot get there within `waitMs` (an open transaction holds the last stable offset back).
 */
async function committedValues(kafka: Kafka, topic: string, stop: bigint, waitMs: number): Promise<string[] | undefined> {
  const s = toKafkaClientSettings({ 'bootstrap.servers': BOOTSTRAP, 'fetch.max.wait.ms': '200', 'isolation.level': 'read_committed' });
  const reader = new KafkaPartitionSplitReader(kafka, { fetch: s.fetch, isolationLevel: s.isolationLevel, autoOffsetReset: 'none' });
  const out: string[] = [];
  try {
    reader.addSplits([{ topic, partition: 0, startingOffset: 0n, stoppingOffset: stop }]);
    const deadline = Date.now() + waitMs;
    while (Date.now() < deadline) {
      const r = await reader.fetch();
      for (const sp of r.splits) for (const m of sp.records) out.push(m.value?.toString() ?? '');
      if (r.finishedSplits.length > 0) return out;
    }
    return undefined;
  } finally {
    await reader.close();
  }
}

/** The end of `topic` partition 0 as a read_uncommitted client sees it: open transactions included. */
async function highWatermark(kafka: Kafka, topic: string): Promise<bigint> {
  const cluster = createCluster(kafka, { isolationLevel: ISOLATION_LEVEL.READ_UNCOMMITTED });
  await cluster.connect();
  try {
    await cluster.addMultipleTargetTopics([topic]);
    const list = cluster as unknown as {
      fetchTopicsOffset(t: { topic: string; partitions: { partition: number }[]; fromBeginning: boolean }[]): Promise<{ partitions: { offset: string }[] }[]>;
    };
    const [t] = await list.fetchTopicsOffset([{ topic, partitions: [{ partition: 0 }], fromBeginning: false }]);
    return BigInt(t!.partitions[0]!.offset);
  } finally {
    await cluster.disconnect();
  }
}

describe.skipIf(!up)('a Kafka transaction aborted while the job was down', () => {
  let kafka: Kafka;
  let dir: string;
  const envs: TableEnvironment[] = [];

  beforeAll(() => {
    kafka = testKafka();
    dir = mkdtempSync(join(tmpdir(), 'sluice-kafka-lost-'));
  });

  afterAll(async () => {
    await Promise.all(envs.map((e) => e.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  async function startJob(input: string, output: string, prefix: string, config: Record<string, string>, sinkOptions = ''): Promise<JobClient> {
    const env = TableEnvironment.create({ mode: 'streaming', config });
    envs.push(env);
    await env.executeSql(`CREATE TEMPORARY TABLE src (v STRING) WITH ('connector' = 'kafka', 'topic' = '${input}',
      'properties.bootstrap.servers' = '${BOOTSTRAP}', 'format' = 'raw', 'scan.startup.mode' = 'earliest-offset')`);
    await env.executeSql(`CREATE TEMPORARY TABLE dst (v STRING) WITH ('connector' = 'kafka', 'topic' = '${output}',
      'properties.bootstrap.servers' = '${BOOTSTRAP}', 'format' = 'raw', 'sink.delivery-guarantee' = 'exactly-once',
      'sink.transactional-id-prefix' = '${prefix}', 'properties.transaction.timeout.ms' = '${TXN_TIMEOUT_MS}'${sinkOptions})`);
    return (await env.executeSql('INSERT INTO dst SELECT v FROM src')).getJobClient()!;
  }

  /** Runs until the sink wrote `n` rows, takes a savepoint, cancels; the savepoint's transaction stays open. */
  async function savepointWithOpenTransaction(input: string, output: string, prefix: string, n: number): Promise<string> {
    const job = await startJob(input, output, prefix, { 'execution.checkpointing.interval': '1 h', 'parallelism.default': '1' });
    const deadline = Date.now() + 60_000;
    while ((job.metrics().vertices.at(-1)?.recordsOut ?? 0) < n && Date.now() < deadline) await sleep(50);
    const savepoint = await job.triggerSavepoint(join(dir, 'sp'));
    await job.cancel();
    return savepoint;
  }

  it('fails the resumed job, naming the transaction and the timeout, without restarting', async () => {
    const input = uniqueTopic('lost-in');
    const output = uniqueTopic('lost-out');
    const prefix = `lost-${output}`;
    await createTopic(kafka, input, 1);
    await createTopic(kafka, output, 1);
    await produce(kafka, input, 0, ['a', 'b', 'c']);
    const savepoint = await savepointWithOpenTransaction(input, output, prefix, 3);
    const written = await highWatermark(kafka, output);
    expect(written).toBe(3n);
    // The read_committed reader gets past the three records only once the broker aborted their transaction.
    expect(await committedValues(kafka, output, written, 40_000)).toEqual([]);

    const resumed = await startJob(input, output, prefix, {
      'execution.checkpointing.interval': '500 ms',
      'execution.state-recovery.path': savepoint,
      'parallelism.default': '1',
    });
    const error = await resumed.waitForCompletion().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LostCommittableError);
    const message = (error as Error).message;
    expect(message).toMatch(/^Sink '[^']*dst[^']*' cannot commit checkpoint 1: Kafka transaction 'lost-[^']+-0-1' \(producer id \d+, epoch \d+\) can no longer be committed/);
    expect(message).toContain(`the broker aborted it because 'transaction.timeout.ms' (${TXN_TIMEOUT_MS} ms) is shorter than the time the job was down`);
    expect(message).toContain("set 'sink.commit.on-lost-transaction' = 'warn' on the table and resume");
    // Checkpointing on means exponential-delay restarts by default; a lost transaction must not loop through them.
    expect(resumed.metrics().restarts).toBe(0);
    expect(resumed.status()).toBe('FAILED');
  }, 150_000);

  it.skipIf(!cliAvailable())('sluice -f resuming into the lost transaction prints the message and exits non-zero', async () => {
    const input = uniqueTopic('cli-in');
    const output = uniqueTopic('cli-out');
    const prefix = `cli-${output}`;
    await createTopic(kafka, input, 1);
    await createTopic(kafka, output, 1);
    await produce(kafka, input, 0, ['a']);
    const savepoint = await savepointWithOpenTransaction(input, output, prefix, 1);
    expect(await committedValues(kafka, output, 1n, 40_000)).toEqual([]);
    const job = join(dir, `${output}.sql`);
    writeFileSync(
      job,
      `SET 'execution.checkpointing.interval' = '500 ms';
SET 'execution.state-recovery.path' = '${savepoint}';
CREATE TEMPORARY TABLE src (v STRING) WITH ('connector' = 'kafka', 'topic' = '${input}', 'properties.bootstrap.servers' = '${BOOTSTRAP}',
  'format' = 'raw', 'scan.startup.mode' = 'earliest-offset');
CREATE TEMPORARY TABLE dst (v STRING) WITH ('connector' = 'kafka', 'topic' = '${output}', 'properties.bootstrap.servers' = '${BOOTSTRAP}',
  'format' = 'raw', 'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = '${prefix}',
  'properties.transaction.timeout.ms' = '${TXN_TIMEOUT_MS}');
INSERT INTO dst SELECT v FROM src;
`,
    );
    const run = await runCli(['--catalog-dir', join(dir, 'catalog'), '-f', job], dir, 90_000);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/\[ERROR\] Job [0-9a-f]{32} \(.*\) failed\./);
    expect(run.stderr).toMatch(/cannot commit checkpoint 1: Kafka transaction 'cli-[^']+-0-1' \(producer id \d+, epoch \d+\) can no longer be committed/);
    expect(run.stderr).toContain("set 'sink.commit.on-lost-transaction' = 'warn' on the table and resume");
  }, 150_000);

  it("with 'warn', logs the lost transaction and keeps running: later records are committed", async () => {
    const input = uniqueTopic('warn-in');
    const output = uniqueTopic('warn-out');
    const prefix = `warn-${output}`;
    await createTopic(kafka, input, 1);
    await createTopic(kafka, output, 1);
    await produce(kafka, input, 0, ['a', 'b']);
    const savepoint = await savepointWithOpenTransaction(input, output, prefix, 2);
    expect(await committedValues(kafka, output, 2n, 40_000)).toEqual([]);

    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (m: unknown) => void warnings.push(String(m));
    try {
      const resumed = await startJob(
        input,
        output,
        prefix,
        { 'execution.checkpointing.interval': '300 ms', 'execution.state-recovery.path': savepoint, 'parallelism.default': '1' },
        ", 'sink.commit.on-lost-transaction' = 'warn'",
      );
      await produce(kafka, input, 0, ['c', 'd']);
      // 2 lost records, an abort marker, then c and d in a later, committed transaction.
      let seen: string[] | undefined;
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        seen = await committedValues(kafka, output, await highWatermark(kafka, output), 2_000);
        if (seen !== undefined && seen.length >= 2) break;
        await sleep(200);
      }
      expect(resumed.status()).toBe('RUNNING');
      await resumed.cancel();
      expect(seen).toEqual(['c', 'd']);
    } finally {
      console.warn = warn;
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^\[WARNING\] Sink '[^']*dst[^']*' dropped the committable of checkpoint 1 \('sink\.commit\.on-lost-transaction' = 'warn'\); its data is lost: Kafka transaction 'warn-[^']+-0-1'/,
    );
    expect(warnings[0]).toContain(`'transaction.timeout.ms' (${TXN_TIMEOUT_MS} ms) is shorter than the time the job was down`);
  }, 150_000);

  it('re-commits a transaction that was committed before the restore without any message', async () => {
    const input = uniqueTopic('again-in');
    const output = uniqueTopic('again-out');
    const prefix = `again-${output}`;
    await createTopic(kafka, input, 1);
    await createTopic(kafka, output, 1);
    await produce(kafka, input, 0, ['x', 'y']);
    const first = await startJob(input, output, prefix, { 'execution.checkpointing.interval': '1 h', 'parallelism.default': '1' });
    const deadline = Date.now() + 60_000;
    while ((first.metrics().vertices.at(-1)?.recordsOut ?? 0) < 2 && Date.now() < deadline) await sleep(50);
    // stop-with-savepoint commits the savepoint's transaction before the job ends: resuming from it commits it again.
    const savepoint = await first.stopWithSavepoint(join(dir, 'sp'));
    expect(await committedValues(kafka, output, 2n, 10_000)).toEqual(['x', 'y']);
    await sleep(TXN_TIMEOUT_MS + 1000);

    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (m: unknown) => void warnings.push(String(m));
    try {
      const resumed = await startJob(input, output, prefix, {
        'execution.checkpointing.interval': '300 ms',
        'execution.state-recovery.path': savepoint,
        'parallelism.default': '1',
      });
      await produce(kafka, input, 0, ['z']);
      let seen: string[] | undefined;
      const until = Date.now() + 60_000;
      while (Date.now() < until) {
        seen = await committedValues(kafka, output, await highWatermark(kafka, output), 2_000);
        if (seen !== undefined && seen.length >= 3) break;
        await sleep(200);
      }
      expect(resumed.status()).toBe('RUNNING');
      await resumed.cancel();
      expect(seen).toEqual(['x', 'y', 'z']);
    } finally {
      console.warn = warn;
    }
    expect(warnings).toEqual([]);
  }, 150_000);
});
