// A pre-committed Pravega transaction that the controller aborts while the job is down (its lease ran out)
// must not vanish silently: resuming fails the job with a message naming the stream, the transaction and the
// cause, unless 'sink.commit.on-lost-transaction' = 'warn' accepts the loss. A savepoint holds an uncommitted
// transaction (its committables are committed with the next checkpoint), so "savepoint, cancel, wait until
// the controller aborted it, resume" reproduces the crash window exactly.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';
import { ControllerClient, type TxnState } from '../../../src/connectors/pravega/client/index.js';
import { pravegaCommittableSerializer } from '../../../src/connectors/pravega/sink/pravega-committable.js';
import { readCheckpoint } from '../../../src/runtime/index.js';
import { LostCommittableError } from '../../../src/runtime/sink/lost-committable.js';
import type { JobClient } from '../../../src/runtime/job-client.js';
import type { Row } from '../../../src/types/row.js';
import { CONTROLLER_URI, pravegaAvailable, uniqueName } from './pravega-env.js';

const available = await pravegaAvailable();
if (!available) console.warn('Pravega not reachable: skipping the Pravega lost-transaction tests (run scripts/pravega.sh start)');

const LEASE_MS = 10_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!available)('a Pravega transaction aborted while the job was down', () => {
  const scope = uniqueName('sluicelost');
  let controller: ControllerClient;
  let dir: string;
  const envs: TableEnvironment[] = [];

  beforeAll(async () => {
    controller = new ControllerClient(CONTROLLER_URI);
    await controller.createScope(scope);
    dir = mkdtempSync(join(tmpdir(), 'sluice-pravega-lost-'));
  });
  afterAll(async () => {
    controller?.close();
    for (const e of envs) await e.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function newEnv(config: Record<string, string>): TableEnvironment {
    const env = TableEnvironment.create({ mode: 'streaming', config: { 'parallelism.default': '1', ...config } });
    envs.push(env);
    return env;
  }

  /** datagen ids 1.. at 50/s into the exactly-once stream, with a 10 s transaction lease. */
  async function startJob(stream: string, config: Record<string, string>, sinkOptions = ''): Promise<JobClient> {
    const env = newEnv(config);
    await env.executeSql(`CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '50',
      'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '100000')`);
    await env.executeSql(`CREATE TEMPORARY TABLE out_t (id BIGINT) WITH ('connector' = 'pravega', 'controller-uri' = '${CONTROLLER_URI}',
      'scope' = '${scope}', 'sink.stream' = '${stream}', 'format' = 'json', 'sink.semantic' = 'exactly-once',
      'sink.txn-lease-renewal.interval' = '${LEASE_MS} ms'${sinkOptions})`);
    return (await env.executeSql('INSERT INTO out_t SELECT id FROM gen')).getJobClient()!;
  }

  async function waitForRows(job: JobClient, n: number): Promise<void> {
    const deadline = Date.now() + 60_000;
    while ((job.metrics().vertices.at(-1)?.recordsOut ?? 0) < n && Date.now() < deadline) await sleep(50);
  }

  /** The state of the transaction the savepoint holds, polled until it is `want` (or the time is up). */
  async function awaitTransactionState(savepoint: string, want: TxnState, waitMs: number): Promise<TxnState> {
    const cp = await readCheckpoint(savepoint);
    expect(cp.committables).toHaveLength(1);
    const v = cp.committables[0]!.value;
    const c = pravegaCommittableSerializer().deserialize(v.version, v.data);
    const txn = { highBits: BigInt(c.txnHigh), lowBits: BigInt(c.txnLow) };
    const deadline = Date.now() + waitMs;
    let state = await controller.checkTransactionState(c.scope, c.stream, txn);
    while (state !== want && Date.now() < deadline) {
      await sleep(500);
      state = await controller.checkTransactionState(c.scope, c.stream, txn);
    }
    return state;
  }

  /** Rows of the stream as a bounded read sees them (committed events only). */
  async function readBack(stream: string): Promise<number[]> {
    const env = TableEnvironment.create({ mode: 'batch' });
    envs.push(env);
    await env.executeSql(`CREATE TEMPORARY TABLE back (id BIGINT) WITH ('connector' = 'pravega', 'controller-uri' = '${CONTROLLER_URI}',
      'scope' = '${scope}', 'scan.streams' = '${stream}', 'scan.execution.type' = 'batch', 'format' = 'json')`);
    const out: Row[] = [];
    for await (const r of (await env.executeSql('SELECT id FROM back')).collect()) out.push(r);
    return out.map((r) => Number(r.fields[0])).sort((a, b) => a - b);
  }

  async function savepointWithOpenTransaction(stream: string): Promise<string> {
    const job = await startJob(stream, { 'execution.checkpointing.interval': '1 h' });
    await waitForRows(job, 5);
    const savepoint = await job.triggerSavepoint(join(dir, 'sp'));
    await job.cancel();
    return savepoint;
  }

  it('fails the resumed job, naming the stream, the transaction and the lease, without restarting', async () => {
    const stream = uniqueName('lost');
    const savepoint = await savepointWithOpenTransaction(stream);
    expect(await awaitTransactionState(savepoint, 'ABORTED', 60_000)).toBe('ABORTED');

    const resumed = await startJob(stream, { 'execution.checkpointing.interval': '500 ms', 'execution.state-recovery.path': savepoint });
    const error = await resumed.waitForCompletion().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LostCommittableError);
    const message = (error as Error).message;
    expect(message).toMatch(
      new RegExp(`^Sink '[^']*out_t[^']*' cannot commit checkpoint 1: Pravega transaction [0-9a-f-]{36} on stream '${scope}/${stream}' was aborted by the Pravega controller \\(lease/timeout; state ABORTED\\)`),
    );
    expect(message).toMatch(new RegExp(`its lease 'sink.txn-lease-renewal.interval' \\(${LEASE_MS} ms\\) ran out: it was pre-committed \\d+ s ago`));
    expect(message).toContain("set 'sink.commit.on-lost-transaction' = 'warn' on the table and resume");
    expect(resumed.metrics().restarts).toBe(0);
    expect(resumed.status()).toBe('FAILED');
  }, 150_000);

  it("with 'warn', logs the lost transaction and keeps running: later events are committed", async () => {
    const stream = uniqueName('warn');
    const savepoint = await savepointWithOpenTransaction(stream);
    expect(await awaitTransactionState(savepoint, 'ABORTED', 60_000)).toBe('ABORTED');

    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (m: unknown) => void warnings.push(String(m));
    try {
      const resumed = await startJob(
        stream,
        { 'execution.checkpointing.interval': '300 ms', 'execution.state-recovery.path': savepoint },
        ", 'sink.commit.on-lost-transaction' = 'warn'",
      );
      await waitForRows(resumed, 20);
      await sleep(1000);
      expect(resumed.status()).toBe('RUNNING');
      await resumed.cancel();
    } finally {
      console.warn = warn;
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      new RegExp(
        `^\\[WARNING\\] Sink '[^']*out_t[^']*' dropped the committable of checkpoint 1 \\('sink\\.commit\\.on-lost-transaction' = 'warn'\\); its data is lost: Pravega transaction [0-9a-f-]{36} on stream '${scope}/${stream}' was aborted`,
      ),
    );
    // The rows up to the savepoint were in the lost transaction; what followed was committed, without gaps.
    const ids = await readBack(stream);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids[0]).toBeGreaterThan(5);
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => ids[0]! + i));
  }, 150_000);

  it('re-commits a transaction that was committed before the restore without any message', async () => {
    const stream = uniqueName('again');
    const first = await startJob(stream, { 'execution.checkpointing.interval': '1 h' });
    await waitForRows(first, 5);
    // stop-with-savepoint commits the savepoint's transaction before the job ends: resuming from it commits it again.
    const savepoint = await first.stopWithSavepoint(join(dir, 'sp'));
    expect(await awaitTransactionState(savepoint, 'COMMITTED', 10_000)).toBe('COMMITTED');
    const before = await readBack(stream);
    expect(before[0]).toBe(1);

    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (m: unknown) => void warnings.push(String(m));
    try {
      const resumed = await startJob(stream, { 'execution.checkpointing.interval': '300 ms', 'execution.state-recovery.path': savepoint });
      await waitForRows(resumed, 10);
      await sleep(1000);
      expect(resumed.status()).toBe('RUNNING');
      await resumed.cancel();
    } finally {
      console.warn = warn;
    }
    expect(warnings).toEqual([]);
    const ids = await readBack(stream);
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => i + 1));
    expect(ids.length).toBeGreaterThan(before.length);
  }, 150_000);
});
