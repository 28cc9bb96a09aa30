// SIGTERM / SIGINT always end `sluice -f` within a bounded time, even when a job is stuck in a connector
// call: here a Kafka sink whose "broker" accepts connections and never answers, so the writer waits on the
// client's request timeouts and the job cannot stop by itself.
import { execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANCEL_GRACE_MS } from '../../src/cli/shutdown-signals.js';

const root = join(import.meta.dirname, '..', '..');
const bin = join(root, 'dist', 'bundle', 'bin.js');

interface Run {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  out: string;
  err: string;
}

function start(file: string, cwd: string): Run {
  const child = execFile(process.execPath, [bin, '-f', file], { cwd, timeout: 120_000 });
  const run: Run = { child, exited: new Promise((r) => child.on('exit', (code) => r(code))), out: '', err: '' };
  child.stdout!.on('data', (d) => (run.out += d));
  child.stderr!.on('data', (d) => (run.err += d));
  return run;
}

async function submitted(run: Run): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!/Job ID: [0-9a-f]{32}/.test(run.out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(run.out).toMatch(/Job ID: [0-9a-f]{32}/);
  // Let the sink's writer reach the silent server and wait there.
  await new Promise((r) => setTimeout(r, 1500));
}

describe('sluice -f with a job stuck on a server that never answers', () => {
  let server: Server;
  let port: number;
  const sockets = new Set<Socket>();
  let file: string;
  let dir: string;

  beforeAll(async () => {
    server = createServer((s) => {
      sockets.add(s);
      s.on('data', () => undefined);
      s.on('error', () => undefined);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
    dir = mkdtempSync(join(tmpdir(), 'sluice-signals-'));
    file = join(dir, 'job.sql');
    writeFileSync(
      file,
      "CREATE TEMPORARY TABLE gen (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '10');\n" +
        `CREATE TEMPORARY TABLE k (n BIGINT) WITH ('connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = '127.0.0.1:${port}', 'format' = 'json');\n` +
        'INSERT INTO k SELECT n FROM gen;\n',
    );
  });

  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  });

  it('exits within the grace period after SIGTERM, saying the jobs did not stop', async () => {
    const run = start(file, dir);
    await submitted(run);
    const t0 = Date.now();
    run.child.kill('SIGTERM');
    const code = await run.exited;
    const elapsed = Date.now() - t0;
    expect(code).toBe(130);
    expect(run.err).toContain('[INFO] Cancelling the running jobs... (SIGTERM again to exit at once)');
    expect(run.err).toContain(`[ERROR] The jobs did not stop within ${CANCEL_GRACE_MS / 1000} s after SIGTERM; exiting anyway`);
    // The grace period, plus a few seconds for a loaded machine; the stuck connector call alone would take minutes.
    expect(elapsed).toBeGreaterThanOrEqual(CANCEL_GRACE_MS - 500);
    expect(elapsed).toBeLessThan(CANCEL_GRACE_MS + 5_000);
  }, 90_000);

  it('exits at once on a second SIGINT', async () => {
    const run = start(file, dir);
    await submitted(run);
    run.child.kill('SIGINT');
    await new Promise((r) => setTimeout(r, 500));
    const t0 = Date.now();
    run.child.kill('SIGINT');
    const code = await run.exited;
    expect(Date.now() - t0).toBeLessThan(3_000);
    expect(code).toBe(130);
    expect(run.err).toContain('[ERROR] SIGINT again: exiting without waiting for the jobs to stop.');
  }, 90_000);
});
