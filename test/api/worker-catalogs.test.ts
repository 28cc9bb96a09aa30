// Worker threads plan a job against what the main thread's planning resolved, never against a catalog of their own
// (api/job-recording.ts). So every table the main thread can read runs on the workers, however it came to be: a
// table made through the TableEnvironment API, by CREATE TABLE AS SELECT, kept by a file catalog from an earlier run,
// in a catalog registered in code, or built with a format registered in code (whose scan alone stays on the main
// thread). Each job gives the rows of parallelism 1, on both threads, and writes nothing to a persistent catalog.
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Schema, TableDescriptor } from '../../src/api/table-descriptor.js';
import { TableEnvironment } from '../../src/api/table-environment.js';
import { InMemoryCatalog } from '../../src/catalog/in-memory-catalog.js';
import type { CatalogFactory } from '../../src/factories/catalog-factory.js';
import type { DecodingFormatFactory, EncodingFormatFactory } from '../../src/factories/format.js';
import { CsvFormatFactory } from '../../src/formats/csv/csv-format-factory.js';
import { Row } from '../../src/types/row.js';
import { RowKind } from '../../src/types/row-kind.js';

const UDFS = fileURLToPath(new URL('../runtime/workers/worker-udfs.mjs', import.meta.url));
const BUILT = existsSync(fileURLToPath(new URL('../../dist/api/sql-worker-main.js', import.meta.url)));
if (!BUILT && process.env.CI) throw new Error("dist/ is missing; CI must run 'npm run build' before the tests.");

const ROWS = 10_000;
const PARALLEL = { 'parallelism.default': '2', 'execution.worker-threads': '2' };
const SERIAL = { 'parallelism.default': '1' };
const NUMS_OPTIONS = `'connector' = 'datagen', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '${ROWS}', 'rows-per-second' = '100000000'`;
/** Per key of MOD(id, 10), the count and the sum of ids, and the thread of the aggregate's subtask. */
const GROUPS = (table: string): string => `SELECT k, c, s, tid(k) FROM (SELECT MOD(id, 10) AS k, COUNT(*) AS c, SUM(id) AS s FROM ${table} GROUP BY MOD(id, 10))`;
const expectedGroups = Array.from({ length: 10 }, (_, k) => {
  let s = 0;
  for (let id = k === 0 ? 10 : k; id <= ROWS; id += 10) s += id;
  return `${k} ${ROWS / 10} ${s}`;
}).sort();

const envs: TableEnvironment[] = [];
afterEach(async () => {
  for (const e of envs.splice(0)) await e.close();
});

async function session(settings: Record<string, string>, warnings: string[], catalog?: { name: string; catalog: InMemoryCatalog }): Promise<TableEnvironment> {
  const env = TableEnvironment.create({ mode: 'streaming', config: settings, ...(catalog ? { catalog } : {}) });
  env.onWarning((m) => warnings.push(m));
  envs.push(env);
  await env.executeSql(`CREATE TEMPORARY FUNCTION tid AS '${UDFS}#tid'`);
  return env;
}

/** The final rows of a changelog as `k c s`, and the threads that computed them. */
async function groups(env: TableEnvironment, query: string): Promise<{ rows: string[]; threads: Set<number> }> {
  const live = new Map<string, number>();
  for await (const r of (await env.executeSql(query)).collect()) {
    const row = r as Row;
    const text = row.fields.map(String).join(' ');
    live.set(text, (live.get(text) ?? 0) + (row.kind === RowKind.INSERT || row.kind === RowKind.UPDATE_AFTER ? 1 : -1));
  }
  const finals = [...live].filter(([, n]) => n > 0).map(([t]) => t.split(' '));
  return { rows: finals.map((f) => f.slice(0, 3).join(' ')).sort(), threads: new Set(finals.map((f) => Number(f[3]))) };
}

/** Runs `query` after `setup` at parallelism 2 on workers: the rows of parallelism 1, from both threads, no warning. */
async function expectOnWorkers(setup: (env: TableEnvironment) => Promise<void>, query: string, expected = expectedGroups): Promise<void> {
  const one = await session(SERIAL, []);
  await setup(one);
  expect((await groups(one, query)).rows).toEqual(expected);
  const warnings: string[] = [];
  const two = await session(PARALLEL, warnings);
  await setup(two);
  const { rows, threads } = await groups(two, query);
  expect(rows).toEqual(expected);
  expect(threads.size).toBe(2);
  expect(warnings).toEqual([]);
}

/** The files under `dir` with their contents and modification times. */
function snapshot(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(`${p} ${statSync(p).mtimeMs} ${readFileSync(p, 'utf8')}`);
    }
  };
  walk(dir);
  return out.sort();
}

describe.skipIf(!BUILT)('worker threads plan against what the main thread resolved', () => {
  it('runs a table made through the TableEnvironment API on the workers', async () => {
    await expectOnWorkers(async (env) => {
      const descriptor = TableDescriptor.forConnector('datagen')
        .schema(Schema.newBuilder().column('id', 'BIGINT').build())
        .option('fields.id.kind', 'sequence')
        .option('fields.id.start', '1')
        .option('fields.id.end', String(ROWS))
        .build();
      await env.createTemporaryTable('api_nums', descriptor);
    }, GROUPS('api_nums'));
  }, 60_000);

  it('runs a table a file catalog kept from an earlier run on the workers, and writes nothing to the catalog', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-worker-file-catalog-'));
    const earlier = await session(SERIAL, []);
    await earlier.executeSql(`CREATE CATALOG fc WITH ('type' = 'file', 'path' = '${dir}')`);
    await earlier.executeSql(`CREATE TABLE fc.default_database.kept (id BIGINT) WITH (${NUMS_OPTIONS})`);
    await earlier.executeSql(`CREATE VIEW fc.default_database.kept_view AS SELECT id FROM fc.default_database.kept WHERE id > 0`);
    const before = snapshot(dir);
    await expectOnWorkers(async (env) => {
      await env.executeSql(`CREATE CATALOG fc WITH ('type' = 'file', 'path' = '${dir}')`);
      await env.executeSql('USE CATALOG fc');
    }, GROUPS('kept_view'));
    expect(snapshot(dir)).toEqual(before);
  }, 60_000);

  it('runs a table made in this session in a file catalog on the workers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-worker-file-catalog-'));
    await expectOnWorkers(async (env) => {
      await env.executeSql(`CREATE CATALOG fc WITH ('type' = 'file', 'path' = '${dir}')`);
      await env.executeSql('USE CATALOG fc');
      await env.executeSql(`CREATE TABLE IF NOT EXISTS made (id BIGINT) WITH (${NUMS_OPTIONS})`);
    }, GROUPS('made'));
  }, 60_000);

  it('runs a table of a catalog registered in code, or given to the session, on the workers', async () => {
    const memory: CatalogFactory = {
      factoryIdentifier: 'code-memory',
      requiredOptions: () => [],
      optionalOptions: () => [],
      createCatalog: (ctx) => new InMemoryCatalog(ctx.name),
    };
    await expectOnWorkers(async (env) => {
      env.registerFactory(memory);
      await env.executeSql(`CREATE CATALOG mc WITH ('type' = 'code-memory')`);
      await env.executeSql(`CREATE TABLE mc.default_database.nums (id BIGINT) WITH (${NUMS_OPTIONS})`);
    }, GROUPS('mc.default_database.nums'));

    // A catalog object made before the session, holding a table no statement of the session created.
    const given = new InMemoryCatalog('given');
    const setup = await session(SERIAL, []);
    await setup.executeSql(`CREATE TABLE nums (id BIGINT) WITH (${NUMS_OPTIONS})`);
    const table = (await setup.session.catalogs.resolveTable(['nums'])).table;
    await given.createTable({ database: 'default_database', object: 'nums' }, table, false);
    const warnings: string[] = [];
    const env = await session(PARALLEL, warnings, { name: 'given', catalog: given });
    const { rows, threads } = await groups(env, GROUPS('nums'));
    expect(rows).toEqual(expectedGroups);
    expect(threads.size).toBe(2);
    expect(warnings).toEqual([]);
  }, 60_000);

  it('runs a job reading the table of a CREATE TABLE AS SELECT on the workers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-worker-ctas-'));
    let sessions = 0;
    const setup = async (env: TableEnvironment): Promise<void> => {
      await env.executeSql(`CREATE TEMPORARY TABLE nums (id BIGINT) WITH (${NUMS_OPTIONS})`);
      const out = join(dir, String(sessions++));
      await (await env.executeSql(`CREATE TABLE copied WITH ('connector' = 'filesystem', 'path' = '${out}', 'format' = 'csv') AS SELECT id FROM nums`)).await();
    };
    await expectOnWorkers(setup, GROUPS('copied'));
  }, 60_000);

  it('keeps only the scan built with a format registered in code on the main thread', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-worker-code-format-'));
    writeFileSync(join(dir, 'part-0.csv'), Array.from({ length: ROWS }, (_, i) => `${i + 1}\n`).join(''));
    const csv = new CsvFormatFactory();
    const codeCsv: DecodingFormatFactory & EncodingFormatFactory = {
      factoryIdentifier: 'code-csv',
      requiredOptions: () => csv.requiredOptions(),
      optionalOptions: () => csv.optionalOptions(),
      createDecodingFormat: (ctx, options) => csv.createDecodingFormat(ctx, options),
      createEncodingFormat: (ctx, options) => csv.createEncodingFormat(ctx, options),
    };
    const ddl = `CREATE TEMPORARY TABLE coded (id BIGINT) WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'code-csv')`;
    const one = await session(SERIAL, []);
    one.registerFactory(codeCsv);
    await one.executeSql(ddl);
    expect((await groups(one, GROUPS('coded'))).rows).toEqual(expectedGroups);
    const warnings: string[] = [];
    const two = await session(PARALLEL, warnings);
    two.registerFactory(codeCsv);
    await two.executeSql(ddl);
    const { rows, threads } = await groups(two, GROUPS('coded'));
    expect(rows).toEqual(expectedGroups);
    expect(threads.size).toBe(2);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /run all their subtasks on the main thread: TableSourceScan\(table=\[\[default_catalog, default_database, coded\]\], fields=\[id\]\) \(format 'code-csv' is registered in code without a module\)\. The rest of the job runs on worker threads\./,
    );
  }, 60_000);
});

describe.skipIf(!BUILT)('a format registered in code, in a job that loads a lazy factory on the workers', () => {
  it('plans again after loading the factory, with the same stand-in for the scan', async () => {
    // The worker's first attempt meets the arrow format not yet loaded, loads it and plans again from the start.
    const dir = mkdtempSync(join(tmpdir(), 'sluice-worker-code-format-'));
    const out = mkdtempSync(join(tmpdir(), 'sluice-worker-arrow-'));
    writeFileSync(join(dir, 'part-0.csv'), Array.from({ length: ROWS }, (_, i) => `${i + 1}\n`).join(''));
    const csv = new CsvFormatFactory();
    const codeCsv: DecodingFormatFactory = {
      factoryIdentifier: 'code-csv',
      requiredOptions: () => csv.requiredOptions(),
      optionalOptions: () => csv.optionalOptions(),
      createDecodingFormat: (ctx, options) => csv.createDecodingFormat(ctx, options),
    };
    const warnings: string[] = [];
    const env = await session(PARALLEL, warnings);
    env.registerFactory(codeCsv);
    // Batch: the aggregate's final rows only, which an arrow file sink takes.
    await env.executeSql("SET 'execution.runtime-mode' = 'batch'");
    await env.executeSql(`CREATE TEMPORARY TABLE coded (id BIGINT) WITH ('connector' = 'filesystem', 'path' = '${dir}', 'format' = 'code-csv')`);
    await env.executeSql(`CREATE TEMPORARY TABLE arrows (k BIGINT, c BIGINT, s BIGINT) WITH ('connector' = 'filesystem', 'path' = '${out}', 'format' = 'arrow')`);
    await (await env.executeSql('INSERT INTO arrows SELECT MOD(id, 10), COUNT(*), SUM(id) FROM coded GROUP BY MOD(id, 10)')).await();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/run all their subtasks on the main thread: TableSourceScan\(table=\[\[default_catalog, default_database, coded\]\], fields=\[id\]\) \(format 'code-csv' is registered in code without a module\)\. The rest of the job runs on worker threads\./);
    const read = await session(SERIAL, []);
    await read.executeSql(`CREATE TEMPORARY TABLE arrows (k BIGINT, c BIGINT, s BIGINT) WITH ('connector' = 'filesystem', 'path' = '${out}', 'format' = 'arrow')`);
    const rows: string[] = [];
    for await (const r of (await read.executeSql('SELECT k, SUM(c), SUM(s) FROM arrows GROUP BY k')).collect()) if (r.kind !== RowKind.UPDATE_BEFORE) rows.push(r.fields.map(String).join(' '));
    const finals = new Map(rows.map((r) => [r.split(' ')[0], r]));
    expect([...finals.values()].sort()).toEqual(expectedGroups);
  }, 60_000);
});

describe.skipIf(!BUILT)('a materialized table on worker threads', () => {
  it("runs its refresh job on the workers and commits every row of the query once", async () => {
    const out = mkdtempSync(join(tmpdir(), 'sluice-worker-mt-'));
    const warnings: string[] = [];
    const env = await session(PARALLEL, warnings);
    await env.executeSql(`CREATE TABLE nums (id BIGINT) WITH (${NUMS_OPTIONS})`);
    const created = await env.executeSql(`CREATE MATERIALIZED TABLE mt WITH ('connector' = 'filesystem', 'path' = '${out}', 'format' = 'csv')
      FRESHNESS = INTERVAL '1' SECOND AS SELECT id, id * 2 AS twice FROM nums`);
    await created.getJobClient()!.waitForCompletion();
    const lines = readdirSync(out, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && !e.name.startsWith('.'))
      .flatMap((e) => readFileSync(join(e.parentPath, e.name), 'utf8').split('\n').filter((l) => l !== ''));
    expect(lines.sort()).toEqual(Array.from({ length: ROWS }, (_, i) => `${i + 1},${2 * (i + 1)}`).sort());
    expect(warnings).toEqual([]);
  }, 60_000);
});
