// The Kafka source's consumer lag as the REST API and /metrics report it (pendingRecords), from a real broker.
import { describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';
import { BOOTSTRAP, brokerAvailable, createTopic, produce, testKafka, uniqueTopic } from './broker.js';

const up = await brokerAvailable();

describe.skipIf(!up)('Kafka consumer lag', () => {
  it('reports the records behind the partition end as pendingRecords, falling to 0 once the job caught up', async () => {
    const kafka = testKafka();
    const topic = uniqueTopic('lag');
    await createTopic(kafka, topic, 1);
    await produce(kafka, topic, 0, Array.from({ length: 1500 }, (_, i) => `v${i}`));
    const env = TableEnvironment.create({ web: { port: 0 }, discoverPackages: false });
    try {
      const url = await env.getWebUrl();
      // A slow function keeps the task behind the fetcher, so the lag is there long enough to be seen.
      env.createTemporarySystemFunction('slow', (s: string) => {
        const until = performance.now() + 1;
        while (performance.now() < until);
        return s;
      });
      await env.executeSql(`CREATE TEMPORARY TABLE k (v STRING) WITH ('connector' = 'kafka', 'topic' = '${topic}',
        'properties.bootstrap.servers' = '${BOOTSTRAP}', 'scan.startup.mode' = 'earliest-offset', 'format' = 'raw', 'properties.max.poll.records' = '100')`);
      await env.executeSql("CREATE TEMPORARY TABLE b (v STRING) WITH ('connector' = 'blackhole')");
      const job = (await env.executeSql('INSERT INTO b SELECT slow(v) FROM k')).getJobClient()!;
      const lag = async (): Promise<number | undefined> => {
        const values = (await (await fetch(`${url}/jobs/${job.jobId}/vertices/v0/metrics?get=0.pendingRecords`)).json()) as { value: string }[];
        return values[0] === undefined ? undefined : Number(values[0].value);
      };
      const seen: number[] = [];
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline && !(seen.some((n) => n > 0) && seen.at(-1) === 0)) {
        const n = await lag();
        if (n !== undefined) seen.push(n);
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(seen.some((n) => n > 0 && n < 1500)).toBe(true);
      expect(seen.at(-1)).toBe(0);
      const metrics = await (await fetch(`${url}/metrics`)).text();
      expect(metrics).toContain(`flink_taskmanager_job_task_operator_pendingRecords{job_id="${job.jobId}"`);
      await job.cancel();
    } finally {
      await env.close();
    }
  });
});
