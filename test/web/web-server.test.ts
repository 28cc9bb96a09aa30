import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';
import { ExecutionError, ValidationError } from '../../src/errors/sluice-error.js';
import { DataTypes } from '../../src/types/data-types.js';

async function getJson(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(url);
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

describe('TableEnvironment with web', () => {
  it('serves the REST API over HTTP on a free port while a job runs, and stops serving on close', async () => {
    const env = TableEnvironment.create({ web: { port: 0 }, discoverPackages: false });
    const url = await env.getWebUrl();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(url).not.toBe('http://127.0.0.1:0');
    await env.executeSql("CREATE TEMPORARY TABLE s (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '200')");
    await env.executeSql("CREATE TEMPORARY TABLE b (n BIGINT) WITH ('connector' = 'blackhole')");
    const job = (await env.executeSql('INSERT INTO b SELECT n FROM s')).getJobClient()!;
    const overview = await getJson(`${url}/jobs/overview`);
    expect(overview.status).toBe(200);
    expect(overview.body.jobs).toEqual([expect.objectContaining({ jid: job.jobId, state: 'RUNNING', 'end-time': -1 })]);
    const missing = await getJson(`${url}/jobs/${'0'.repeat(32)}`);
    expect(missing.status).toBe(404);
    expect(missing.body.errors).toEqual([`Job ${'0'.repeat(32)} not found.`]);
    const metrics = await fetch(`${url}/metrics`);
    expect(metrics.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(await metrics.text()).toContain(`flink_jobmanager_job_numRestarts{job_id="${job.jobId}"`);
    const cancel = await fetch(`${url}/jobs/${job.jobId}?mode=cancel`, { method: 'PATCH' });
    expect(cancel.status).toBe(202);
    expect((await job.waitForCompletion()).status).toBe('CANCELED');
    const after = await getJson(`${url}/jobs/${job.jobId}`);
    expect(after.body.state).toBe('CANCELED');
    expect(after.body['end-time']).toBeGreaterThan(0);
    await env.close();
    await expect(fetch(`${url}/jobs/overview`)).rejects.toThrow();
  });

  it("serves the SQL, EXPLAIN plan and masked configuration a running job was submitted with", async () => {
    const env = TableEnvironment.create({ web: { port: 0 }, config: { 'parallelism.default': '2', 'fs.s3a.secret.key': 'hunter2' }, discoverPackages: false });
    const url = await env.getWebUrl();
    await env.executeSql("CREATE TEMPORARY TABLE s (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '50')");
    await env.executeSql("CREATE TEMPORARY TABLE b (n BIGINT) WITH ('connector' = 'blackhole')");
    const job = (await env.executeSql('INSERT INTO b SELECT n * 2 FROM s WHERE n > 0')).getJobClient()!;
    const sql = (await getJson(`${url}/jobs/${job.jobId}/sql`)).body as { sql: string; explain: string };
    expect(sql.sql).toBe('INSERT INTO `b`\nSELECT `n` * 2\nFROM `s`\nWHERE `n` > 0;');
    const explained = (await env.executeSql('EXPLAIN INSERT INTO b SELECT n * 2 FROM s WHERE n > 0')).collect();
    let expected = '';
    for await (const row of explained) expected = String(row.fields[0]);
    expect(sql.explain).toBe(expected);
    // A SET after submission does not change what the job was submitted with.
    await env.executeSql("SET 'pipeline.name' = 'later'");
    const config = (await getJson(`${url}/jobs/${job.jobId}/config`)).body as { 'execution-config': { 'job-parallelism': number; 'user-config': Record<string, string> } };
    expect(config['execution-config']['job-parallelism']).toBe(2);
    expect(config['execution-config']['user-config']).toMatchObject({ 'parallelism.default': '2', 'fs.s3a.secret.key': '******' });
    expect(config['execution-config']['user-config']['pipeline.name']).toBeUndefined();
    const plan = (await getJson(`${url}/jobs/${job.jobId}/plan`)).body as { plan: { type: string; nodes: unknown[] } };
    expect(plan.plan.type).toBe('STREAMING');
    expect(plan.plan.nodes.length).toBeGreaterThan(0);
    await job.cancel();
    // A statement set is one job, shown as the statement set it was.
    const set = (await env.executeSql('EXECUTE STATEMENT SET BEGIN INSERT INTO b SELECT n FROM s; INSERT INTO b SELECT n + 1 FROM s; END')).getJobClient()!;
    const setSql = (await getJson(`${url}/jobs/${set.jobId}/sql`)).body as { sql: string };
    expect(setSql.sql).toBe('EXECUTE STATEMENT SET\nBEGIN\nINSERT INTO `b`\nSELECT `n`\nFROM `s`;\nINSERT INTO `b`\nSELECT `n` + 1\nFROM `s`;\nEND;');
    await set.cancel();
    await env.close();
  });

  it('keeps each failure of a restarting job in the exception history, with the subtask that failed', async () => {
    const env = TableEnvironment.create({ web: { port: 0 }, discoverPackages: false });
    const url = await env.getWebUrl();
    let calls = 0;
    env.createTemporarySystemFunction('explode', {
      eval: (v: bigint) => {
        calls++;
        throw new Error(`injected failure ${calls} at ${v}`);
      },
      argumentTypes: [DataTypes.BIGINT()],
      resultType: DataTypes.BIGINT(),
      deterministic: false,
    });
    for (const stmt of [
      "SET 'restart-strategy.type' = 'fixed-delay'",
      "SET 'restart-strategy.fixed-delay.attempts' = '1'",
      "SET 'restart-strategy.fixed-delay.delay' = '10 ms'",
      "CREATE TEMPORARY TABLE s (n BIGINT) WITH ('connector' = 'datagen', 'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '100')",
      "CREATE TEMPORARY TABLE b (n BIGINT) WITH ('connector' = 'blackhole')",
    ]) {
      await env.executeSql(stmt);
    }
    const before = Date.now();
    const job = (await env.executeSql('INSERT INTO b SELECT explode(n) FROM s')).getJobClient()!;
    await expect(job.waitForCompletion()).rejects.toThrow();
    type History = { entries: { exceptionName: string; stacktrace: string; timestamp: number; taskName: string | null }[]; truncated: boolean };
    const ex = (await getJson(`${url}/jobs/${job.jobId}/exceptions`)).body as { 'root-exception': string; exceptionHistory: History };
    // One restart allowed: the first failure restarted the job, the second failed it.
    const { entries } = ex.exceptionHistory;
    expect(entries.map((e) => e.stacktrace.split('\n')[0])).toEqual([expect.stringMatching(/injected failure 2 at 1$/), expect.stringMatching(/injected failure 1 at 1$/)]);
    expect(ex.exceptionHistory.truncated).toBe(false);
    expect(entries[0]!.timestamp).toBeGreaterThanOrEqual(entries[1]!.timestamp);
    expect(entries[1]!.timestamp).toBeGreaterThanOrEqual(before);
    for (const e of entries) expect(e.taskName).toMatch(/^TableSourceScan\(.* -> Sink\(.* \(1\/1\)$/);
    expect(ex['root-exception']).toContain('injected failure 2 at 1');
    const checkpoints = (await getJson(`${url}/jobs/${job.jobId}/checkpoints`)).body as { restarts: number };
    expect(checkpoints.restarts).toBe(1);
    await env.close();
  });

  it('stops a job with a savepoint into targetDirectory over POST /jobs/<id>/stop, and reports where it went', async () => {
    const env = TableEnvironment.create({ web: { port: 0 }, config: { 'execution.checkpointing.interval': '1 h' }, discoverPackages: false });
    const url = await env.getWebUrl();
    await env.executeSql("CREATE TEMPORARY TABLE s (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '200')");
    await env.executeSql("CREATE TEMPORARY TABLE b (n BIGINT) WITH ('connector' = 'blackhole')");
    const job = (await env.executeSql('INSERT INTO b SELECT n FROM s')).getJobClient()!;
    const dir = mkdtempSync(join(tmpdir(), 'sluice-web-sp-'));
    const r = await fetch(`${url}/jobs/${job.jobId}/stop`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ targetDirectory: dir }) });
    expect(r.status).toBe(202);
    const trigger = ((await r.json()) as { 'request-id': string })['request-id'];
    let status: { status: { id: string }; operation?: { location?: string } };
    do {
      await new Promise((res) => setTimeout(res, 20));
      status = (await getJson(`${url}/jobs/${job.jobId}/savepoints/${trigger}`)).body as typeof status;
    } while (status.status.id === 'IN_PROGRESS');
    expect(status.status.id).toBe('COMPLETED');
    const location = status.operation!.location!;
    expect(location.startsWith(join(dir, 'savepoint-'))).toBe(true);
    expect(existsSync(join(location, '_metadata'))).toBe(true);
    expect((await job.waitForCompletion()).savepointPath).toBe(location);
    const checkpoints = (await getJson(`${url}/jobs/${job.jobId}/checkpoints`)).body as { latest: { savepoint: { external_path: string; is_savepoint: boolean } } };
    expect(checkpoints.latest.savepoint).toMatchObject({ is_savepoint: true, external_path: location });
    // A job started from the savepoint says so.
    await env.executeSql(`SET 'execution.state-recovery.path' = '${location}'`);
    const resumed = (await env.executeSql('INSERT INTO b SELECT n FROM s')).getJobClient()!;
    let restored: unknown = null;
    for (let i = 0; i < 200 && restored === null; i++) {
      restored = ((await getJson(`${url}/jobs/${resumed.jobId}/checkpoints`)).body as { latest: { restored: unknown } }).latest.restored;
      if (restored === null) await new Promise((res) => setTimeout(res, 20));
    }
    expect(restored).toEqual({ id: expect.any(Number), restore_timestamp: expect.any(Number), is_savepoint: true, external_path: location });
    expect(((await getJson(`${url}/jobs/${job.jobId}/checkpoints`)).body as { latest: { restored: unknown } }).latest.restored).toBeNull();
    await resumed.cancel();
    await env.close();
  });

  it('shows a running job\'s graph edges, its subtasks\' watermarks and back-pressure from the real runtime', async () => {
    const env = TableEnvironment.create({ web: { port: 0 }, config: { 'parallelism.default': '2' }, discoverPackages: false });
    const url = await env.getWebUrl();
    await env.executeSql(`CREATE TEMPORARY TABLE s (k INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)
      WITH ('connector' = 'datagen', 'rows-per-second' = '500', 'fields.k.min' = '1', 'fields.k.max' = '5')`);
    await env.executeSql("CREATE TEMPORARY TABLE b (k INT, c BIGINT) WITH ('connector' = 'blackhole')");
    const job = (await env.executeSql('INSERT INTO b SELECT k, COUNT(*) FROM s GROUP BY k, TUMBLE(ts, INTERVAL \'1\' SECOND)')).getJobClient()!;
    type Plan = { plan: { nodes: { id: string; parallelism: number; inputs?: { id: string; ship_strategy: string }[] }[] } };
    const { nodes } = ((await getJson(`${url}/jobs/${job.jobId}`)).body as unknown as Plan).plan;
    expect(nodes.length).toBeGreaterThanOrEqual(2);
    const [source, ...rest] = nodes;
    expect(source!.inputs).toBeUndefined();
    expect(rest.at(-1)!.inputs).toEqual([expect.objectContaining({ ship_strategy: 'HASH' })]);
    const downstream = rest.at(-1)!.id;
    let watermarks: { id: string; value: string }[] = [];
    for (let i = 0; i < 100; i++) {
      watermarks = (await getJson(`${url}/jobs/${job.jobId}/vertices/${downstream}/watermarks`)).body as unknown as typeof watermarks;
      if (watermarks.every((w) => Number(w.value) > 0)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(watermarks.map((w) => w.id)).toEqual(['0.currentInputWatermark', '1.currentInputWatermark']);
    // The generated timestamps are around now; the watermark trails them by the one-second delay.
    for (const w of watermarks) expect(Math.abs(Number(w.value) - Date.now())).toBeLessThan(60_000);
    const pools = (await getJson(`${url}/jobs/${job.jobId}/vertices/${source!.id}/metrics?get=0.buffers.outPoolUsage,1.isBackPressured`)).body as unknown as { id: string; value: string }[];
    expect(pools.map((p) => p.id)).toEqual(['0.buffers.outPoolUsage', '1.isBackPressured']);
    expect(Number(pools[0]!.value)).toBeGreaterThanOrEqual(0);
    expect(Number(pools[0]!.value)).toBeLessThanOrEqual(1);
    const bp = (await getJson(`${url}/jobs/${job.jobId}/vertices/${source!.id}/backpressure`)).body as { status: string; subtasks: unknown[] };
    expect(bp.status).toBe('ok');
    expect(bp.subtasks).toHaveLength(2);
    await job.cancel();
    await env.close();
  });

  it('measures busy time where the work is, and each checkpoint\'s alignment, from the real runtime', async () => {
    const env = TableEnvironment.create({ web: { port: 0 }, config: { 'parallelism.default': '2', 'execution.checkpointing.interval': '300 ms' }, discoverPackages: false });
    const url = await env.getWebUrl();
    // 2 ms of synchronous work per row, 100 rows/s per subtask: about 200 ms of every second busy in the source's chain.
    env.createTemporarySystemFunction('slow', {
      eval: (v: bigint) => {
        const end = performance.now() + 2;
        while (performance.now() < end) {
          // busy on purpose
        }
        return v;
      },
      argumentTypes: [DataTypes.BIGINT()],
      resultType: DataTypes.BIGINT(),
      deterministic: false,
    });
    await env.executeSql("CREATE TEMPORARY TABLE s (k INT, n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '200', 'fields.k.min' = '1', 'fields.k.max' = '5')");
    await env.executeSql("CREATE TEMPORARY TABLE b (k INT, c BIGINT) WITH ('connector' = 'blackhole')");
    const job = (await env.executeSql('INSERT INTO b SELECT k, COUNT(m) FROM (SELECT k, slow(n) AS m FROM s) GROUP BY k')).getJobClient()!;
    type Live = { vertices: { id: string; subtasks: { busyTimeMsPerSecond: number | null; backPressuredTimeMsPerSecond: number | null; idleTimeMsPerSecond: number | null }[] }[] };
    // The server samples every second and looks back 5 s.
    await new Promise((r) => setTimeout(r, 3500));
    const live = (await getJson(`${url}/jobs/${job.jobId}/live`)).body as unknown as Live;
    const [source, agg] = live.vertices;
    for (const s of [...source!.subtasks, ...agg!.subtasks]) {
      expect(s.busyTimeMsPerSecond! + s.backPressuredTimeMsPerSecond! + s.idleTimeMsPerSecond!).toBe(1000);
    }
    const busiest = (v: Live['vertices'][number]): number => Math.max(...v.subtasks.map((s) => s.busyTimeMsPerSecond!));
    expect(busiest(source!)).toBeGreaterThanOrEqual(100);
    expect(busiest(source!)).toBeGreaterThan(busiest(agg!));
    type Checkpoints = { history: { status: string; alignment_duration?: number | null }[] };
    const history = ((await getJson(`${url}/jobs/${job.jobId}/checkpoints`)).body as unknown as Checkpoints).history.filter((c) => c.status === 'COMPLETED');
    expect(history.length).toBeGreaterThan(0);
    // The aggregation has two inputs (one per source subtask) whose barriers arrive apart.
    for (const c of history) expect(c.alignment_duration).toBeGreaterThanOrEqual(0);
    await job.cancel();
    await env.close();
  });

  it("reports each vertex's state size in the newest completed checkpoint, growing with its keys, and none before one", async () => {
    const env = TableEnvironment.create({ web: { port: 0 }, config: { 'execution.checkpointing.interval': '200 ms' }, discoverPackages: false });
    const url = await env.getWebUrl();
    // Every row a new key: the aggregation's keyed state grows with each checkpoint.
    await env.executeSql("CREATE TEMPORARY TABLE s (k BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '2000', 'fields.k.kind' = 'sequence', 'fields.k.start' = '1', 'fields.k.end' = '100000000')");
    await env.executeSql("CREATE TEMPORARY TABLE b (k BIGINT, c BIGINT) WITH ('connector' = 'blackhole')");
    const job = (await env.executeSql('INSERT INTO b SELECT k, COUNT(*) FROM s GROUP BY k')).getJobClient()!;
    type Live = { vertices: { id: string; stateSize: number | null }[] };
    const sizes = async (): Promise<(number | null)[]> => ((await getJson(`${url}/jobs/${job.jobId}/live`)).body as unknown as Live).vertices.map((v) => v.stateSize);
    const end = Date.now() + 20_000;
    let first: (number | null)[] = await sizes();
    while (first[1] === null && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 50));
      first = await sizes();
    }
    // The source's state is its split (its position in the sequence); the aggregation's, its keys.
    expect(first[0]).toBeGreaterThan(0);
    expect(first[1]).toBeGreaterThan(0);
    let later = first;
    while (later[1]! <= first[1]! + 10_000 && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 100));
      later = await sizes();
    }
    expect(later[1]).toBeGreaterThan(first[1]! + 10_000);
    await job.cancel();
    // No checkpointing: no checkpoint, no size.
    const env2 = TableEnvironment.create({ web: { port: 0 }, discoverPackages: false });
    const url2 = await env2.getWebUrl();
    await env2.executeSql("CREATE TEMPORARY TABLE s (k BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '100')");
    await env2.executeSql("CREATE TEMPORARY TABLE b (k BIGINT, c BIGINT) WITH ('connector' = 'blackhole')");
    const job2 = (await env2.executeSql('INSERT INTO b SELECT k, COUNT(*) FROM s GROUP BY k')).getJobClient()!;
    await new Promise((r) => setTimeout(r, 500));
    const live2 = (await getJson(`${url2}/jobs/${job2.jobId}/live`)).body as unknown as Live;
    expect(live2.vertices.map((v) => v.stateSize)).toEqual([null, null]);
    await job2.cancel();
    await env.close();
    await env2.close();
  });

  it('reports the rows a bounded datagen source has left as its pendingRecords, falling as it reads', async () => {
    const env = TableEnvironment.create({ web: { port: 0 }, discoverPackages: false });
    const url = await env.getWebUrl();
    await env.executeSql("CREATE TEMPORARY TABLE s (n BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '6000', 'rows-per-second' = '2000')");
    await env.executeSql("CREATE TEMPORARY TABLE b (n BIGINT) WITH ('connector' = 'blackhole')");
    const job = (await env.executeSql('INSERT INTO b SELECT n FROM s')).getJobClient()!;
    const pending = async (): Promise<number | undefined> => {
      const values = (await getJson(`${url}/jobs/${job.jobId}/vertices/v0/metrics?get=0.pendingRecords,numRecordsOut`)).body as unknown as { id: string; value: string }[];
      const p = values.find((v) => v.id === '0.pendingRecords');
      return p === undefined ? undefined : Number(p.value);
    };
    const seen: number[] = [];
    while (job.status() === 'RUNNING' || job.status() === 'CREATED') {
      const p = await pending();
      if (p !== undefined) seen.push(p);
      await new Promise((r) => setTimeout(r, 100));
    }
    await job.waitForCompletion();
    // Read while it ran: between none read and all, never growing.
    expect(seen.some((p) => p > 0 && p < 6000)).toBe(true);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeLessThanOrEqual(seen[i - 1]!);
    await env.close();
  });

  it("reports the bytes a bounded file source read and has left as numBytesIn and pendingBytes", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-web-files-'));
    const text = Array.from({ length: 500 }, (_, i) => `${i},row ${i}\n`).join('');
    writeFileSync(join(dir, 'a.csv'), text);
    const env = TableEnvironment.create({ web: { port: 0 }, discoverPackages: false });
    const url = await env.getWebUrl();
    await env.executeSql(`CREATE TEMPORARY TABLE f (n BIGINT, s STRING) WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'csv')`);
    await env.executeSql("CREATE TEMPORARY TABLE b (n BIGINT, s STRING) WITH ('connector' = 'blackhole')");
    const job = (await env.executeSql('INSERT INTO b SELECT n, s FROM f')).getJobClient()!;
    await job.waitForCompletion();
    const values = (await getJson(`${url}/jobs/${job.jobId}/vertices/v0/metrics?get=0.numBytesIn,0.pendingBytes,0.numRecordsOut`)).body;
    expect(values).toEqual([
      { id: '0.numBytesIn', value: String(Buffer.byteLength(text)) },
      { id: '0.pendingBytes', value: '0' },
      { id: '0.numRecordsOut', value: '500' },
    ]);
    const prom = await (await fetch(`${url}/metrics`)).text();
    expect(prom).toMatch(new RegExp(`flink_taskmanager_job_task_operator_numBytesIn\\{job_id="${job.jobId}".*subtask_index="0"\\} ${Buffer.byteLength(text)}\n`));
    await env.close();
  });

  it('serves the built dashboard at / with its script and style, under a policy that loads nothing from elsewhere', async () => {
    // The dashboard is built by `npm run build` (scripts/bundle-ui.mjs); from src/ the server finds it in dist/.
    const env = TableEnvironment.create({ web: { port: 0 }, discoverPackages: false });
    const url = await env.getWebUrl();
    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await page.text();
    expect(html).toContain('<script src="app.js"></script>');
    const script = await fetch(`${url}/app.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    // dagre is bundled in, not fetched from a CDN.
    expect((await script.text()).length).toBeGreaterThan(10_000);
    expect((await fetch(`${url}/style.css`)).headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(html).not.toMatch(/https?:\/\//);
    // Other paths are still the API's.
    const other = await fetch(`${url}/nope.js`);
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ errors: ['Not found: /nope.js'] });
    expect((await fetch(`${url}/`, { method: 'POST' })).status).toBe(404);
    await env.close();
  });

  it('reports why a job failed at /jobs/<id>/exceptions', async () => {
    const env = TableEnvironment.create({ web: { port: 0 }, discoverPackages: false });
    const url = await env.getWebUrl();
    env.createTemporarySystemFunction('boom', (x: string) => {
      if (x === '3') throw new Error('kaput at 3');
      return x;
    });
    await env.executeSql("CREATE TEMPORARY TABLE s (n BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '10', 'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '10')");
    await env.executeSql("CREATE TEMPORARY TABLE b (s STRING) WITH ('connector' = 'blackhole')");
    const job = (await env.executeSql('INSERT INTO b SELECT boom(CAST(n AS STRING)) FROM s')).getJobClient()!;
    const before = Date.now();
    await expect(job.waitForCompletion()).rejects.toThrow();
    await new Promise((r) => setImmediate(r));
    const ex = await getJson(`${url}/jobs/${job.jobId}/exceptions`);
    expect(ex.status).toBe(200);
    expect(ex.body['root-exception']).toMatch(/kaput at 3/);
    expect(ex.body.timestamp).toBeGreaterThanOrEqual(before);
    expect((await getJson(`${url}/jobs/${job.jobId}`)).body.state).toBe('FAILED');
    await env.close();
  });

  it('fails with a clear error naming the options when the port is taken, and for a port out of range', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const env = TableEnvironment.create({ web: { port }, discoverPackages: false });
      const e = await env.getWebUrl().catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ExecutionError);
      expect((e as Error).message).toBe(`Could not start the REST API on 127.0.0.1:${port} (the port is in use); choose another with 'rest.port' or 'rest.bind-address'.`);
      await env.close();
    } finally {
      blocker.close();
    }
    const bad = TableEnvironment.create({ config: { 'rest.port': '70000' }, web: {}, discoverPackages: false });
    await expect(bad.getWebUrl()).rejects.toThrow(ValidationError);
    await expect(bad.getWebUrl()).rejects.toThrow("'rest.port' must be a port number between 0 and 65535, but is 70000.");
    await bad.close();
  });

  it('reads rest.port and rest.bind-address from the configuration, and is off without the web option', async () => {
    const env = TableEnvironment.create({ config: { 'rest.port': '0', 'rest.bind-address': '127.0.0.1', 'security.auth-token': 's3cr3t' }, web: {}, discoverPackages: false });
    const url = await env.getWebUrl();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
    // SET after the start shows up too; secret values never leave.
    await env.executeSql("SET 'parallelism.default' = '3'");
    const config = await (await fetch(`${url}/jobmanager/config`)).text();
    expect(JSON.parse(config)).toEqual(expect.arrayContaining([{ key: 'security.auth-token', value: '******' }, { key: 'parallelism.default', value: '3' }, { key: 'rest.port', value: '0' }]));
    expect(config).not.toContain('s3cr3t');
    await env.close();
    const off = TableEnvironment.create({ discoverPackages: false });
    await expect(off.getWebUrl()).rejects.toThrow(ValidationError);
    await off.close();
  });
});
