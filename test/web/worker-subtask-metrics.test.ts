// Busy, back-pressured and idle time of subtasks that run in worker threads (`execution.worker-threads`):
// the worker measures them and reports them to the job master, so REST and /metrics show real values.
// Workers run the build in dist/ (run `npm run build` first).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';

const UDFS = fileURLToPath(new URL('./worker-udfs.mjs', import.meta.url));
const BUILT = existsSync(fileURLToPath(new URL('../../dist/api/sql-worker-main.js', import.meta.url)));
if (!BUILT && process.env.CI) throw new Error("dist/ is missing; CI must run 'npm run build' before the tests.");

async function getJson<T>(url: string): Promise<T> {
  return (await (await fetch(url)).json()) as T;
}

describe.skipIf(!BUILT)('a subtask in a worker thread', () => {
  it('reports its busy time over REST and /metrics: busy where the work is, idle on the main thread', async () => {
    const env = TableEnvironment.create({ web: { port: 0 }, config: { 'parallelism.default': '2', 'execution.worker-threads': '1' }, discoverPackages: false });
    try {
      const url = await env.getWebUrl();
      await env.executeSql(`CREATE TEMPORARY FUNCTION spin AS '${UDFS}#spinInWorker'`);
      // 100 rows/s per subtask, 3 ms each in the worker: about 300 ms of every second busy there.
      await env.executeSql("CREATE TEMPORARY TABLE s (n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '200')");
      await env.executeSql("CREATE TEMPORARY TABLE b (n BIGINT) WITH ('connector' = 'blackhole')");
      const job = (await env.executeSql('INSERT INTO b SELECT spin(n) FROM s')).getJobClient()!;
      const v = job.metrics().vertices;
      expect(v).toHaveLength(1);
      const vid = v[0]!.vertexId;
      type Metric = { id: string; value: string };
      // The server samples every second and looks back 5 s; the worker reports every 500 ms. On a loaded
      // machine the first reports come late: read until the worker's busy time shows (15 s at most).
      const read = (): Promise<Metric[]> => getJson<Metric[]>(`${url}/jobs/${job.jobId}/vertices/${vid}/metrics?get=0.busyTimeMsPerSecond,1.busyTimeMsPerSecond,1.idleTimeMsPerSecond,1.backPressuredTimeMsPerSecond,1.numRecordsOut`);
      await new Promise((r) => setTimeout(r, 3500));
      let values = await read();
      const value = (id: string): number => Number(values.find((m) => m.id === id)?.value);
      for (const end = Date.now() + 15_000; value('1.busyTimeMsPerSecond') < 150 && Date.now() < end; ) {
        await new Promise((r) => setTimeout(r, 500));
        values = await read();
      }
      expect(value('1.numRecordsOut')).toBeGreaterThan(0);
      expect(value('1.busyTimeMsPerSecond')).toBeGreaterThanOrEqual(150);
      expect(value('1.busyTimeMsPerSecond')).toBeGreaterThan(value('0.busyTimeMsPerSecond'));
      expect(value('1.busyTimeMsPerSecond') + value('1.backPressuredTimeMsPerSecond') + value('1.idleTimeMsPerSecond')).toBe(1000);
      type Aggregated = { id: string; min: number; max: number; avg: number; sum: number };
      const [busy] = await getJson<Aggregated[]>(`${url}/jobs/${job.jobId}/vertices/${vid}/subtasks/metrics?get=busyTimeMsPerSecond`);
      // Each request samples the counters again, so the figure moves a little from the one above.
      expect(busy!.id).toBe('busyTimeMsPerSecond');
      expect(busy!.max).toBeGreaterThanOrEqual(150);
      const prom = await (await fetch(`${url}/metrics`)).text();
      const line = prom.split('\n').find((l) => l.startsWith('flink_taskmanager_job_task_busyTimeMsPerSecond{') && l.includes('subtask_index="1"'));
      expect(Number(line?.split(' ').at(-1))).toBeGreaterThan(0);
      await job.cancel();
    } finally {
      await env.close();
    }
    // Starting a worker (it loads the build) and the wait for its busy time above take most of a minute
    // at load average 18; 30 s ran out there.
  }, 60_000);

  it("shows back-pressure on the channels into a slow consumer in a worker, from both threads' producers", async () => {
    const env = TableEnvironment.create({ web: { port: 0 }, config: { 'parallelism.default': '2', 'execution.worker-threads': '1' }, discoverPackages: false });
    try {
      const url = await env.getWebUrl();
      await env.executeSql(`CREATE TEMPORARY FUNCTION slow AS '${UDFS}#slowInWorker'`);
      await env.executeSql("CREATE TEMPORARY TABLE s (k INT, n BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '1000000', 'fields.k.min' = '1', 'fields.k.max' = '50')");
      await env.executeSql("CREATE TEMPORARY TABLE b (k INT, c BIGINT) WITH ('connector' = 'blackhole')");
      // The aggregation's subtask 1 runs in the worker and is slow: both source subtasks wait for it.
      const job = (await env.executeSql('INSERT INTO b SELECT k, slow(COUNT(*)) FROM s GROUP BY k')).getJobClient()!;
      const [source, agg] = job.metrics().vertices;
      expect(agg!.inputs).toEqual([{ vertexId: source!.vertexId, shipStrategy: 'hash' }]);
      type Backpressure = { subtasks: { subtask: number; ratio: number }[] };
      // The server samples every second; back-pressure shows within a few samples.
      type Metric = { id: string; value: string };
      let ratios: number[] = [];
      let values: Metric[] = [];
      const metric = (id: string): number => Number(values.find((m) => m.id === id)?.value);
      // Under load a sample may fall between two of the worker's reports: poll until both show, or time out.
      const end = Date.now() + 25_000;
      while (Date.now() < end) {
        await new Promise((r) => setTimeout(r, 500));
        ratios = (await getJson<Backpressure>(`${url}/jobs/${job.jobId}/vertices/${source!.vertexId}/backpressure`)).subtasks.map((s) => s.ratio);
        values = await getJson<Metric[]>(`${url}/jobs/${job.jobId}/vertices/${agg!.vertexId}/metrics?get=1.buffers.inPoolUsage,1.busyTimeMsPerSecond`);
        if (ratios.every((r) => r > 0) && metric('1.buffers.inPoolUsage') > 0 && metric('1.busyTimeMsPerSecond') > 500) break;
      }
      // Subtask 0 (main thread) waits on a channel to the worker; subtask 1 (worker) on one inside it.
      expect(ratios).toHaveLength(2);
      expect(ratios[0]).toBeGreaterThan(0);
      expect(ratios[1]).toBeGreaterThan(0);
      expect(metric('1.buffers.inPoolUsage')).toBeGreaterThan(0);
      expect(metric('1.busyTimeMsPerSecond')).toBeGreaterThan(500);
      await job.cancel();
    } finally {
      await env.close();
    }
  }, 50_000);
});
