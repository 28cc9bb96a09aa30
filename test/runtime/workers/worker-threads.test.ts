// Subtasks on worker threads (`execution.worker-threads`, issue #19): the same queries give the same
// results with and without workers, subtasks really run in workers, and a failing or dying worker fails
// the job into its restart strategy. The workers run the build in dist/ (run `npm run build` first).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../../src/api/table-environment.js';
import type { Row } from '../../../src/types/row.js';

const UDFS = fileURLToPath(new URL('./worker-udfs.mjs', import.meta.url));
const BUILT = existsSync(fileURLToPath(new URL('../../../dist/api/sql-worker-main.js', import.meta.url)));
if (!BUILT && process.env.CI) throw new Error("dist/ is missing; CI must run 'npm run build' before the tests.");

const ROWS = 20_000;
/** Event time: 10 ms per row, so 200 s of event time and 100 rows per event-time second. */
const SOURCE = `CREATE TEMPORARY TABLE nums (id BIGINT, ts AS TO_TIMESTAMP_LTZ(id * 10, 3), WATERMARK FOR ts AS ts) WITH (
  'connector' = 'datagen', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '${ROWS}', 'rows-per-second' = '100000000')`;

const envs: TableEnvironment[] = [];
afterEach(async () => {
  for (const e of envs.splice(0)) await e.close();
});

async function session(settings: Record<string, string>, warnings: string[] = []): Promise<TableEnvironment> {
  const env = TableEnvironment.create({ mode: 'streaming', config: settings });
  env.onWarning((m) => warnings.push(m));
  envs.push(env);
  await env.executeSql(SOURCE);
  await env.executeSql(`CREATE TEMPORARY FUNCTION tid AS '${UDFS}#tid'`);
  await env.executeSql(`CREATE TEMPORARY FUNCTION boom AS '${UDFS}#boom'`);
  await env.executeSql(`CREATE TEMPORARY FUNCTION die AS '${UDFS}#die'`);
  return env;
}

/** The table a changelog materializes to, as sorted row texts (an append-only result is its rows). */
async function materialized(env: TableEnvironment, query: string): Promise<string[]> {
  const counts = new Map<string, number>();
  for await (const r of (await env.executeSql(query)).collect()) {
    const row = r as Row;
    const text = JSON.stringify(row.fields, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
    const by = row.kind === 0 || row.kind === 2 ? 1 : -1;
    counts.set(text, (counts.get(text) ?? 0) + by);
  }
  const out: string[] = [];
  for (const [t, n] of counts) for (let i = 0; i < n; i++) out.push(t);
  expect([...counts.values()].every((n) => n >= 0)).toBe(true);
  return out.sort();
}

const QUERIES: Record<string, string> = {
  projection: 'SELECT id, id * 2 + 1 AS y, CAST(id AS STRING) AS s FROM nums WHERE id % 3 <> 0',
  'keyed GROUP BY with COUNT and SUM': 'SELECT id % 97 AS k, COUNT(*) AS c, SUM(id) AS s FROM nums GROUP BY id % 97',
  'TUMBLE window': `SELECT window_start, window_end, id % 4 AS k, COUNT(*) AS c, SUM(id) AS s
    FROM TABLE(TUMBLE(TABLE nums, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end, id % 4`,
};

describe.skipIf(!BUILT)('execution.worker-threads', () => {
  for (const [name, query] of Object.entries(QUERIES)) {
    it(`${name}: parallelism 2 on the main thread and a worker gives exactly the rows of parallelism 1`, async () => {
      const expected = await materialized(await session({ 'parallelism.default': '1' }), query);
      const warnings: string[] = [];
      const got = await materialized(await session({ 'parallelism.default': '2', 'execution.worker-threads': '2' }, warnings), query);
      expect(warnings).toEqual([]);
      expect(got.length).toBeGreaterThan(0);
      expect(got).toEqual(expected);
    }, 60_000);
  }

  it('runs subtask 0 on the main thread and each other subtask in a worker of its own', async () => {
    const env = await session({ 'parallelism.default': '3', 'execution.worker-threads': '2' });
    const threads = new Set((await materialized(env, 'SELECT DISTINCT tid(id) FROM nums')).map((t) => JSON.parse(t)[0] as number));
    expect(threads.size).toBe(3);
    expect(threads.has(0)).toBe(true);
  }, 60_000);

  it('starts no more workers than the subtasks beyond the main thread\'s need', async () => {
    const env = await session({ 'parallelism.default': '2', 'execution.worker-threads': '4' });
    const threads = new Set((await materialized(env, 'SELECT DISTINCT tid(id) FROM nums')).map((t) => JSON.parse(t)[0] as number));
    expect(threads.size).toBe(2);
    expect(threads.has(0)).toBe(true);
  }, 60_000);

  it('keeps a job at parallelism 1 on the main thread: no worker is started', async () => {
    const env = await session({ 'parallelism.default': '1', 'execution.worker-threads': '2' });
    const threads = new Set((await materialized(env, 'SELECT DISTINCT tid(id) FROM nums')).map((t) => JSON.parse(t)[0] as number));
    expect([...threads]).toEqual([0]);
  }, 60_000);

  it('fails the job into the restart strategy when a subtask in a worker throws', async () => {
    const env = await session({
      'parallelism.default': '2', 'execution.worker-threads': '2',
      'restart-strategy.type': 'fixed-delay', 'restart-strategy.fixed-delay.attempts': '2', 'restart-strategy.fixed-delay.delay': '10 ms',
    });
    const result = await env.executeSql('SELECT boom(id) FROM nums');
    const rows = (async () => {
      for await (const _ of result.collect());
    })();
    await expect(rows).rejects.toThrow(/boom at \d+ on thread [1-9]/);
    expect(result.getJobClient()!.metrics().restarts).toBe(2);
  }, 60_000);

  it('fails the job into the restart strategy when a worker thread dies, and replaces the worker', async () => {
    const env = await session({
      'parallelism.default': '2', 'execution.worker-threads': '2',
      'restart-strategy.type': 'fixed-delay', 'restart-strategy.fixed-delay.attempts': '1', 'restart-strategy.fixed-delay.delay': '10 ms',
    });
    const result = await env.executeSql('SELECT die(id) FROM nums');
    const rows = (async () => {
      for await (const _ of result.collect());
    })();
    await expect(rows).rejects.toThrow(/worker thread \d exited with code 7/);
    expect(result.getJobClient()!.metrics().restarts).toBe(1);
  }, 60_000);

  it('keeps the operator calling a function registered in code on the main thread, and says so', async () => {
    const warnings: string[] = [];
    const env = await session({ 'parallelism.default': '2', 'execution.worker-threads': '2' }, warnings);
    env.createTemporarySystemFunction('plus1', { eval: (x: bigint) => x + 1n, resultType: 'BIGINT', argumentTypes: ['BIGINT'] });
    // The source's vertex calls plus1: both its subtasks run on the main thread, so tid sees thread 0 only.
    const rows = await materialized(env, 'SELECT plus1(id), tid(id) FROM nums WHERE id < 4');
    expect(rows).toEqual(['["2n",0]', '["3n",0]', '["4n",0]']);
    expect(warnings.join('\n')).toMatch(/in job 'collect' these operators run all their subtasks on the main thread: .*PLUS1.*\(function 'plus1' is registered in code without a module\).*CREATE FUNCTION/s);
  }, 60_000);
});

describe.skipIf(!BUILT)('workers between jobs', () => {
  it('hands a finished job\'s workers to the next job of the process instead of starting new ones', async () => {
    const env = await session({ 'parallelism.default': '2' });
    await env.executeSql("SET 'execution.worker-threads' = '2'");
    const threads = async (): Promise<Set<number>> => {
      const result = await env.executeSql('SELECT DISTINCT tid(id) FROM nums');
      const seen = new Set<number>();
      for await (const r of result.collect()) seen.add((r as Row).fields[0] as number);
      // The last row reaches the caller before the job has ended and handed its workers back.
      await result.getJobClient()!.waitForCompletion();
      return seen;
    };
    const first = await threads();
    const second = await threads();
    expect(first.size).toBe(2);
    expect([...second].sort()).toEqual([...first].sort());
  }, 60_000);

  it('cancels every subtask in the workers when the job is canceled', async () => {
    const env = await session({ 'parallelism.default': '2', 'execution.worker-threads': '2' });
    await env.executeSql(`CREATE TEMPORARY TABLE endless (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '1000')`);
    const result = await env.executeSql('SELECT id % 3, COUNT(*) FROM endless GROUP BY id % 3');
    const job = result.getJobClient()!;
    const it = result.collect()[Symbol.asyncIterator]();
    await it.next();
    expect(job.status()).toBe('RUNNING');
    await job.cancel();
    expect(job.status()).toBe('CANCELED');
    expect((await job.waitForCompletion()).status).toBe('CANCELED');
    const counted = job.metrics().vertices.map((v) => v.recordsIn);
    await new Promise((r) => setTimeout(r, 700));
    // Nothing runs on after the cancel: the counters the workers report stand still.
    expect(job.metrics().vertices.map((v) => v.recordsIn)).toEqual(counted);
  }, 60_000);

  it("refuses a bad 'execution.worker-threads' value when it is set, naming the option", async () => {
    const env = await session({});
    await expect(env.executeSql("SET 'execution.worker-threads' = 'many'")).rejects.toThrow(
      "Invalid value 'many' for option 'execution.worker-threads': expected 'off', 'auto' or a number of worker threads from 1 to 1024.",
    );
  });
});
