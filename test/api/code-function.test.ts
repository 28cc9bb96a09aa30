// Functions registered in code on worker threads (issue #19 item 4): a closure cannot cross threads, so the
// operators calling it stay on the main thread while the rest of the job runs on workers; with a module a
// worker imports the same function and nothing stays behind. The workers run the build in dist/.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isMainThread } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { TableEnvironment } from '../../src/api/table-environment.js';
import { buildTaskGraph } from '../../src/runtime/chaining.js';
import { MAIN_THREAD, threadOf } from '../../src/runtime/workers/placement.js';
import type { Row } from '../../src/types/row.js';
import { parseStatement } from '../../src/sql/parse.js';
import { onMain, unusedFactory } from '../runtime/workers/worker-udfs.mjs';

const UDFS = fileURLToPath(new URL('../runtime/workers/worker-udfs.mjs', import.meta.url));
const BUILT = existsSync(fileURLToPath(new URL('../../dist/api/sql-worker-main.js', import.meta.url)));
if (!BUILT && process.env.CI) throw new Error("dist/ is missing; CI must run 'npm run build' before the tests.");

const ROWS = 20_000;
const SOURCE = `CREATE TEMPORARY TABLE nums (id BIGINT) WITH (
  'connector' = 'datagen', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '${ROWS}', 'rows-per-second' = '100000000')`;
const PARALLEL = { 'parallelism.default': '2', 'execution.worker-threads': '2' };

const envs: TableEnvironment[] = [];
afterEach(async () => {
  for (const e of envs.splice(0)) await e.close();
});

/** Which threads called `plus1`: true for the main thread. */
let plus1Threads = new Set<boolean>();

async function session(settings: Record<string, string>, warnings: string[] = []): Promise<TableEnvironment> {
  const env = TableEnvironment.create({ mode: 'streaming', config: settings });
  env.onWarning((m) => warnings.push(m));
  envs.push(env);
  await env.executeSql(SOURCE);
  await env.executeSql(`CREATE TEMPORARY FUNCTION tid AS '${UDFS}#tid'`);
  plus1Threads = new Set();
  env.createTemporarySystemFunction('plus1', {
    eval: (x: bigint) => {
      plus1Threads.add(isMainThread);
      return x + 1n;
    },
    resultType: 'BIGINT',
    argumentTypes: ['BIGINT'],
  });
  return env;
}

/** The table a changelog materializes to, as sorted row texts. */
async function materialized(env: TableEnvironment, query: string): Promise<string[]> {
  const counts = new Map<string, number>();
  for await (const r of (await env.executeSql(query)).collect()) {
    const row = r as Row;
    const text = JSON.stringify(row.fields, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
    counts.set(text, (counts.get(text) ?? 0) + (row.kind === 0 || row.kind === 2 ? 1 : -1));
  }
  const out: string[] = [];
  for (const [t, n] of counts) for (let i = 0; i < n; i++) out.push(t);
  return out.sort();
}

/** The job graph of `query` as the main thread plans it, chained into tasks. */
async function tasksOf(env: TableEnvironment, query: string) {
  const stmt = parseStatement(query);
  if (stmt.kind !== 'query') throw new Error('a query');
  const planned = await env.planner.planQuery(stmt.query);
  return buildTaskGraph(planned.toJobGraph({ push: () => undefined, end: () => undefined }, 'q')).tasks;
}

const AFTER_EXCHANGE = 'SELECT k, plus1(c) AS c1 FROM (SELECT id % 97 AS k, COUNT(*) AS c FROM nums GROUP BY id % 97)';
const BEFORE_EXCHANGE = 'SELECT k, COUNT(*) AS c FROM (SELECT plus1(id) % 13 AS k FROM nums) GROUP BY k';

describe('a function registered in code, planned', () => {
  it('pins exactly the vertex whose operator calls it, naming the function', async () => {
    const env = await session(PARALLEL);
    const tasks = await tasksOf(env, AFTER_EXCHANGE);
    const pinned = tasks.filter((t) => t.mainThread !== undefined);
    expect(pinned.map((t) => [t.parallelism, t.mainThread])).toEqual([
      [2, "Calc(select=[$f0 AS k, PLUS1(c) AS c1]) (function 'plus1' is registered in code without a module)"],
      [1, 'it hands the rows to the caller'],
    ]);
    expect(pinned[0]!.name).toMatch(/^GroupAggregate/);
    const source = tasks.find((t) => t.source !== undefined)!;
    expect(source.mainThread).toBeUndefined();
    expect([0, 1].map((i) => threadOf(source, i, 1))).toEqual([MAIN_THREAD, 0]);
    expect([0, 1].map((i) => threadOf(pinned[0]!, i, 1))).toEqual([MAIN_THREAD, MAIN_THREAD]);
  });

  it('pins nothing for a function given a module, nor for one the query does not call', async () => {
    const env = await session(PARALLEL);
    env.createTemporarySystemFunction('onmain', onMain, { module: `${pathToFileURL(UDFS).href}#onMain` });
    expect((await tasksOf(env, 'SELECT onmain(id) FROM nums')).filter((t) => t.mainThread !== undefined && t.parallelism > 1)).toEqual([]);
    expect((await tasksOf(env, 'SELECT tid(id) FROM nums')).filter((t) => t.mainThread !== undefined && t.parallelism > 1)).toEqual([]);
  });

  it('refuses a module that names no module', async () => {
    const env = await session(PARALLEL);
    expect(() => env.createTemporarySystemFunction('bad', onMain, { module: '' })).toThrow(/module must name a module and its export, as 'file.js#export'/);
    expect(() => env.createTemporarySystemFunction('bad', onMain, { module: 'x.js#' })).toThrow(/module must name/);
  });
});

describe.skipIf(!BUILT)('a function registered in code, on worker threads', () => {
  for (const [where, query, operator] of [
    ['after an exchange', AFTER_EXCHANGE, 'Calc(select=[$f0 AS k, PLUS1(c) AS c1])'],
    ['before an exchange', BEFORE_EXCHANGE, 'Calc(select=[MOD(PLUS1(id), 13) AS k])'],
  ] as const) {
    it(`${where}: parallelism 2 on workers gives exactly the rows of parallelism 1, calling the function on the main thread only`, async () => {
      const expected = await materialized(await session({ 'parallelism.default': '1' }), query);
      expect(expected.length).toBe(where === 'after an exchange' ? 97 : 13);
      const warnings: string[] = [];
      const got = await materialized(await session(PARALLEL, warnings), query);
      expect(got).toEqual(expected);
      expect([...plus1Threads]).toEqual([true]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toBe(
        "'execution.worker-threads' is on, but in job 'collect' these operators run all their subtasks on the main thread: " +
          `${operator} (function 'plus1' is registered in code without a module). The rest of the job runs on worker threads. ` +
          "To run them on worker threads, give such a function or connector a module a worker can import: createTemporarySystemFunction(name, fn, { module: 'file.js#export' }) " +
          "or CREATE FUNCTION name AS 'file.js#export' for a function, registerFactory(factory, { module: 'file.js#export' }) for a connector.",
      );
      expect(warnings[0]).not.toMatch(/Error/);
    }, 60_000);
  }

  it('an aggregate function with merge in a TUMBLE window: its stand-in in a worker plans the same two phases', async () => {
    const withTotal = async (settings: Record<string, string>, warnings: string[] = []) => {
      const env = await session(settings, warnings);
      await env.executeSql(`CREATE TEMPORARY TABLE timed (id BIGINT, ts AS TO_TIMESTAMP_LTZ(id * 10, 3), WATERMARK FOR ts AS ts) WITH (
        'connector' = 'datagen', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '${ROWS}', 'rows-per-second' = '100000000')`);
      env.createTemporarySystemFunction('total', {
        createAccumulator: () => ({ n: 0n }),
        accumulate: (acc: { n: bigint }, x: bigint) => void (acc.n += x),
        merge: (acc: { n: bigint }, other: { n: bigint }) => void (acc.n += other.n),
        getValue: (acc: { n: bigint }) => acc.n,
        resultType: 'BIGINT',
      });
      return env;
    };
    const query = `SELECT window_start, id % 4 AS k, total(id) AS t FROM TABLE(TUMBLE(TABLE timed, DESCRIPTOR(ts), INTERVAL '10' SECOND))
      GROUP BY window_start, window_end, id % 4`;
    const expected = await materialized(await withTotal({ 'parallelism.default': '1' }), query);
    expect(expected.length).toBe(81);
    const warnings: string[] = [];
    expect(await materialized(await withTotal(PARALLEL, warnings), query)).toEqual(expected);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/these operators run all their subtasks on the main thread: .*TOTAL\(id\).*\(function 'total' is registered in code without a module\)/);
  }, 60_000);

  it('runs the vertices that do not call it in a worker', async () => {
    const env = await session(PARALLEL);
    // tid (CREATE FUNCTION) runs in the source's vertex, plus1 after the exchange on the main thread.
    const rows = await materialized(env, 'SELECT t, plus1(c) FROM (SELECT tid(id) AS t, COUNT(*) AS c FROM nums GROUP BY tid(id))');
    const threads = rows.map((r) => JSON.parse(r)[0] as number);
    expect(threads).toHaveLength(2);
    expect(threads).toContain(0);
    expect(threads.some((t) => t !== 0)).toBe(true);
    expect([...plus1Threads]).toEqual([true]);
  }, 60_000);

  it('runs a function registered with a module in the workers too, without a warning', async () => {
    const warnings: string[] = [];
    const env = await session(PARALLEL, warnings);
    env.createTemporarySystemFunction('onmain', onMain, { module: `${pathToFileURL(UDFS).href}#onMain` });
    expect(await materialized(env, 'SELECT DISTINCT onmain(id) FROM nums')).toEqual(['[0]', '[1]']);
    expect(warnings).toEqual([]);
  }, 60_000);

  it('names the functions a worker cannot fold when one is called with constant arguments', async () => {
    const warnings: string[] = [];
    const env = await session(PARALLEL, warnings);
    const rows = await materialized(env, 'SELECT plus1(1) AS two, COUNT(*) AS c FROM nums');
    expect(rows).toEqual([`["2n","${ROWS}n"]`]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/runs on the main thread: a worker thread could not build the job \(functions registered in code without a module \('plus1'\) are called with constant arguments/);
  }, 60_000);
});

describe.skipIf(!BUILT)('a factory registered in code, on worker threads', () => {
  it('keeps nothing on the main thread without a module when the job builds nothing with it', async () => {
    const warnings: string[] = [];
    const env = await session(PARALLEL, warnings);
    env.registerFactory(unusedFactory);
    const threads = (await materialized(env, 'SELECT DISTINCT tid(id) FROM nums')).map((r) => JSON.parse(r)[0] as number);
    expect(threads).toHaveLength(2);
    expect(warnings).toEqual([]);
  }, 60_000);

  it('has the workers import it from its module', async () => {
    const warnings: string[] = [];
    const env = await session(PARALLEL, warnings);
    env.registerFactory(unusedFactory, { module: `${pathToFileURL(UDFS).href}#unusedFactory` });
    const threads = (await materialized(env, 'SELECT DISTINCT tid(id) FROM nums')).map((r) => JSON.parse(r)[0] as number);
    expect(threads).toHaveLength(2);
    expect(warnings).toEqual([]);
  }, 60_000);

  it('says so when the module has no factory there', async () => {
    const warnings: string[] = [];
    const env = await session(PARALLEL, warnings);
    env.registerFactory(unusedFactory, { module: `${pathToFileURL(UDFS).href}#tid` });
    expect(await materialized(env, 'SELECT DISTINCT tid(id) FROM nums')).toEqual(['[0]']);
    expect(warnings.join('\n')).toMatch(/could not build the job \(Export 'tid' of module '.*worker-udfs\.mjs' is not a factory/);
  }, 60_000);
});

