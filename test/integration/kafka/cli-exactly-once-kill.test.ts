// Exactly-once through the real CLI under kill -9: a streaming job reads one topic and writes another
// with sink.delivery-guarantee = exactly-once, checkpoints every 500 ms, and is killed with SIGKILL at
// random points and resumed with `--resume <checkpoint dir>`, KAFKA_KILL_TRIALS times (default 10),
// while a feeder keeps producing input. After every kill the committed output (read_committed) must
// hold no record twice; at the end it must hold every input record exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, existsSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kafka } from 'kafkajs';
import { BOOTSTRAP, brokerAvailable, createTopic, testKafka, uniqueTopic } from './broker.js';
import { cliAvailable, startCli } from './cli-process.js';
import { CommittedLog } from './committed-log.js';
import { InputFeeder } from './input-feeder.js';

const PARTITIONS = 2;

const up = (await brokerAvailable()) && cliAvailable();
const TRIALS = Number(process.env.KAFKA_KILL_TRIALS ?? '10');
// Up to here after "submitted" the first checkpoints of a run complete (startup is slow on a busy machine).
const MAX_KILL_DELAY_MS = Number(process.env.KAFKA_KILL_MAX_DELAY_MS ?? '4500');

/** True when some job directory under `dir` holds a complete checkpoint (chk-N/_metadata). */
function hasCompleteCheckpoint(dir: string): boolean {
  if (!existsSync(dir)) return false;
  for (const job of readdirSync(dir)) {
    const jobDir = join(dir, job);
    for (const chk of existsSync(jobDir) ? readdirSync(jobDir) : []) {
      if (chk.startsWith('chk-') && existsSync(join(jobDir, chk, '_metadata'))) return true;
    }
  }
  return false;
}

/** Small deterministic PRNG so a failing run can be replayed with KAFKA_KILL_SEED. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The job: kafka `input` -> kafka `output`, exactly-once, checkpoints every 500 ms into `chk`. */
function writeJob(path: string, chk: string, input: string, output: string, parallelism: number): void {
  writeFileSync(
    path,
    `SET 'execution.checkpointing.interval' = '500 ms';
SET 'execution.checkpointing.dir' = '${chk}';
SET 'parallelism.default' = '${parallelism}';
CREATE TEMPORARY TABLE src (id BIGINT, payload STRING) WITH (
  'connector' = 'kafka', 'topic' = '${input}', 'properties.bootstrap.servers' = '${BOOTSTRAP}',
  'format' = 'json', 'scan.startup.mode' = 'earliest-offset');
CREATE TEMPORARY TABLE dst (id BIGINT, payload STRING) WITH (
  'connector' = 'kafka', 'topic' = '${output}', 'properties.bootstrap.servers' = '${BOOTSTRAP}',
  'format' = 'json', 'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = 'kill-${output}');
INSERT INTO dst SELECT id, payload FROM src;
`,
  );
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!up)('exactly-once Kafka -> Kafka through the CLI under kill -9', () => {
  let kafka: Kafka;
  let dir: string;
  const input = uniqueTopic('kill-in');
  const output = uniqueTopic('kill-out');

  beforeAll(async () => {
    kafka = testKafka();
    await createTopic(kafka, input, PARTITIONS);
    await createTopic(kafka, output, PARTITIONS);
    dir = mkdtempSync(join(tmpdir(), 'sluice-kafka-kill-'));
  });

  afterAll(() => {
    if (dir && !process.env.KAFKA_KILL_DEBUG) rmSync(dir, { recursive: true, force: true });
  });

  it(`keeps every record exactly once across ${TRIALS} SIGKILLs and resumes`, async () => {
    const seed = Number(process.env.KAFKA_KILL_SEED ?? Date.now() % 1_000_000);
    const random = mulberry32(seed);
    const chk = join(dir, 'chk');
    const job = join(dir, 'job.sql');
    writeJob(job, chk, input, output, 2);
    const args = (): string[] => ['--catalog-dir', join(dir, 'catalog'), '-f', job, ...(hasCompleteCheckpoint(chk) ? ['--resume', chk] : [])];
    if (process.env.KAFKA_KILL_DEBUG) console.log(`kill test dir: ${dir}`);
    // ~200 records/s: enough to keep transactions non-empty, little enough that a restored run catches up within its first checkpoints.
    const feeder = new InputFeeder(kafka, input, 20, 100);
    const committed = new CommittedLog(kafka, output, PARTITIONS, (v) => String((JSON.parse(v.toString()) as { id: number }).id));
    const log: string[] = [`seed ${seed}`];
    try {
      feeder.start();
      for (let trial = 0; trial < TRIALS; trial++) {
        const run = startCli(args(), dir);
        await Promise.race([run.submitted, sleep(30_000)]);
        // From "submitted" to a little past the first checkpoints: hits reading, mid-transaction,
        // between a checkpoint's completion and its commit, and the restore itself.
        const delay = Math.floor(random() * MAX_KILL_DELAY_MS);
        await sleep(delay);
        const alive = run.child.exitCode === null;
        run.child.kill('SIGKILL');
        await run.exited;
        await committed.catchUp();
        if (process.env.KAFKA_KILL_DEBUG) log.push(`  checkpoints: ${existsSync(chk) ? readdirSync(chk).map((j) => `${j}: ${readdirSync(join(chk, j)).join(',')}`).join(' | ') : '-'}`);
        log.push(`trial ${trial}: killed ${delay} ms after submit (alive: ${alive}), fed ${feeder.sent}, committed ${committed.records}`);
        if (!alive) log.push(`  exited early: ${run.stderr.slice(-500)}`);
        if (committed.duplicates().length > 0) log.push(`  resumed with: ${args().join(' ')}\n  stderr: ${run.stderr.slice(-1500)}`);
        expect(committed.duplicates(), log.join('\n')).toEqual([]);
      }
      await feeder.stop();
      const total = feeder.sent;
      const final = startCli(args(), dir);
      const complete = await committed.waitFor(() => committed.counts.size >= total, 90_000);
      final.child.kill('SIGTERM');
      await final.exited;
      await committed.catchUp();
      log.push(`final: fed ${total}, committed ${committed.records} (${committed.counts.size} distinct), complete ${complete}`);
      if (!complete) log.push(`final run stderr: ${final.stderr.slice(-2000)}`);
      console.log(log.join('\n'));
      expect(committed.duplicates(), log.join('\n')).toEqual([]);
      const missing = feeder.ids().filter((id) => !committed.counts.has(String(id)));
      expect(missing.slice(0, 20), log.join('\n')).toEqual([]);
      expect(committed.records).toBe(total);
    } finally {
      await feeder.stop();
      await committed.close();
    }
  }, 240_000);
});
