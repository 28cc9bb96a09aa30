import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Terminal } from './pty-terminal.js';

/** Runs the built `sluice --web` (dist/bundle/bin.js) and talks to its REST API as a monitoring tool would. */
const root = join(import.meta.dirname, '..', '..');
const bin = join(root, 'dist', 'bundle', 'bin.js');

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The value of a Prometheus series whose line starts with `prefix` (name and the first labels). */
function sample(text: string, prefix: string): number {
  const line = text.split('\n').find((l) => l.startsWith(prefix));
  if (line === undefined) throw new Error(`No series ${prefix} in:\n${text}`);
  return Number(line.slice(line.lastIndexOf(' ') + 1));
}

let term: Terminal | undefined;
afterEach(() => term?.kill());

describe('sluice --web', () => {
  it('serves the jobs, their counters and /metrics while a job runs, and a PATCH cancel ends the run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-web-'));
    const file = join(dir, 'job.sql');
    writeFileSync(
      file,
      "CREATE TEMPORARY TABLE s (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '100');\n" +
        "CREATE TEMPORARY TABLE b (n BIGINT) WITH ('connector' = 'blackhole');\n" +
        'INSERT INTO b SELECT n FROM s;\n',
    );
    // rest.port=0: never the default 8081, which other runs on the machine may own.
    const child = spawn(process.execPath, [bin, '--web', '-D', 'rest.port=0', '-D', 'execution.checkpointing.interval=100ms', '-f', file], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      const url = await until('the REST API URL', async () => /\[INFO\] Dashboard, REST API and Prometheus metrics at (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stderr)?.[1]);
      expect(url).not.toMatch(/:8081$/);
      // The bundled CLI finds the dashboard beside its chunks (dist/bundle/ui/).
      const dashboard = await fetch(`${url}/`);
      expect(dashboard.status).toBe(200);
      expect(await dashboard.text()).toContain('<title>Sluice</title>');
      const jobId = await until('the job to run', async () => {
        const o = (await (await fetch(`${url}/jobs/overview`)).json()) as { jobs: { jid: string; state: string }[] };
        return o.jobs.find((j) => j.state === 'RUNNING')?.jid;
      });
      expect(stdout).toContain(`Job ID: ${jobId}`);

      const job = (await (await fetch(`${url}/jobs/${jobId}`)).json()) as { name: string; vertices: { id: string; parallelism: number; metrics: { 'read-records': number } }[] };
      expect(job.name).toBe('insert-into_default_catalog.default_database.b');
      expect(job.vertices.length).toBeGreaterThan(0);
      expect(job.vertices[0]!.parallelism).toBe(1);

      const series = `flink_taskmanager_job_task_numRecordsOut{job_id="${jobId}",`;
      const first = await (await fetch(`${url}/metrics`)).text();
      expect(first).toContain('# TYPE flink_taskmanager_job_task_numRecordsOut gauge');
      const before = sample(first, series);
      const after = await until('the counters to grow', async () => {
        const n = sample(await (await fetch(`${url}/metrics`)).text(), series);
        return n > before ? n : undefined;
      });
      expect(after).toBeGreaterThan(before);
      // 100 rows/s from datagen: the rate shows once the server has two samples a second apart.
      const rate = await until('a records-per-second rate', async () => {
        const r = sample(await (await fetch(`${url}/metrics`)).text(), `flink_taskmanager_job_task_numRecordsOutPerSecond{job_id="${jobId}",`);
        return r > 0 ? r : undefined;
      });
      expect(rate).toBeLessThan(1000);

      // Checkpoints complete every 100 ms and show up in both places.
      const checkpoints = await until('a completed checkpoint', async () => {
        const c = (await (await fetch(`${url}/jobs/${jobId}/checkpoints`)).json()) as { counts: { completed: number }; latest: { completed: { id: number; status: string } | null } };
        return c.counts.completed > 0 ? c : undefined;
      });
      expect(checkpoints.latest.completed).toMatchObject({ status: 'COMPLETED' });
      expect(sample(await (await fetch(`${url}/metrics`)).text(), `flink_jobmanager_job_numberOfCompletedCheckpoints{job_id="${jobId}",`)).toBeGreaterThan(0);

      const missing = await fetch(`${url}/jobs/${'0'.repeat(32)}`);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toEqual({ errors: [`Job ${'0'.repeat(32)} not found.`] });

      const cancel = await fetch(`${url}/jobs/${jobId}?mode=cancel`, { method: 'PATCH' });
      expect(cancel.status).toBe(202);
      expect(await exited).toBe(0);
      // The server went with the process.
      await expect(fetch(`${url}/jobs/overview`)).rejects.toThrow();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 90_000);

  it('serves the jobs of the interactive client too, after an init file (-i), and prints the URL first', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-web-repl-'));
    const init = join(dir, 'init.sql');
    writeFileSync(
      init,
      "CREATE TEMPORARY TABLE s (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '50');\n" +
        "CREATE TEMPORARY TABLE b (n BIGINT) WITH ('connector' = 'blackhole');\n",
    );
    term = new Terminal(dir, undefined, ['--web', '-D', 'rest.port=0', '-i', init]);
    let at = await term.waitFor(/\[INFO\] Dashboard, REST API and Prometheus metrics at http:\/\/127\.0\.0\.1:\d+\r?\n/);
    const url = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(term.screen)![1]!;
    at = await term.waitFor('Sluice SQL> ', at);
    // The init file's tables are there; the job the prompt starts is on the dashboard's list.
    term.type('INSERT INTO b SELECT n FROM s;\r');
    at = await term.waitFor(/Job ID: [0-9a-f]{32}/, at);
    const jobId = /Job ID: ([0-9a-f]{32})/.exec(term.screen)![1]!;
    const running = await until('the job to run', async () => {
      const o = (await (await fetch(`${url}/jobs/overview`)).json()) as { jobs: { jid: string; state: string; name: string }[] };
      return o.jobs.find((j) => j.jid === jobId && j.state === 'RUNNING');
    });
    expect(running.name).toBe('insert-into_default_catalog.default_database.b');
    expect((await fetch(`${url}/`)).status).toBe(200);
    expect((await fetch(`${url}/jobs/${jobId}?mode=cancel`, { method: 'PATCH' })).status).toBe(202);
    await until('the job to end', async () => {
      const o = (await (await fetch(`${url}/jobs/overview`)).json()) as { jobs: { jid: string; state: string }[] };
      return o.jobs.find((j) => j.jid === jobId && j.state === 'CANCELED');
    });
    // The session goes on: the server with it, until the client quits.
    term.type('QUIT;\r');
    await until('the server to stop with the client', async () => (await fetch(`${url}/jobs/overview`).then(() => false, () => true)) || undefined);
  }, 90_000);
});
