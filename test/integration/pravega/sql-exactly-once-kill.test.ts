import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControllerClient, EventStreamWriter, SegmentReader, SegmentStoreConnectionPool, tailStreamCut } from '../../../src/connectors/pravega/client/index.js';
import { keysOutOfOrder } from './connector-helpers.js';
import { CONTROLLER_URI, pravegaAvailable, uniqueName } from './pravega-env.js';

/**
 * A Pravega -> Pravega exactly-once SQL job run by the built CLI, killed with SIGKILL at random points while a writer
 * keeps appending to its input, and resumed each time with `--resume` from its newest complete checkpoint. After the
 * last run the committed output must hold every input event exactly once, each key in order.
 */
const root = join(import.meta.dirname, '..', '..', '..');
const bin = join(root, 'dist', 'bundle', 'bin.js');
const TRIALS = Number(process.env.PRAVEGA_KILL_TRIALS ?? 10);
const KEYS = Array.from({ length: 16 }, (_, i) => `k${i}`);

const available = await pravegaAvailable();

interface OutEvent {
  key: string;
  seq: number;
}

/** Every committed event of the stream, segment by segment in offset order (up to the tail at call time). */
async function readAll(controller: ControllerClient, pool: SegmentStoreConnectionPool, scope: string, stream: string): Promise<OutEvent[]> {
  const tail = await tailStreamCut(controller, pool, scope, stream);
  const out: OutEvent[] = [];
  for (const [segmentId, end] of tail.positions) {
    const reader = new SegmentReader(controller, pool, { scope, stream, segmentId }, 0, end);
    while (!reader.isFinished) {
      for (const e of (await reader.read(1024 * 1024)).events) {
        const v = JSON.parse(e.payload.toString('utf8')) as { k: string; id: number };
        out.push({ key: v.k, seq: v.id });
      }
    }
  }
  return out;
}

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

function hasCompleteCheckpoint(dir: string): boolean {
  if (!existsSync(dir)) return false;
  for (const job of readdirSync(dir, { withFileTypes: true })) {
    if (!job.isDirectory()) continue;
    for (const chk of readdirSync(join(dir, job.name))) if (chk.startsWith('chk-') && existsSync(join(dir, job.name, chk, '_metadata'))) return true;
  }
  return false;
}

describe.skipIf(!available)('exactly-once Pravega -> Pravega SQL job under SIGKILL', () => {
  const scope = uniqueName('sluiceeos');
  const dir = mkdtempSync(join(tmpdir(), 'sluice-pravega-eos-'));
  const checkpoints = join(dir, 'checkpoints');
  const sqlFile = join(dir, 'job.sql');
  let controller: ControllerClient;
  let pool: SegmentStoreConnectionPool;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    controller = new ControllerClient(CONTROLLER_URI);
    pool = new SegmentStoreConnectionPool();
    await controller.createScope(scope);
    await controller.createStream(scope, 'input', { scaling: { kind: 'fixed', segments: 3 } });
    await controller.createStream(scope, 'output', { scaling: { kind: 'fixed', segments: 1 } });
    const table = (name: string, extra: string): string =>
      `CREATE TEMPORARY TABLE ${name} (k STRING, id BIGINT) WITH ('connector' = 'pravega', 'controller-uri' = '${CONTROLLER_URI}',
         'scope' = '${scope}', 'format' = 'json', ${extra});`;
    writeFileSync(
      sqlFile,
      [
        "SET 'parallelism.default' = '2';",
        "SET 'execution.checkpointing.interval' = '500 ms';",
        `SET 'execution.checkpointing.dir' = '${checkpoints}';`,
        table('src', "'scan.streams' = 'input'"),
        table('dst', "'sink.stream' = 'output', 'sink.semantic' = 'exactly-once', 'sink.routing-key.field.name' = 'k'"),
        'INSERT INTO dst SELECT k, id FROM src;',
      ].join('\n'),
    );
  });

  afterAll(async () => {
    if (child !== undefined && child.exitCode === null) child.kill('SIGKILL');
    controller?.close();
    await pool?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Starts the job, resuming when a complete checkpoint exists; rejects if it exits on its own with an error. */
  function startJob(): { proc: ChildProcess; exited: Promise<Exit>; submitted: Promise<number>; resumed: boolean } {
    const resumed = hasCompleteCheckpoint(checkpoints);
    const args = [bin, '-f', sqlFile, ...(resumed ? ['--resume', checkpoints] : [])];
    const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    let stderr = '';
    let stdout = '';
    proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const t0 = Date.now();
    const submitted = new Promise<number>((resolve) => {
      proc.stdout!.on('data', (d: Buffer) => {
        stdout += d.toString();
        if (stdout.includes('Job ID:')) resolve(Date.now() - t0);
      });
    });
    const exited = new Promise<Exit>((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal, stderr })));
    return { proc, exited, submitted, resumed };
  }

  it(`delivers every event exactly once and in key order across ${TRIALS} kills`, { timeout: 240_000 }, async () => {
    expect(existsSync(bin), `${bin} is missing: run npm run build`).toBe(true);
    // Input keeps growing during the trials, so every run has fresh events in flight when it dies.
    const writer = await EventStreamWriter.open(controller, pool, scope, 'input');
    let next = 0;
    let writing = true;
    const writes: Promise<void>[] = [];
    const producer = (async () => {
      while (writing) {
        const batch = Array.from({ length: 2 * KEYS.length }, () => {
          const id = next++;
          const k = KEYS[id % KEYS.length]!;
          return { routingKey: k, payload: Buffer.from(JSON.stringify({ k, id })) };
        });
        writes.push(writer.writeEvents(batch));
        await new Promise((r) => setTimeout(r, 40));
      }
    })();

    const started = Date.now();
    let resumes = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      const run = startJob();
      if (run.resumed) resumes++;
      // Most kills land while the job runs (checkpoints every 500 ms, transactions open, commits in flight); one in
      // five lands while the CLI is still starting or restoring.
      // The first run lives until its first checkpoint completes, so that every later run really resumes
      // (on a loaded machine a job can take longer to reach a checkpoint than the random delay below).
      if (trial === 0) {
        while (!hasCompleteCheckpoint(checkpoints)) {
          const gone = await Promise.race([run.exited, new Promise<undefined>((r) => setTimeout(r, 100))]);
          if (gone !== undefined) throw new Error(`run 0 exited before its first checkpoint (code ${gone.code}): ${gone.stderr}`);
        }
      }
      const whileStarting = trial > 0 && Math.random() < 0.2;
      const delay = Math.floor(Math.random() * (whileStarting ? 2000 : 3500));
      const early = await Promise.race([
        run.exited,
        (whileStarting ? Promise.resolve(0) : run.submitted).then(() => new Promise<undefined>((r) => setTimeout(r, delay))),
      ]);
      if (early !== undefined) throw new Error(`run ${trial} exited by itself (code ${early.code}): ${early.stderr}`);
      run.proc.kill('SIGKILL');
      const end = await run.exited;
      if (process.env.PRAVEGA_KILL_DEBUG) console.log(`trial ${trial}: resumed=${run.resumed} starting=${whileStarting} delay=${delay} startup=${await Promise.race([run.submitted, Promise.resolve(-1)])} checkpoint=${hasCompleteCheckpoint(checkpoints)} t=${Date.now() - started}`);
      expect(end.signal).toBe('SIGKILL');
    }
    writing = false;
    await producer;
    await Promise.all(writes);
    await writer.close();
    const total = next;

    // The last run resumes and drains the input; it never ends by itself (unbounded source), so stop it once the
    // output holds as many events as the input and a few more checkpoints had the chance to add duplicates.
    // Earlier runs committed part of the output already (otherwise the kills tested nothing).
    const committedBefore = (await readAll(controller, pool, scope, 'output')).length;
    expect(committedBefore).toBeGreaterThan(0);
    const last = startJob();
    let out: OutEvent[] = [];
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      const early = await Promise.race([last.exited, new Promise<undefined>((r) => setTimeout(r, 500))]);
      if (early !== undefined) throw new Error(`last run exited by itself (code ${early.code}): ${early.stderr}`);
      out = await readAll(controller, pool, scope, 'output');
      if (out.length >= total) break;
    }
    await new Promise((r) => setTimeout(r, 1500));
    last.proc.kill('SIGKILL');
    await last.exited;
    out = await readAll(controller, pool, scope, 'output');
    console.log(`pravega exactly-once: ${TRIALS} kills, ${resumes} resumed runs, ${total} events (${committedBefore} committed before the last run), ${Math.round((Date.now() - started) / 1000)} s`);

    expect(resumes).toBeGreaterThan(TRIALS / 2);
    const counts = new Map<number, number>();
    for (const e of out) counts.set(e.seq, (counts.get(e.seq) ?? 0) + 1);
    const missing = Array.from({ length: total }, (_, i) => i).filter((i) => !counts.has(i));
    const duplicated = [...counts].filter(([, c]) => c > 1).map(([i]) => i);
    expect({ missing: missing.slice(0, 20), duplicated: duplicated.slice(0, 20), missingCount: missing.length, duplicatedCount: duplicated.length }).toEqual({
      missing: [],
      duplicated: [],
      missingCount: 0,
      duplicatedCount: 0,
    });
    expect(out.length).toBe(total);
    for (const e of out) expect(e.key).toBe(KEYS[e.seq % KEYS.length]);
    expect(keysOutOfOrder(out)).toEqual([]);
  });
});
