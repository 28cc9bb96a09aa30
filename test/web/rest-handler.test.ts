import { describe, expect, it } from 'vitest';
import { JobRegistry } from '../../src/api/job-registry.js';
import { ExecutionError } from '../../src/errors/sluice-error.js';
import type { JobClient, JobExecutionResult, JobMetrics, JobStatus } from '../../src/runtime/job-client.js';
import { RestHandler, type RestResponse } from '../../src/web/rest-handler.js';

/** A job whose state and counters a test sets by hand; it ends when the test says so. */
class FakeJob implements JobClient {
  state: JobStatus = 'RUNNING';
  canceled = 0;
  stopDirs: string[] = [];
  counters: JobMetrics = {
    vertices: [
      {
        vertexId: 'v0', name: 'Source: "orders"', parallelism: 2, recordsIn: 10, recordsOut: 10,
        subtasks: [
          { recordsIn: 6, recordsOut: 6, currentInputWatermark: 1_700_000_000_000, inPoolUsage: 0, outPoolUsage: 1, pendingRecords: 1200 },
          { recordsIn: 4, recordsOut: 4, currentInputWatermark: undefined, inPoolUsage: 0, outPoolUsage: 0.5 },
        ],
      },
      { vertexId: 'v1', name: 'Sink', parallelism: 1, recordsIn: 7, recordsOut: 7, inputs: [{ vertexId: 'v0', shipStrategy: 'hash' }], stateSizeBytes: 5120 },
    ],
    completedCheckpoints: 3,
    lastCheckpointId: 4,
    restarts: 1,
    failedCheckpoints: 1,
    lastCheckpointDurationMs: 12,
    lastCheckpointSizeBytes: 2048,
    checkpointHistory: [
      { id: 5, status: 'COMPLETED', isSavepoint: true, triggerTimestamp: 5000, durationMs: 30, sizeBytes: 4096, path: '/sp/savepoint-1', failureMessage: undefined },
      { id: 4, status: 'COMPLETED', isSavepoint: false, triggerTimestamp: 4000, durationMs: 12, sizeBytes: 2048, path: '/cp/chk-4', failureMessage: undefined, alignmentMs: 3.4, acknowledgedMs: 7 },
      { id: 3, status: 'FAILED', isSavepoint: false, triggerTimestamp: 3000, durationMs: 600, sizeBytes: undefined, path: undefined, failureMessage: 'Checkpoint 3 expired before completing.' },
      { id: 2, status: 'COMPLETED', isSavepoint: false, triggerTimestamp: 2000, durationMs: 10, sizeBytes: undefined, path: undefined, failureMessage: undefined },
    ],
  };
  private settle!: { resolve: (r: JobExecutionResult) => void; reject: (e: unknown) => void };
  private readonly done = new Promise<JobExecutionResult>((resolve, reject) => (this.settle = { resolve, reject }));

  constructor(readonly jobId: string, readonly jobName = 'insert-into_b') {}
  status(): JobStatus {
    return this.state;
  }
  async cancel(): Promise<void> {
    this.canceled++;
    this.finish('CANCELED');
  }
  triggerSavepoint(): Promise<string> {
    return Promise.reject(new Error('not used'));
  }
  async stopWithSavepoint(dir: string): Promise<string> {
    this.stopDirs.push(dir);
    if (dir === '/fail') throw new ExecutionError('The savepoint could not be written.');
    this.finish('FINISHED');
    return `${dir}/savepoint-abc`;
  }
  waitForCompletion(): Promise<JobExecutionResult> {
    return this.done;
  }
  metrics(): JobMetrics {
    return this.counters;
  }
  finish(state: 'FINISHED' | 'CANCELED'): void {
    this.state = state;
    this.settle.resolve({ jobId: this.jobId, status: state, netRuntimeMs: 1, restarts: 0, savepointPath: undefined });
  }
  fail(e: unknown): void {
    this.state = 'FAILED';
    this.settle.reject(e);
  }
}

const A = 'a'.repeat(32);
const B = 'b'.repeat(32);

function setup(): { jobs: JobRegistry; a: FakeJob; b: FakeJob; rest: RestHandler } {
  const jobs = new JobRegistry();
  const a = new FakeJob(A);
  const b = new FakeJob(B, 'second');
  jobs.add(a);
  jobs.add(b);
  return { jobs, a, b, rest: new RestHandler(jobs) };
}

function body(r: RestResponse): Record<string, unknown> {
  expect(r.contentType).toMatch(/^application\/json/);
  return JSON.parse(r.body) as Record<string, unknown>;
}

const get = (rest: RestHandler, url: string): Promise<RestResponse> => rest.handle({ method: 'GET', url, body: '' });

describe('REST API routing', () => {
  it('lists jobs with Flink overview fields; a running job has end-time -1', async () => {
    const { rest, b } = setup();
    b.finish('FINISHED');
    await new Promise((r) => setImmediate(r));
    const r = await get(rest, '/jobs/overview');
    expect(r.status).toBe(200);
    const jobs = body(r).jobs as Record<string, unknown>[];
    expect(jobs.map((j) => [j.jid, j.name, j.state])).toEqual([
      [A, 'insert-into_b', 'RUNNING'],
      [B, 'second', 'FINISHED'],
    ]);
    expect(jobs[0]!['end-time']).toBe(-1);
    expect(jobs[1]!['end-time']).toBeGreaterThanOrEqual(jobs[1]!['start-time'] as number);
    expect(jobs[1]!.duration).toBe((jobs[1]!['end-time'] as number) - (jobs[1]!['start-time'] as number));
    expect(typeof jobs[0]!.duration).toBe('number');
    // GET /jobs is Flink's short list.
    expect(body(await get(rest, '/jobs'))).toEqual({ jobs: [{ id: A, status: 'RUNNING' }, { id: B, status: 'FINISHED' }] });
  });

  it('shows a job with its vertices, parallelism and record counts', async () => {
    const { rest } = setup();
    const j = body(await get(rest, `/jobs/${A}`));
    expect(j.jid).toBe(A);
    expect(j.state).toBe('RUNNING');
    expect(j.vertices).toEqual([
      { id: 'v0', name: 'Source: "orders"', parallelism: 2, status: 'RUNNING', metrics: { 'read-records': 10, 'read-records-complete': false, 'write-records': 10, 'write-records-complete': false } },
      { id: 'v1', name: 'Sink', parallelism: 1, status: 'RUNNING', metrics: { 'read-records': 7, 'read-records-complete': false, 'write-records': 7, 'write-records-complete': false } },
    ]);
  });

  it('reports checkpoint counts, the latest completed, savepoint and failed checkpoint, and the history', async () => {
    const { rest, a } = setup();
    const completed4 = { id: 4, status: 'COMPLETED', is_savepoint: false, trigger_timestamp: 4000, latest_ack_timestamp: 4007, end_to_end_duration: 12, state_size: 2048, external_path: '/cp/chk-4', alignment_duration: 3 };
    const savepoint5 = { id: 5, status: 'COMPLETED', is_savepoint: true, trigger_timestamp: 5000, latest_ack_timestamp: 5030, end_to_end_duration: 30, state_size: 4096, external_path: '/sp/savepoint-1', alignment_duration: null };
    const failed3 = { id: 3, status: 'FAILED', is_savepoint: false, trigger_timestamp: 3000, failure_timestamp: 3600, end_to_end_duration: 600, failure_message: 'Checkpoint 3 expired before completing.' };
    const inMemory2 = { id: 2, status: 'COMPLETED', is_savepoint: false, trigger_timestamp: 2000, latest_ack_timestamp: 2010, end_to_end_duration: 10, state_size: null, external_path: null, alignment_duration: null };
    expect(body(await get(rest, `/jobs/${A}/checkpoints`))).toEqual({
      counts: { completed: 3, failed: 1, total: 4 },
      latest: { completed: completed4, savepoint: savepoint5, failed: failed3, restored: null },
      history: [savepoint5, completed4, failed3, inMemory2],
      restarts: 1,
    });
    // A job whose history has no completed checkpoint left still names the latest one's id.
    a.counters = { ...a.counters, checkpointHistory: [a.counters.checkpointHistory[2]!] };
    expect(body(await get(rest, `/jobs/${A}/checkpoints`)).latest).toEqual({ completed: { id: 4 }, savepoint: null, failed: failed3, restored: null });
    a.counters = { ...a.counters, lastCheckpointId: undefined, checkpointHistory: [] };
    expect(body(await get(rest, `/jobs/${A}/checkpoints`)).latest).toEqual({ completed: null, savepoint: null, failed: null, restored: null });
    // Restored from a savepoint: Flink's restored checkpoint statistics.
    a.counters = { ...a.counters, restoredCheckpoint: { id: 7, isSavepoint: true, restoreTimestamp: 9000, path: '/sp/savepoint-7' } };
    expect((body(await get(rest, `/jobs/${A}/checkpoints`)).latest as Record<string, unknown>).restored).toEqual({ id: 7, restore_timestamp: 9000, is_savepoint: true, external_path: '/sp/savepoint-7' });
  });

  it('reports the root exception of a failed job with its cause and time, and none for a healthy one', async () => {
    const { rest, a } = setup();
    expect(body(await get(rest, `/jobs/${B}/exceptions`))['root-exception']).toBeNull();
    const before = Date.now();
    a.fail(new ExecutionError("Job 'x' failed: boom", { cause: new Error('disk full') }));
    await new Promise((r) => setImmediate(r));
    const ex = body(await get(rest, `/jobs/${A}/exceptions`));
    expect(ex['root-exception']).toBe("ExecutionError: Job 'x' failed: boom\nCaused by: Error: disk full");
    expect(ex.timestamp).toBeGreaterThanOrEqual(before);
    expect(body(await get(rest, '/jobs/overview')).jobs).toContainEqual(expect.objectContaining({ jid: A, state: 'FAILED' }));
  });

  it("serves a job's statement, EXPLAIN text, plan and configuration, with secret option values masked", async () => {
    const jobs = new JobRegistry();
    const a = new FakeJob(A);
    let explained = 0;
    jobs.add(a, {
      sql: () => "INSERT INTO b /*+ OPTIONS('properties.sasl.jaas.config' = 'user=\"x\" password=\"hunter2\"', 'topic' = 't') */ SELECT * FROM s;",
      explain: () => {
        explained++;
        return '== Optimized Execution Plan ==\nSink(table=[b])';
      },
      config: { 'parallelism.default': '2', 'execution.runtime-mode': 'batch', 'restart-strategy.type': 'fixed-delay', 'restart-strategy.fixed-delay.attempts': '3', 's3.secret-key': 'hunter3' },
    });
    jobs.add(new FakeJob(B));
    const rest = new RestHandler(jobs);
    const sql = body(await get(rest, `/jobs/${A}/sql`));
    expect(sql.sql).toBe("INSERT INTO b /*+ OPTIONS('properties.sasl.jaas.config' = '******', 'topic' = 't') */ SELECT * FROM s;");
    expect(sql.explain).toBe('== Optimized Execution Plan ==\nSink(table=[b])');
    expect(explained).toBe(1);
    // A job registered without its statement (not started from SQL) says so rather than failing.
    expect(body(await get(rest, `/jobs/${B}/sql`))).toEqual({ sql: null, explain: null });

    const config = body(await get(rest, `/jobs/${A}/config`));
    expect(config).toEqual({
      jid: A,
      name: 'insert-into_b',
      'execution-config': {
        'execution-mode': 'PIPELINED',
        'restart-strategy': expect.stringMatching(/^Restart with fixed delay \(\d+ ms\)\. #3 restart attempts\.$/),
        'job-parallelism': 2,
        'object-reuse-mode': false,
        'user-config': { 'execution.runtime-mode': 'batch', 'parallelism.default': '2', 'restart-strategy.fixed-delay.attempts': '3', 'restart-strategy.type': 'fixed-delay', 's3.secret-key': '******' },
      },
    });
    expect(JSON.stringify(config)).not.toContain('hunter3');
    expect((body(await get(rest, `/jobs/${B}/config`))['execution-config'] as Record<string, unknown>)['user-config']).toEqual({});

    const plan = body(await get(rest, `/jobs/${A}/plan`)).plan as Record<string, unknown>;
    expect(plan).toMatchObject({ jid: A, name: 'insert-into_b', type: 'BATCH' });
    expect(plan.nodes).toEqual((body(await get(rest, `/jobs/${A}`)).plan as Record<string, unknown>).nodes);
    expect((body(await get(rest, `/jobs/${B}/plan`)).plan as Record<string, unknown>).type).toBe('STREAMING');
  });

  it('lists each failure of an attempt in Flink\'s exception history, newest first, the newest as root while the job runs', async () => {
    const { rest, a } = setup();
    const first = new Error('disk full');
    const second = new ExecutionError('Kafka is gone', { cause: new Error('ECONNREFUSED') });
    a.counters = {
      ...a.counters,
      exceptionHistory: [
        { error: second, timestamp: 2000, taskName: undefined },
        { error: first, timestamp: 1000, taskName: 'Source: orders (2/2)' },
      ],
      exceptionHistoryTruncated: true,
    };
    const ex = body(await get(rest, `/jobs/${A}/exceptions`));
    const entry = (name: string, stacktrace: string, timestamp: number, taskName: string | null) => ({
      exceptionName: name, stacktrace, timestamp, taskName, location: null, endpoint: null, taskManagerId: null, failureLabels: {}, concurrentExceptions: [],
    });
    expect(ex).toEqual({
      'root-exception': 'ExecutionError: Kafka is gone\nCaused by: Error: ECONNREFUSED',
      timestamp: 2000,
      'all-exceptions': [],
      truncated: false,
      exceptionHistory: {
        entries: [entry('ExecutionError', 'ExecutionError: Kafka is gone\nCaused by: Error: ECONNREFUSED', 2000, null), entry('Error', 'Error: disk full', 1000, 'Source: orders (2/2)')],
        truncated: true,
      },
    });
    // Once the job failed, the error that failed it is the root; the history stays.
    a.fail(new ExecutionError("Job 'x' failed: out of restarts"));
    await new Promise((r) => setImmediate(r));
    const failed = body(await get(rest, `/jobs/${A}/exceptions`));
    expect(failed['root-exception']).toBe("ExecutionError: Job 'x' failed: out of restarts");
    expect((failed.exceptionHistory as { entries: unknown[] }).entries).toHaveLength(2);
    // A client that knows no history (a remote cluster's) answers an empty one.
    expect(body(await get(rest, `/jobs/${B}/exceptions`)).exceptionHistory).toEqual({ entries: [], truncated: false });
  });

  it('answers unknown jobs and paths with 404 and a JSON error, and wrong methods with 405', async () => {
    const { rest } = setup();
    for (const url of [`/jobs/${'c'.repeat(32)}`, `/jobs/${'c'.repeat(32)}/checkpoints`, '/nope', '/', `/jobs/${A}/nope`]) {
      const r = await get(rest, url);
      expect(r.status, url).toBe(404);
      expect((body(r).errors as string[])[0]).toMatch(/not found/i);
    }
    expect((await rest.handle({ method: 'DELETE', url: `/jobs/${A}`, body: '' })).status).toBe(405);
    expect((await rest.handle({ method: 'POST', url: '/metrics', body: '' })).status).toBe(405);
  });

  it('cancels a running job with PATCH ?mode=cancel (202), and refuses a finished one (409) or another mode (400)', async () => {
    const { rest, a } = setup();
    expect((await rest.handle({ method: 'PATCH', url: `/jobs/${A}?mode=stop`, body: '' })).status).toBe(400);
    expect(a.canceled).toBe(0);
    const r = await rest.handle({ method: 'PATCH', url: `/jobs/${A}?mode=cancel`, body: '' });
    expect(r.status).toBe(202);
    expect(a.canceled).toBe(1);
    expect(a.state).toBe('CANCELED');
    expect((await rest.handle({ method: 'PATCH', url: `/jobs/${A}?mode=cancel`, body: '' })).status).toBe(409);
    expect(a.canceled).toBe(1);
  });

  it('stops with a savepoint into targetDirectory (202 and a request id), whose result is polled', async () => {
    const { rest, a, b } = setup();
    expect((await rest.handle({ method: 'POST', url: `/jobs/${A}/stop`, body: '{}' })).status).toBe(400);
    expect((await rest.handle({ method: 'POST', url: `/jobs/${A}/stop`, body: '{nope' })).status).toBe(400);
    const r = await rest.handle({ method: 'POST', url: `/jobs/${A}/stop`, body: JSON.stringify({ targetDirectory: '/sp' }) });
    expect(r.status).toBe(202);
    const id = body(r)['request-id'] as string;
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(a.stopDirs).toEqual(['/sp']);
    await new Promise((res) => setImmediate(res));
    expect(body(await get(rest, `/jobs/${A}/savepoints/${id}`))).toEqual({ status: { id: 'COMPLETED' }, operation: { location: '/sp/savepoint-abc' } });
    // The trigger belongs to its job.
    expect((await get(rest, `/jobs/${B}/savepoints/${id}`)).status).toBe(404);
    // A failed savepoint reports its cause.
    const f = body(await rest.handle({ method: 'POST', url: `/jobs/${B}/stop`, body: JSON.stringify({ targetDirectory: '/fail' }) }));
    await new Promise((res) => setImmediate(res));
    expect(b.stopDirs).toEqual(['/fail']);
    expect(body(await get(rest, `/jobs/${B}/savepoints/${f['request-id'] as string}`)).operation).toEqual({
      'failure-cause': { 'stack-trace': 'ExecutionError: The savepoint could not be written.' },
    });
    // A job that is not running cannot be stopped.
    expect((await rest.handle({ method: 'POST', url: `/jobs/${A}/stop`, body: JSON.stringify({ targetDirectory: '/sp' }) })).status).toBe(409);
  });

  it('serves a vertex\'s metric ids and, with ?get=, their values as strings; unknown vertices are 404', async () => {
    const { rest } = setup();
    expect(body(await get(rest, `/jobs/${A}/vertices/v1/metrics`))).toEqual([{ id: 'numRecordsIn' }, { id: 'numRecordsOut' }, { id: 'numRecordsInPerSecond' }, { id: 'numRecordsOutPerSecond' }]);
    expect(body(await get(rest, `/jobs/${A}/vertices/v0/metrics?get=numRecordsOut,nope,numRecordsIn`))).toEqual([
      { id: 'numRecordsOut', value: '10' },
      { id: 'numRecordsIn', value: '10' },
    ]);
    expect(body(await get(rest, `/jobs/${A}/vertices/v1/metrics?get=toString,constructor`))).toEqual([]);
    const r = await get(rest, `/jobs/${A}/vertices/v9/metrics`);
    expect(r.status).toBe(404);
    expect(body(r).errors).toEqual([`Vertex v9 of job ${A} not found.`]);
  });

  it('reports records per second over the last minute per vertex, and 0 once the job ended', async () => {
    const jobs = new JobRegistry();
    const a = new FakeJob(A);
    jobs.add(a);
    let now = 1_000_000;
    const rest = new RestHandler(jobs, () => ({}), () => now);
    const rates = async (): Promise<unknown> => body(await get(rest, `/jobs/${A}/vertices/v0/metrics?get=numRecordsInPerSecond,numRecordsOutPerSecond`));
    expect(await rates()).toEqual([{ id: 'numRecordsInPerSecond', value: '0' }, { id: 'numRecordsOutPerSecond', value: '0' }]);
    // Subtask 0 takes 3 of every 5 records, subtask 1 the rest.
    const grow = (inc: number, out: number): void => {
      const [v0, v1] = a.counters.vertices;
      const [s0, s1] = v0!.subtasks!;
      const subtasks = [
        { ...s0!, recordsIn: s0!.recordsIn + (inc * 3) / 5, recordsOut: s0!.recordsOut + (out * 3) / 5 },
        { ...s1!, recordsIn: s1!.recordsIn + (inc * 2) / 5, recordsOut: s1!.recordsOut + (out * 2) / 5 },
      ];
      a.counters = { ...a.counters, vertices: [{ ...v0!, recordsIn: v0!.recordsIn + inc, recordsOut: v0!.recordsOut + out, subtasks }, v1!] };
    };
    now += 2_000;
    grow(500, 400);
    rest.sample();
    expect(await rates()).toEqual([{ id: 'numRecordsInPerSecond', value: '250' }, { id: 'numRecordsOutPerSecond', value: '200' }]);
    now += 2_000;
    grow(100, 100);
    const metrics = (await get(rest, '/metrics')).body;
    // Per subtask, as Flink's reporter has them: 90 and 60 of the vertex's 150 per second.
    expect(metrics).toContain(`flink_taskmanager_job_task_numRecordsInPerSecond{job_id="${A}",job_name="insert-into_b",task_id="v0",task_name="Source: \\"orders\\"",subtask_index="0"} 90\n`);
    expect(metrics).toContain(`flink_taskmanager_job_task_numRecordsInPerSecond{job_id="${A}",job_name="insert-into_b",task_id="v0",task_name="Source: \\"orders\\"",subtask_index="1"} 60\n`);
    // A vertex whose subtasks the client does not know: its total, without subtask_index.
    expect(metrics).toContain(`flink_taskmanager_job_task_numRecordsOutPerSecond{job_id="${A}",job_name="insert-into_b",task_id="v1",task_name="Sink"} 0\n`);
    a.finish('FINISHED');
    expect(await rates()).toEqual([{ id: 'numRecordsInPerSecond', value: '0' }, { id: 'numRecordsOutPerSecond', value: '0' }]);
  });

  it("details a vertex's subtasks as Flink's job vertex details: records and accumulated busy, back-pressured and idle time", async () => {
    const jobs = new JobRegistry();
    const a = new FakeJob(A);
    jobs.add(a);
    const registered = jobs.get(A)!;
    const now = registered.startTime.getTime() + 10_000;
    const rest = new RestHandler(jobs, () => ({}), () => now);
    const [v0, v1] = a.counters.vertices;
    const [s0, s1] = v0!.subtasks!;
    a.counters = { ...a.counters, vertices: [{ ...v0!, subtasks: [{ ...s0!, busyTimeMs: 2500.4, backPressuredTimeMs: 1500 }, s1!] }, v1!] };
    const details = body(await get(rest, `/jobs/${A}/vertices/v0`)) as { subtasks: Record<string, unknown>[] } & Record<string, unknown>;
    expect(details).toMatchObject({ id: 'v0', name: 'Source: "orders"', parallelism: 2, now });
    expect(details.subtasks).toEqual([
      {
        subtask: 0, status: 'RUNNING', attempt: 1, 'start-time': registered.startTime.getTime(), 'end-time': -1, duration: 10_000,
        metrics: {
          'read-records': 6, 'read-records-complete': false, 'write-records': 6, 'write-records-complete': false,
          // The rest of the 10 s the job ran.
          'accumulated-busy-time': 2500, 'accumulated-backpressured-time': 1500, 'accumulated-idle-time': 6000,
        },
      },
      // Not measured (yet): null, not 0.
      expect.objectContaining({ subtask: 1, metrics: expect.objectContaining({ 'read-records': 4, 'accumulated-busy-time': null, 'accumulated-idle-time': null }) }),
    ]);
    expect((await get(rest, `/jobs/${A}/vertices/v9`)).status).toBe(404);
  });

  it('shows the plan with each vertex\'s inputs and ship strategy, as Flink\'s job details do', async () => {
    const { rest } = setup();
    const j = body(await get(rest, `/jobs/${A}`)) as { plan: { jid: string; nodes: unknown[] } };
    expect(j.plan.jid).toBe(A);
    expect(j.plan.nodes).toEqual([
      { id: 'v0', parallelism: 2, description: 'Source: "orders"' },
      { id: 'v1', parallelism: 1, description: 'Sink', inputs: [{ num: 0, id: 'v0', ship_strategy: 'HASH', exchange: 'pipelined_bounded' }] },
    ]);
  });

  it('lists per-subtask metrics as <index>.<name>, watermarks as Flink writes them (Long.MIN_VALUE before the first)', async () => {
    const { rest } = setup();
    const ids = (body(await get(rest, `/jobs/${A}/vertices/v0/metrics`)) as unknown as { id: string }[]).map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining(['numRecordsIn', '0.numRecordsIn', '1.numRecordsOut', '1.currentInputWatermark', '0.buffers.outPoolUsage', '0.isBackPressured', '0.pendingRecords']));
    // Only a subtask whose reader knows its backlog has the gauge.
    expect(ids).not.toContain('1.pendingRecords');
    expect(body(await get(rest, `/jobs/${A}/vertices/v0/metrics?get=0.pendingRecords,1.pendingRecords`))).toEqual([{ id: '0.pendingRecords', value: '1200' }]);
    expect(body(await get(rest, `/jobs/${A}/vertices/v0/metrics?get=0.numRecordsIn,1.numRecordsOut,0.isBackPressured,1.isBackPressured,1.buffers.outPoolUsage,2.numRecordsIn,x.numRecordsIn,0.nope`))).toEqual([
      { id: '0.numRecordsIn', value: '6' },
      { id: '1.numRecordsOut', value: '4' },
      { id: '0.isBackPressured', value: 'true' },
      { id: '1.isBackPressured', value: 'false' },
      { id: '1.buffers.outPoolUsage', value: '0.5' },
    ]);
    expect(body(await get(rest, `/jobs/${A}/vertices/v0/watermarks`))).toEqual([
      { id: '0.currentInputWatermark', value: '1700000000000' },
      { id: '1.currentInputWatermark', value: '-9223372036854775808' },
    ]);
    expect((await get(rest, `/jobs/${A}/vertices/v9/watermarks`)).status).toBe(404);
  });

  it('reports back-pressure per subtask as the share of recent samples with a full output channel, with Flink\'s levels', async () => {
    const jobs = new JobRegistry();
    const a = new FakeJob(A);
    jobs.add(a);
    let now = 1_000_000;
    const rest = new RestHandler(jobs, () => ({}), () => now);
    const before = body(await get(rest, `/jobs/${A}/vertices/v0/backpressure`));
    expect(before).toEqual({ status: 'ok', backpressureLevel: 'ok', 'end-timestamp': -1, subtasks: [
      { subtask: 0, 'attempt-number': 0, backpressureLevel: 'ok', ratio: 0 },
      { subtask: 1, 'attempt-number': 0, backpressureLevel: 'ok', ratio: 0 },
    ] });
    const setOut = (first: number): void => {
      const [v0, v1] = a.counters.vertices;
      a.counters = { ...a.counters, vertices: [{ ...v0!, subtasks: [{ ...v0!.subtasks![0]!, outPoolUsage: first }, v0!.subtasks![1]!] }, v1!] };
    };
    for (const usage of [1, 1, 1, 0]) {
      setOut(usage);
      now += 1000;
      rest.sample();
    }
    // Requests alone do not sample.
    for (let i = 0; i < 5; i++) await get(rest, `/jobs/${A}/vertices/v0/backpressure`);
    const bp = body(await get(rest, `/jobs/${A}/vertices/v0/backpressure`)) as { backpressureLevel: string; 'end-timestamp': number; subtasks: { ratio: number; backpressureLevel: string }[] };
    expect(bp['end-timestamp']).toBe(now);
    expect(bp.subtasks.map((s) => [s.ratio, s.backpressureLevel])).toEqual([[0.75, 'high'], [0, 'ok']]);
    expect(bp.backpressureLevel).toBe('high');
    setOut(0);
    for (let i = 0; i < 7; i++) {
      now += 1000;
      rest.sample();
    }
    const later = body(await get(rest, `/jobs/${A}/vertices/v0/backpressure`)) as { backpressureLevel: string; subtasks: { ratio: number }[] };
    // Two of the last ten samples were back-pressured.
    expect(later.subtasks[0]!.ratio).toBe(0.2);
    expect(later.backpressureLevel).toBe('low');
  });

  it('answers /jobs/<id>/live with every vertex\'s rates, checkpointed state size, subtask watermarks, pending records and back-pressure at once', async () => {
    const jobs = new JobRegistry();
    const a = new FakeJob(A);
    jobs.add(a);
    let now = 1_000_000;
    const rest = new RestHandler(jobs, () => ({}), () => now);
    rest.sample();
    const [v0, v1] = a.counters.vertices;
    a.counters = { ...a.counters, vertices: [{ ...v0!, recordsIn: v0!.recordsIn + 2000 }, v1!] };
    now += 2000;
    rest.sample();
    expect(body(await get(rest, `/jobs/${A}/live`))).toEqual({
      jid: A,
      vertices: [
        {
          // No checkpoint holds its state yet: null, not 0.
          id: 'v0', numRecordsInPerSecond: 1000, numRecordsOutPerSecond: 0, stateSize: null,
          subtasks: [
            // Subtask 0's output channel was full at both samples.
            // Neither measures busy time (as a worker's subtask before its first report): null, not 0.
            { subtask: 0, numRecordsIn: 6, numRecordsOut: 6, currentInputWatermark: '1700000000000', pendingRecords: 1200, backpressureRatio: 1, busyTimeMsPerSecond: null, backPressuredTimeMsPerSecond: null, idleTimeMsPerSecond: null },
            { subtask: 1, numRecordsIn: 4, numRecordsOut: 4, currentInputWatermark: '-9223372036854775808', pendingRecords: null, backpressureRatio: 0, busyTimeMsPerSecond: null, backPressuredTimeMsPerSecond: null, idleTimeMsPerSecond: null },
          ],
        },
        { id: 'v1', numRecordsInPerSecond: 0, numRecordsOutPerSecond: 0, stateSize: 5120, subtasks: [] },
      ],
    });
  });

  it('reports busy, back-pressured and idle time per second per subtask over the last 5 s, in REST, /live and /metrics', async () => {
    const jobs = new JobRegistry();
    const a = new FakeJob(A);
    jobs.add(a);
    let now = 1_000_000;
    const rest = new RestHandler(jobs, () => ({}), () => now);
    const [v0, v1] = a.counters.vertices;
    // Subtask 0 measures its time; subtask 1 (say, in a worker) does not.
    const setTimes = (busy: number, bp: number): void => {
      a.counters = { ...a.counters, vertices: [{ ...v0!, subtasks: [{ ...v0!.subtasks![0]!, busyTimeMs: busy, backPressuredTimeMs: bp }, v0!.subtasks![1]!] }, v1!] };
    };
    setTimes(100, 0);
    rest.sample();
    now += 2000;
    setTimes(1300, 400);
    rest.sample();
    const ids = ['0.busyTimeMsPerSecond', '0.backPressuredTimeMsPerSecond', '0.idleTimeMsPerSecond', '1.busyTimeMsPerSecond'];
    expect(body(await get(rest, `/jobs/${A}/vertices/v0/metrics?get=${ids.join(',')}`))).toEqual([
      { id: '0.busyTimeMsPerSecond', value: '600' },
      { id: '0.backPressuredTimeMsPerSecond', value: '200' },
      { id: '0.idleTimeMsPerSecond', value: '200' },
    ]);
    const listed = (body(await get(rest, `/jobs/${A}/vertices/v0/metrics`)) as unknown as { id: string }[]).map((m) => m.id);
    expect(listed).toContain('0.idleTimeMsPerSecond');
    expect(listed).not.toContain('1.idleTimeMsPerSecond');
    const live = body(await get(rest, `/jobs/${A}/live`)) as { vertices: { subtasks: Record<string, unknown>[] }[] };
    expect(live.vertices[0]!.subtasks[0]).toMatchObject({ busyTimeMsPerSecond: 600, backPressuredTimeMsPerSecond: 200, idleTimeMsPerSecond: 200 });
    // Flink's aggregated subtask metrics: over the subtasks that have the metric.
    expect(body(await get(rest, `/jobs/${A}/vertices/v0/subtasks/metrics?get=busyTimeMsPerSecond,numRecordsIn,currentInputWatermark`))).toEqual([
      { id: 'busyTimeMsPerSecond', min: 600, max: 600, avg: 600, sum: 600 },
      { id: 'numRecordsIn', min: 4, max: 6, avg: 5, sum: 10 },
    ]);
    expect((await get(rest, `/jobs/${A}/vertices/v9/subtasks/metrics`)).status).toBe(404);
    const bp = body(await get(rest, `/jobs/${A}/vertices/v0/backpressure`)) as { subtasks: Record<string, unknown>[] };
    expect(bp.subtasks[0]).toMatchObject({ busyRatio: 0.6, idleRatio: 0.2 });
    expect(bp.subtasks[1]).not.toHaveProperty('busyRatio');
    const labels = `job_id="${A}",job_name="insert-into_b",task_id="v0",task_name="Source: \\"orders\\"",subtask_index="0"`;
    const metrics = (await get(rest, '/metrics')).body;
    expect(metrics).toContain(`flink_taskmanager_job_task_busyTimeMsPerSecond{${labels}} 600\n`);
    expect(metrics).toContain(`flink_taskmanager_job_task_backPressuredTimeMsPerSecond{${labels}} 200\n`);
    expect(metrics).toContain(`flink_taskmanager_job_task_idleTimeMsPerSecond{${labels}} 200\n`);
    expect(metrics).not.toContain('subtask_index="1"} 600');
    // The window is 5 s: a subtask that stopped working reads as idle within it.
    for (let i = 0; i < 6; i++) {
      now += 1000;
      rest.sample();
    }
    expect(body(await get(rest, `/jobs/${A}/vertices/v0/metrics?get=0.busyTimeMsPerSecond,0.idleTimeMsPerSecond`))).toEqual([
      { id: '0.busyTimeMsPerSecond', value: '0' },
      { id: '0.idleTimeMsPerSecond', value: '1000' },
    ]);
  });

  it('shows the session configuration at /jobmanager/config with secret values masked', async () => {
    const rest = new RestHandler(new JobRegistry(), () => ({
      'parallelism.default': '2',
      'properties.sasl.jaas.config': 'org.apache.kafka...PlainLoginModule required password="hunter2";',
      'my.password': 'hunter2',
    }));
    const r = await get(rest, '/jobmanager/config');
    expect(body(r)).toEqual([
      { key: 'my.password', value: '******' },
      { key: 'parallelism.default', value: '2' },
      { key: 'properties.sasl.jaas.config', value: '******' },
    ]);
    expect(r.body).not.toContain('hunter2');
  });

  it('serves Prometheus metrics per task and job, with label values escaped', async () => {
    const { rest, b } = setup();
    b.finish('FINISHED');
    const r = await get(rest, '/metrics');
    expect(r.status).toBe(200);
    expect(r.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(r.body).toContain('# TYPE flink_taskmanager_job_task_numRecordsIn gauge\n');
    // Per subtask, as Flink's reporter writes task metrics; never the vertex's sum beside them, which a sum() would count twice.
    expect(r.body).toContain(`flink_taskmanager_job_task_numRecordsIn{job_id="${A}",job_name="insert-into_b",task_id="v0",task_name="Source: \\"orders\\"",subtask_index="0"} 6\n`);
    expect(r.body).toContain(`flink_taskmanager_job_task_numRecordsIn{job_id="${A}",job_name="insert-into_b",task_id="v0",task_name="Source: \\"orders\\"",subtask_index="1"} 4\n`);
    expect(r.body).not.toContain(`flink_taskmanager_job_task_numRecordsIn{job_id="${A}",job_name="insert-into_b",task_id="v0",task_name="Source: \\"orders\\""} 10\n`);
    expect(r.body).toContain(`flink_taskmanager_job_task_numRecordsOut{job_id="${A}",job_name="insert-into_b",task_id="v1",task_name="Sink"} 7\n`);
    expect(r.body).toContain(`flink_jobmanager_job_numberOfCompletedCheckpoints{job_id="${A}",job_name="insert-into_b"} 3\n`);
    expect(r.body).toContain(`flink_jobmanager_job_numRestarts{job_id="${B}",job_name="second"} 1\n`);
    expect(r.body).toContain(`flink_jobmanager_job_numberOfFailedCheckpoints{job_id="${A}",job_name="insert-into_b"} 1\n`);
    expect(r.body).toContain(`flink_jobmanager_job_lastCheckpointDuration{job_id="${A}",job_name="insert-into_b"} 12\n`);
    expect(r.body).toContain(`flink_jobmanager_job_lastCheckpointSize{job_id="${A}",job_name="insert-into_b"} 2048\n`);
    expect(r.body).toContain(`flink_taskmanager_job_task_currentInputWatermark{job_id="${A}",job_name="insert-into_b",task_id="v0",task_name="Source: \\"orders\\"",subtask_index="0"} 1700000000000\n`);
    expect(r.body).toContain(`flink_taskmanager_job_task_currentInputWatermark{job_id="${A}",job_name="insert-into_b",task_id="v0",task_name="Source: \\"orders\\"",subtask_index="1"} -9223372036854776000\n`);
    expect(r.body).toContain(`flink_taskmanager_job_task_operator_pendingRecords{job_id="${A}",job_name="insert-into_b",task_id="v0",task_name="Source: \\"orders\\"",subtask_index="0"} 1200\n`);
    expect(r.body).not.toContain('subtask_index="1"} 1200');
    expect(r.body).toContain(`flink_taskmanager_job_task_isBackPressured{job_id="${A}",job_name="insert-into_b",task_id="v0",task_name="Source: \\"orders\\"",subtask_index="0"} 1\n`);
    expect(r.body).toContain(`flink_taskmanager_job_task_buffers_outPoolUsage{job_id="${A}",job_name="insert-into_b",task_id="v0",task_name="Source: \\"orders\\"",subtask_index="1"} 0.5\n`);
    expect(r.body).toContain('flink_jobmanager_numRunningJobs 1\n');
  });
});
