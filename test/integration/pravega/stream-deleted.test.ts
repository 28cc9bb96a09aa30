// A stream deleted (sealed, then deleted) under a running job fails the job promptly with a message that
// names Pravega and the stream, instead of stalling.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';
import { ControllerClient } from '../../../src/connectors/pravega/client/index.js';
import type { JobClient } from '../../../src/runtime/job-client.js';
import { CONTROLLER_URI, pravegaAvailable, uniqueName } from './pravega-env.js';

const available = await pravegaAvailable();
if (!available) console.warn('Pravega not reachable: skipping the Pravega stream-deletion tests (run scripts/pravega.sh start)');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!available)('a Pravega stream deleted under a running job', () => {
  const scope = uniqueName('sluicedel');
  let controller: ControllerClient;
  const envs: TableEnvironment[] = [];

  beforeAll(async () => {
    controller = new ControllerClient(CONTROLLER_URI);
    await controller.createScope(scope);
  });
  afterAll(async () => {
    controller?.close();
    for (const e of envs) await e.close();
  });

  async function startWriter(stream: string, semantic: string): Promise<JobClient> {
    const env = TableEnvironment.create({
      mode: 'streaming',
      config: { 'parallelism.default': '1', 'execution.checkpointing.interval': '300 ms', 'restart-strategy.type': 'none' },
    });
    envs.push(env);
    await env.executeSql("CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '50')");
    await env.executeSql(`CREATE TEMPORARY TABLE out_t (id BIGINT) WITH ('connector' = 'pravega', 'controller-uri' = '${CONTROLLER_URI}',
      'scope' = '${scope}', 'sink.stream' = '${stream}', 'format' = 'json', 'sink.semantic' = '${semantic}')`);
    const job = (await env.executeSql('INSERT INTO out_t SELECT id FROM gen')).getJobClient()!;
    const deadline = Date.now() + 60_000;
    while ((job.metrics().vertices.at(-1)?.recordsOut ?? 0) < 20 && Date.now() < deadline) await sleep(50);
    return job;
  }

  async function deleteStream(stream: string): Promise<void> {
    await controller.sealStream(scope, stream);
    expect(await controller.deleteStream(scope, stream)).toBe(true);
  }

  /** How the job ended within `ms`: its error message, or a note that it is still running. */
  async function outcome(job: JobClient, ms: number): Promise<string> {
    return Promise.race([
      job.waitForCompletion().then(
        (r) => `ended ${r.status}`,
        (e: unknown) => (e as Error).message,
      ),
      sleep(ms).then(() => `still ${job.status()} after ${ms} ms`),
    ]);
  }

  it.each(['exactly-once', 'at-least-once'])('%s: the sink fails the job, naming the stream', async (semantic) => {
    const stream = uniqueName('gone');
    const job = await startWriter(stream, semantic);
    expect(job.status()).toBe('RUNNING');
    await deleteStream(stream);
    const message = await outcome(job, 20_000);
    await job.cancel();
    expect(message).toContain('Pravega');
    expect(message).toContain(`'${scope}/${stream}'`);
    expect(job.status()).toBe('FAILED');
  }, 120_000);

  it('the source of a streaming job fails, naming the stream, instead of idling forever', async () => {
    const stream = uniqueName('src');
    const writer = await startWriter(stream, 'at-least-once');
    await writer.cancel();
    const env = TableEnvironment.create({ mode: 'streaming', config: { 'parallelism.default': '1', 'restart-strategy.type': 'none' } });
    envs.push(env);
    await env.executeSql(`CREATE TEMPORARY TABLE in_t (id BIGINT) WITH ('connector' = 'pravega', 'controller-uri' = '${CONTROLLER_URI}',
      'scope' = '${scope}', 'scan.streams' = '${stream}', 'format' = 'json')`);
    await env.executeSql("CREATE TEMPORARY TABLE sink_t (id BIGINT) WITH ('connector' = 'blackhole')");
    const job = (await env.executeSql('INSERT INTO sink_t SELECT id FROM in_t')).getJobClient()!;
    const deadline = Date.now() + 60_000;
    while ((job.metrics().vertices[0]?.recordsOut ?? 0) < 20 && Date.now() < deadline) await sleep(50);
    await deleteStream(stream);
    const message = await outcome(job, 20_000);
    await job.cancel();
    expect(message).toMatch(new RegExp(`^Pravega stream '${scope}/${stream}' was deleted while the job was reading it \\(segment ${scope}/${stream}/\\d+ ended without successors\\)$`));
    expect(job.status()).toBe('FAILED');
  }, 120_000);
});
